"""`arena verify` of a 60-match tournament against re-playing the same
replays with the engine alone, the baseline, in the same run.

    .venv/bin/python benchmarks/verify.py [--tournament DIR] [--rounds 3] [--keep DIR]

Without `--tournament`, a fresh equivalent of tournaments/sample is played
first (its store is not committed): five fast bots (greedy and four random
ones) at the process level, all 10 triples in 6 seat orders = 60 matches,
the sample's rules (standard, target 500), then published. With
`--tournament DIR` (say tournaments/sample once `scripts/tournament.sh` has
run it) that tournament is published into a temporary folder instead.

Each round times, in this process:

  - baseline: every replay of the bundle read and re-played by the engine
    (replay.read_replay + replay_game), nothing compared;
  - verify: arena.verify.run.lines over the bundle, every check;

and once, `arena verify BUNDLE` as a child process (wall time, what a
reader waits for, interpreter start and imports included). CPU time of
this process for the rounds (the machine is shared; CPU moves less than
wall time). Nothing is asserted about speed.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from arena.referee.replay import read_replay, replay_game  # noqa: E402
from arena.tournament.results import bundle_format as fmt  # noqa: E402
from arena.verify.run import lines  # noqa: E402

ARENA = [str(Path(sys.executable).with_name("arena"))]


def _arena(*args: object) -> str:
    done = subprocess.run([*ARENA, *map(str, args)], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"arena {' '.join(map(str, args))} failed:\n{done.stderr[-2000:]}{done.stdout[-2000:]}")
    return done.stdout


def fresh_tournament(base: Path) -> Path:
    """Five fast bots, the sample's settings, at the process level."""
    bots = [ROOT / "sample_bots" / "greedy", ROOT / "sample_bots" / "random",
            ROOT / "tournaments" / "sample" / "random_b"]
    for name in ("random_c", "random_d"):
        copy = base / name
        shutil.copytree(ROOT / "tournaments" / "sample" / "random_b", copy)
        (copy / "bot.toml").write_text((copy / "bot.toml").read_text().replace(
            '"random_b"', f'"{name}"'))
        bots.append(copy)
    folder = base / "bench"
    folder.mkdir()
    listed = ", ".join(f'"{b}"' for b in bots)
    (folder / "tournament.toml").write_text(f'''name = "bench"
seed = 590328639572710455
seed_public = true
duplicate_sets = 1
sandbox = "process"
replays = true
bootstrap = 200
bots = [{listed}]
[rules]
preset = "standard"
target = 500
''')
    start = time.monotonic()
    _arena("tournament", "run", "-q", folder)
    print(f"played {folder.name}: {time.monotonic() - start:.0f} s")
    return folder


def baseline(folder: Path) -> int:
    decisions = 0
    for path in sorted((folder / fmt.REPLAYS).glob("*.jsonl")):
        replay = read_replay(path)
        replay_game(replay)
        decisions += len(replay.actions)
    return decisions


def verify(folder: Path) -> str:
    return list(lines(folder))[-1]


def cpu(fn: object) -> tuple[float, object]:
    start = time.process_time()
    value = fn()  # type: ignore[operator]
    return time.process_time() - start, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournament", type=Path, help="an existing, played tournament folder")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="keep (or reuse) the fresh tournament here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as tmp:
        base = Path(tmp)
        if args.tournament is not None:
            folder = args.tournament
        elif args.keep is not None and (args.keep / "bench" / "tournament.sqlite").is_file():
            folder = args.keep / "bench"
        else:
            if args.keep is not None:
                args.keep.mkdir(parents=True, exist_ok=True)
            folder = fresh_tournament(args.keep if args.keep is not None else base)
        out = base / "published"
        _arena("leaderboard", "publish", folder, "--out", out, "--no-site")
        bundle = out / fmt.FOLDER
        matches = len(list((bundle / fmt.REPLAYS).glob("*.jsonl")))
        base_cpu, ver_cpu = [], []
        decisions = 0
        verdict = ""
        for _ in range(args.rounds):
            t, d = cpu(lambda: baseline(bundle))
            base_cpu.append(t)
            decisions = int(d)  # type: ignore[call-overload]
            t, v = cpu(lambda: verify(bundle))
            ver_cpu.append(t)
            verdict = str(v)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.monotonic()
        cli_out = _arena("verify", bundle)
        wall = time.monotonic() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        child_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    b, v = statistics.median(base_cpu), statistics.median(ver_cpu)
    print(f"bundle: {matches} matches with replays, {decisions} decisions")
    print(f"  baseline (engine re-play only): {b:.3f} s CPU (median of {args.rounds})")
    print(f"  verify (every check):           {v:.3f} s CPU  = {v / b:.2f}x the baseline")
    print(f"  rate: {matches / v:.0f} matches/s, {decisions / v:.0f} decisions/s verified")
    print(f"  `arena verify` child process:   {wall:.2f} s wall, {child_cpu:.2f} s CPU "
          "(start-up included)")
    print(f"  verdict: {verdict}")
    assert cli_out.strip().splitlines()[-1] == verdict


if __name__ == "__main__":
    main()
