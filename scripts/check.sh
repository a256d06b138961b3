#!/usr/bin/env bash
# The fast checks (`make check`, docs/testing.md): ruff, mypy --strict and the
# unit tier (in-process tests: no bot processes, sockets, containers or
# browsers) on two workers. Sets up the virtualenv first if needed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/pytest ] && [ -f .venv/.installed ] && [ ! pyproject.toml -nt .venv/.installed ] \
  || bash scripts/setup.sh
.venv/bin/ruff check arena tests benchmarks sample_bots
.venv/bin/mypy --strict arena
exec .venv/bin/python -m pytest -q -m unit -n "${ARENA_TEST_WORKERS:-2}" "$@"
