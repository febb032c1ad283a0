"""The original format's options through the API (docs/FORMATS.md "Match options"): given at creation (a
match, a position, a deck check), refused by name when unknown or bad, shown in the state and the first event,
and carried by the audit and by a record posted back."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.conftest import Judge, MatchRef


def _fewer_bursts(judge: Judge) -> dict[str, Any]:
    deck = judge.get("/decks/DEMO-WD01")
    main = list(deck["main_deck"])
    main[main.index("WD01-009")] = "WD04-013"  # 19 Life Bursts
    return {"name": "Ann", "lrig_deck": deck["lrig_deck"], "main_deck": main}


def _create(client: FlaskClient, judge: Judge, **body: Any) -> Any:
    full = {
        "format": "original",
        "seed": 4,
        "first_player": "p1",
        "players": {"p1": {"name": "Ann", "deck": "DEMO-WD01"}, "p2": {"name": "Bo", "deck": "DEMO-WD04"}},
        **body,
    }
    return client.post("/matches", json=full, headers=judge.headers())


def test_an_unknown_option_or_a_bad_value_is_refused_naming_it(judge: Judge, client: FlaskClient) -> None:
    for options, name in (
        ({"colour_rule": True}, "colour_rule"),
        ({"life_bursts": "exactly_19"}, "life_bursts"),
        ({"lrig_deck_size": -1}, "lrig_deck_size"),
    ):
        r = _create(client, judge, options=options)
        body = r.get_json()
        assert r.status_code == 422 and r.mimetype == "application/problem+json", body
        assert list(body["errors"]["options"]) == [name] and name in body["detail"]
    diva = _create(
        client,
        judge,
        format="diva",
        options={"lancer": "battle"},
        players={"p1": {"name": "A", "deck": "WXDi-D01"}, "p2": {"name": "B", "deck": "WXDi-D02"}},
    )
    assert diva.status_code == 422 and "lancer" in diva.get_json()["errors"]["options"]


def test_a_match_records_shows_audits_and_replays_its_options(judge: Judge, client: FlaskClient) -> None:
    players = {"p1": _fewer_bursts(judge), "p2": {"name": "Bo", "deck": "DEMO-WD04"}}
    refused = _create(client, judge, players=players)
    assert refused.status_code == 422 and "orig.deck.life-burst" in refused.get_json()["rule_refs"]
    r = _create(client, judge, players=players, options={"life_bursts": "at_most_20"})
    assert r.status_code == 201, r.get_json()
    m = MatchRef(r.get_json()["id"], r.get_json()["tokens"])
    state = judge.state(m, token=m.tokens["p2"])
    assert state["options"]["life_bursts"] == "at_most_20" and state["options"]["card_pool"] == "era"
    first = judge.events(m, token=m.tokens["p2"])[0]
    assert first["type"] == "MatchCreated" and first["data"]["options"]["life_bursts"] == "at_most_20"
    assert "life_bursts at_most_20" in first["text"]
    for _ in range(6):
        assert judge.act(m, judge.legal(m)[0]).status_code == 201
    assert judge.get(f"{m.path}/audit")["ok"] is True
    text = client.get(f"{m.path}/record", headers=judge.headers()).get_data(as_text=True)
    posted = client.post("/records", json={"record": text}, headers=judge.headers())
    assert posted.status_code == 201, posted.get_json()
    back = MatchRef(posted.get_json()["id"], posted.get_json()["tokens"])
    assert judge.state(back)["options"] == state["options"]


def test_a_match_without_options_shows_the_defaults(judge: Judge, client: FlaskClient) -> None:
    r = _create(client, judge)
    assert r.status_code == 201
    m = MatchRef(r.get_json()["id"], r.get_json()["tokens"])
    assert judge.state(m)["options"]["lancer"] == "triggered"
    d = judge.create_match(seed=3)
    assert judge.state(d)["options"] == {}


def test_a_deck_check_and_a_position_take_options(judge: Judge, client: FlaskClient) -> None:
    deck = _fewer_bursts(judge)
    check = {"format": "original", "lrig_deck": deck["lrig_deck"], "main_deck": deck["main_deck"]}
    r = client.post("/decks/validate", json=check)
    assert r.status_code == 200 and r.get_json()["valid"] is False
    r = client.post("/decks/validate", json={**check, "options": {"life_bursts": "at_most_20"}})
    assert r.status_code == 200 and r.get_json()["valid"] is True
    r = client.post("/decks/validate", json={**check, "options": {"nope": 1}})
    assert r.status_code == 422 and "nope" in r.get_json()["errors"]["options"]
    pos = {
        "format": "original",
        "turn": 3,
        "turn_player": "p1",
        "phase": "main",
        "options": {"lancer": "battle"},
        "players": {
            p: {"lrig": {"center": "WD01-003"}, "deck": ["WD01-013"] * 5, "life_cloth": ["WD01-012"] * 3}
            for p in ("p1", "p2")
        },
    }
    m = judge.create_position(pos)
    assert judge.state(m)["options"]["lancer"] == "battle"
    bad = client.post("/positions", json={**pos, "options": {"lancer": 2}}, headers=judge.headers())
    assert bad.status_code == 422 and "lancer" in bad.get_json()["errors"]["options"]
