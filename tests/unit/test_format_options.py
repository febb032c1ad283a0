"""The original format's options (docs/FORMATS.md "Where no source settles it"): the points no rules text at
hand settles, which a match, a position or a deck check may set. Each option's default is the service's
behaviour without it; each alternative is played here against the default: a deck refused under one setting
and accepted under the other, Lancer's crush before or after the battle's triggered abilities. The options
are recorded in the match's first event, read back by replay and audit, and absent from older logs (the
defaults)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from domain.decks import Deck, preset, validate_deck
from domain.errors import IllegalAction, InvalidPosition
from domain.events import Event
from domain.evolve import fold
from domain.facts import catalogue
from domain.formats import DIVA, ORIGINAL
from domain.setup import PlayerSetup, create_match, create_position
from domain.state import GameState
from projections.views import state_view

DEFAULTS = {
    "card_pool": "era",
    "life_bursts": "exactly_20",
    "lrig_deck_size": 10,
    "level0_lrigs": "one_or_more",
    "lancer": "triggered",
}


def rules(deck: Deck, **options: Any) -> set[str]:
    return {p.rule for p in validate_deck(deck, None, "original", options)}


def swap(cards: tuple[str, ...], old: str, new: str) -> tuple[str, ...]:
    i = cards.index(old)
    return (*cards[:i], new, *cards[i + 1 :])


def test_the_options_are_data_of_the_format_with_todays_behaviour_as_default() -> None:
    assert ORIGINAL.settings(None) == DEFAULTS
    assert ORIGINAL.resolve_options({}) == DEFAULTS
    assert ORIGINAL.resolve_options({"life_bursts": "at_most_20"})["life_bursts"] == "at_most_20"
    assert DIVA.options == () and DIVA.resolve_options({}) == {}
    assert [o.rule for o in ORIGINAL.options] == [
        "orig.deck.era",
        "orig.deck.life-burst",
        "orig.deck.lrig-size",
        "orig.deck.lrig-level0",
        "kw.lancer",
    ]


@pytest.mark.parametrize(
    ("given", "named"),
    [
        ({"colours": "any"}, "colours"),
        ({"life_bursts": "exactly_19"}, "life_bursts"),
        ({"lrig_deck_size": 0}, "lrig_deck_size"),
        ({"lrig_deck_size": "12"}, "lrig_deck_size"),
        ({"lrig_deck_size": True}, "lrig_deck_size"),
        ({"lancer": None}, "lancer"),
    ],
)
def test_an_unknown_option_or_a_bad_value_is_refused_by_name(given: dict[str, Any], named: str) -> None:
    assert set(ORIGINAL.option_problems(given)) == {named}
    with pytest.raises(IllegalAction) as exc:
        ORIGINAL.resolve_options(given)
    assert exc.value.rule_refs == ("format.options",) and named in exc.value.message
    assert [p.rule for p in validate_deck(preset("DEMO-WD01"), None, "original", given)] == ["format.options"]


def test_diva_has_no_options() -> None:
    assert set(DIVA.option_problems({"lancer": "battle"})) == {"lancer"}
    assert validate_deck(preset("WXDi-D01"), None, "diva", {}) == []


# -- the deck options ---------------------------------------------------------------------------------------


def test_card_pool_any_accepts_a_card_of_later_sets() -> None:
    base = preset("DEMO-WD01")
    later = Deck(base.lrig_deck, swap(base.main_deck, "WD01-013", "WXDi-D01-012"))  # neither has a Life Burst
    assert "orig.deck.era" in rules(later)
    assert rules(later, card_pool="era") == rules(later)
    assert rules(later, card_pool="any") == set()
    # the card types of one LRIG stay: an assist LRIG is refused either way
    assist = Deck((*base.lrig_deck, "WXDi-D01-006"), base.main_deck)
    assert "orig.deck.card-type" in rules(assist, card_pool="any")


def test_life_bursts_at_most_20_accepts_fewer_never_more() -> None:
    base = preset("DEMO-WD01")
    fewer = Deck(base.lrig_deck, swap(base.main_deck, "WD01-009", "WD04-013"))  # 19 Life Bursts
    assert not catalogue().get("WD04-013").life_burst
    assert "orig.deck.life-burst" in rules(fewer)
    assert rules(fewer, life_bursts="at_most_20") == set()
    more = Deck(base.lrig_deck, swap(base.main_deck, "WD01-013", "WD04-014"))  # 21
    assert catalogue().get("WD04-014").life_burst
    assert "orig.deck.life-burst" in rules(more, life_bursts="at_most_20")


def test_lrig_deck_size_sets_the_maximum() -> None:
    base = preset("DEMO-WD01")
    assert len(base.lrig_deck) == 8
    big = Deck((*base.lrig_deck, "WD04-006", "WD04-007", "WD04-008"), base.main_deck)  # 11 cards
    assert "orig.deck.lrig-size" in rules(big)
    assert rules(big, lrig_deck_size=11) == set()
    assert "orig.deck.lrig-size" in rules(base, lrig_deck_size=7)


def test_level0_lrigs_exactly_one_refuses_a_second() -> None:
    base = preset("DEMO-WD01")
    zero = catalogue().get("WD04-005")
    assert zero.type.value == "lrig" and zero.level == 0
    two = Deck((*base.lrig_deck, zero.id), base.main_deck)
    assert rules(two) == set()
    found = validate_deck(two, None, "original", {"level0_lrigs": "exactly_one"})
    assert [p.rule for p in found] == ["orig.deck.lrig-level0"] and zero.id in found[0].cards
    assert rules(base, level0_lrigs="exactly_one") == set()


# -- the match records its options ------------------------------------------------------------------------


def fewer_bursts() -> Deck:
    base = preset("DEMO-WD01")
    return Deck(base.lrig_deck, swap(base.main_deck, "WD01-009", "WD04-013"))


def new_match(options: dict[str, Any] | None, deck: Deck | None = None) -> list[Event]:
    players = {
        "p1": PlayerSetup("Ann", deck or preset("DEMO-WD01")),
        "p2": PlayerSetup("Bo", preset("DEMO-WD04")),
    }
    return create_match("original", 5, players, "p1", options)


def test_a_match_records_every_option_in_its_first_event() -> None:
    with pytest.raises(IllegalAction) as exc:
        new_match({}, fewer_bursts())
    assert "orig.deck.life-burst" in exc.value.rule_refs
    events = new_match({"life_bursts": "at_most_20"}, fewer_bursts())
    assert events[0].type == "MatchCreated"
    assert events[0].data["options"] == {**DEFAULTS, "life_bursts": "at_most_20"}
    assert events[0].action is not None and events[0].action["options"] == events[0].data["options"]
    state = fold(events)
    assert state.options == events[0].data["options"]
    view = state_view(state, "p2")
    assert view["options"]["life_bursts"] == "at_most_20"
    assert "with the options life_bursts at_most_20" in view_text(events[0])


def view_text(event: Event) -> str:
    from projections.sentences import sentence

    return sentence(event.type, event.data)


def test_a_match_given_no_options_records_the_defaults_and_an_older_log_none() -> None:
    given = new_match({})
    assert given[0].data["options"] == DEFAULTS
    older = new_match(None)  # a creation written before options existed
    assert "options" not in older[0].data and "options" not in older[0].action  # type: ignore[operator]
    state = fold(older)
    assert state.options == {} and "options" not in state.to_dict()
    assert state_view(state, "judge")["options"] == DEFAULTS
    # the same match either way: only the record of the options differs
    assert [e.type for e in given] == [e.type for e in older]


def test_a_diva_match_records_no_options() -> None:
    players = {"p1": PlayerSetup("Ann", preset("WXDi-D01")), "p2": PlayerSetup("Bo", preset("WXDi-D02"))}
    events = create_match("diva", 5, players, "p1", {})
    assert "options" not in events[0].data
    with pytest.raises(IllegalAction):
        create_match("diva", 5, players, "p1", {"lancer": "battle"})
    assert state_view(fold(events), "judge")["options"] == {}


# -- the play option: Lancer --------------------------------------------------------------------------------

PLAYER: dict[str, Any] = {
    "lrig": {"center": "WD01-003"},
    "deck": ["WD01-013"] * 10,
    "life_cloth": ["WD01-012"] * 5,
}


def lancer_position(options: dict[str, Any] | None) -> dict[str, Any]:
    """p1's Lancer SIGNI (17000) attacks p2's SIGNI that draws a card when it is vanished (12000)."""
    pos: dict[str, Any] = {
        "format": "original",
        "turn": 4,
        "turn_player": "p1",
        "phase": "attack",
        "step": "signi_attack",
        "players": {p: copy.deepcopy(PLAYER) for p in ("p1", "p2")},
    }
    if options is not None:
        pos["options"] = options
    pos["players"]["p1"]["signi"] = {
        "center": {"card": "WD01-012", "keywords": ["lancer"], "power_mod": 10000}
    }
    pos["players"]["p2"]["signi"] = {"center": "WXDi-P00-054"}  # [Auto] when vanished: draw a card
    return pos


def attack(options: dict[str, Any] | None) -> tuple[GameState, list[Event]]:
    from domain.engine import decide
    from domain.evolve import apply

    state = fold(create_position(lancer_position(options), seed=3))
    batch = decide(state, {"type": "attack", "player": "p1", "zone": "center"})
    for e in batch:
        apply(state, e)
    return state, batch


def order(batch: list[Event]) -> list[str]:
    keep = {"SigniVanished", "LifeClothCrushed", "CardsDrawn"}
    return [e.type for e in batch if e.type in keep]


@pytest.mark.parametrize("options", [None, {}, {"lancer": "triggered"}])
def test_lancer_triggered_crushes_after_the_battles_triggered_abilities(options: Any) -> None:
    """kw.lancer (000 "Lancer"; WXR-042: a triggered ability since 2018-02-22): the vanished SIGNI's draw
    resolves first, as today."""
    state, batch = attack(options)
    assert order(batch) == ["SigniVanished", "CardsDrawn", "LifeClothCrushed"]
    crushed = next(e for e in batch if e.type == "LifeClothCrushed")
    assert crushed.rule == "kw.lancer"
    assert len(state.players["p2"].zones["life_cloth"]) == 4


def test_lancer_battle_crushes_as_part_of_the_battle() -> None:
    """orig.kw.lancer-battle (WXR-042: before 2018-02-22 Lancer added a crush to the battle's result): the
    crush comes at once after the vanish, before the vanished SIGNI's draw; one Life Cloth all the same."""
    state, batch = attack({"lancer": "battle"})
    assert order(batch) == ["SigniVanished", "LifeClothCrushed", "CardsDrawn"]
    crushed = next(e for e in batch if e.type == "LifeClothCrushed")
    assert crushed.rule == "orig.kw.lancer-battle"
    assert len(state.players["p2"].zones["life_cloth"]) == 4
    assert state.options["lancer"] == "battle"


def test_a_position_refuses_a_bad_option() -> None:
    with pytest.raises(InvalidPosition) as exc:
        create_position(lancer_position({"lancer": "sometimes"}))
    assert exc.value.rule_refs == ("format.options",)
