#!/usr/bin/env bash
# Makes a Docker engine answer and builds the bot images the arena needs.
# If no engine answers and we are root, starts dockerd in the background
# (vfs storage driver, no iptables, no bridge: containers get network "none"
# only). Idempotent: does nothing but a quick check when all is in place.
# Without docker or root it says so and exits 0: the docker level is then
# unavailable and its tests are skipped with that reason.
set -uo pipefail
cd "$(dirname "$0")/.."

if ! command -v docker >/dev/null 2>&1 || ! command -v dockerd >/dev/null 2>&1; then
  echo "docker.sh: docker is not installed; the docker sandbox level is unavailable" >&2
  exit 0
fi

if ! docker info >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    echo "docker.sh: no Docker engine answers and we are not root to start one" >&2
    exit 0
  fi
  log="${TMPDIR:-/tmp}/arena-dockerd.log"
  echo "docker.sh: starting dockerd (log: $log)"
  nohup dockerd --storage-driver=vfs --iptables=false --ip6tables=false --bridge=none \
    >"$log" 2>&1 &
  for _ in $(seq 1 60); do
    docker info >/dev/null 2>&1 && break
    sleep 1
  done
  if ! docker info >/dev/null 2>&1; then
    echo "docker.sh: dockerd did not come up within 60 s; see $log" >&2
    exit 0
  fi
fi

.venv/bin/arena sandbox build-images
