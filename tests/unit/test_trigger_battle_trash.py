"""The trigger forms no printed card of the sets encoded so far reads, each on a card encoded in a temporary
file: a SIGNI vanished in battle (``vanished`` by ``battle``), this SIGNI vanishing an opponent's SIGNI by its
own ability (``vanishes``), a SIGNI of yours or of the opponent put from the field into the trash
(``trashed``: ``you`` by a cost or an effect, ``opponent`` however). 000 'Battle', 'Vanish', 'Trash',
'[Auto]'.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from domain.abilities.catalogue import use_encodings
from domain.engine import decide
from domain.evolve import fold
from domain.setup import create_position
from domain.state import GameState
from tests.unit.scenario_runner import build
from tests.unit.spare_card import spare_signi

CARD = spare_signi()
C2H2 = "WXDi-P01-056"  # [Action] paying three ener and putting itself into the trash: vanish a SIGNI
STRONG, WEAK = "WXDi-D03-019", "WXDi-D03-018"  # 10000 and 5000 power, no abilities


@pytest.fixture
def encode(tmp_path: Path) -> Iterator[Any]:
    def write(abilities: list[dict[str, Any]]) -> None:
        (tmp_path / "new.json").write_text(json.dumps({CARD: abilities}))
        use_encodings(tmp_path)

    yield write
    use_encodings()


def _start(p1: dict[str, Any], p2: dict[str, Any], phase: str = "main", step: str | None = None) -> GameState:
    position: dict[str, Any] = {
        "turn": 4,
        "turn_player": "p1",
        "phase": phase,
        "players": {"p1": p1, "p2": p2},
    }
    if step:
        position["step"] = step
    return fold(create_position(build(position), seed=5))


def _do(s: GameState, action: dict[str, Any]) -> tuple[GameState, list[Any]]:
    batch = decide(s, action)
    return fold(batch, s), batch


def _triggered(batch: list[Any], s: GameState) -> list[str]:
    return [s.cards[e.data["card"]] for e in batch if e.type == "AbilityTriggered"]


def test_vanished_in_battle_triggers_only_in_battle(encode: Any) -> None:
    encode(
        [{"kind": "auto", "trigger": {"on": "vanished", "by": "battle"}, "effect": [{"op": "draw", "n": 1}]}]
    )
    s = _start({"signi": {"center": STRONG}}, {"signi": {"center": CARD}}, "attack", "signi_attack")
    s, batch = _do(s, {"type": "attack", "player": "p1", "zone": "center"})
    assert CARD in _triggered(batch, s)
    assert len(s.players["p2"].zones["hand"]) == 1, "vanished in battle: it draws"
    # vanished by an effect (power 0 or less after a spell): it does not trigger
    s = _start({"hand": ["WXDi-P00-080"], "ener": ["WXDi-D02-26"] * 4}, {"signi": {"center": CARD}})
    s, _ = _do(s, {"type": "use_spell", "player": "p1", "card": "WXDi-P00-080"})
    s, batch = _do(s, {"type": "pass", "player": "p2"})
    assert any(e.type == "SigniVanished" for e in batch)
    assert CARD not in _triggered(batch, s) and not s.players["p2"].zones["hand"]


def test_vanishes_by_its_own_ability_triggers_and_another_cards_does_not(encode: Any) -> None:
    encode(
        [
            {
                "kind": "action",
                "timing": ["main"],
                "effect": [{"op": "vanish", "target": {"side": "opponent"}}],
            },
            {"kind": "auto", "trigger": {"on": "vanishes"}, "effect": [{"op": "draw", "n": 1}]},
        ]
    )
    s = _start({"signi": {"center": CARD}}, {"signi": {"center": WEAK}})
    s, batch = _do(s, {"type": "use_ability", "player": "p1", "card": CARD})
    assert [e.type for e in batch].count("SigniVanished") == 1
    assert len(s.players["p1"].zones["hand"]) == 1, "it vanished the SIGNI by its own ability: it draws"
    # another card's ability vanishes the SIGNI: it does not trigger
    s = _start({"signi": {"center": CARD, "left": C2H2}, "ener": [WEAK] * 3}, {"signi": {"center": WEAK}})
    s, batch = _do(s, {"type": "use_ability", "player": "p1", "card": C2H2})
    assert any(e.type == "SigniVanished" for e in batch)
    assert not s.players["p1"].zones["hand"]


def test_trashed_yours_by_a_cost_and_the_opponents_however(encode: Any) -> None:
    encode(
        [
            {
                "kind": "auto",
                "trigger": {"on": "trashed", "whose": "you", "by": "cost_or_effect"},
                "effect": [{"op": "draw", "n": 1}],
            },
            {
                "kind": "auto",
                "trigger": {"on": "trashed", "whose": "opponent"},
                "effect": [{"op": "ener_charge", "n": 1}],
            },
        ]
    )
    s = _start(
        {"signi": {"center": CARD, "left": C2H2}, "ener": [WEAK] * 3},
        {"signi": {"center": CARD, "left": STRONG}},
    )
    s, batch = _do(s, {"type": "use_ability", "player": "p1", "card": C2H2})
    moved = next(e for e in batch if e.type == "CardsMoved" and e.data.get("from") == "signi")
    assert moved.data["as_cost"] is True
    strong = next(sl.iid for z, sl in s.players["p2"].signi_slots() if z == "left")
    s, batch = _do(s, {"type": "choose", "player": "p1", "cards": [strong]})  # the SIGNI C2H2 vanishes
    assert len(s.players["p1"].zones["hand"]) == 1, "a SIGNI of yours put into the trash as a cost: draw"
    assert len(s.players["p2"].zones["ener"]) == 1 + 1, (
        "the opponent's SIGNI trashed: charge (and the vanished)"
    )


def test_trashed_yours_own_effect_form_skips_the_opponents_effect(encode: Any) -> None:
    encode(
        [
            {
                "kind": "auto",
                "trigger": {"on": "trashed", "whose": "you", "by": "cost_or_your_effect"},
                "effect": [{"op": "draw", "n": 1}],
            },
        ]
    )
    # the opponent's effect (an enter ability of their SIGNI) puts p2's SIGNI into the trash: no draw for p2
    s = _start(
        {"hand": ["WXDi-P01-049"], "ener": ["WXDi-D02-26"] * 5}, {"signi": {"center": CARD, "left": WEAK}}
    )
    s, _ = _do(s, {"type": "play_signi", "player": "p1", "card": "WXDi-P01-049", "zone": "center"})
    s, batch = _do(s, {"type": "choose", "player": "p1", "option": "pay"})
    if s.pending and s.pending.get("purpose") == "target":
        left = next(sl.iid for z, sl in s.players["p2"].signi_slots() if z == "left")
        s, batch = _do(s, {"type": "choose", "player": "p1", "cards": [left]})
    assert any(e.type == "CardsMoved" and e.data.get("to") == "trash" for e in batch)
    assert not s.players["p2"].zones["hand"]
