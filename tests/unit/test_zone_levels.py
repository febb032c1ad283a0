"""Levels of cards in a deck or a trash (rule effect.zone-level): a constant sets them, or lets its player's
effects treat them as another level; the opponent's effects see them as they are."""

from __future__ import annotations

from typing import Any

from domain import facts
from domain.abilities import targets as tg
from domain.evolve import fold
from domain.setup import create_position
from domain.state import GameState
from tests.unit.scenario_runner import build


def _state(p1: dict[str, Any], p2: dict[str, Any] | None = None) -> GameState:
    players = {"p1": p1, "p2": p2 or {}}
    position = {"turn": 4, "turn_player": "p1", "phase": "main", "players": players}
    return fold(create_position(build(position)))


def test_the_base_level_of_your_level_two_and_three_signi_in_the_deck_and_trash_becomes_one() -> None:
    s = _state(
        {
            "signi": {"left": "WXDi-P01-039"},
            "trash": ["WXDi-D03-017", "WXDi-D03-018"],
            "deck": ["WXDi-D03-019"],
        },
        {"trash": ["WXDi-D03-017"]},
    )
    lv3, lv1 = s.players["p1"].zones["trash"]
    assert facts.level(s, lv3) == 1
    assert facts.level(s, lv1) == 1
    assert facts.level(s, s.players["p1"].zones["deck"][0]) == 1
    assert facts.level(s, s.players["p2"].zones["trash"][0]) == 3  # the opponent's trash is theirs
    assert facts.printed(s, lv3).level == 3  # as it is put onto the field


def test_not_on_the_field_it_changes_no_level() -> None:
    s = _state({"trash": ["WXDi-D03-017", "WXDi-P01-039"]})
    assert [facts.level(s, i) for i in s.players["p1"].zones["trash"]] == [3, 3]


def test_your_effects_may_treat_the_card_in_your_trash_as_a_level_one_signi_the_opponents_may_not() -> None:
    s = _state({"trash": ["WXDi-P05-086"]}, {"signi": {"center": "WXDi-D03-019"}})
    bites = s.players["p1"].zones["trash"][0]
    card = facts.card_of(s, bites)
    assert card.type.value == "spell" and card.level is None  # as printed, for everything else
    level_one = {"type": "signi", "level": 1}
    assert tg.card_fits(card, level_one)
    p2_center = s.players["p2"].signi["center"]
    assert p2_center is not None
    mine = tg.candidates(s, "p1", bites, {"side": "you", "zone": "trash", "filter": level_one})
    theirs = tg.candidates(s, "p2", p2_center.iid, {"side": "opponent", "zone": "trash", "filter": level_one})
    assert mine == [bites]
    assert theirs == []


def test_in_the_hand_it_is_as_printed() -> None:
    s = _state({"hand": ["WXDi-P05-086"]})
    assert facts.card_of(s, s.players["p1"].zones["hand"][0]).also is None


def test_the_opponents_count_of_your_trash_sees_it_as_printed() -> None:
    from domain.abilities import measures as ms

    s = _state({"trash": ["WXDi-P05-086"]}, {"signi": {"center": "WXDi-D03-019"}})
    level_one = {"type": "signi", "level": 1}
    p2_center = s.players["p2"].signi["center"]
    assert p2_center is not None
    yours = {"count": {"side": "you", "zone": "trash", "filter": level_one}}
    theirs = {"count": {"side": "opponent", "zone": "trash", "filter": level_one}}
    assert ms.value(ms.Ctx(s, "p1", s.players["p1"].zones["trash"][0], {}), yours) == 1
    assert ms.value(ms.Ctx(s, "p2", p2_center.iid, {}), theirs) == 0
