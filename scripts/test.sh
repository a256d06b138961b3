#!/usr/bin/env bash
# Sets up, then runs every test (slow, bwrap and docker ones included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/docker.sh   # a Docker engine and the bot images, when this machine can
bash scripts/cpp.sh      # the C++ sample bot and its toolchain
bash scripts/go.sh       # the Go sample bot and its toolchain
bash scripts/stubs.sh    # Ruby and Java gRPC tools, for the stub commands of docs/protocol.md
.venv/bin/python -m pytest "$@"
