#!/usr/bin/env bash
# The README's first command: set everything up, run the sample tournament
# (local process pool, SQLite store) and publish its leaderboard.
# Running it again resumes: finished matches are kept, nothing is played twice.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The strongest sandbox for the bots (sandbox = "auto"): a Docker engine and
# the bot images when this machine can have them; says why not and goes on
# (with bwrap or plain processes) when it cannot.
bash scripts/docker.sh
.venv/bin/arena tournament run tournaments/sample "$@"
.venv/bin/arena leaderboard publish tournaments/sample --out leaderboards/sample
cat leaderboards/sample/leaderboard.md
echo "leaderboard: leaderboards/sample/leaderboard.md (also .json, .csv, index.html)"
