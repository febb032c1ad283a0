"""The judge's use cases, one method each, on the ``eventsourcing`` Application.

Each method gets the match, calls the domain, saves once, and returns plain values. The store is the
library's: a SQLite file by default, in-memory (POPO) for unit tests, PostgreSQL by configuration.

What keeps it fast (docs/PERFORMANCE.md has the figures):
- ``act`` with an expected version starts from the cached match when the cache is at that version, without
  asking the store first; if another process wrote meanwhile, the store's uniqueness of (match, version)
  refuses the insert, and the answer is the same VersionConflict (409) as when the versions differ.
- The events an action produced are decoded from what was just written, not read back.
- The state at N starts from the nearest checkpoint: in memory every ``CHECKPOINT_INTERVAL`` events (16), and
  in the store (the library's snapshots, written as a save crosses a multiple of
  ``STORED_CHECKPOINT_INTERVAL``, 100), so a new worker or a restarted one folds at most that many events.
- N is checked against the highest head this process has seen; only an N beyond it asks the store. The
  latest state is one read: the events after the newest checkpoint, to the end.
- Where several processes write (PostgreSQL), an action is recorded on a working copy of the cached match,
  so that a lost race leaves the cache usable instead of forcing a rebuild.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.domain import Snapshot
from eventsourcing.persistence import IntegrityError, JSONTranscoder, PersistenceError, Transcoding
from eventsourcing.utils import strtobool

from domain.costs import payment_notes
from domain.engine import decide
from domain.errors import IllegalAction, JudgeError
from domain.events import EVENT_TYPES, Event
from domain.judge import branch, rewind
from domain.match import Match, project
from domain.setup import PlayerSetup, create_match, create_position, position_warnings
from domain.state import GameState
from projections.audit import AuditReport, audit
from projections.history import History
from projections.index import MatchIndex


class MatchNotFound(LookupError):
    def __init__(self, match_id: object) -> None:
        super().__init__(f"no match {match_id}")
        self.match_id = match_id


class VersionConflict(Exception):
    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"the match is at version {actual}, not {expected}: reload it and try again")
        self.expected = expected
        self.actual = actual


class OutOfRange(ValueError):
    pass


@dataclass(frozen=True)
class Ruling:
    legal: bool
    at: int
    rule_refs: tuple[str, ...]
    explanation: str
    events: tuple[Event, ...]


class GameStateAsDict(Transcoding):
    """Stored checkpoints (snapshots) hold the game state in its canonical dict form."""

    type = GameState
    name = "wixoss_game_state"

    def encode(self, obj: GameState) -> dict[str, Any]:
        return obj.to_dict()

    def decode(self, data: dict[str, Any]) -> GameState:
        return GameState.from_dict(data)


class JudgeApplication(Application[UUID]):
    name = "wixoss_judge"
    env: ClassVar[dict[str, str]] = {"AGGREGATE_CACHE_MAXSIZE": "256", "DEEPCOPY_FROM_AGGREGATE_CACHE": "n"}
    is_snapshotting_enabled = True  # the stored checkpoints; IS_SNAPSHOTTING_ENABLED=n turns them off
    MAX_KNOWN_HEADS = 100_000

    def __init__(self, env: dict[str, str] | None = None) -> None:
        super().__init__(env)
        self.stored_checkpoint_interval = max(1, int(self.env.get("STORED_CHECKPOINT_INTERVAL") or 100))
        self.history = History(
            self._read_events,
            interval=max(1, int(self.env.get("CHECKPOINT_INTERVAL") or 16)),
            max_states=int(self.env.get("CHECKPOINTS_IN_MEMORY") or 10_000),
            max_events=int(self.env.get("EVENTS_IN_MEMORY") or 20_000),
            load_checkpoint=self._load_checkpoint if self.snapshots is not None else None,
            stored_interval=self.stored_checkpoint_interval,
        )
        self.index = MatchIndex(self)
        self._locks: dict[UUID, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._heads: dict[UUID, int] = {}  # the highest head seen per match: the log only grows
        shared = "postgres" in (self.env.get("PERSISTENCE_MODULE") or "")
        self.working_copy = strtobool(self.env.get("WORKING_COPY") or ("y" if shared else "n"))

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        transcoder.register(GameStateAsDict())

    # -- reading ----------------------------------------------------------------------------------

    def _read_events(self, match_id: UUID, after: int, upto: int | None) -> Sequence[Any]:
        return list(self.events.get(match_id, gt=after or None, lte=upto))

    def _load_checkpoint(self, match_id: UUID, n: int) -> tuple[int, GameState] | None:
        """The newest stored checkpoint at or before event ``n``, if any."""
        assert self.snapshots is not None
        found = list(self.snapshots.get(match_id, lte=n, desc=True, limit=1))
        if not found:
            return None
        snapshot = found[0]
        state = snapshot.state.get("state")  # type: ignore[attr-defined]
        if not isinstance(state, GameState) or state.version != snapshot.originator_version:
            return None
        return snapshot.originator_version, state

    def get_match(self, match_id: UUID) -> Match:
        try:
            return self.repository.get(match_id, projector_func=project)  # type: ignore[arg-type,return-value]
        except AggregateNotFoundError:
            raise MatchNotFound(match_id) from None

    def _seen(self, match_id: UUID, head: int) -> None:
        if head > self._heads.get(match_id, 0):
            if len(self._heads) >= self.MAX_KNOWN_HEADS:
                self._heads.clear()
            self._heads[match_id] = head

    def head(self, match_id: UUID) -> int:
        """The match's last event number, as the store has it now."""
        last = self.recorder.select_events(match_id, desc=True, limit=1)
        if not last:
            raise MatchNotFound(match_id)
        head = last[0].originator_version
        self._seen(match_id, head)
        return head

    def check_at(self, match_id: UUID, at: int | None) -> int:
        """``at`` checked against the head (the head itself when ``at`` is None)."""
        if at is not None and 1 <= at <= self._heads.get(match_id, 0):
            return at  # within a head already seen: the log only grows, so it is still in range
        head = self.head(match_id)
        if at is None:
            return head
        if not 1 <= at <= head:
            raise OutOfRange(f"event {at} is out of range: match {match_id} has events 1 to {head}")
        return at

    def state_at(self, match_id: UUID, at: int | None = None) -> GameState:
        """The state after event ``at`` (default: the latest), checked against the head."""
        if at is None:  # the latest: one read of the events after the newest checkpoint, to the end
            state = self.history.latest(match_id, hint=self._heads.get(match_id, 0))
            if state.version == 0:
                raise MatchNotFound(match_id)
            self._seen(match_id, state.version)
            return state
        return self.history.state_at(match_id, self.check_at(match_id, at))

    def stored_events(self, match_id: UUID, after: int = 0, limit: int | None = None) -> list[Any]:
        self.head(match_id)
        upto = None if limit is None else after + limit
        return self._read_events(match_id, after, upto)

    # -- creating matches -------------------------------------------------------------------------

    def create_match(
        self, fmt: str, seed: int, players: dict[str, PlayerSetup], first_player: str | None = None
    ) -> Match:
        match = Match.start(create_match(fmt, seed, players, first_player))
        self._save_new(match)
        return match

    def create_position(self, position: dict[str, Any], seed: int) -> tuple[Match, list[str]]:
        """The new match, and what rule processing changed in the position as it was set."""
        events = create_position(position, seed)
        match = Match.start(events)
        self._save_new(match)
        return match, position_warnings(events)

    def _save_new(self, match: Match) -> None:
        self.save(match)
        self._seen(match.id, match.version)
        self._checkpoint(match, 0)

    # -- playing ----------------------------------------------------------------------------------

    def _lock(self, match_id: UUID) -> threading.Lock:
        with self._locks_lock:
            return self._locks.setdefault(match_id, threading.Lock())

    def act(
        self,
        match_id: UUID,
        action: dict[str, Any],
        expected_version: int | None = None,
        by: str | None = None,
    ) -> list[Any]:
        """Decide and record one action; returns the stored events it produced.

        With ``expected_version``, the action is refused (VersionConflict) unless the match is at that
        version when its events are written; without it, a lost race is decided again on the new head."""
        attempts = 3 if expected_version is None else 1
        for attempt in range(attempts):
            with self._lock(match_id):
                match = self._cached_at(match_id, expected_version) or self._fresh(match_id)
                if expected_version is not None and expected_version != match.version:
                    raise VersionConflict(expected_version, match.version)
                events = decide(match.state, action, by=by)
                try:
                    return self._append(match, events, last_try=attempt == attempts - 1)
                except IntegrityError:
                    continue  # another writer won the race: decide again on the new head
        raise AssertionError("unreachable")  # pragma: no cover

    def _fresh(self, match_id: UUID) -> Match:
        """The match as the store has it now: the cached one brought up to date, or rebuilt when the cache
        is set not to fast-forward (``AGGREGATE_CACHE_FASTFORWARD=n``)."""
        if not self.repository.fastforward:
            self._evict(match_id)
        return self.get_match(match_id)

    def _cached_at(self, match_id: UUID, version: int | None) -> Match | None:
        """The cached match if it is at ``version``, without asking the store whether it moved on: if it
        did, the insert of ``version + 1`` collides in the store and the action is refused as a conflict,
        which is the answer ``version`` calls for anyway."""
        cache = self.repository.cache
        if version is None or cache is None:
            return None
        try:
            match: Match = cache.get(match_id)
        except KeyError:
            return None
        return match if match.version == version else None

    def _append(self, match: Match, events: Sequence[Event], last_try: bool = True) -> list[Any]:
        """Record ``events`` on ``match`` and save it.

        Where several processes write (``WORKING_COPY``, on by default for PostgreSQL), the events are
        recorded on a working copy that replaces the cached match once saved: when another writer wins the
        race, the cached match stays as it was, at its version, and the next read brings it up to date with
        the few events it missed. Elsewhere a lost race is rare, and the match is recorded on in place (no
        copy of the state per action) and dropped from the cache when its save fails."""
        before = match.version
        work = _working_copy(match) if self.working_copy else match
        try:
            work.record(events)
            recordings = self.save(work)
        except IntegrityError:
            if work is match:
                self._evict(match.id)
            if last_try:
                raise VersionConflict(before, self.head(match.id)) from None
            raise
        except BaseException:
            if work is match:
                self._evict(match.id)
            raise
        cache = self.repository.cache
        if cache is not None and work is not match:
            cache.put(match.id, work)
        self._seen(match.id, work.version)
        self._checkpoint(work, before)
        if len(recordings) == work.version - before:  # decode what was written, as a read would
            return [self.mapper.to_domain_event(r.notification) for r in recordings]
        return list(self.events.get(match.id, gt=before))  # pragma: no cover - recorders without ids

    def _checkpoint(self, match: Match, before: int) -> None:
        """Store a checkpoint of the match when this save crossed a multiple of the interval: the state
        at its new head, as the fold of its events builds it (through JSON, as the events were)."""
        k = self.stored_checkpoint_interval
        if self.snapshots is None or match.version // k == before // k:
            return
        with contextlib.suppress(PersistenceError):  # a checkpoint is only a shortcut: never fail a save
            self.snapshots.put([Snapshot.take(match)])

    def _evict(self, match_id: UUID) -> None:
        cache = self.repository.cache
        if cache is not None:
            with contextlib.suppress(KeyError):
                cache.get(match_id, evict=True)

    def ruling(
        self, match_id: UUID, action: dict[str, Any], at: int | None = None, by: str | None = None
    ) -> Ruling:
        """What would happen if ``action`` were taken after event ``at``; nothing is recorded."""
        state = self.state_at(match_id, at)
        n = state.version
        try:
            events = decide(state, action, by=by)
        except IllegalAction as exc:
            return Ruling(False, n, exc.rule_refs, exc.message, ())
        first = events[0] if events else None
        refs = tuple(dict.fromkeys(e.rule for e in events if e.type != "Asked"))
        what = "legal"
        if first is not None:
            said = EVENT_TYPES.get(first.type, "something happened")
            what = f"legal: it produces {len(events)} event(s), the first: {said}"
        notes = payment_notes(state.cards, events)
        if notes:
            what += "; " + "; ".join(notes)
        return Ruling(True, n, refs, what, tuple(events))

    # -- the judge's tools ------------------------------------------------------------------------

    def rewind(self, match_id: UUID, to: int, reason: str) -> list[Any]:
        with self._lock(match_id):
            match = self._fresh(match_id)
            if not 1 <= to <= match.version:
                raise OutOfRange(
                    f"event {to} is out of range: match {match_id} has events 1 to {match.version}"
                )
            target = self.history.state_at(match_id, to)
            return self._append(match, rewind(match.state, target, to, reason))

    def branch(self, match_id: UUID, at: int, reason: str) -> Match:
        head = self.head(match_id)
        if not 1 <= at <= head:
            raise OutOfRange(f"event {at} is out of range: match {match_id} has events 1 to {head}")
        parent_events = self._read_events(match_id, 0, at)
        new = Match.start(parent_events, copy=True)
        new.record(branch(new.state, str(match_id), at, reason))
        self._save_new(new)
        return new

    def audit(self, match_id: UUID) -> AuditReport:
        self.head(match_id)
        return audit(self._read_events(match_id, 0, None))

    def list_matches(self) -> list[dict[str, Any]]:
        return self.index.all()

    def rewound_marks(self, match_id: UUID) -> dict[int, int]:
        return self.index.rewound_marks(match_id)


def _working_copy(match: Match) -> Match:
    """A copy of ``match`` that can record events without changing ``match``: its own game state (the
    state's copy is cheap) and no pending events; everything else is immutable and shared."""
    work: Match = object.__new__(type(match))
    work.__dict__.update(match.__dict__)
    work.state = match.state.copy()
    work.__dict__["_pending_events"] = []
    return work


def init_db(env: dict[str, str] | None = None) -> None:
    """Create the store's tables, once, before any worker starts (the ``init-db`` command).

    Several workers creating the PostgreSQL tables at the same time race (``tuple concurrently updated``):
    create them here, then run the workers with ``CREATE_TABLE=no``. Creating them again is harmless.
    """
    JudgeApplication({**(env or {}), "CREATE_TABLE": "yes"}).close()


__all__ = [
    "JudgeApplication",
    "JudgeError",
    "MatchNotFound",
    "OutOfRange",
    "Ruling",
    "VersionConflict",
    "init_db",
]
