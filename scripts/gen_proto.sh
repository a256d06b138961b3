#!/usr/bin/env bash
# Regenerates the committed Python stubs of the bot protocol.
#
#   bash scripts/gen_proto.sh [OUT_DIR]     (default: the repository root)
#
# The .proto lives in protocol/arena/v1/; it is mapped onto the virtual path
# arena/wire/gen/arena/v1/ (protoc's `-I virtual=disk` form), so the
# generated modules are `arena.wire.gen.arena.v1.arena_pb2` / `_pb2_grpc`
# and their imports work without editing generated code. Uses the pinned
# grpcio-tools of pyproject.toml: tests/wire/test_stubs_fresh.py regenerates
# into a temporary folder and compares byte for byte.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root}"
py="${PYTHON:-$root/.venv/bin/python}"
[ -x "$py" ] || py=python3
cd "$root"
mkdir -p "$out/arena/wire/gen/arena/v1"
"$py" -m grpc_tools.protoc \
  -Iarena/wire/gen=protocol \
  --python_out="$out" --grpc_python_out="$out" --pyi_out="$out" \
  arena/wire/gen/arena/v1/arena.proto
for d in arena/wire/gen arena/wire/gen/arena arena/wire/gen/arena/v1; do
  [ -f "$out/$d/__init__.py" ] || : > "$out/$d/__init__.py"
done
# The JavaScript, C++ and Go sample bots carry their own copy of the .proto (they
# must run from a snapshot of their folder); keep them identical when
# regenerating in place.
if [ "$out" = "$root" ]; then
  for copy in sample_bots/javascript/arena.proto sample_bots/cpp/proto/arena/v1/arena.proto \
              sample_bots/go/proto/arena/v1/arena.proto; do
    if [ -d "$(dirname "$root/$copy")" ]; then
      cp "$root/protocol/arena/v1/arena.proto" "$root/$copy"
    fi
  done
fi
