#!/usr/bin/env bash
# Sets up everything the arena needs on a fresh Debian machine, idempotently:
# system packages (when run as root), the Python virtualenv, the JavaScript
# sample bot's node_modules. Safe to run again; does little the second time.
set -euo pipefail
cd "$(dirname "$0")/.."

need_pkgs=()
command -v bwrap >/dev/null 2>&1 || need_pkgs+=(bubblewrap)
command -v dockerd >/dev/null 2>&1 || need_pkgs+=(docker.io)
command -v debootstrap >/dev/null 2>&1 || need_pkgs+=(debootstrap)
# The stdio sample bot (sample_bots/jq) and the arena-shell image: jq, sh, awk.
command -v jq >/dev/null 2>&1 || need_pkgs+=(jq)
command -v dash >/dev/null 2>&1 || need_pkgs+=(dash)
command -v mawk >/dev/null 2>&1 || need_pkgs+=(mawk)
. scripts/apt_install.sh
# Not root: the stronger sandboxes are unavailable (said), the rest works.
apt_install setup "stronger sandboxes (and the jq sample bot) will be unavailable" ${need_pkgs[@]+"${need_pkgs[@]}"} \
  || [ $? = 1 ]
# Debian's chromium for the browser tests (Playwright drives it; it downloads no browser).
if ! command -v chromium >/dev/null 2>&1; then
  apt_install setup "the browser tests will be skipped" chromium || [ $? = 1 ]
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
if [ ! -f .venv/.installed ] || [ pyproject.toml -nt .venv/.installed ]; then
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q -e '.[all,dev]'   # every extra: the project's own commands and tests use them all
  touch .venv/.installed
fi

if [ -f sample_bots/javascript/package.json ] && command -v npm >/dev/null 2>&1; then
  if [ ! -d sample_bots/javascript/node_modules ] || [ sample_bots/javascript/package.json -nt sample_bots/javascript/node_modules ]; then
    (cd sample_bots/javascript && npm ci --silent --no-audit --no-fund)
  fi
fi
