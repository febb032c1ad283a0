"""Who sees what, and who may do what: tokens, viewers, redaction in every endpoint."""

from __future__ import annotations

import hashlib
import hmac
from uuid import UUID

import pytest
from flask import Flask

from app import create_app
from projections.views import state_view
from tests.conftest import JUDGE_TOKEN, Judge, bearer, make_app


def test_player_tokens_name_their_match_and_player_and_carry_an_hmac(app: Flask, judge: Judge) -> None:
    m = judge.create_match()
    secret = app.extensions["judge_tokens"]._secret
    for p in ("p1", "p2"):
        mac = hmac.new(secret, f"{m.id}:{p}".encode(), hashlib.sha256).hexdigest()
        assert m.tokens[p] == f"{m.id}.{p}.{mac}"
    other = make_app(TOKEN_SECRET="another secret")
    assert other.extensions["judge_tokens"].player_token(UUID(m.id), "p1") != m.tokens["p1"]
    mac = hmac.new(b"another secret", f"{m.id}:p1".encode(), hashlib.sha256).hexdigest()
    assert other.extensions["judge_tokens"].player_token(UUID(m.id), "p1") == f"{m.id}.p1.{mac}"


def test_bare_hmac_tokens_still_work_on_their_own_match(app: Flask, judge: Judge) -> None:
    """Tokens issued before tokens named their match (the bare hex HMAC) keep working where the path names the
    match; elsewhere they name no one the service can check, so they are unknown (401)."""
    m = judge.create_match(seed=4)
    legacy = {p: app.extensions["judge_tokens"].legacy_player_token(UUID(m.id), p) for p in ("p1", "p2")}
    state = app.extensions["judge"].state_at(UUID(m.id))
    assert judge.state(m, token=legacy["p2"]) == state_view(state, "p2")
    assert judge.client.get(f"/matches/{m.id.upper()}/state", headers=bearer(legacy["p1"])).status_code == 200
    actions = judge.legal(m, token=legacy["p1"])
    assert actions and all(a["player"] == "p1" for a in actions)
    assert judge.act(m, actions[0], token=legacy["p2"]).status_code == 403  # acting for the other player
    assert judge.act(m, actions[0], token=legacy["p1"]).status_code == 201
    other = judge.create_match(seed=5)
    r = judge.client.get(f"{other.path}/state", headers=bearer(legacy["p1"]))
    assert r.status_code == 401 and 'error="invalid_token"' in r.headers["WWW-Authenticate"]
    assert judge.client.get("/cards", headers=bearer(legacy["p1"])).status_code == 401


def test_a_forged_or_altered_player_token_is_unknown(judge: Judge) -> None:
    m = judge.create_match(seed=6)
    other = judge.create_match(seed=7)
    mid, player, mac = m.tokens["p1"].split(".")
    flipped = mac[:-1] + ("0" if mac[-1] != "0" else "1")
    forged = (
        f"{mid}.{player}.{flipped}",  # a wrong mac
        f"{mid}.p2.{mac}",  # p1's mac with p2's name
        f"{other.id}.p1.{mac}",  # another match's id
        f"{mid.upper()}.{player}.{mac}",  # not the form the service issues
        f"{mid}.{player}.{mac.upper()}",
        f"{mid}.{player}.{mac}.x",
        mac[:-2],
    )
    for token in forged:
        for path in (f"{m.path}/state", "/cards", "/matches"):
            r = judge.client.get(path, headers=bearer(token))
            assert r.status_code == 401, (token, path, r.get_json())
            assert r.headers["Content-Type"] == "application/problem+json"
            challenge = r.headers["WWW-Authenticate"]
            assert challenge.startswith('Bearer realm="wixoss-judge", error="invalid_token"')


def test_each_viewer_sees_its_own_view(app: Flask, judge: Judge) -> None:
    m = judge.create_match(seed=123)
    state = app.extensions["judge"].state_at(UUID(m.id))
    for viewer, token in (
        ("judge", "judge"),
        ("p1", m.tokens["p1"]),
        ("p2", m.tokens["p2"]),
        ("spectator", None),
    ):
        assert judge.state(m, token=token) == state_view(state, viewer)
    for viewer in ("p1", "p2", "spectator", "judge"):
        assert judge.state(m, viewer=viewer) == state_view(state, viewer)
    assert judge.state(m, token=m.tokens["p1"], viewer="p1") == state_view(state, "p1")
    assert judge.state(m, token=None, viewer="spectator") == state_view(state, "spectator")
    p1 = judge.state(m, token=m.tokens["p1"])
    assert "cards" in p1["players"]["p1"]["hand"] and "cards" not in p1["players"]["p2"]["hand"]
    assert "seed" not in p1 and "digest" not in p1
    assert judge.state(m)["seed"] == 123
    # another match's player token gives no rights here, reads included: 403, never a quiet spectator's view
    other = judge.create_match(seed=5)
    r = judge.client.get(f"{m.path}/state", headers=bearer(other.tokens["p1"]))
    assert r.status_code == 403 and other.id in r.get_json()["detail"]


