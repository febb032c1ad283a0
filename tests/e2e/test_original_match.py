"""A whole original-format match (seed 002) through the API: decks listed by format, one LRIG, the ARTS use
step, hidden information, a ruling, rewind and branch at decision points, and an audit that holds."""

from __future__ import annotations

import random

from flask import Flask

from domain.original import DEMO_DECK_IDS
from tests.conftest import Judge
from tests.e2e.test_rewind_branch import decision_point_at_or_before


def test_the_original_format_decks_and_validation_through_the_api(judge: Judge) -> None:
    listed = judge.get("/decks", format="original")["decks"]
    assert [d["id"] for d in listed] == list(DEMO_DECK_IDS)
    assert all(d["format"] == "original" and "project's own demo deck" in d["note"] for d in listed)
    assert judge.get("/decks")["decks"][0]["id"] == "WXDi-D01"  # the default stays Diva
    deck = judge.get("/decks/DEMO-WD02")
    r = judge.client.post(
        "/decks/validate",
        json={
            "format": "original",
            "lrig_deck": [*deck["lrig_deck"], "WXDi-D01-006"],
            "main_deck": deck["main_deck"],
        },
    )
    assert r.status_code == 200
    assert "orig.deck.card-type" in {p["rule"] for p in r.get_json()["problems"]}
    assert judge.client.get("/decks", query_string={"format": "chess"}).status_code == 422
    rules = {r["id"]: r for r in judge.get("/rules")["rules"]}
    assert rules["orig.attack.arts-step"]["source"]["seed"] == "002"


def test_an_original_match_is_played_to_the_end_through_the_api(app: Flask, judge: Judge) -> None:
    m = judge.create_match("DEMO-WD01", "DEMO-WD03", seed=2016, format="original")
    assert judge.get(m.path)["format"] == "original"
    judge.play(m, random.Random(7), stop_at=150)

    # hidden information: the opponent sees that one LRIG was placed, not which
    p2_view = judge.events(m, token=m.tokens["p2"])
    placed = next(e for e in p2_view if e["type"] == "LrigsPlaced" and e["data"]["player"] == "p1")
    assert placed["data"] == {"player": "p1", "face_down": True, "lrigs": 1}
    assert "one LRIG" in placed["text"]
    state = judge.state(m, token=m.tokens["p2"])
    assert state["format"] == "original"

    events = judge.events(m)
    steps = [e["data"]["step"] for e in events if e["type"] == "StepBegan"]
    assert "arts_use" in steps and "pre_attack" not in steps and "defense" not in steps
    assert any(e["rule"] == "orig.attack.arts-step" for e in events)

    # a ruling at a decision point appends nothing
    at = decision_point_at_or_before(judge, m, 100)
    legal = judge.legal(m, at=at)
    ruling = judge.ruling(m, legal[0], at=at)
    assert ruling.status_code == 200 and ruling.get_json()["legal"] is True

    # rewind and branch
    head = judge.get(m.path)["version"]
    r = judge.client.post(f"{m.path}/rewind", json={"to": at, "reason": "misplay"}, headers=judge.headers())
    assert r.status_code == 201, r.get_json()
    assert judge.state(m, at=head + 1)["digest"] == judge.state(m, at=at)["digest"]
    b = judge.client.post(f"{m.path}/branches", json={"at": at, "reason": "what if"}, headers=judge.headers())
    assert b.status_code == 201, b.get_json()
    assert judge.get(f"/matches/{b.get_json()['id']}")["format"] == "original"

    judge.play(m, random.Random(8))
    summary = judge.get(m.path)
    assert summary["status"] == "finished" and summary["winner"] in ("p1", "p2")
    audit = judge.get(f"{m.path}/audit")
    assert audit["ok"] is True and audit["problems"] == []
    assert judge.get(f"/matches/{b.get_json()['id']}/audit")["ok"] is True
