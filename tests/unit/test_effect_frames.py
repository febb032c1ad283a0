"""Typed, versioned effect frames (``domain.abilities.frames``): a match stored while it waited inside an
effect, in the frame shape of an older engine, still folds and resumes.

An effect that waits for a player stores its progress in the ``Asked`` event (``resume``). Engines up to 0.3.0
stored it unversioned, as underscore keys inside the steps (version 1); today's engine stores version 2 and
upcasts version 1 when it reads a stored frame back. The golden logs (``tests/golden/``, never regenerated)
hold matches written in the version 1 shape."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from app.application import JudgeApplication
from domain.abilities.frames import (
    FRAME_VERSION,
    Arrange,
    BottomOrders,
    FrameError,
    LookTop,
    dump,
    load,
    upcast_v1,
)
from domain.engine import decide
from domain.events import same_event
from domain.evolve import apply
from domain.legal import legal_actions
from domain.state import GameState

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
MATCH = GOLDEN / "match-d01-d02.jsonl"
WAITING_AT = 673  # match-d01-d02's event 673: an Asked in the middle of a look_top step (version 1 frame)


def _records(path: Path, upto: int | None = None) -> tuple[UUID, list[StoredEvent]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    mid = UUID(json.loads(lines[0])["match_id"])
    records = [
        StoredEvent(
            originator_id=mid,
            originator_version=line["originator_version"],
            topic=line["topic"],
            state=line["state"].encode("utf-8"),
        )
        for line in map(json.loads, lines[1:])
        if upto is None or line["originator_version"] <= upto
    ]
    return mid, records


@pytest.fixture
def fresh_app() -> Iterator[JudgeApplication]:
    app = JudgeApplication({"PERSISTENCE_MODULE": "eventsourcing.popo"})
    yield app
    app.close()


def _without_frame(event: Any) -> SimpleNamespace:
    """The event with an ``Asked`` event's frame left out (the shape it is stored in aside)."""
    data = {k: v for k, v in event.data.items() if not (event.type == "Asked" and k == "resume")}
    fields = ("type", "actor", "rule", "caused_by", "by", "action")
    return SimpleNamespace(data=data, **{name: getattr(event, name) for name in fields})


def _stored(path: Path) -> list[Any]:
    """The whole golden log, as the application reads it back."""
    app = JudgeApplication({"PERSISTENCE_MODULE": "eventsourcing.popo"})
    try:
        mid, records = _records(path)
        app.recorder.insert_events(records)
        return list(app.stored_events(mid))
    finally:
        app.close()


def _v1_look_top() -> dict[str, Any]:
    """The frame of match-d01-d02's event 673, as the 0.3.0 engine stored it."""
    _mid, records = _records(MATCH, WAITING_AT)
    data: dict[str, Any] = json.loads(records[-1].state)["data"]
    resume: dict[str, Any] = data["resume"]
    return resume


# -- the upcaster -----------------------------------------------------------------------------------


def test_a_version_1_frame_is_read_into_the_typed_frame() -> None:
    old = _v1_look_top()
    assert "frame" not in old and old["segment"]["steps"][0]["_await"] == "answer"
    frame = load(old)
    assert (frame.card, frame.player, frame.rule, frame.queue) == (old["card"], "p2", "ability.enter", [])
    assert frame.segment is not None and frame.segment.told is True
    at = frame.segment.steps[0]
    assert at.step == {k: v for k, v in old["segment"]["steps"][0].items() if not k.startswith("_")}
    assert at.progress.awaiting == "answer"
    assert at.progress.look == LookTop(
        top=old["segment"]["steps"][0]["_top"], group=0, taking=[], hand=[], stage="pick"
    )
    assert frame.notes == old["vars"]
    assert frame.waiting() is at


def test_a_frame_dumps_with_its_version_and_loads_back_the_same() -> None:
    frame = load(_v1_look_top())
    stored = dump(frame)
    assert stored["frame"] == FRAME_VERSION == 2
    assert json.loads(json.dumps(stored)) == stored  # plain data, as an event stores it
    assert load(stored) == frame
    assert dump(load(stored)) == stored