def test_the_log_is_redacted_per_viewer_and_limit_is_clamped(judge: Judge) -> None:
    m = judge.create_match(seed=9)
    as_judge = judge.events(m)
    as_p1 = judge.events(m, token=m.tokens["p1"])
    as_spectator = judge.events(m, token=None)
    assert len(as_judge) == len(as_p1) == len(as_spectator)
    draws = [i for i, e in enumerate(as_judge) if e["type"] == "CardsDrawn"]
    p1_draw = next(i for i in draws if as_judge[i]["data"]["player"] == "p1")
    p2_draw = next(i for i in draws if as_judge[i]["data"]["player"] == "p2")
    assert as_p1[p1_draw]["data"]["cards"] == as_judge[p1_draw]["data"]["cards"]
    assert "cards" not in as_p1[p2_draw]["data"] and as_p1[p2_draw]["data"]["count"] == 5
    assert all("hash" in e for e in as_judge) and not any("hash" in e for e in as_p1 + as_spectator)
    assert judge.get(f"{m.path}/events", limit=2, after=3)["events"][0]["n"] == 4
    assert len(judge.get(f"{m.path}/events", limit=10**9)["events"]) == len(as_judge)
    assert judge.get(f"{m.path}/events", after=10**12)["events"] == []
    assert judge.get(f"{m.path}/events", limit=0)["events"] == []
    assert judge.get(f"{m.path}/events", limit=-5)["events"] == []
    assert judge.get(f"{m.path}/events", viewer="p2")["events"][p2_draw]["data"]["cards"]


def test_actions_by_players_and_by_the_judge_for_them(judge: Judge) -> None:
    m = judge.create_match(seed=31, first_player="p1")
    assert judge.legal(m, token=m.tokens["p2"]) == []  # p1 decides first
    own = judge.legal(m, token=m.tokens["p1"])
    assert own and all(a["player"] == "p1" for a in own)
    assert judge.legal(m, player="p2") == [] and judge.legal(m) == own
    version = judge.state(m)["version"]
    r = judge.act(
        m, {"player": "p1", "type": "mulligan", "cards": []}, expected_version=version, token=m.tokens["p1"]
    )
    assert r.status_code == 201
    body = r.get_json()
    assert body["version"] == body["events"][-1]["n"] and body["events"][0]["n"] == version + 1
    assert body["events"][0]["actor"] == "p1" and "by" not in body["events"][0]
    assert body["events"][0]["action"] == {"player": "p1", "type": "mulligan", "cards": []}
    r = judge.act(m, {"player": "p2", "type": "mulligan", "cards": []})
    assert r.status_code == 201
    first = r.get_json()["events"][0]
    assert first["actor"] == "p2" and first["by"] == "judge" and "hash" in first
    # what a player got back is redacted for it: the opponent's redraw and Life Cloth are counts
    assert all("hash" not in e for e in body["events"])


def test_the_summary_and_the_list(app: Flask, judge: Judge) -> None:
    m = judge.create_match(seed=8)
    summary = judge.get(m.path)
    assert summary["status"] == "setup" and summary["turn"] == 0 and summary["pending"]["kind"] == "mulligan"
    assert "options" not in summary["pending"]
    assert summary["players"] == {"p1": {"name": "Ann"}, "p2": {"name": "Bo"}}
    state = app.extensions["judge"].state_at(UUID(m.id))
    ids = set(summary["enforced"]["enforced"]) | set(summary["enforced"]["judge_resolved"])
    assert ids == set(state.cards.values())  # the judge knows every card of the match
    spectator = judge.get(m.path, token=None)
    seen = set(spectator["enforced"]["enforced"]) | set(spectator["enforced"]["judge_resolved"])
    assert seen < ids  # a spectator knows of the cards it can see, not the decks
    p1_ids = {state.cards[i] for i, owner in state.owners.items() if owner == "p1"}
    p1 = judge.get(m.path, token=m.tokens["p1"])
    assert set(p1["enforced"]["enforced"]) | set(p1["enforced"]["judge_resolved"]) >= p1_ids
    listed = judge.get("/matches")["matches"]
    assert listed == [
        {
            "id": m.id,
            "players": {"p1": "Ann", "p2": "Bo"},
            "status": "setup",
            "version": summary["version"],
            "winner": None,
            "parent": None,
        }
    ]


def test_the_judge_token_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUDGE_TOKEN", "from-the-environment")
    app = create_app({"PERSISTENCE_MODULE": "eventsourcing.popo"})
    body = {
        "format": "diva",
        "seed": 1,
        "players": {"p1": {"name": "A", "deck": "WXDi-D01"}, "p2": {"name": "B", "deck": "WXDi-D02"}},
    }
    client = app.test_client()
    assert client.post("/matches", json=body, headers=bearer("from-the-environment")).status_code == 201
    r = client.post("/matches", json=body, headers=bearer(JUDGE_TOKEN))  # not this service's judge token
    assert r.status_code == 401 and 'error="invalid_token"' in r.headers["WWW-Authenticate"]
