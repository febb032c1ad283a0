"""The judge's use cases, one method each, on the ``eventsourcing`` Application.

Each method gets the match, calls the domain, saves once, and returns plain values. The store is the
library's: a SQLite file by default, in-memory (POPO) for unit tests, PostgreSQL by configuration.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import IntegrityError

from domain.engine import decide
from domain.errors import IllegalAction, JudgeError
from domain.events import Event
from domain.judge import branch, rewind
from domain.match import Match, project
from domain.setup import PlayerSetup, create_match, create_position
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


class JudgeApplication(Application[UUID]):
    name = "wixoss_judge"
    env: ClassVar[dict[str, str]] = {"AGGREGATE_CACHE_MAXSIZE": "256", "DEEPCOPY_FROM_AGGREGATE_CACHE": "n"}

    def __init__(self, env: dict[str, str] | None = None) -> None:
        super().__init__(env)
        self.history = History(self._read_events)
        self.index = MatchIndex(self)
        self._locks: dict[UUID, threading.Lock] = {}
        self._locks_lock = threading.Lock()

    # -- reading ----------------------------------------------------------------------------------

    def _read_events(self, match_id: UUID, after: int, upto: int | None) -> Sequence[Any]:
        return list(self.events.get(match_id, gt=after or None, lte=upto))

    def get_match(self, match_id: UUID) -> Match:
        try:
            return self.repository.get(match_id, projector_func=project)  # type: ignore[arg-type,return-value]
        except AggregateNotFoundError:
            raise MatchNotFound(match_id) from None

    def head(self, match_id: UUID) -> int:
        events = list(self.events.get(match_id, desc=True, limit=1))
        if not events:
            raise MatchNotFound(match_id)
        return events[0].originator_version

    def check_at(self, match_id: UUID, at: int | None) -> int:
        head = self.head(match_id)
        if at is None:
            return head
        if not 1 <= at <= head:
            raise OutOfRange(f"event {at} is out of range: match {match_id} has events 1 to {head}")
        return at

    def state_at(self, match_id: UUID, at: int | None = None) -> GameState:
        """The state after event ``at`` (default: the latest), checked against the head."""
        n = self.check_at(match_id, at)
        return self.history.state_at(match_id, n)

    def stored_events(self, match_id: UUID, after: int = 0, limit: int | None = None) -> list[Any]:
        self.head(match_id)
        upto = None if limit is None else after + limit
        return self._read_events(match_id, after, upto)

    # -- creating matches -------------------------------------------------------------------------

    def create_match(
        self, fmt: str, seed: int, players: dict[str, PlayerSetup], first_player: str | None = None
    ) -> Match:
        match = Match.start(create_match(fmt, seed, players, first_player))
        self.save(match)
        return match

    def create_position(self, position: dict[str, Any], seed: int) -> Match:
        match = Match.start(create_position(position, seed))
        self.save(match)
        return match

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
        """Decide and record one action; returns the stored events it produced."""
        attempts = 3 if expected_version is None else 1
        for attempt in range(attempts):
            with self._lock(match_id):
                match = self.get_match(match_id)
                if expected_version is not None and expected_version != match.version:
                    raise VersionConflict(expected_version, match.version)
                events = decide(match.state, action, by=by)
                try:
                    return self._append(match, events, last_try=attempt == attempts - 1)
                except IntegrityError:
                    continue  # another writer won the race: decide again on the new head
        raise AssertionError("unreachable")  # pragma: no cover

    def _append(self, match: Match, events: Sequence[Event], last_try: bool = True) -> list[Any]:
        before = match.version
        try:
            match.record(events)
            self.save(match)
        except IntegrityError:
            self._evict(match.id)
            if last_try:
                raise VersionConflict(before, self.head(match.id)) from None
            raise
        except BaseException:
            self._evict(match.id)
            raise
        return list(self.events.get(match.id, gt=before))

    def _evict(self, match_id: UUID) -> None:
        cache = self.repository.cache
        if cache is not None:
            with contextlib.suppress(KeyError):
                cache.get(match_id, evict=True)

    def ruling(
        self, match_id: UUID, action: dict[str, Any], at: int | None = None, by: str | None = None
    ) -> Ruling:
        """What would happen if ``action`` were taken after event ``at``; nothing is recorded."""
        n = self.check_at(match_id, at)
        state = self.history.state_at(match_id, n)
        try:
            events = decide(state, action, by=by)
        except IllegalAction as exc:
            return Ruling(False, n, exc.rule_refs, exc.message, ())
        first = events[0] if events else None
        refs = tuple(dict.fromkeys(e.rule for e in events if e.type != "Asked"))
        what = f"legal: it produces {len(events)} event(s), starting with {first.type}" if first else "legal"
        return Ruling(True, n, refs, what, tuple(events))

    # -- the judge's tools ------------------------------------------------------------------------

    def rewind(self, match_id: UUID, to: int, reason: str) -> list[Any]:
        with self._lock(match_id):
            match = self.get_match(match_id)
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
        self.save(new)
        return new

    def audit(self, match_id: UUID) -> AuditReport:
        self.head(match_id)
        return audit(self._read_events(match_id, 0, None))

    def list_matches(self) -> list[dict[str, Any]]:
        return self.index.all()

    def rewound_marks(self, match_id: UUID) -> dict[int, int]:
        return self.index.rewound_marks(match_id)


__all__ = ["JudgeApplication", "JudgeError", "MatchNotFound", "OutOfRange", "Ruling", "VersionConflict"]
