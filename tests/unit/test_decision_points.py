"""The domain's check that time travel lands on a decision point (rule ``judge.decision-point``), shared by
every use of ``domain.judge.rewind`` and ``branch``: a state the players could have seen, where the game waits
for somebody's answer and the next event in the log begins one."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from domain.evolve import fold
from domain.judge import Landing, NotADecisionPoint, branch, decision_points, is_decision_point, rewind
from tests.unit.test_properties import PAIRS, play


def _log() -> list[Any]:
    return play(21, PAIRS[5], max_events=400)


def test_the_fold_marks_exactly_the_ends_of_batches_that_wait_for_an_answer() -> None:
    events = _log()
    flags = [flag for _, flag in decision_points(fold([]), events, None)]
    for n, flag in enumerate(flags, start=1):
        state = fold(events[:n])
        following = events[n] if n < len(events) else None
        assert flag is is_decision_point(state, following)
        if flag:
            assert state.pending is not None and state.status != "finished"
            assert following is None or following.action is not None
    assert flags[-1] is (fold(events).status != "finished")
    # the flags of a slice, folded from the state before it, are the same
    mid = len(events) // 2
    part = [flag for _, flag in decision_points(fold(events[:mid]), events[mid : mid + 40], events[mid + 40])]
    assert part == flags[mid : mid + 40]


def test_rewind_and_branch_refuse_any_other_event_and_name_the_nearest() -> None:
    events = _log()
    flags = [flag for _, flag in decision_points(fold([]), events, None)]
    points = [n for n, f in enumerate(flags, start=1) if f]
    head = fold(events)
    rnd = random.Random(2)
    others = [n for n, f in enumerate(flags, start=1) if not f]
    for n in rnd.sample(others, 20):
        earlier = max((k for k in points if k < n), default=None)
        later = min((k for k in points if k > n), default=None)
        landing = Landing(events[n] if n < len(events) else None, lambda e=earlier, la=later: (e, la))
        target = fold(events[:n])
        with pytest.raises(NotADecisionPoint) as refused:
            rewind(head, target, n, "x", landing)
        assert refused.value.rule_refs == ("judge.decision-point", "judge.rewind")
        assert refused.value.fields == {"at": n, "earlier": earlier, "later": later}
        copy = pickle.loads(pickle.dumps(refused.value))
        assert copy.fields == refused.value.fields and copy.message == refused.value.message
        with pytest.raises(NotADecisionPoint):
            branch(target, "parent", n, "x", landing)
    for n in rnd.sample(points, 10):
        target = fold(events[:n])
        landing = Landing(events[n] if n < len(events) else None, lambda: pytest.fail("not asked"))
        out = rewind(head, target, n, "x", landing)
        assert [e.type for e in out] == ["Rewound"] and out[0].data["digest"] == target.digest()
        assert [e.type for e in branch(target, "parent", n, "x", landing)] == ["Branched"]
