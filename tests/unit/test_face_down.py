"""Face-down cards in the SIGNI zones (rule face-down.signi): what each viewer sees of them, and what they are
to the game (not SIGNI: no power, level or abilities, not counted, not blocking a zone).

The seeds say a card turned face down where it is may still be seen by every player who could see it before
(seed 000 "Public zone"): a SIGNI turned face down on the field stays known to both players. A card whose
front a player may not see (``seen_by`` without them) must never be named to that player: not in the state,
not in an event, not by its instance id.
"""

from __future__ import annotations

import json
from typing import Any

from domain import facts
from domain.events import Event
from domain.evolve import fold
from domain.setup import create_position
from domain.state import GameState
from projections.views import VIEWERS, hidden_iids, redact_data, state_view
from tests.unit.scenario_runner import build

SECRET = "WXDi-P01-040"  # the face-down card
OTHER = "WXDi-D03-019"


def _position(seen_by: list[str]) -> GameState:
    pos = build(
        {
            "turn": 4,
            "turn_player": "p1",
            "phase": "main",
            "players": {"p1": {"signi": {"center": OTHER}, "face_down": {"left": [SECRET]}}},
        }
    )
    state = fold(create_position(pos, seed=3))
    for _zone, entry in state.players["p1"].face_down_cards():
        entry["seen_by"] = list(seen_by)
    return state


def _text(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def _secret_iid(state: GameState) -> str:
    return state.players["p1"].face_down["left"][0]["iid"]


def test_a_face_down_card_seen_only_by_its_owner_is_named_to_no_one_else() -> None:
    state = _position(["p1"])
    iid = _secret_iid(state)
    for viewer in VIEWERS:
        view = state_view(state, viewer, options=False)
        entry = view["players"]["p1"]["face_down"]["left"][0]
        assert entry["face_down"] is True
        sees = viewer in ("judge", "p1")
        assert (SECRET in _text(view)) is sees, viewer
        assert (iid in _text(view)) is sees, viewer
        assert (iid in hidden_iids(state, viewer)) is (not sees), viewer
        assert "power" not in entry and "level" not in entry  # not a SIGNI: no power, no level
    event = Event(
        "SigniTurnedFaceDown",
        "rules",
        "face-down.signi",
        {"player": "p1", "card": iid, "zone": "left", "seen_by": ["p1"], "by_effect": iid},
    )
    for viewer in VIEWERS:
        data = redact_data(event.type, event.data, viewer)
        assert ("card" in data) is (viewer in ("judge", "p1")), viewer


def test_a_signi_turned_face_down_where_it_is_stays_known_to_both_players() -> None:
    state = _position(["p1", "p2"])
    for viewer in VIEWERS:
        view = state_view(state, viewer, options=False)
        assert view["players"]["p1"]["face_down"]["left"][0]["card"] == SECRET, viewer


def test_a_face_down_card_is_no_signi_of_the_field() -> None:
    state = _position(["p1", "p2"])
    ps = state.players["p1"]
    assert ps.signi["left"] is None  # the zone takes a SIGNI
    assert [sl.iid for _z, sl in ps.signi_slots()] == [ps.signi["center"].iid]  # type: ignore[union-attr]
    assert facts.signi_levels(state, "p1") == 2  # only the face-up SIGNI counts towards the limit
    assert ps.find(_secret_iid(state)) == "face_down:left"


def test_legal_actions_offer_robin_hoods_attacks_turning_others_face_down_and_each_is_accepted() -> None:
    """Rule face-down.signi (000 'Public zone'; WXDi-P05-069 gives WXDi-P01-040 'turn up to two other SIGNI
    face down as it attacks'): the SIGNI attack step lists each choice of the others, none, one or both."""
    from domain.engine import decide
    from domain.legal import legal_actions
    from tests.unit.scenario_runner import build

    position = {
        "turn": 4,
        "turn_player": "p1",
        "phase": "attack",
        "step": "signi_attack",
        "players": {
            "p1": {"signi": {"left": "WXDi-P05-069", "center": "WXDi-P01-040", "right": "WXDi-D03-019"}},
            "p2": {"signi": {"left": "WXDi-D03-019", "center": "WXDi-D03-018"}},
        },
    }
    state = fold(create_position(build(position), seed=7))
    robin = state.players["p1"].signi["center"]
    assert robin is not None
    others = sorted(sl.iid for z, sl in state.players["p1"].signi_slots() if z != "center")
    offered = [a for a in legal_actions(state) if a.get("type") == "attack" and a.get("zone") == "center"]
    named = sorted(sorted(a.get("face_down", [])) for a in offered)
    assert named == sorted([[], [others[0]], [others[1]], others])
    for act in offered:  # each is accepted: the others named are turned face down before the attack
        turned = [e for e in decide(state, act) if e.type == "SigniTurnedFaceDown"]
        assert sorted(e.data["card"] for e in turned) == sorted(act.get("face_down", []))
    plain = [a for a in legal_actions(state) if a.get("type") == "attack" and a.get("zone") == "right"]
    assert plain and all("face_down" not in a for a in plain)  # a SIGNI with no such constant offers none
