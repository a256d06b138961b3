#!/usr/bin/env bash
# Sets up, then runs every test (slow, bwrap and docker ones included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/docker.sh   # a Docker engine and the bot images, when this machine can
bash scripts/cpp.sh      # the C++ sample bot and its toolchain
bash scripts/go.sh       # the Go sample bot and its toolchain
bash scripts/stubs.sh    # Ruby and Java gRPC tools, for the stub commands of docs/protocol.md
# With arguments: pytest as given (one file, -k, -m unit, ...). Without: the
# whole suite on several workers (pytest-xdist; the `serial` tests on one of
# them, in turn), the slowest tests listed at the end (docs/testing.md).
if [ $# -gt 0 ]; then
  exec .venv/bin/python -m pytest "$@"
fi
exec .venv/bin/python -m pytest -n "${ARENA_TEST_WORKERS:-3}" --dist loadgroup --durations=30
