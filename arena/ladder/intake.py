"""Taking a submission in: quotas, the archive, bot.toml, then the store.

The order is what keeps a refused request from leaving anything behind:
the author's quotas (from the store), then the archive read and checked
in memory (archive.py), then its files written into a fresh folder under
incoming/ (the only place the ladder writes before it has said yes) and
read as a bot (bot.toml, its program, the Dockerfile rules of
arena.sandbox), then the bot name and the active-bots quota; only then is
the submission recorded and its folder moved to submissions/<id>/bot, in
one transaction. Any refusal on the way removes the incoming folder.
One intake at a time (a lock): two uploads of one author cannot both
pass a quota that has room for one.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

from arena.ladder import archive
from arena.ladder.config import LadderConfig
from arena.ladder.errors import Refused
from arena.ladder.finals import frozen_at
from arena.ladder.store import LIVE, Store, User
from arena.manifest import BotSpec
from arena.sandbox.botfile import BotFileError, load_bot, missing_program

INCOMING_DIR = "incoming"
SUBMISSIONS_DIR = "submissions"
DAY = 86_400.0
_IGNORE = shutil.ignore_patterns("__pycache__", "*.pyc", ".git", ".mypy_cache", ".pytest_cache")


def bot_folder(submission_id: int) -> str:
    return f"{SUBMISSIONS_DIR}/{submission_id}/bot"


class Intake:
    def __init__(self, config: LadderConfig, store: Store,
                 on_new: Callable[[], None] = lambda: None) -> None:
        self.config = config
        self.store = store
        self.root = Path(config.root)
        self._lock = threading.Lock()
        self._on_new = on_new   # the match lanes wake up for it

    def caps(self) -> archive.Caps:
        q = self.config.quotas
        return archive.Caps(q.upload_bytes, q.files, q.unpacked_bytes)

    def check_quota(self, user: User) -> None:
        """Refused (429 with the seconds until room) once the author has
        made `submissions_per_day` submissions in the last 24 hours."""
        q = self.config.quotas
        now = self.store.clock()
        recent = [s.created_at for s in self.store.submissions(user_id=user.id)
                  if s.created_at >= now - DAY]
        if len(recent) >= q.submissions_per_day:
            wait = int(min(recent) + DAY - now) + 1
            raise Refused(f"quota: {user.name} made {len(recent)} submissions in the last 24 "
                          f"hours, the most this ladder takes (submissions_per_day = "
                          f"{q.submissions_per_day}); the next is possible in {wait} s",
                          429, wait)

    def submit(self, user: User, data: bytes) -> int:
        """A new submission of `user` from an archive's bytes; its id.
        Refused (with the HTTP status) for anything not taken: nothing is
        then stored."""
        with self._lock:
            if frozen_at(self.store) is not None:
                raise Refused(f"ladder {self.config.name} is frozen for its finals: it takes "
                              "no submissions now", 403)
            self.check_quota(user)
            entries = archive.read(data, self.caps())
            staging = self._stage()
            try:
                folder = staging / "bot"
                _write(folder, entries)
                spec = self._bot(folder)
                self._check_name(user, spec)
                new = self.store.add_submission(
                    user.id, spec.name, spec.version, spec.content_hash, spec.language,
                    bot_folder, len(entries), sum(len(e.data) for e in entries),
                    place=lambda sid: self._place(folder, sid))
            finally:
                shutil.rmtree(staging, ignore_errors=True)
        self._on_new()
        return new

    def _stage(self) -> Path:
        incoming = self.root / INCOMING_DIR
        incoming.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(prefix="upload-", dir=incoming))

    def _bot(self, folder: Path) -> BotSpec:
        def here(text: str) -> str:  # the staging path is nobody's business
            return text.replace(str(folder.resolve()), "").replace(str(folder), "").lstrip("/")

        try:
            spec = load_bot(folder)
        except BotFileError as exc:
            raise Refused(f"bot refused: {here(str(exc))}", 400) from None
        missing = missing_program(spec)
        if missing:
            raise Refused(f"bot refused: bot.toml key 'run': {here(missing)}", 400)
        return spec

    def _check_name(self, user: User, spec: BotSpec) -> None:
        taken, owner = self.store.bot_owner(spec.name)
        if taken and owner != user.id:
            whose = "a reference bot" if owner is None else "another author's bot"
            raise Refused(f"bot name {spec.name!r} is {whose} on this ladder: rename yours "
                          "(bot.toml key 'name')", 403)
        mine = [s for s in self.store.submissions(bot=spec.name) if s.state in LIVE]
        same = [s for s in mine if s.content_hash == spec.content_hash]
        if same:
            raise Refused(f"{spec.name}: the same content is submission {same[0].id} "
                          f"({same[0].state}); change the bot to submit a new version", 409)
        live = self.store.live_bots(user.id) - {spec.name}
        limit = self.config.quotas.active_bots
        if len(live) >= limit:
            raise Refused(f"quota: {user.name} has {len(live)} bots on the ladder "
                          f"({', '.join(sorted(live))}), the most this ladder takes "
                          f"(active_bots = {limit}); submit a new version of one of them", 403)

    def _place(self, folder: Path, submission_id: int) -> None:
        target = self.root / bot_folder(submission_id)
        if target.exists():  # left by a store that was reset: never another bot's files
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(folder, target)

    def register_reference(self, spec: BotSpec) -> int | None:
        """A reference bot of ladder.toml: active at once (it is the
        organiser's, and no validation match can refuse it); a changed
        folder is a new version replacing the old. The new submission's id,
        or None if the store has this content already."""
        with self._lock:
            known = [s for s in self.store.submissions(bot=spec.name) if s.state == "active"]
            if known and known[0].content_hash == spec.content_hash:
                return None
            taken, owner = self.store.bot_owner(spec.name)
            if taken and owner is not None:
                raise Refused(f"reference bot {spec.name!r}: an author's bot has that name "
                              "on this ladder", 409)
            staging = self._stage()
            try:
                folder = staging / "bot"
                shutil.copytree(spec.path, folder, symlinks=True, ignore=_IGNORE)
                new = self.store.add_submission(
                    None, spec.name, spec.version, spec.content_hash, spec.language, bot_folder,
                    0, 0, state="building",  # not queued: no validation match takes it
                    place=lambda sid: self._place(folder, sid))
            finally:
                shutil.rmtree(staging, ignore_errors=True)
            self.store.set_state(new, "active")
        self._on_new()
        return new


def _write(folder: Path, entries: list[archive.Entry]) -> None:
    """The checked entries as files under `folder`, with modes of ours."""
    folder.mkdir(mode=0o755)
    for entry in entries:
        path = folder.joinpath(*entry.path.split("/"))
        path.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                     0o755 if entry.executable else 0o644)
        with os.fdopen(fd, "wb") as out:
            out.write(entry.data)
