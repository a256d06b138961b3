"""How every match of a tournament or a gauntlet is played.

A tournament (`tournament.toml`) and a gauntlet (its command line) set the
same seven things for their matches: the rules, the clocks, the fault
policy, the sandbox's limits and level, and whether replays are kept. They
share this one value, and it alone turns a planned match into the
referee's MatchSpec, so the two cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from arena.manifest import BotSpec
from arena.referee.spec import FaultPolicy, MatchSpec, TimeControl
from arena.sandbox.api import Limits

REPLAYS_DIR = "replays"
LOGS_DIR = "logs"


@dataclass(frozen=True)
class MatchSettings:
    rules_preset: str = "standard"
    rules_options: tuple[tuple[str, object], ...] = ()
    time_control: TimeControl = field(default_factory=TimeControl)
    fault_policy: FaultPolicy = field(default_factory=FaultPolicy)
    limits: Limits = field(default_factory=Limits)
    sandbox: str = "auto"
    replays: bool = True
    # The seats' logs (with their decision marks) kept in logs/: "faults"
    # (only of seats that had one) or "all" (the bot's-eye view of every
    # step, docs/web.md "A bot's-eye view").
    keep_logs: str = "faults"

    def rules_dict(self) -> dict[str, object]:
        return {"preset": self.rules_preset, **dict(self.rules_options)}

    def match_spec(self, root: Path, match_id: str, bots: tuple[BotSpec, ...], seed: int,
                   key: str) -> MatchSpec:
        """The referee's spec of one match whose files go under `root`
        (the replay in replays/ when kept, fault logs in logs/)."""
        return MatchSpec(
            match_id=match_id, bots=bots, seed=seed, key=key,
            rules_preset=self.rules_preset, rules_options=self.rules_options,
            time_control=self.time_control, fault_policy=self.fault_policy,
            sandbox=self.sandbox,
            replay_path=str(root / REPLAYS_DIR / f"{match_id}.jsonl") if self.replays else "",
            limits=self.limits, fault_logs_dir=str(root / LOGS_DIR),
            keep_logs=self.keep_logs)
