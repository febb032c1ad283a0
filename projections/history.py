"""State at any event: the fold of the first N events, from the nearest checkpoint.

A match's log only grows, so a state folded once at version V stays true for ever: checkpoints are kept every
``interval`` events (in memory, per process), and ``state_at(N)`` folds only the events between the nearest
checkpoint at or before N and N itself.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from domain.evolve import apply
from domain.state import GameState

ReadEvents = Callable[[UUID, int, int | None], Sequence[Any]]  # (id, after, up to and including) -> events


class History:
    def __init__(self, read: ReadEvents, interval: int = 50, max_matches: int = 512) -> None:
        self.read = read
        self.interval = interval
        self.max_matches = max_matches
        self._checkpoints: OrderedDict[UUID, dict[int, GameState]] = OrderedDict()
        self._lock = threading.Lock()

    def _points(self, match_id: UUID) -> dict[int, GameState]:
        with self._lock:
            points = self._checkpoints.get(match_id)
            if points is None:
                points = {}
                self._checkpoints[match_id] = points
                while len(self._checkpoints) > self.max_matches:
                    self._checkpoints.popitem(last=False)
            else:
                self._checkpoints.move_to_end(match_id)
            return points

    def state_at(self, match_id: UUID, n: int) -> GameState:
        """The state after the first ``n`` events (``n`` >= 1, not checked against the head here)."""
        points = self._points(match_id)
        base = max((v for v in list(points) if v <= n), default=0)
        state = points[base].copy() if base else GameState()
        if base == n:
            return state
        for e in self.read(match_id, base, n):
            apply(state, e)
            if state.version % self.interval == 0 and state.version not in points:
                points[state.version] = state.copy()
        if state.version != n:
            raise LookupError(f"the log of match {match_id} has no event {n}")
        return state

    def forget(self, match_id: UUID) -> None:
        with self._lock:
            self._checkpoints.pop(match_id, None)
