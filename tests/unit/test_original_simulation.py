"""500 random original-format matches over the demo decks (seed 002's format): no engine error, no broken
invariant, and every match audits ok (its hash chain, and a replay of every action through ``decide``)."""

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


def test_500_original_matches_play_out_without_engine_errors() -> None:
    report = simulate(GAMES, 1, fmt="original")
    assert report["problem_count"] == 0, report["problems"]
    assert report["finished"] == GAMES and report["capped"] == 0
    assert report["pairings"] == 25


def _stored_match(seed: int, decks: tuple[str, str]) -> Match:
    chooser = random.Random(f"chooser:{seed}")
    players = {"p1": PlayerSetup("p1", preset(decks[0])), "p2": PlayerSetup("p2", preset(decks[1]))}
    match = Match.start(create_match("original", seed, players))
    while match.state.status != "finished":
        action = chooser.choice(list(legal_actions(match.state)))
        match.record(decide(match.state, action))
    return match


@pytest.mark.slow
def test_500_original_matches_audit_ok() -> None:
    pairs = pairings("original")
    for i in range(GAMES):
        match = _stored_match(1 + i, pairs[i % len(pairs)])
        report = audit(match.collect_events())
        assert report.ok, (i, report.problems[:3])
        assert report.events > 100
