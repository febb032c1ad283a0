"""The catalogue endpoints: cards, preset decks, deck validation, rules."""

from __future__ import annotations

from flask.testing import FlaskClient

from domain.cards import load_catalogue
from domain.decks import PRESET_IDS, SAMPLE_IDS, preset
from domain.rules import all_rules


def test_cards_are_the_starter_catalogue_by_default_and_filter(client: FlaskClient) -> None:
    body = client.get("/cards").get_json()
    assert body["total"] == len(load_catalogue()) == len(body["cards"])
    assert all(isinstance(c["enforced"], bool) for c in body["cards"])
    signi = client.get("/cards", query_string={"type": "signi", "color": "green"}).get_json()["cards"]
    assert signi and all(c["type"] == "signi" and "green" in c["colors"] for c in signi)
    found = client.get("/cards", query_string={"q": "wxdi-d01-013"}).get_json()["cards"]
    assert [c["id"] for c in found] == ["WXDi-D01-013"]
    assert client.get("/cards", query_string={"type": "no-such-type"}).get_json() == {"cards": [], "total": 0}


def test_every_known_card_with_all_and_limits_are_clamped(client: FlaskClient) -> None:
    body = client.get("/cards", query_string={"all": "true", "limit": 99999}).get_json()
    assert body["total"] == len(load_catalogue(extended=True)) > len(load_catalogue())
    assert len(body["cards"]) == 1000
    page = client.get("/cards", query_string={"all": "true", "offset": 1000, "limit": 3}).get_json()
    assert len(page["cards"]) == 3 and page["cards"][0]["id"] != body["cards"][0]["id"]


def test_one_card(client: FlaskClient) -> None:
    card = client.get("/cards/WXDi-D01-013").get_json()
    assert card["id"] == "WXDi-D01-013" and card["type"] == "signi" and card["level"] == 2


def test_decks(client: FlaskClient) -> None:
    decks = client.get("/decks").get_json()["decks"]
    assert [d["id"] for d in decks] == [*PRESET_IDS, *SAMPLE_IDS]
    d01 = client.get("/decks/WXDi-D01").get_json()
    assert d01["lrig_deck"] == list(preset("WXDi-D01").lrig_deck)
    assert d01["main_deck"] == list(preset("WXDi-D01").main_deck)
    assert "note" not in d01  # a boxed starter deck's list


def test_sample_decks_are_listed_labelled_and_playable(client: FlaskClient) -> None:
    listed = {d["id"]: d for d in client.get("/decks").get_json()["decks"]}
    for deck_id in SAMPLE_IDS:
        deck = client.get(f"/decks/{deck_id}").get_json()
        assert deck == listed[deck_id]
        assert deck["format"] == "diva" and deck["name"].endswith("(sample)")
        assert "project's own sample deck" in deck["note"] and "not a tournament list" in deck["note"]
        ok = client.post(
            "/decks/validate",
            json={"format": "diva", "lrig_deck": deck["lrig_deck"], "main_deck": deck["main_deck"]},
        )
        assert ok.get_json() == {"valid": True, "problems": []}


def test_deck_validation_reports_every_problem_at_once(client: FlaskClient) -> None:
    d01 = preset("WXDi-D01")
    ok = client.post(
        "/decks/validate",
        json={"format": "diva", "lrig_deck": list(d01.lrig_deck), "main_deck": list(d01.main_deck)},
    )
    assert ok.status_code == 200 and ok.get_json() == {"valid": True, "problems": []}
    bad = client.post(
        "/decks/validate",
        json={
            "format": "diva",
            "lrig_deck": list(d01.lrig_deck[:1]),
            "main_deck": ["WXDi-D01-012"] * 5 + ["WXDi-NOPE"],
        },
    )
    body = bad.get_json()
    assert bad.status_code == 200 and body["valid"] is False
    rules = {p["rule"] for p in body["problems"]}
    assert {"deck.main-size", "deck.copies", "deck.lrig-level0", "deck.unknown-card"} <= rules
    assert all(p["message"] and isinstance(p["cards"], list) for p in body["problems"])
    other = client.post(
        "/decks/validate", json={"format": "key", "lrig_deck": [], "main_deck": []}
    ).get_json()
    assert other["valid"] is False and other["problems"][0]["rule"] == "format.unsupported"


def test_rules(client: FlaskClient) -> None:
    rules = client.get("/rules").get_json()["rules"]
    assert [r["id"] for r in rules] == [r.id for r in all_rules()]
    one = client.get("/rules/play.limit").get_json()
    assert one["id"] == "play.limit" and one["title"] and one["summary"] and one["source"]["section"]
