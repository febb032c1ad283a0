"""Match set-up, as 001 'To begin the game' and 000 'Mulligan' / 'Play first' / 'Life cloth' describe it."""

from __future__ import annotations

import pytest

from domain.decks import Deck, preset
from domain.engine import decide
from domain.errors import IllegalAction
from domain.evolve import fold
from domain.setup import PlayerSetup, create_match


def new(seed: int = 11, first: str | None = None, d1: str = "WXDi-D01", d2: str = "WXDi-D03") -> list:
    return create_match(
        "diva", seed, {"p1": PlayerSetup("Ann", preset(d1)), "p2": PlayerSetup("Bo", preset(d2))}, first
    )


def test_set_up_events_in_order() -> None:
    # 001 'To begin the game': LRIGs face down, decide who goes first, draw 5.
    events = new(first="p2")
    assert [e.type for e in events] == [
        "MatchCreated", "LrigsPlaced", "LrigsPlaced", "DeckShuffled", "DeckShuffled",
        "FirstPlayerChosen", "CardsDrawn", "CardsDrawn", "Asked",
    ]  # fmt: skip
    s = fold(events)
    assert s.first_player == "p2" and events[5].data == {"player": "p2", "method": "given"}
    assert all(len(s.players[p].zones["hand"]) == 5 for p in ("p1", "p2"))
    assert s.pending == {"player": "p2", "kind": "mulligan", "max": 5}  # the first player declares first
    assert not s.players["p1"].lrigs_face_up


def test_three_level_zero_lrigs_with_the_growing_line_in_the_center() -> None:
    # 001: three level 0 LRIGs, one center LRIG in the middle and two assists on either side.
    s = fold(new())
    lrig = {pos: s.cards[slot.iid] for pos, slot in s.players["p1"].lrig.items() if slot}
    assert lrig == {"center": "WXDi-D01-001", "left": "WXDi-D01-005", "right": "WXDi-D01-008"}
    assert len(s.players["p1"].zones["lrig_deck"]) == len(preset("WXDi-D01").lrig_deck) - 3


def test_a_seeded_coin_decides_who_goes_first_and_is_recorded() -> None:
    firsts = {fold(new(seed)).first_player for seed in range(12)}
    assert firsts == {"p1", "p2"}
    e = next(e for e in new(3) if e.type == "FirstPlayerChosen")
    assert e.data["method"] == "coin"


def test_mulligan_first_player_first_then_both_redraw_life_cloth_and_reveal() -> None:
    # 000 'Mulligan': the first player declares first; both redraw at the same time; once each.
    s = fold(new(first="p1"))
    with pytest.raises(IllegalAction) as exc:
        decide(s, {"type": "mulligan", "player": "p2", "cards": []})
    assert exc.value.rule_refs == ("decision.not-yours",)
    returned = s.players["p1"].zones["hand"][:2]
    e1 = decide(s, {"type": "mulligan", "player": "p1", "cards": returned})
    assert [e.type for e in e1] == ["MulliganDeclared", "Asked"]  # nobody redraws before both declared
    s = fold(e1, s)
    e2 = decide(s, {"type": "mulligan", "player": "p2", "cards": []})
    types = [e.type for e in e2]
    assert types[:5] == ["MulliganDeclared", "CardsReturned", "DeckShuffled", "CardsDrawn", "LifeClothPlaced"]
    assert types.count("LifeClothPlaced") == 2 and "LrigsRevealed" in types
    s = fold(e2, s)
    p1 = s.players["p1"]
    assert len(p1.zones["life_cloth"]) == 7 and len(s.players["p2"].zones["life_cloth"]) == 7
    assert e2[1].data == {"player": "p1", "cards": returned}  # the declared cards went back into the deck
    assert len(e2[3].data["cards"]) == 2  # and as many were drawn
    assert s.status == "active" and p1.lrigs_face_up
    assert s.turn == 1 and s.turn_player == "p1"
    # 001 'Draw Phase': the first player draws one card on the first turn
    assert (
        len(p1.zones["hand"]) == 6 and s.pending is not None and s.pending["kind"] in ("ener", "grow", "main")
    )
    assert len(p1.zones["deck"]) == 40 - 7 - 6


def test_life_cloth_comes_from_the_top_of_the_deck() -> None:
    # 001: put the top 7 cards of your deck into your Life Cloth.
    s = fold(new(first="p1"))
    s = fold(decide(s, {"type": "mulligan", "player": "p1", "cards": []}), s)
    top = list(s.players["p2"].zones["deck"][:7])
    s = fold(decide(s, {"type": "mulligan", "player": "p2", "cards": []}), s)
    assert s.players["p2"].zones["life_cloth"] == top


def test_same_seed_same_actions_same_events() -> None:
    a, b = new(5), new(5)
    assert [e.to_dict() for e in a] == [e.to_dict() for e in b]
    assert [e.to_dict() for e in new(6)] != [e.to_dict() for e in a]


def test_instance_ids_are_opaque() -> None:
    s = fold(new(9))
    for iid, card_id in s.cards.items():
        assert card_id not in iid and iid.startswith("c") and len(iid) == 11
    # the same card list in another match gets unrelated ids
    assert not set(s.cards) & set(fold(new(10)).cards)


def test_an_illegal_deck_is_refused_with_every_rule() -> None:
    good = preset("WXDi-D01")
    bad = Deck(good.lrig_deck, good.main_deck[:39])
    with pytest.raises(IllegalAction) as exc:
        create_match("diva", 1, {"p1": PlayerSetup("A", bad), "p2": PlayerSetup("B", preset("WXDi-D02"))})
    assert "deck.main-size" in exc.value.rule_refs


def test_only_diva_selection_is_supported() -> None:
    with pytest.raises(IllegalAction) as exc:
        create_match(
            "key", 1, {"p1": PlayerSetup("A", preset("WXDi-D01")), "p2": PlayerSetup("B", preset("WXDi-D02"))}
        )
    assert exc.value.rule_refs == ("format.unsupported",)


def test_english_print_numbers_are_accepted_in_decks() -> None:
    d2 = preset("WXDi-D02")
    from domain.facts import catalogue

    english = tuple(catalogue().get(c).aliases[0] if catalogue().get(c).aliases else c for c in d2.lrig_deck)
    assert english != d2.lrig_deck
    s = fold(
        create_match(
            "diva",
            1,
            {"p1": PlayerSetup("A", Deck(english, d2.main_deck)), "p2": PlayerSetup("B", preset("WXDi-D01"))},
        )
    )
    assert set(s.cards.values()) >= set(d2.lrig_deck)
