"""A whole Diva match between two of the project's sample decks, through the API: created by deck id like a
starter deck, played to the end, and its audit holds."""

from __future__ import annotations

import random

from tests.conftest import Judge


def test_a_sample_deck_match_is_played_to_the_end_through_the_api(judge: Judge) -> None:
    m = judge.create_match("SAMPLE-TRICOLOR", "SAMPLE-RED", seed=2024)
    assert judge.get(m.path)["format"] == "diva"
    judge.play(m, random.Random(3))
    summary = judge.get(m.path)
    assert summary["status"] == "finished" and summary["winner"] in ("p1", "p2")
    audit = judge.get(f"{m.path}/audit")
    assert audit["ok"] is True and audit["problems"] == []
