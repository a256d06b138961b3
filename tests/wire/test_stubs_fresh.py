"""The committed stubs in arena/wire/gen are exactly what scripts/gen_proto.sh makes now."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GEN = Path("arena/wire/gen/arena/v1")


def test_committed_stubs_match_a_fresh_generation(tmp_path: Path) -> None:
    subprocess.run(
        ["bash", str(ROOT / "scripts/gen_proto.sh"), str(tmp_path)],
        check=True, env={**os.environ, "PYTHON": sys.executable},
    )
    names = sorted(p.name for p in (tmp_path / GEN).iterdir())
    assert names == ["__init__.py", "arena_pb2.py", "arena_pb2.pyi", "arena_pb2_grpc.py"]
    for name in names:
        fresh = (tmp_path / GEN / name).read_bytes()
        committed = (ROOT / GEN / name).read_bytes()
        assert fresh == committed, f"{GEN / name} is stale: run scripts/gen_proto.sh and commit"


def test_generated_modules_import_under_the_package_path() -> None:
    from arena.wire.gen.arena.v1 import arena_pb2, arena_pb2_grpc

    assert arena_pb2.RefereeMessage.DESCRIPTOR.full_name == "arena.v1.RefereeMessage"
    assert hasattr(arena_pb2_grpc, "RefereeServicer")
