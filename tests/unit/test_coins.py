"""Coins printed on LRIGs (rule ``coin.icon``): a player gains the coin values printed on their LRIGs as they
are turned face up at the start of the game (and on growing into one: ``tests/scenarios/rules_gaps.json``)."""

from __future__ import annotations

from domain.decks import preset
from domain.engine import decide
from domain.evolve import apply
from domain.facts import catalogue
from domain.setup import PlayerSetup, create_match
from domain.state import COIN_LIMIT, GameState


def _start(d1: str, d2: str) -> list[tuple[str, dict[str, object]]]:
    """The events of a match's set-up, both players keeping their hands, to the first turn."""
    players = {"p1": PlayerSetup("Ann", preset(d1)), "p2": PlayerSetup("Bo", preset(d2))}
    events = create_match("diva", 3, players)
    state = GameState()
    for e in events:
        apply(state, e)
    while state.status == "setup":
        assert state.pending is not None and state.pending["kind"] == "mulligan"
        batch = decide(state, {"type": "mulligan", "player": state.pending["player"], "cards": []})
        for e in batch:
            apply(state, e)
        events += batch
    return [(e.type, dict(e.data)) for e in events]


def test_the_coins_printed_on_the_lrigs_are_gained_as_they_are_turned_face_up() -> None:
    lrigs = [catalogue().get(c) for c in preset("WXDi-D09-P").lrig_deck]
    printed = sum(card.coin for card in lrigs if card.level == 0)
    assert 0 < printed <= COIN_LIMIT  # WXDi-D09-P's level 0 LRIGs print coins
    events = _start("WXDi-D01", "WXDi-D09-P")
    types = [t for t, _ in events]
    revealed = types.index("LrigsRevealed")
    gains = [(i, d) for i, (t, d) in enumerate(events) if t == "CoinsGained"]
    assert [d for _, d in gains] == [{"player": "p2", "count": printed}]  # p1's WXDi-D01 LRIGs print none
    assert all(i > revealed for i, _ in gains)


def test_lrigs_that_print_no_coins_gain_none() -> None:
    assert "CoinsGained" not in [t for t, _ in _start("WXDi-D01", "WXDi-D02")]
