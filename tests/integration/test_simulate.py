"""``wixoss-judge simulate``: random legal matches across all preset pairings, one JSON line of totals."""

from __future__ import annotations

import argparse
import json

import pytest

from app.simulate import add_arguments, run
from domain.abilities.catalogue import abilities_of, encoded_cards
from domain.decks import pool_ids, preset


def test_simulate_500_matches_with_abilities_in_use(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue (card abilities): `wixoss-judge simulate --games 500 --seed 1` over all 100 preset pairings,
    both seats: every match ends, the invariants hold at every event, and the JSON line reports the ability
    activations of each kind and the share of encoded abilities used at least once."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert run(parser.parse_args(["--games", "500", "--seed", "1"])) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["games"] == 500 and report["finished"] == 500 and report["capped"] == 0
    assert sum(report["winners"].values()) == 500
    assert report["pairings"] == 100  # every ordered pairing of the ten presets
    assert report["invariants_checked"] and report["problem_count"] == 0, report["problems"]
    assert report["events"] > 500 * 100 and report["events_per_game"] == round(report["events"] / 500, 1)
    assert report["seconds"] > 0
    # every kind of ability the decks hold is used, and most encoded abilities at least once
    in_decks = {c for d in pool_ids() for c in (*preset(d).lrig_deck, *preset(d).main_deck)}
    # Harmony (000 "Harmony") is asked as an auto ability as its SIGNI enters: it counts as one
    kinds = {
        "auto" if a["kind"] == "harmony" else a["kind"]
        for c in encoded_cards()
        if c in in_decks
        for a in abilities_of(c)
    } - {"constant"}
    activations = report["ability_activations"]
    assert kinds <= set(activations) and all(activations[k] > 0 for k in kinds), activations
    used, encoded = report["encoded_abilities_used"], report["encoded_abilities"]
    assert encoded >= 150 and report["encoded_abilities_used_share"] == round(used / encoded, 3)
    assert used / encoded >= 0.9, f"only {used} of {encoded} encoded abilities used in 500 games"


def test_simulate_is_deterministic() -> None:
    from domain.simulation import simulate

    a, b = simulate(3, 42), simulate(3, 42)
    for key in ("events", "winners", "reasons"):
        assert a[key] == b[key]


def test_simulate_the_sample_decks(capsys: pytest.CaptureFixture[str]) -> None:
    """`wixoss-judge simulate --decks sample`: every pairing of the six sample decks, with the decisions
    counted and none resolved by hand (every card of the sample decks is enforced)."""
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert run(parser.parse_args(["--games", "36", "--seed", "7", "--decks", "sample"])) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["decks"] == "sample" and report["pairings"] == 36 and report["finished"] == 36
    assert report["decisions"] > 36 * 50
    assert report["hand_resolved_decisions"] == 0 and report["hand_resolved_share"] == 0.0
    assert report["hand_resolved_cards"] == {} and report["unenforced_deck_cards"] == []
