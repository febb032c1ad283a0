"""The ability vocabulary added for the WXDi-D09 Piruluk half, where a scenario cannot say it all: coins and
extra costs, awakening, 2/Turn triggers, declared numbers, the new triggers' validation, and what each player
sees of the new events."""

from __future__ import annotations

from typing import Any

import pytest

from domain.abilities.catalogue import ability_problems, describe_ability
from domain.abilities.constants import front_to_trash
from domain.abilities.effects import step_problems, step_text
from domain.abilities.triggers import _counted
from domain.errors import InvalidPosition
from domain.evolve import fold
from domain.legal import legal_actions
from domain.setup import create_position
from domain.state import GameState, PlayerState, Slot
from projections.views import redact_data
from tests.unit.scenario_runner import build


def start(position: dict[str, Any]) -> GameState:
    return fold(create_position(build(position), seed=7))


def main(p1: dict[str, Any], p2: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "turn": 4,
        "turn_player": "p1",
        "phase": "main",
        "players": {"p1": p1, **({"p2": p2} if p2 else {})},
    }


def test_new_triggers_are_validated() -> None:
    ok = {"kind": "auto", "trigger": {"on": "signi_enters", "filter": {"class": "Angel"}}, "effect": []}
    assert ability_problems("x", ok) == []
    for trigger in ("drew", "discarded", "turn_end", "enters", "targeted", "signi_attacks"):
        assert ability_problems("x", {"kind": "auto", "trigger": {"on": trigger}, "effect": []}) == []
    assert ability_problems("x", {"kind": "auto", "trigger": {"on": "drew", "filter": {"level": 1}}})
    assert ability_problems("x", {"kind": "auto", "trigger": {"on": "signi_enters", "filter": {"nope": 1}}})
    assert ability_problems("x", {"kind": "auto", "trigger": {"on": "drew", "when": 1}})
    assert ability_problems("x", {"kind": "auto", "once": "thrice", "trigger": {"on": "drew"}})
    assert "twice per turn" in describe_ability({"kind": "auto", "once": "twice", "trigger": {"on": "drew"}})


def test_extra_costs_are_for_spells_and_pieces_and_only_coins_or_exceed() -> None:
    assert ability_problems("x", {"kind": "spell", "extra_cost": {"coins": 1}, "effect": []}) == []
    assert ability_problems("x", {"kind": "piece", "extra_cost": {"exceed": 4}, "effect": []}) == []
    assert ability_problems("x", {"kind": "enter", "extra_cost": {"coins": 1}, "effect": []})
    assert ability_problems("x", {"kind": "spell", "extra_cost": {"ener": []}, "effect": []})
    text = describe_ability({"kind": "spell", "extra_cost": {"exceed": 7}, "effect": [{"op": "draw"}]})
    assert "exceed 7" in text


def test_declare_needs_a_number_or_the_opponents_center_level() -> None:
    assert step_problems({"op": "declare", "max": "opponent_center_level"}) == []
    assert step_problems({"op": "declare", "min": 0, "max": 5}) == []
    assert step_problems({"op": "declare", "max": "lots"})
    assert "center LRIG" in step_text({"op": "declare", "max": "opponent_center_level"})


def test_may_pay_with_an_else_and_an_empty_cost_is_described() -> None:
    assert step_text({"op": "may_pay", "cost": {}, "then": [{"op": "draw"}]}) == "you may: you draw 1"
    harmony = {
        "op": "may_pay",
        "cost": {"down_lrig": {"n": 1}},
        "else": [{"op": "down", "target": {"self": True}}],
    }
    assert "if you do not: down this card" in step_text(harmony)
    assert step_problems(harmony) == []


def test_a_twice_per_turn_trigger_counts_two() -> None:
    s = GameState(turn=3)
    assert not _counted(s, "c1", 0, "twice", [])
    one = [{"card": "c1", "ability": 0}]
    assert not _counted(s, "c1", 0, "twice", one)
    assert _counted(s, "c1", 0, "twice", one * 2)
    s.used["c1/0"] = 3
    assert _counted(s, "c1", 0, "twice", one)
    s.used["c1/0#2"] = 3
    assert _counted(s, "c1", 0, "twice", [])
    s.turn = 4  # a new turn: counted afresh
    assert not _counted(s, "c1", 0, "twice", one)


def test_coins_and_awakening_are_left_out_of_the_state_when_unused() -> None:
    assert "coins" not in PlayerState().to_dict()
    assert PlayerState.from_dict({**PlayerState(coins=3).to_dict()}).coins == 3
    assert "awakened" not in Slot("c1").to_dict()
    again = Slot.from_dict(Slot("c1", awakened=True).to_dict())
    assert again.awakened and again.copy().awakened


def test_positions_check_coins_and_awakening() -> None:
    s = start(main({"coins": 5, "signi": {"left": {"card": "WXDi-D09-P18", "awakened": True}}}))
    assert s.players["p1"].coins == 5
    slot = s.players["p1"].signi["left"]
    assert slot is not None and slot.awakened
    with pytest.raises(InvalidPosition):
        start(main({"coins": 6}))
    with pytest.raises(InvalidPosition):
        start(main({"lrig": {"center": {"card": "WXDi-D09-P04", "awakened": True}}}))


def test_a_bet_is_among_the_legal_actions_only_with_a_coin() -> None:
    def spells(coins: int) -> list[dict[str, Any]]:
        s = start(main({"hand": ["WXDi-D09-P26"], "coins": coins}))
        return [a for a in legal_actions(s) if a["type"] == "use_spell"]

    assert [a.get("extra", False) for a in spells(1)] == [False, True]
    assert [a.get("extra", False) for a in spells(0)] == [False]


def test_the_front_goes_to_the_trash_only_during_an_attack_phase() -> None:
    pos = {"players": {"p1": {"signi": {"right": "WXDi-D09-P14"}}, "p2": {"signi": {"left": "WXDi-D09-P19"}}}}
    s = start({**main({}), **pos})
    assert front_to_trash(s, "p2", "left") is None
    s = start({"turn": 4, "turn_player": "p1", "phase": "attack", "step": "signi_attack", **pos})
    assert front_to_trash(s, "p2", "left") == s.players["p1"].signi["right"].iid  # type: ignore[union-attr]
    assert front_to_trash(s, "p2", "center") is None
    assert front_to_trash(s, "p1", "left") is None  # its own side's SIGNI are not in front of it


def test_what_each_viewer_sees_of_arranged_decks_and_shown_hands() -> None:
    arranged = {"player": "p1", "top": ["a", "b"], "bottom": ["c"]}
    assert redact_data("DeckTopArranged", arranged, "p1") == arranged
    assert redact_data("DeckTopArranged", arranged, "p2") == {
        "player": "p1",
        "top": {"count": 2},
        "bottom": {"count": 1},
    }
    looked = {"player": "p2", "to": "p1", "cards": ["x", "y"]}
    assert redact_data("HandRevealed", looked, "p1") == looked
    assert redact_data("HandRevealed", looked, "p2") == looked
    assert redact_data("HandRevealed", looked, "spectator") == {"player": "p2", "to": "p1", "count": 2}
    shown = {**looked, "to": "all"}
    assert redact_data("HandRevealed", shown, "spectator") == shown
