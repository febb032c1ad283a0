"""State at any event: the fold of the first N events, from the nearest checkpoint.

A match's log only grows, so a state folded once at version V stays true for ever. Two tiers of checkpoints:
- in memory, per process: a copy of the state every ``interval`` events, kept for the matches asked about
  most recently, up to ``max_states`` states in all (least recently used matches are dropped first, and a
  match that fills the budget alone gets no more);
- in the store, shared by every process and kept across restarts: ``load_checkpoint(id, n)`` gives the
  newest stored checkpoint at or before ``n`` (the application's snapshots), used when memory has nothing
  close to ``n``.
``state_at(N)`` starts from whichever is nearest and reads and folds only the events after it, up to N.

The events read are kept in memory too (up to ``max_events`` in all, least recently used matches dropped
first): a judge stepping back and forth through a match folds from memory, without asking the store again.
An event, once stored, never changes, so neither states nor events kept can go stale, as long as the store
stays the one they were read from. A store restored from an older copy, or dropped and made again, is
noticed where the latest state is read: that read starts at the last event already known, and when the store
no longer has it, or has another event there (another hash), ``StaleHistory`` is raised and what was kept of
the match is dropped; the caller drops its other caches and reads again.
"""

from __future__ import annotations

import threading
from bisect import bisect_right, insort
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from domain.evolve import apply
from domain.state import GameState

ReadEvents = Callable[[UUID, int, int | None], Sequence[Any]]  # (id, after, up to and including) -> events
LAST = 2**62  # "at or before the end of the log", for a stored checkpoint
LoadCheckpoint = Callable[[UUID, int], "tuple[int, GameState] | None"]  # (id, n) -> (version <= n, state)


class StaleHistory(LookupError):
    """What this process kept of a match is not what the store holds any more."""

    def __init__(self, match_id: UUID, version: int) -> None:
        super().__init__(f"the store no longer has event {version} of match {match_id} as it was read")
        self.match_id = match_id
        self.version = version


class _Points:
    """One match's checkpoints in memory: version -> state, and the versions in order."""

    __slots__ = ("events", "states", "versions")

    def __init__(self) -> None:
        self.states: dict[int, GameState] = {}
        self.versions: list[int] = []
        self.events: dict[int, Any] = {}  # event number -> the event, as read

    def nearest(self, n: int) -> int:
        i = bisect_right(self.versions, n)
        return self.versions[i - 1] if i else 0


