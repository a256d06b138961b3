#!/usr/bin/env bash
# Makes a Docker engine answer and builds the bot images the arena needs.
# If no engine answers and we are root, starts dockerd in the background
# (vfs storage driver, no iptables, no bridge: containers get network "none"
# only). Idempotent: does nothing but a quick check when all is in place.
# Without docker or root it says so and exits 0: the docker level is then
# unavailable and its tests are skipped with that reason.
set -uo pipefail
cd "$(dirname "$0")/.."

# Under CI the docker level must really run: a missing engine is a failure there,
# not a reason to skip its tests.
unavailable() {
  echo "docker.sh: $1" >&2
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 0
}

if ! command -v docker >/dev/null 2>&1 || ! command -v dockerd >/dev/null 2>&1; then
  unavailable "docker is not installed; the docker sandbox level is unavailable"
fi

if ! docker info >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    unavailable "no Docker engine answers and we are not root to start one"
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
    unavailable "dockerd did not come up within 60 s; see $log"
  fi
fi

.venv/bin/arena sandbox build-images || unavailable "building the bot images failed"
