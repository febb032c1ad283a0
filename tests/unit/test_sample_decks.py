"""The project's own sample decks (domain/data/decks_sample.json): one per colour, legal under the Diva
Selection deck rules, labelled as the project's own, built from enforced cards (mostly WXDi-P00 ... P08
booster cards), and what the simulation counts as a decision a judge resolves by hand."""

from __future__ import annotations

from collections import Counter

import pytest

from domain.abilities import is_enforced
from domain.cards import COLORS, CardType, load_catalogue
from domain.decks import (
    PRESET_IDS,
    SAMPLE_IDS,
    UnknownDeck,
    all_preset_ids,
    pool_ids,
    preset,
    presets,
    sample_note,
    samples,
    validate_deck,
)
from domain.events import Event
from domain.setup import default_lrigs
from domain.simulation import hand_resolved, pairings
from domain.state import GameState

BOOSTERS = tuple(f"WXDi-P0{i}-" for i in range(9))


def test_the_sample_decks_are_one_per_colour_and_a_three_colour_one_after_the_starter_decks() -> None:
    mono = ("SAMPLE-WHITE", "SAMPLE-RED", "SAMPLE-BLUE", "SAMPLE-GREEN", "SAMPLE-BLACK")
    assert (*mono, "SAMPLE-TRICOLOR") == SAMPLE_IDS
    assert tuple(samples()) == SAMPLE_IDS
    assert tuple(presets()) == PRESET_IDS  # the starter decks stay the ten boxed lists
    assert all_preset_ids()[: len(PRESET_IDS) + len(SAMPLE_IDS)] == (*PRESET_IDS, *SAMPLE_IDS)
    assert samples("original") == {}
    cat = load_catalogue(extended=True)
    colours = set()
    for deck_id in mono:
        deck = preset(deck_id)
        deck_colours = {c for i in (*deck.lrig_deck, *deck.main_deck) for c in cat.get(i).real_colors}
        assert deck_id == f"SAMPLE-{''.join(deck_colours).upper()}"  # one colour, colourless cards aside
        colours |= deck_colours
    tri = preset("SAMPLE-TRICOLOR")
    assert {c for i in tri.lrig_deck if cat.get(i).level == 0 for c in cat.get(i).real_colors} == {
        "white",
        "blue",
        "black",
    }
    assert colours == set(COLORS)


@pytest.mark.parametrize("deck_id", SAMPLE_IDS)
def test_a_sample_deck_is_legal_labelled_and_enforced(deck_id: str) -> None:
    deck = preset(deck_id)
    assert validate_deck(deck) == []
    assert deck.name and deck.name.endswith("(sample)")
    note = sample_note(deck_id)
    assert note and "project's own sample deck" in note and "not a tournament list" in note
    cat = load_catalogue(extended=True)
    cards = [cat.get(c) for c in (*deck.lrig_deck, *deck.main_deck)]
    assert [c.id for c in cards if not is_enforced(c.id)] == []  # no decision is left to a judge
    # built from the booster sets, starter cards filling in
    assert sum(c.id.startswith(BOOSTERS) for c in cards) > len(cards) / 2
    # playable: a center LRIG growing 0 to 3, two assists growing 0 to 2, SIGNI of levels 1 to 3
    lrigs = default_lrigs(deck)
    center = cat.get(lrigs["center"])
    line = sorted(
        c.level or 0 for c in cards if c.type is CardType.LRIG and set(c.lrig_types) & set(center.lrig_types)
    )
    assert line == [0, 1, 2, 3]
    for pos in ("left", "right"):
        zero = cat.get(lrigs[pos])
        grows = sorted(
            c.level or 0
            for c in cards
            if c.type is CardType.ASSIST_LRIG and set(c.lrig_types) & set(zero.lrig_types)
        )
        assert grows == [1, 2], (pos, zero.id)
    levels = Counter(c.level for c in cards if c.is_signi)
    assert set(levels) == {1, 2, 3} and levels[1] >= levels[2] >= levels[3]
    assert sum(c.guard for c in cards) >= 4


def test_sample_decks_are_a_simulation_pool() -> None:
    assert pool_ids("diva", "sample") == SAMPLE_IDS
    assert pool_ids("diva") == PRESET_IDS
    assert len(pairings("diva", "sample")) == 36
    with pytest.raises(ValueError, match="no 'sample' decks"):
        pool_ids("original", "sample")
    with pytest.raises(UnknownDeck):
        preset("SAMPLE-PURPLE")


def _state(cards: dict[str, str]) -> GameState:
    state = GameState()
    state.cards.update(cards)
    return state


def test_hand_resolved_names_what_a_judge_resolves() -> None:
    enforced, unenforced = "WXDi-D01-012", _unenforced_signi()
    state = _state({"c1": enforced, "c2": unenforced})
    played = Event("SigniPlayed", "p1", "main.play-signi", {"player": "p1", "card": "c1", "zone": "left"})
    assert hand_resolved(state, [played]) == []
    other = Event("SigniPlayed", "p1", "main.play-signi", {"player": "p1", "card": "c2", "zone": "left"})
    assert hand_resolved(state, [played, other]) == [unenforced]
    burst = Event(
        "LifeBurstChosen",
        "p1",
        "life-burst.use",
        {"player": "p1", "card": "c2", "use": True, "enforced": False},
    )
    assert hand_resolved(state, [burst]) == [unenforced]
    adjusted = Event("Adjusted", "judge", "judge.adjust", {"steps": []})
    assert hand_resolved(state, [adjusted]) == ["judge"]


def _unenforced_signi() -> str:
    return next(
        c.id for c in load_catalogue(extended=True) if c.type is CardType.SIGNI and not is_enforced(c.id)
    )