class History:
    def __init__(
        self,
        read: ReadEvents,
        interval: int = 16,
        max_states: int = 10_000,
        load_checkpoint: LoadCheckpoint | None = None,
        stored_interval: int = 100,
        max_matches: int = 4096,
        max_events: int = 20_000,
    ) -> None:
        self.read = read
        self.interval = interval
        self.max_states = max_states
        self.max_matches = max_matches
        self.load_checkpoint = load_checkpoint
        self.stored_interval = stored_interval  # how far apart the stored checkpoints are, at most
        self._matches: OrderedDict[UUID, _Points] = OrderedDict()
        self.max_events = max_events
        self._count = 0
        self._event_count = 0
        self._lock = threading.Lock()

    def _points(self, match_id: UUID) -> _Points:
        with self._lock:
            points = self._matches.get(match_id)
            if points is None:
                points = self._matches[match_id] = _Points()
                while len(self._matches) > self.max_matches:
                    _, dropped = self._matches.popitem(last=False)
                    self._count -= len(dropped.states)
                    self._event_count -= len(dropped.events)
            else:
                self._matches.move_to_end(match_id)
            return points

    def _keep(self, match_id: UUID, points: _Points, version: int, state: GameState) -> None:
        with self._lock:
            if version in points.states:
                return
            if self._matches.get(match_id) is not points:  # dropped meanwhile: keep it again, as the newest
                self._matches[match_id] = points
                self._count += len(points.states)
            while self._count >= self.max_states and len(self._matches) > 1:
                oldest, dropped = next(iter(self._matches.items()))
                if oldest == match_id:
                    self._matches.move_to_end(match_id)
                    continue
                del self._matches[oldest]
                self._count -= len(dropped.states)
                self._event_count -= len(dropped.events)
            if self._count >= self.max_states:  # this match alone fills the budget: keep no more of it
                return
            points.states[version] = state  # states are only ever added to a match's points
            insort(points.versions, version)
            self._count += 1

    def _start(self, match_id: UUID, points: _Points, n: int) -> GameState:
        """A private copy of the nearest known state at or before ``n`` (version 0: the empty state)."""
        base = points.nearest(n)
        if self.load_checkpoint is not None and n - base >= self.stored_interval // 2:
            found = self.load_checkpoint(match_id, n)
            if found is not None and found[0] > base:
                version, state = found
                self._keep(match_id, points, version, state.copy())
                return state
        return points.states[base].copy() if base else GameState()

    def state_at(self, match_id: UUID, n: int) -> GameState:
        """The state after the first ``n`` events (``n`` >= 1, not checked against the head here). The state
        returned is the caller's own: changing it changes no checkpoint."""
        points = self._points(match_id)
        state = self._start(match_id, points, n)
        if state.version == n:
            return state
        state = self._fold(match_id, points, state, n)
        if state.version != n:
            raise LookupError(f"the log of match {match_id} has no event {n}")
        return state

    def latest(self, match_id: UUID, hint: int = 0) -> GameState:
        """The state after the last event: from the newest checkpoint, reading every event after it (one
        read, no question about the head first). ``hint``, a head known to be reached, says when a stored
        checkpoint is worth asking for. Version 0 means the match has no events."""
        points = self._points(match_id)
        base = points.versions[-1] if points.versions else 0
        if self.load_checkpoint is not None and (base == 0 or hint - base >= self.stored_interval // 2):
            found = self.load_checkpoint(match_id, LAST)
            if found is not None and found[0] > base:
                self._keep(match_id, points, found[0], found[1].copy())
                return self._fold(match_id, points, found[1], None)
        state = points.states[base].copy() if base else GameState()
        return self._fold(match_id, points, state, None)

    def _fold(self, match_id: UUID, points: _Points, state: GameState, n: int | None) -> GameState:
        kept = points.events
        k = state.version + 1  # the events kept in memory first, then the rest from the store
        while n is None or k <= n:
            event = kept.get(k)  # one look: another thread may drop this match's events meanwhile
            if event is None:
                break
            self._apply(match_id, points, state, event)
            k += 1
        if n is not None and k > n:
            return state
        start = state.version
        if n is None and start > 0:  # the latest: check that the store still has the last event known
            known = kept.get(start)
            events = self.read(match_id, start - 1, None)
            first = events[0] if events else None
            if first is None or first.originator_version != start or not _same(known, first):
                self.forget(match_id)
                raise StaleHistory(match_id, start)
            events = events[1:]
        else:
            events = self.read(match_id, start, n)
        for e in events:
            self._apply(match_id, points, state, e)
        self._keep_events(match_id, points, start, events)
        return state

    def _apply(self, match_id: UUID, points: _Points, state: GameState, event: Any) -> None:
        apply(state, event)
        if state.version % self.interval == 0 and state.version not in points.states:
            self._keep(match_id, points, state.version, state.copy())

    def _keep_events(self, match_id: UUID, points: _Points, start: int, events: Sequence[Any]) -> None:
        """Keep events ``start + 1`` on in memory, dropping those of the least recently used other matches
        when the budget is full; a match that would fill it alone keeps none more."""
        with self._lock:
            new = [(start + i, e) for i, e in enumerate(events, start=1) if start + i not in points.events]
            if not new or self._matches.get(match_id) is not points:
                return
            for other, dropped in list(self._matches.items()):
                if self._event_count + len(new) <= self.max_events:
                    break
                if other != match_id:
                    self._event_count -= len(dropped.events)
                    dropped.events.clear()
            if self._event_count + len(new) > self.max_events:
                return
            points.events.update(new)
            self._event_count += len(new)

    def forget(self, match_id: UUID) -> None:
        with self._lock:
            points = self._matches.pop(match_id, None)
            if points is not None:
                self._count -= len(points.states)
                self._event_count -= len(points.events)

    def clear(self) -> None:
        """Drop every state and event kept, of every match."""
        with self._lock:
            self._matches.clear()
            self._count = 0
            self._event_count = 0

    @property
    def states(self) -> int:
        """How many states are kept in memory, for all matches."""
        return self._count

    @property
    def events(self) -> int:
        """How many events are kept in memory, for all matches."""
        return self._event_count


def _same(known: Any, stored: Any) -> bool:
    """Whether an event kept and the event the store has at its number are the same one (by hash, where
    both have one)."""
    if known is None:
        return True
    a, b = getattr(known, "hash", None), getattr(stored, "hash", None)
    return a is None or b is None or a == b
