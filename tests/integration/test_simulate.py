"""``wixoss-judge simulate``: random legal matches across all preset pairings, one JSON line of totals."""

from __future__ import annotations

import argparse
import json

import pytest

from app.simulate import add_arguments, run


def test_simulate_200_matches_all_end_with_a_winner(capsys: pytest.CaptureFixture[str]) -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    assert run(parser.parse_args(["--games", "200", "--seed", "1"])) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["games"] == 200 and report["finished"] == 200 and report["capped"] == 0
    assert sum(report["winners"].values()) == 200
    assert report["pairings"] == 100  # every ordered pairing of the ten presets
    assert report["invariants_checked"] and report["problem_count"] == 0
    assert report["events"] > 200 * 100 and report["events_per_game"] == round(report["events"] / 200, 1)
    assert report["seconds"] > 0


def test_simulate_is_deterministic() -> None:
    from domain.simulation import simulate

    a, b = simulate(3, 42), simulate(3, 42)
    for key in ("events", "winners", "reasons"):
        assert a[key] == b[key]
