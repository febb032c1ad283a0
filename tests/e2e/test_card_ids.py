"""Every printed number answers: a reprint's number is the same card as its first printing, in the catalogue,
in decks (the copy limits count it as that card) and in positions; tokens are cards of type ``token``."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from domain.abilities.catalogue import abilities_of
from domain.cards import load_catalogue
from domain.decks import preset
from tests.conftest import Judge
from tests.shared_cards import reference_records

# WXDi-D01-018 (in the WXDi-D01 main deck four times) was reprinted as WXDi-P00-087, among others
FIRST, REPRINT = "WXDi-D01-018", "WXDi-P00-087"


def test_every_number_of_the_reference_file_answers(client: FlaskClient) -> None:
    records = reference_records()
    assert len(records) == 9288
    failed = []
    for rec in records:
        r = client.get(f"/cards/{rec['id']}")
        if r.status_code != 200:
            failed.append(rec["id"])
            continue
        card = r.get_json()
        first = rec.get("reprint_of") or rec["id"]
        # a reprint answers with its first printing, or with its own entry where the starter decks list it
        assert rec["id"] in card["reprints"] and first in card["reprints"], rec["id"]
        assert card["id"] in (rec["id"], first), rec["id"]
        assert card.get("printed_as") == (rec["id"] if card["id"] != rec["id"] else None), rec["id"]
        assert (card["type"] == "token") == (rec["type"] in ("Token", "-")), rec["id"]
    assert failed == []


def test_a_reprint_shows_both_numbers_and_every_print(client: FlaskClient) -> None:
    card = client.get(f"/cards/{REPRINT}").get_json()
    assert card["id"] == FIRST and card["printed_as"] == REPRINT
    assert card["reprints"][0] == FIRST and REPRINT in card["reprints"]
    same = client.get(f"/cards/{FIRST}").get_json()
    assert "printed_as" not in same and same["reprints"] == card["reprints"]
    assert {k: v for k, v in card.items() if k != "printed_as"} == same
    once = client.get("/cards/WXDi-D01-013").get_json()  # printed once
    assert once["reprints"] == ["WXDi-D01-013"]


def test_q_finds_a_card_by_any_of_its_numbers(client: FlaskClient) -> None:
    for query in ({"q": REPRINT.lower()}, {"q": REPRINT, "all": "true"}):
        found = client.get("/cards", query_string=query).get_json()["cards"]
        assert [c["id"] for c in found] == [FIRST]


def test_tokens_are_in_the_catalogue_in_neither_deck_and_enforced_only_with_abilities(
    client: FlaskClient,
) -> None:
    """A token is made by an effect, never built into a deck; one whose abilities are encoded (the Hastalyk
    marker, WXDi-P05-TK01A) is enforced, the others are not."""
    tokens = client.get("/cards", query_string={"type": "token", "all": "true"}).get_json()
    assert tokens["total"] == 5  # five distinct tokens; their other prints answer with them
    assert all(c["colors"] == [] for c in tokens["cards"])
    enforced = {c["id"] for c in tokens["cards"] if c["enforced"]}
    assert enforced == {c["id"] for c in tokens["cards"] if abilities_of(c["id"])} == {"WXDi-P05-TK01A"}
    token = tokens["cards"][0]["id"]
    body = client.post(
        "/decks/validate",
        json={"lrig_deck": list(preset("WXDi-D01").lrig_deck), "main_deck": [token] * 40},
    ).get_json()
    zone = [p for p in body["problems"] if p["rule"] == "deck.zone"]
    assert zone and zone[0]["cards"] == [token] and "neither deck" in zone[0]["message"]


def _d01_with(replace: str, by: str) -> dict[str, Any]:
    d01 = preset("WXDi-D01")
    main = list(d01.main_deck)
    main[main.index(replace)] = by
    return {"format": "diva", "lrig_deck": list(d01.lrig_deck), "main_deck": main}


def test_a_reprint_counts_as_the_same_card_for_the_copy_limit(client: FlaskClient) -> None:
    """000 glossary "Main deck": up to four cards of the same name; a reprint is the same card."""
    assert load_catalogue(extended=True).get(REPRINT).name_key == load_catalogue().get(FIRST).name_key
    # three of the first printing and one reprint: four copies, legal
    ok = client.post("/decks/validate", json=_d01_with(FIRST, REPRINT)).get_json()
    assert ok == {"valid": True, "problems": []}
    # four of the first printing and a fifth as a reprint (in place of another card): too many
    other = next(c for c in preset("WXDi-D01").main_deck if c != FIRST)
    bad = client.post("/decks/validate", json=_d01_with(other, REPRINT)).get_json()
    assert bad["valid"] is False
    copies = [p for p in bad["problems"] if p["rule"] == "deck.copies"]
    assert len(copies) == 1 and copies[0]["cards"] == sorted([FIRST, REPRINT])
    assert "5 cards" in copies[0]["message"]


def test_a_match_from_explicit_lists_plays_the_reprint_as_its_first_printing(judge: Judge) -> None:
    deck = _d01_with(FIRST, REPRINT)
    players = {
        "p1": {"name": "Ann", "lrig_deck": deck["lrig_deck"], "main_deck": deck["main_deck"]},
        "p2": {"name": "Bo", "deck": "WXDi-D02"},
    }
    r = judge.client.post(
        "/matches", json={"format": "diva", "seed": 3, "players": players}, headers=judge.headers()
    )
    assert r.status_code == 201, r.get_json()
    created = judge.get(f"/matches/{r.get_json()['id']}/events")["events"][0]
    cards = created["data"]["cards"]  # instance id -> catalogue id
    assert REPRINT not in cards.values() and list(cards.values()).count(FIRST) == 4

    too_many = _d01_with(next(c for c in deck["main_deck"] if c not in (FIRST, REPRINT)), REPRINT)
    players["p1"]["main_deck"] = too_many["main_deck"]
    refused = judge.client.post(
        "/matches", json={"format": "diva", "seed": 3, "players": players}, headers=judge.headers()
    )
    assert refused.status_code == 422 and "deck.copies" in refused.get_json()["rule_refs"]


def test_a_position_takes_a_reprint_number_and_refuses_a_token(judge: Judge) -> None:
    filler = ["WXDi-D01-012"] * 10
    position: dict[str, Any] = {
        "format": "diva",
        "turn": 3,
        "turn_player": "p1",
        "phase": "main",
        "players": {
            "p1": {
                "lrig": {"center": "WXDi-D01-002"},
                "signi": {"center": REPRINT},
                "hand": [REPRINT],
                "deck": filler,
                "life_cloth": filler[:3],
            },
            "p2": {"lrig": {"center": "WXDi-D01-004"}, "deck": filler, "life_cloth": filler[:3]},
        },
    }
    m = judge.create_position(position)
    state = judge.state(m)
    p1 = state["players"]["p1"]
    assert p1["signi"]["center"]["card"] == FIRST
    assert [c["card"] for c in p1["hand"]["cards"]] == [FIRST]

    position["players"]["p1"]["hand"] = ["WX24-P1-TK2A"]  # a token
    r = judge.client.post("/positions", json=position, headers=judge.headers())
    assert r.status_code in (400, 422) and "token" in r.get_json()["detail"]
