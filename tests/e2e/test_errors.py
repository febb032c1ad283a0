"""Every error is application/problem+json with the right status and a sentence, and appends nothing."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from tests.conftest import JUDGE_TOKEN, Judge, MatchRef, bearer


def assert_problem(
    r: TestResponse, status: int, *, rule: str | None = None, words: str | None = None
) -> dict:
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True))
    assert r.content_type == "application/problem+json"
    body = r.get_json(force=True)
    assert body["status"] == status
    assert body["type"].startswith("urn:wixoss-judge:problem:")
    assert isinstance(body["title"], str) and body["title"]
    assert isinstance(body["detail"], str) and len(body["detail"]) > 10 and body["detail"].endswith(".")
    if rule is not None:
        assert rule in body["rule_refs"], body
    if words is not None:
        assert words.lower() in body["detail"].lower(), body["detail"]
    return body


@pytest.fixture
def match(judge: Judge) -> MatchRef:
    return judge.create_match(seed=11)


def _snapshot(judge: Judge, m: MatchRef) -> tuple[int, list[dict[str, Any]], int]:
    return judge.get(m.path)["version"], judge.events(m), len(judge.get("/matches")["matches"])


Case = Callable[[FlaskClient, MatchRef, dict[str, Any]], TestResponse]
J = bearer(JUDGE_TOKEN)


def _post(path: str, body: Any, headers: dict[str, str] | None = None) -> Case:
    return lambda c, m, pending: c.post(
        path.format(m=m.path), json=body, headers=J if headers is None else headers
    )


CASES: list[tuple[str, Case, int, dict[str, Any]]] = [
    (
        "malformed JSON",
        lambda c, m, p: c.post(
            f"{m.path}/actions", data='{"action": {', headers=J, content_type="application/json"
        ),
        400,
        {"words": "not valid JSON"},
    ),
    (
        "empty body",
        lambda c, m, p: c.post(f"{m.path}/actions", data="", headers=J, content_type="application/json"),
        400,
        {"words": "empty"},
    ),
    (
        "not JSON",
        lambda c, m, p: c.post(f"{m.path}/actions", data="pass", headers=J, content_type="text/plain"),
        415,
        {"words": "JSON"},
    ),
    ("JSON that is not an object", _post("{m}/actions", [1, 2]), 422, {}),
    (
        "unknown field in the body",
        lambda c, m, p: c.post(
            f"{m.path}/actions",
            json={"action": {"player": p["player"], "type": "pass"}, "extra": 1},
            headers=J,
        ),
        422,
        {"words": "extra"},
    ),
    (
        "unknown field in the action",
        lambda c, m, p: c.post(
            f"{m.path}/actions",
            json={"action": {"player": p["player"], "type": "mulligan", "cards": [], "colour": "red"}},
            headers=J,
        ),
        422,
        {"words": "colour"},
    ),
    (
        "unknown action type",
        _post("{m}/actions", {"action": {"player": "p1", "type": "teleport"}}),
        422,
        {"words": "teleport"},
    ),
    ("action without a player", _post("{m}/actions", {"action": {"type": "pass"}}), 422, {"words": "player"}),
    ("missing action", _post("{m}/actions", {"expected_version": 3}), 422, {"words": "action"}),
    (
        "expected_version of the wrong type",
        lambda c, m, p: c.post(
            f"{m.path}/actions",
            json={
                "action": {"player": p["player"], "type": "mulligan", "cards": []},
                "expected_version": "9",
            },
            headers=J,
        ),
        422,
        {"words": "expected_version"},
    ),
    (
        "a card that is not in the hand",
        lambda c, m, p: c.post(
            f"{m.path}/actions",
            json={"action": {"player": p["player"], "type": "mulligan", "cards": ["WXDi-D01-999"]}},
            headers=J,
        ),
        422,
        {"rule": "decision.invalid"},
    ),
    (
        "an instance id nobody has",
        lambda c, m, p: c.post(
            f"{m.path}/actions",
            json={"action": {"player": p["player"], "type": "mulligan", "cards": ["cffffffffff"]}},
            headers=J,
        ),
        422,
        {"rule": "decision.invalid"},
    ),
    (
        "not this player's decision",
        lambda c, m, p: c.post(
            f"{m.path}/actions",
            json={
                "action": {"player": "p2" if p["player"] == "p1" else "p1", "type": "mulligan", "cards": []}
            },
            headers=J,
        ),
        422,
        {"rule": "decision.not-yours"},
    ),
    (
        "an answer to another decision",
        lambda c, m, p: c.post(
            f"{m.path}/actions",
            json={"action": {"player": p["player"], "type": "attack", "zone": "lrig"}},
            headers=J,
        ),
        422,
        {},
    ),
    (
        "stale expected_version",
        lambda c, m, p: c.post(
            f"{m.path}/actions",
            json={"action": {"player": p["player"], "type": "mulligan", "cards": []}, "expected_version": 3},
            headers=J,
        ),
        409,
        {"words": "version"},
    ),
    (
        "unknown match",
        lambda c, m, p: c.post(
            f"/matches/{uuid.uuid4()}/actions", json={"action": {"player": "p1", "type": "pass"}}, headers=J
        ),
        404,
        {"words": "no match"},
    ),
    (
        "a match id that is not a UUID",
        lambda c, m, p: c.get("/matches/not-a-uuid/state"),
        404,
        {"words": "UUID"},
    ),
    ("state out of range", lambda c, m, p: c.get(f"{m.path}/state?at=9999"), 404, {"words": "out of range"}),
    ("state at 0", lambda c, m, p: c.get(f"{m.path}/state?at=0"), 422, {"words": "at"}),
    ("state at a word", lambda c, m, p: c.get(f"{m.path}/state?at=ten"), 422, {"words": "at"}),
    (
        "legal actions out of range",
        lambda c, m, p: c.get(f"{m.path}/legal-actions?at=9999", headers=J),
        404,
        {"words": "out of range"},
    ),
    (
        "ruling out of range",
        _post("{m}/rulings", {"at": 9999, "action": {"player": "p1", "type": "pass"}}),
        404,
        {"words": "out of range"},
    ),
    (
        "ruling on a malformed action",
        _post("{m}/rulings", {"action": {"player": "p1", "type": "pass", "x": 1}}),
        422,
        {"words": "x"},
    ),
    ("negative after", lambda c, m, p: c.get(f"{m.path}/events?after=-1"), 422, {"words": "after"}),
    (
        "unknown viewer",
        lambda c, m, p: c.get(f"{m.path}/state?viewer=everyone", headers=J),
        422,
        {"words": "viewer"},
    ),
    ("unknown route", lambda c, m, p: c.get("/nowhere"), 404, {"words": "/nowhere"}),
    ("unknown route under a match", lambda c, m, p: c.get(f"{m.path}/nowhere"), 404, {}),
    ("wrong method", lambda c, m, p: c.delete(f"{m.path}/actions", headers=J), 405, {"words": "POST"}),
    ("wrong method on a collection", lambda c, m, p: c.put("/matches", json={}, headers=J), 405, {}),
    ("unknown card", lambda c, m, p: c.get("/cards/WXDi-X99-999"), 404, {"words": "WXDi-X99-999"}),
    ("unknown deck", lambda c, m, p: c.get("/decks/WXDi-X99"), 404, {"words": "WXDi-X99"}),
    ("unknown rule", lambda c, m, p: c.get("/rules/no.such.rule"), 404, {"words": "no.such.rule"}),
    ("creating without a token", lambda c, m, p: c.post("/matches", json={}), 401, {"words": "judge"}),
    (
        "creating with a player token",
        lambda c, m, p: c.post(
            "/matches",
            json={},
            headers=bearer(c.application.extensions["judge_tokens"].player_token(uuid.UUID(m.id), "p1")),
        ),
        403,
        {"words": "judge"},
    ),
    (
        "acting without a token",
        lambda c, m, p: c.post(
            f"{m.path}/actions", json={"action": {"player": p["player"], "type": "mulligan", "cards": []}}
        ),
        401,
        {"words": "token"},
    ),
    (
        "acting with another match's token",
        lambda c, m, p: c.post(
            f"{m.path}/actions",
            json={"action": {"player": p["player"], "type": "mulligan", "cards": []}},
            headers=bearer(c.application.extensions["judge_tokens"].player_token(uuid.uuid4(), p["player"])),
        ),
        403,
        {"words": "token"},
    ),
    (
        "acting for the other player",
        lambda c, m, p: c.post(
            f"{m.path}/actions",
            json={"action": {"player": p["player"], "type": "mulligan", "cards": []}},
            headers=bearer(
                c.application.extensions["judge_tokens"].player_token(
                    uuid.UUID(m.id), "p2" if p["player"] == "p1" else "p1"
                )
            ),
        ),
        403,
        {"words": p_ if (p_ := "token") else ""},
    ),
    (
        "a ruling for the other player",
        lambda c, m, p: c.post(
            f"{m.path}/rulings",
            json={"action": {"player": p["player"], "type": "mulligan", "cards": []}},
            headers=bearer(
                c.application.extensions["judge_tokens"].player_token(
                    uuid.UUID(m.id), "p2" if p["player"] == "p1" else "p1"
                )
            ),
        ),
        403,
        {},
    ),
    ("legal actions for a spectator", lambda c, m, p: c.get(f"{m.path}/legal-actions"), 401, {}),
    (
        "a player's legal actions for the other",
        lambda c, m, p: c.get(
            f"{m.path}/legal-actions?player=p2",
            headers=bearer(c.application.extensions["judge_tokens"].player_token(uuid.UUID(m.id), "p1")),
        ),
        403,
        {},
    ),
    (
        "a player choosing another view",
        lambda c, m, p: c.get(
            f"{m.path}/state?viewer=judge",
            headers=bearer(c.application.extensions["judge_tokens"].player_token(uuid.UUID(m.id), "p1")),
        ),
        403,
        {"words": "judge"},
    ),
    ("a spectator choosing a player's view", lambda c, m, p: c.get(f"{m.path}/events?viewer=p1"), 403, {}),
    (
        "a player adjusting",
        lambda c, m, p: c.post(
            f"{m.path}/actions",
            json={"action": {"type": "adjust", "player": "p1", "steps": [{"op": "down"}], "reason": "x"}},
            headers=bearer(c.application.extensions["judge_tokens"].player_token(uuid.UUID(m.id), "p1")),
        ),
        403,
        {},
    ),
    (
        "creating with an unknown preset",
        _post(
            "/matches",
            {
                "format": "diva",
                "players": {"p1": {"name": "A", "deck": "WXDi-X99"}, "p2": {"name": "B", "deck": "WXDi-D01"}},
            },
        ),
        422,
        {"words": "WXDi-X99"},
    ),
    (
        "creating with an illegal deck",
        _post(
            "/matches",
            {
                "format": "diva",
                "players": {
                    "p1": {"name": "A", "lrig_deck": ["WXDi-D01-001"], "main_deck": ["WXDi-D01-012"] * 40},
                    "p2": {"name": "B", "deck": "WXDi-D01"},
                },
            },
        ),
        422,
        {"rule": "deck.lrig-level0"},
    ),
    (
        "creating with an unknown card",
        _post(
            "/matches",
            {
                "format": "diva",
                "players": {
                    "p1": {"name": "A", "lrig_deck": ["WXDi-NOPE"], "main_deck": []},
                    "p2": {"name": "B", "deck": "WXDi-D01"},
                },
            },
        ),
        422,
        {"rule": "deck.unknown-card"},
    ),
    (
        "creating with both deck kinds",
        _post(
            "/matches",
            {
                "format": "diva",
                "players": {
                    "p1": {"name": "A", "deck": "WXDi-D01", "main_deck": []},
                    "p2": {"name": "B", "deck": "WXDi-D01"},
                },
            },
        ),
        422,
        {},
    ),
    (
        "creating in an unknown format",
        _post(
            "/matches",
            {
                "format": "key",
                "players": {"p1": {"name": "A", "deck": "WXDi-D01"}, "p2": {"name": "B", "deck": "WXDi-D01"}},
            },
        ),
        422,
        {"words": "format"},
    ),
    (
        "a seed that is not a number",
        _post(
            "/matches",
            {
                "format": "diva",
                "seed": "x",
                "players": {"p1": {"name": "A", "deck": "WXDi-D01"}, "p2": {"name": "B", "deck": "WXDi-D01"}},
            },
        ),
        422,
        {"words": "seed"},
    ),
    (
        "validating a deck without its lists",
        _post("/decks/validate", {"format": "diva"}),
        422,
        {"words": "main_deck"},
    ),
]


@pytest.mark.parametrize(("name", "case", "status", "expect"), CASES, ids=[c[0] for c in CASES])
def test_error(
    judge: Judge, match: MatchRef, name: str, case: Case, status: int, expect: dict[str, Any]
) -> None:
    before = _snapshot(judge, match)
    pending = judge.state(match)["pending"]
    assert_problem(case(judge.client, match, pending), status, **expect)
    assert _snapshot(judge, match) == before, "an error appended something"


def test_a_finished_match_refuses_actions_citing_game_over(judge: Judge, match: MatchRef) -> None:
    r = judge.act(match, {"player": "p2", "type": "concede"}, token=match.tokens["p2"])
    assert r.status_code == 201
    assert judge.get(match.path)["status"] == "finished" and judge.get(match.path)["winner"] == "p1"
    before = _snapshot(judge, match)
    for token in ("judge", match.tokens["p1"]):
        body = assert_problem(
            judge.act(match, {"player": "p1", "type": "pass"}, token=token), 422, rule="game.over"
        )
        assert "over" in body["detail"]
    ruling = judge.ruling(match, {"player": "p1", "type": "pass"})
    assert ruling.status_code == 200 and ruling.get_json()["legal"] is False
    assert "game.over" in ruling.get_json()["rule_refs"]
    assert _snapshot(judge, match) == before


def test_a_405_names_the_allowed_methods(client: FlaskClient) -> None:
    r = client.delete("/cards")
    assert_problem(r, 405)
    assert "GET" in r.headers["Allow"]


def test_401_says_how_to_authenticate(client: FlaskClient) -> None:
    r = client.post("/positions", json={})
    assert_problem(r, 401)
    assert r.headers["WWW-Authenticate"].startswith("Bearer")


def test_an_unexpected_error_is_a_500_problem_that_reveals_nothing(app: Any, client: FlaskClient) -> None:
    def boom() -> None:
        raise RuntimeError("secret internals")

    app.add_url_rule("/boom", "boom", boom)
    app.logger.disabled = True
    r = client.get("/boom")
    body = assert_problem(r, 500)
    assert "secret" not in r.get_data(as_text=True) and body["type"].endswith("internal-error")
