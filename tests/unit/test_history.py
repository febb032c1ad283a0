"""The history: states at any N from checkpoints, and the events it keeps in memory so that stepping back and
forth through a match does not ask the store again."""

from __future__ import annotations

import copy
from typing import Any
from uuid import UUID

from domain.evolve import fold
from projections.history import History
from tests.unit.test_properties import play


def _log(seed: int, max_events: int = 400) -> list[Any]:
    return play(seed, ("WXDi-D01", "WXDi-D02"), max_events)


class CountingStore:
    """A log per match, counting the events read from it."""

    def __init__(self, logs: dict[UUID, list[Any]]) -> None:
        self.logs = logs
        self.read_events = 0

    def read(self, match_id: UUID, after: int, upto: int | None) -> list[Any]:
        out = self.logs[match_id][after:upto]
        self.read_events += len(out)
        return out


def test_folding_leaves_the_events_as_they_were() -> None:
    """Kept events are folded again and again: applying one must never change it."""
    events = _log(5)
    before = copy.deepcopy([e.to_dict() for e in events])
    first = fold(events)
    second = fold(events)
    assert [e.to_dict() for e in events] == before
    assert first.digest() == second.digest()


def test_stepping_through_a_match_reads_each_event_from_the_store_once() -> None:
    a = UUID(int=1)
    store = CountingStore({a: _log(7)})
    head = len(store.logs[a])
    history = History(store.read, interval=16)
    for n in range(1, head + 1):
        assert history.state_at(a, n).digest() == fold(store.logs[a][:n]).digest()
    assert store.read_events == head
    reads = store.read_events
    for n in range(head, 0, -1):  # and back again, from memory alone
        assert history.state_at(a, n).version == n
    assert store.read_events == reads
    assert history.events == head


def test_the_events_kept_stay_within_the_budget_dropping_the_least_recently_used_match() -> None:
    a, b = UUID(int=1), UUID(int=2)
    store = CountingStore({a: _log(3, 300), b: _log(4, 300)})
    history = History(store.read, interval=16, max_events=400)
    history.state_at(a, 300)
    assert history.events == 300
    history.state_at(b, 300)  # a's events are dropped to make room for b's
    assert history.events == 300
    reads = store.read_events
    history.state_at(b, 250)
    assert store.read_events == reads, "b's events are in memory"
    assert history.state_at(a, 299).digest() == fold(store.logs[a][:299]).digest()
    assert store.read_events > reads, "a's events were dropped and are read again"
    assert history.events <= 400
    history.forget(b)
    assert history.events <= 300
