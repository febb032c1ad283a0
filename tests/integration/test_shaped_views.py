"""The state, actions and events endpoints send their views (``projections.views``) as they are, without
dumping them with their response schemas (``@endpoint(shaped=True)``). That is sound only if each view is
already exactly what its schema would make of it: plain JSON values under the schema's field names. These
tests check it on the states and stored events of random games of several pairings, for every viewer.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.api.actions import act
from app.api.events import list_events
from app.api.state import get_state
from app.application import JudgeApplication
from app.schemas.actions import ActionResultSchema
from app.schemas.events import EventListSchema
from app.schemas.state import StateViewSchema
from domain.decks import preset
from domain.engine import decide
from domain.evolve import apply
from domain.legal import legal_actions
from domain.setup import PlayerSetup, create_match
from domain.state import GameState
from projections.sentences import Cast
from projections.views import VIEWERS, event_view, state_view

SCHEMA = StateViewSchema()
GAMES = ((11, "WXDi-D01", "WXDi-D06"), (12, "WXDi-D09-P", "WXDi-D04"), (13, "WXDi-D07", "WXDi-D09-H"))


def states(seed: int, decks: tuple[str, str], every: int = 7) -> list[GameState]:
    """Every ``every``-th state of a random game, and its last."""
    chooser = random.Random(seed)
    setups = {p: PlayerSetup(p, preset(d)) for p, d in zip(("p1", "p2"), decks, strict=True)}
    state = GameState()
    out: list[GameState] = []
    pending = create_match("diva", seed, setups)
    while pending:
        for e in pending:
            apply(state, e)
            if state.version % every == 0:
                out.append(state.copy())
        if state.status == "finished" or state.turn > 12:
            break
        pending = decide(state, chooser.choice(list(legal_actions(state))))
    out.append(state.copy())
    return out


@pytest.mark.parametrize(
    ("view", "schema"),
    [(get_state, StateViewSchema), (act, ActionResultSchema), (list_events, EventListSchema)],
)
def test_the_endpoints_are_declared_shaped(view: Any, schema: type) -> None:
    assert view.__endpoint__.shaped
    assert isinstance(view.__endpoint__.response, schema)


@pytest.mark.parametrize(("seed", "d1", "d2"), GAMES)
def test_dumping_a_state_view_with_its_schema_changes_nothing(seed: int, d1: str, d2: str) -> None:
    checked = 0
    for state in states(seed, (d1, d2)):
        for viewer in VIEWERS:
            for options in (True, False):
                view: dict[str, Any] = state_view(state, viewer, options=options)
                assert json.loads(json.dumps(view)) == view, "the view holds a value JSON does not keep"
                assert SCHEMA.dump(view) == view, (state.version, viewer)
                checked += 1
    assert checked > 100


def test_a_changed_view_would_be_caught() -> None:
    """The check above is not vacuous: the schema does change a view with a wrongly typed value."""
    view = state_view(states(11, ("WXDi-D01", "WXDi-D06"))[-1], "judge")
    view["turn"] = "3"
    assert SCHEMA.dump(view) != view


@pytest.mark.parametrize(("seed", "d1", "d2"), GAMES)
def test_dumping_event_views_and_action_results_changes_nothing(seed: int, d1: str, d2: str) -> None:
    judge = JudgeApplication(env={"PERSISTENCE_MODULE": "eventsourcing.popo"})
    try:
        setups = {p: PlayerSetup(p, preset(d)) for p, d in zip(("p1", "p2"), (d1, d2), strict=True)}
        mid = judge.create_match("diva", seed, setups).id
        chooser = random.Random(seed)
        results = []
        for _ in range(150):
            state = judge.state_at(mid)
            if state.status == "finished":
                break
            action = chooser.choice(list(legal_actions(state)))
            events = judge.act(mid, action, state.version)
            for viewer in VIEWERS:
                results.append(
                    {
                        "version": events[-1].originator_version,
                        "events": [event_view(e, viewer, cast=Cast.of(state)) for e in events],
                    }
                )
        to = max(n for n, _, flag in judge.decision_points(mid, 0, judge.head(mid) // 2) if flag)
        judge.rewind(mid, to, "a judge's decision")
        marks = judge.rewound_marks(mid)
        assert marks
        stored = judge.stored_events(mid)
        cast = Cast.of(judge.state_at(mid, 1))
        for viewer in VIEWERS:
            page = {
                "events": [
                    event_view(e, viewer, rewound_by=marks.get(e.originator_version), cast=cast)
                    for e in stored
                ],
                "head": judge.head(mid),
            }
            assert json.loads(json.dumps(page)) == page
            assert EventListSchema().dump(page) == page, viewer
        for result in results:
            assert json.loads(json.dumps(result)) == result
            assert ActionResultSchema().dump(result) == result
        assert len(results) > 100
    finally:
        judge.close()
