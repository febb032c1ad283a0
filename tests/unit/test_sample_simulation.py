"""500 random Diva matches over the project's sample decks (every pairing): no engine error, no broken
invariant, no decision a judge had to resolve by hand, and every match audits ok (its hash chain, and a replay
of every action through ``decide``)."""

from __future__ import annotations

import random

import pytest

from domain.decks import preset
from domain.engine import decide
from domain.legal import legal_actions
from domain.match import Match
from domain.setup import PlayerSetup, create_match
from domain.simulation import pairings, simulate
from projections.audit import audit

GAMES = 500


@pytest.mark.slow
def test_500_sample_deck_matches_play_out_with_nothing_resolved_by_hand() -> None:
    report = simulate(GAMES, 1, pool="sample")
    assert report["problem_count"] == 0, report["problems"]
    assert report["finished"] == GAMES and report["capped"] == 0
    assert report["pairings"] == 36
    assert report["unenforced_deck_cards"] == []
    assert report["decisions"] > 100 * GAMES
    assert report["hand_resolved_decisions"] == 0, report["hand_resolved_cards"]
    assert report["hand_resolved_share"] == 0.0


def _stored_match(seed: int, decks: tuple[str, str]) -> Match:
    chooser = random.Random(f"chooser:{seed}")
    players = {"p1": PlayerSetup("p1", preset(decks[0])), "p2": PlayerSetup("p2", preset(decks[1]))}
    match = Match.start(create_match("diva", seed, players))
    while match.state.status != "finished":
        action = chooser.choice(list(legal_actions(match.state)))
        match.record(decide(match.state, action))
    return match


@pytest.mark.slow
def test_500_sample_deck_matches_audit_ok() -> None:
    pairs = pairings("diva", "sample")
    for i in range(GAMES):
        match = _stored_match(1 + i, pairs[i % len(pairs)])
        report = audit(match.collect_events())
        assert report.ok, (i, pairs[i % len(pairs)], report.problems[:3])
        assert report.events > 100
