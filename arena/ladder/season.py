"""A running ladder: match lanes that build, validate and play.

    season = Season(config, store, executor_factory)
    season.start()            # recover, register the reference bots, start the lanes
    ...                       # the web app takes submissions (season.intake)
    season.stop()             # the matches in play torn down, the executor closed

One lane per worker of the executor (the local process pool by default,
a Dask cluster with `--dask`), each a thread of the server's process that
takes one job at a time: the oldest queued submission first (build, then
its validation match), else the next block from matchmaking. A block's
six matches share one deal seed, and the executors play no two matches
on one seed at once (arena.tournament's deal gate): one lane plays one
block, match after match, so as many blocks are in play as there are
workers. Before each match of a block the lane checks its bots are still
the active versions; a block with one that was replaced stops there and
is discarded (store.close_block). Everything a lane learns goes into the
store in one transaction per step; the pages read it from there.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from arena.ladder import blocks
from arena.ladder.config import LadderConfig, reference_bots
from arena.ladder.finals import frozen_at
from arena.ladder.intake import Intake
from arena.ladder.matchmaking import Entrant, Policy, pick
from arena.ladder.store import Block, Store, Submission
from arena.manifest import BotSpec
from arena.referee.spec import MatchSpec
from arena.sandbox.botfile import BotFileError, load_bot
from arena.tournament import RATING_MU as MU
from arena.tournament import Executor, derive_seed

log = logging.getLogger("arena.ladder")
VALIDATION_ATTEMPTS = 3   # an arena error (not the bot's) this often refuses it
IDLE_SECONDS = 1.0


class Season:
    def __init__(self, config: LadderConfig, store: Store,
                 executor_factory: Callable[[], Executor]) -> None:
        self.config = config
        self.store = store
        self.root = Path(config.root)
        self.intake = Intake(config, store, on_new=self.wake)
        self._factory = executor_factory
        self._executor: Executor | None = None
        self._wake = threading.Condition()
        self._choose = threading.Lock()   # one lane picks its next job at a time
        self._stopping = threading.Event()
        self._lanes: list[threading.Thread] = []
        self._specs: dict[int, BotSpec] = {}
        self.policy = Policy(config.ratings.placement_blocks, config.matchmaking.recency_share,
                             config.matchmaking.nearest)

    # -- life -----------------------------------------------------------------
    def start(self) -> None:
        failed, queued = self.store.recover()
        if failed or queued:
            log.info("recovered: %d block(s) failed, %d submission(s) queued again", failed, queued)
        for spec in reference_bots(self.config):
            self.intake.register_reference(spec)
        self._executor = self._factory()
        for k in range(max(1, self._executor.workers)):
            lane = threading.Thread(target=self._lane, name=f"ladder-lane-{k}", daemon=True)
            lane.start()
            self._lanes.append(lane)

    def stop(self) -> None:
        self._stopping.set()
        self.wake()
        if self._executor is not None:
            self._executor.terminate_workers()
        for lane in self._lanes:
            lane.join(timeout=60)
        if self._executor is not None:
            self._executor.close()
            self._executor = None

    def wake(self) -> None:
        with self._wake:
            self._wake.notify_all()

    @property
    def workers(self) -> int:
        return self._executor.workers if self._executor is not None else 0

    # -- lanes ----------------------------------------------------------------
    def _lane(self) -> None:
        while not self._stopping.is_set():
            try:
                job = self._next_job()
                if job is None:
                    with self._wake:
                        self._wake.wait(IDLE_SECONDS)
                    continue
                job()
            except Exception:  # a lane must not die of one job; the log says what failed
                log.exception("a ladder lane's job failed")
                time.sleep(IDLE_SECONDS)
            self.wake()  # a block's end may free a bot for another lane

    def _next_job(self) -> Callable[[], None] | None:
        if self._stopping.is_set():
            return None
        with self._choose:
            if frozen_at(self.store) is not None:
                return None  # the finals' field: nothing validated, no block planned
            pending = self.store.next_pending()
            if pending is not None:
                self.store.set_state(pending.id, "building")
                return lambda: self._validate(pending)
            started = time.perf_counter()
            block = self._plan_block()
            if block is None:
                return None
            self.store.add_overhead(block.id, time.perf_counter() - started)
            return lambda: self._play(block)

    def bot_spec(self, sub: Submission) -> BotSpec:
        spec = self._specs.get(sub.id)
        if spec is None:
            spec = load_bot(self.root / sub.path)
            if spec.content_hash != sub.content_hash:
                raise BotFileError(f"{self.root / sub.path}: its files changed since it was "
                                   "submitted")
            self._specs[sub.id] = spec
        return spec

    def _run(self, specs: Iterator[MatchSpec],
             spent: list[float] | None = None) -> Iterator[tuple[MatchSpec, str]]:
        """Play `specs` (in order), storing each result; yields each spec
        with its error ("" when the match was played). `spent[0]` gains the
        seconds this took besides the matches (making specs, storing)."""
        assert self._executor is not None
        given: dict[str, MatchSpec] = {}
        spent = spent if spent is not None else [0.0]

        def feed() -> Iterator[MatchSpec]:
            started = time.perf_counter()
            for spec in specs:
                given[spec.match_id] = spec
                self.store.mark_running(spec.match_id)
                spent[0] += time.perf_counter() - started
                yield spec
                started = time.perf_counter()

        for outcome in self._executor.play(feed()):
            started = time.perf_counter()
            spec = given[outcome.match_id]
            if outcome.result is None or outcome.result.match_id != outcome.match_id:
                error = outcome.error or "the runner returned a result for another match"
                self.store.fail_match(outcome.match_id, error)
            else:
                error = ""
                self.store.finish_match(outcome.result)
            spent[0] += time.perf_counter() - started
            yield spec, error

    # -- submissions ----------------------------------------------------------
    def _validate(self, sub: Submission) -> None:
        try:
            spec = self.bot_spec(sub)
            self._build(spec)
        except (BotFileError, OSError) as exc:
            self.store.set_state(sub.id, "refused", f"build: {blocks._line(str(exc))}")
            return
        except Exception as exc:  # noqa: BLE001 - the sandbox's own errors (docker's)
            self.store.set_state(sub.id, "refused", f"build: {blocks._line(str(exc))}")
            return
        self.store.set_state(sub.id, "validating")
        refs = sorted((s for s in self.store.submissions(state="active") if s.reference),
                      key=lambda s: s.id)
        if not refs:
            self.store.set_state(sub.id, "queued")
            return
        opponents = [refs[0], refs[1 % len(refs)]]
        attempt = self.store.count_attempt(sub.id)
        row_id = blocks.validation_id(sub.id, attempt)
        seed = blocks.validation_seed(self.config.seed, sub.id, attempt)
        work = self.root / Path(sub.path).parent / "validation"
        work.mkdir(parents=True, exist_ok=True)
        self.store.plan_validation(row_id, sub.id, (sub.id, *(o.id for o in opponents)), seed)
        match = blocks.validation_spec(
            self.config.match, work, self.config.seed, row_id,
            (spec, *(self.bot_spec(o) for o in opponents)), seed, self.config.validation_deals)
        for _spec, error in self._run(iter([match])):
            if error:
                if self._stopping.is_set():
                    self.store.set_state(sub.id, "queued")  # the next start validates it
                elif attempt >= VALIDATION_ATTEMPTS:
                    self.store.set_state(sub.id, "refused",
                                         f"the validation match could not be played: {error}")
                else:
                    self.store.set_state(sub.id, "queued")
                return
        row = self.store.match(row_id)
        problem = blocks.verdict(row.result) if row is not None and row.result else "no result"
        if problem:
            self.store.set_state(sub.id, "refused", f"the validation match failed: {problem}")
        else:
            self.store.set_state(sub.id, "active")
            log.info("submission %d (%s %s) is on the ladder", sub.id, sub.bot, sub.version)

    def _build(self, spec: BotSpec) -> None:
        """The bot's image, at the docker level with a Dockerfile."""
        from arena.sandbox.bot_images import has_dockerfile
        from arena.sandbox.levels import resolve_level

        if has_dockerfile(spec) and resolve_level(self.config.match.sandbox, spec) == "docker":
            from arena.sandbox.docker_level import prepare_image

            prepare_image(spec)

    # -- blocks ---------------------------------------------------------------
    def entrants(self) -> list[Entrant]:
        busy = self.store.in_flight()
        return [Entrant(s.id, s.user_id, s.mu if s.mu is not None else MU, s.blocks,
                        s.last_played, busy.get(s.id, 0))
                for s in self.store.submissions(state="active")]

    def _plan_block(self) -> Block | None:
        entrants = self.entrants()
        if len(entrants) < 3:
            return None
        number = sum(self.store.counts().values()) + 1
        rng = random.Random(derive_seed(self.config.seed, "ladder-matchmaking", number))
        chosen = pick(entrants, self.policy, rng)
        if chosen is None:
            return None
        seats = (chosen[0].id, chosen[1].id, chosen[2].id)
        subs = {s: self.store.submission(s) for s in seats}
        keys = {s: f"{sub.bot}@{sub.content_hash}" for s, sub in subs.items() if sub is not None}
        block_id = self.store.new_block(
            seats, lambda bid: blocks.plan(self.config.seed, bid, seats, keys))
        block = self.store.block(block_id)
        assert block is not None
        return block

    def _play(self, block: Block) -> None:
        subs = [self.store.submission(s) for s in block.seats]
        specs = {s.id: self.bot_spec(s) for s in subs if s is not None}
        matches = self.store.block_matches(block.id)
        spent = [0.0]

        def feed() -> Iterator[MatchSpec]:
            for m in matches:
                if self._stopping.is_set():
                    return
                states = [self.store.submission(s) for s in block.seats]
                if any(s is None or s.state != "active" for s in states):
                    return  # replaced while playing: discarded, the rest not played
                yield blocks.spec(self.config.match, self.root, self.config.seed, m.match_id,
                                  tuple(specs[s] for s in m.seats), m.seed)

        for _spec, error in self._run(feed(), spent):
            if error:
                log.warning("block %d: a match could not be played: %s", block.id, error)
        started = time.perf_counter()
        tau = self.config.ratings.tau
        closed = self.store.close_block(block.id, lambda ms, cur: blocks.rate(ms, cur, tau))
        self.store.add_overhead(block.id, spent[0] + time.perf_counter() - started)
        log.info("block %d %s%s", closed.id, closed.status,
                 f": {closed.reason}" if closed.reason else "")