def test_every_version_1_progress_key_has_a_typed_place() -> None:
    old = {
        "card": "c1",
        "player": "p1",
        "ability": 0,
        "rule": "ability.enter",
        "queue": [
            {"op": "may_pay", "cost": {"ener": []}, "_cost": True, "_await": "answer", "_picked": ["e1"]},
            {"op": "modes", "choose": 2, "repeat": True, "modes": [[], []], "_left": 1},
        ],
        "segment": {
            "steps": [
                {"op": "arrange_top", "n": 3, "_top": ["a", "b", "c"], "_bottom": ["a"]},
                {"op": "to_deck", "bottom": True, "_targets": ["x", "y"], "_asking": "p2", "_orders": {}},
            ],
            "_told": True,
        },
        "vars": {"paid": ["e1"], "done": 0},
    }
    frame = load(old)
    pay, modes = frame.queue
    assert pay.step["_cost"] is True  # a parameter the engine writes (a printed cost), not progress
    assert (pay.progress.awaiting, pay.progress.picked) == ("answer", ["e1"])
    assert modes.progress.left == 1
    assert frame.segment is not None
    arrange, to_deck = frame.segment.steps
    assert arrange.progress.arrange == Arrange(top=["a", "b", "c"], bottom=["a"])
    assert to_deck.progress.targets == ["x", "y"]
    assert to_deck.progress.bottom == BottomOrders(asking="p2", orders={})
    assert frame.notes == {"paid": ["e1"], "done": 0}
    assert upcast_v1(old)["frame"] == 2


def test_an_unknown_frame_is_refused_clearly() -> None:
    old = _v1_look_top()
    with pytest.raises(FrameError, match="version 3"):
        load({**dump(load(old)), "frame": 3})
    broken = json.loads(json.dumps(old))
    broken["segment"]["steps"][0]["_mystery"] = 1
    with pytest.raises(FrameError, match="_mystery"):
        load(broken)


# -- stored matches ---------------------------------------------------------------------------------


def test_a_match_waiting_inside_an_effect_with_an_old_frame_folds_and_resumes(
    fresh_app: JudgeApplication,
) -> None:
    # WXDi-D02's look at the top 3 (event 673): p2 is asked which of the cards looked at to take
    mid, records = _records(MATCH, WAITING_AT)
    fresh_app.recorder.insert_events(records)
    state = fresh_app.state_at(mid)
    assert state.pending is not None and state.pending["purpose"] == "effect"
    assert "frame" not in state.pending["resume"]  # the fold keeps the frame as stored: version 1
    folded = GameState()
    for event in fresh_app.stored_events(mid):
        apply(folded, event)
    assert folded.digest() == state.digest()

    # the answer the 0.3.0 engine was given, through the application: the same events follow
    original = _stored(MATCH)
    assert len(fresh_app.stored_events(mid)) == WAITING_AT
    answer = original[WAITING_AT].action
    produced = fresh_app.act(mid, answer, by=original[WAITING_AT].by)
    assert [e.type for e in produced][:2] == ["Answered", "CardsMoved"]
    for a, b in zip(produced, original[WAITING_AT : WAITING_AT + len(produced)], strict=True):
        assert same_event(_without_frame(a), _without_frame(b))

    # and the match plays on: a few more legal actions, every frame now stored in today's shape
    chooser = random.Random(13)
    for _ in range(12):
        state = fresh_app.state_at(mid)
        if state.status == "finished":
            break
        action = chooser.choice([a for a in legal_actions(state) if a["type"] != "concede"])
        fresh_app.act(mid, action, by=action.get("player"))
    events = fresh_app.stored_events(mid)
    assert len(events) > WAITING_AT + len(produced)
    frames = [
        e.data["resume"]
        for e in events[WAITING_AT:]
        if e.type == "Asked" and "queue" in e.data.get("resume", {})
    ]
    assert all(f["frame"] == FRAME_VERSION for f in frames)
    report = fresh_app.audit(mid)
    assert report.ok and report.problems == []


def _batches_answering_old_frames(path: Path) -> Iterator[tuple[GameState, Any, list[Any]]]:
    """Each batch of a golden log that answers a question asked inside an effect (a version 1 frame): the
    state before it, its first event (with the action), and its events."""
    events = _stored(path)
    starts = [i for i, e in enumerate(events) if e.action is not None]
    state = GameState()
    done = 0
    for a, b in zip(starts, [*starts[1:], len(events)], strict=True):
        for e in events[done:a]:
            apply(state, e)
        done = a
        resume = (state.pending or {}).get("resume") or {}
        if "queue" in resume and "frame" not in resume and events[a].type == "Answered":
            yield state.copy(), events[a], list(events[a:b])


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.jsonl")), ids=lambda p: p.stem)
def test_every_old_frame_of_a_golden_log_resumes_as_the_engine_that_wrote_it_did(path: Path) -> None:
    checked = 0
    for before, first, stored in _batches_answering_old_frames(path):
        produced = decide(before, first.action, by=first.by)
        assert len(produced) == len(stored), f"{path.name}: event {before.version + 1} resumes differently"
        for n, (a, b) in enumerate(zip(produced, stored, strict=True), start=before.version + 1):
            assert same_event(_without_frame(a), _without_frame(b)), f"{path.name}: event {n} differs"
        checked += 1
    if path.stem != "position-main":  # a short game from a position: no effect asked anything there
        assert checked >= 15  # 25, 19 and 22 of them in the three logs of whole matches
