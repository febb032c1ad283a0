"""Rise and Harmony as play rules (000 'Rise', 'Harmony'): what the legal actions offer, and how they read."""

from __future__ import annotations

from typing import Any

from domain.abilities.card_view import shown_kind
from domain.abilities.catalogue import abilities_of, ability_at, describe_ability
from domain.evolve import fold
from domain.legal import legal_actions
from domain.setup import create_position
from tests.unit.scenario_runner import build


def _plays(position: dict[str, Any], card: str) -> set[str]:
    state = fold(create_position(build(position), seed=7))
    return {
        a["zone"]
        for a in legal_actions(state)
        if a.get("type") == "play_signi" and state.cards[a["card"]] == card
    }


def test_a_rise_signi_is_offered_only_on_top_of_a_signi_that_meets_its_condition() -> None:
    """000 'Rise': the Rise condition must be met to put it onto the field (here: a red SIGNI)."""
    players = {
        "p1": {
            "lrig": {"center": "WXDi-D09-P04"},
            "signi": {"center": "WXDi-D09-H26", "left": "WXDi-D06-018"},
            "hand": ["WXDi-D09-H13", "WXDi-D03-012"],
        }
    }
    position = {"turn": 4, "turn_player": "p1", "phase": "main", "players": players}
    assert _plays(position, "WXDi-D09-H13") == {"center"}
    assert _plays(position, "WXDi-D03-012") == {"right"}  # a SIGNI without Rise: an empty zone only


def test_harmony_is_a_keyword_run_as_an_auto_ability_on_entering() -> None:
    """000 'Harmony': not an [Enter] ability; it triggers as the SIGNI enters, however it enters."""
    ab = abilities_of("WXDi-D09-P16")[0]
    assert ab["kind"] == "harmony"
    assert shown_kind(ab, "signi") == "auto"
    assert describe_ability(ab).startswith("Harmony:")
    run = ability_at("WXDi-D09-P16", 0)
    assert run["kind"] == "auto" and run["keyword"] == "harmony"
    assert run["trigger"] == {"on": "enters"}
    assert run["effect"][0]["op"] == "may_pay"
    assert run["effect"][0]["else"] == [{"op": "down", "target": {"self": True}}]


def test_an_action_used_from_the_hand_is_offered_there_and_not_on_the_field() -> None:
    """000 '[Action]': an ability whose cost discards its card is used from the hand (WXDi-P08-070)."""
    in_hand = {"p1": {"hand": ["WXDi-P08-070"], "signi": {"center": "WXDi-D01-019"}}}
    position = {"turn": 4, "turn_player": "p1", "phase": "main", "players": in_hand}
    state = fold(create_position(build(position), seed=7))
    used = [state.cards[a["card"]] for a in legal_actions(state) if a.get("type") == "use_ability"]
    assert "WXDi-P08-070" in used
    on_field = {"p1": {"hand": [], "signi": {"center": "WXDi-P08-070", "left": "WXDi-D01-019"}}}
    state = fold(create_position(build({**position, "players": on_field}), seed=7))
    used = [state.cards[a["card"]] for a in legal_actions(state) if a.get("type") == "use_ability"]
    assert "WXDi-P08-070" not in used
