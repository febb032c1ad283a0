"""POST /matches/{id}/audit: does today's log still extend a head hash a judge wrote down earlier
(docs/AUDIT.md, "The head-hash anchor")?"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any
from uuid import UUID

from flask.testing import FlaskClient

from tests.conftest import Judge, MatchRef, sqlite_app
from tests.e2e.test_tampering import _events_table


def anchor(judge: Judge, m: MatchRef, body: Any, token: str | None = "judge") -> tuple[int, dict[str, Any]]:
    r = judge.client.post(f"{m.path}/audit", json=body, headers=judge.headers(token))
    return r.status_code, r.get_json()


def test_a_head_hash_written_down_earlier_is_still_extended_after_play_and_a_rewind(judge: Judge) -> None:
    m = judge.create_match("WXDi-D01", "WXDi-D02", seed=12)
    rng = random.Random(2)
    judge.play(m, rng, stop_at=30)
    noted = judge.get(f"{m.path}/audit")
    assert noted["ok"] and len(noted["head_hash"]) == 64
    n = noted["events"]
    judge.play(m, rng, stop_at=n + 40)
    r = judge.client.post(f"{m.path}/rewind", json={"to": n, "reason": "ruling"}, headers=judge.headers())
    assert r.status_code == 201

    status, body = anchor(judge, m, {"head_hash": noted["head_hash"]})
    assert status == 200
    assert body["extends"] is True and body["at"] == n and body["ok"] is True
    assert body["head_hash"] != noted["head_hash"] and body["events"] > n  # today's head moved on
    status, body = anchor(judge, m, {"head_hash": noted["head_hash"].upper(), "at": n})
    assert (status, body["extends"], body["at"]) == (200, True, n)

    # The hash of event n given as the hash of another event: the numbering changed, so it does not extend.
    status, body = anchor(judge, m, {"head_hash": noted["head_hash"], "at": n + 1})
    assert (status, body["extends"], body["at"]) == (200, False, n)
    assert f"event {n} today, not of event {n + 1}" in body["explanation"]


def test_a_hash_found_nowhere_does_not_extend_and_says_why(judge: Judge) -> None:
    m = judge.create_match(seed=3)
    other = judge.create_match(seed=4)
    elsewhere = judge.get(f"{other.path}/audit")["head_hash"]
    for wanted in ("ab" * 32, elsewhere):
        status, body = anchor(judge, m, {"head_hash": wanted})
        assert status == 200 and body["extends"] is False and body["at"] is None
        assert "no event of today's log" in body["explanation"] and body["anchor"] == wanted
    status, body = anchor(judge, m, {"head_hash": elsewhere, "at": 10_000})
    assert body["extends"] is False and "events were removed" in body["explanation"]


def test_an_event_altered_before_the_anchor_breaks_it_one_after_does_not(tmp_path: Path) -> None:
    db = tmp_path / "judge.sqlite"
    app = sqlite_app(db)
    judge = Judge(app.test_client())
    m = judge.create_match("WXDi-D03", "WXDi-D04", seed=21)
    judge.play(m, random.Random(5), stop_at=60)
    events = judge.events(m)
    early, late = 20, len(events) - 3
    noted = events[early + 9]["hash"]  # written down at event early + 10
    app.extensions["judge"].close()

    def alter(n: int) -> None:
        con = sqlite3.connect(db)
        table = _events_table(con)
        key = (UUID(m.id).hex, n)
        (state,) = con.execute(
            f"SELECT state FROM {table} WHERE originator_id = ? AND originator_version = ?", key
        ).fetchone()
        stored = json.loads(state)
        stored["rule"] = stored["rule"] + ".edited"
        con.execute(
            f"UPDATE {table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (json.dumps(stored).encode(), *key),
        )
        con.commit()
        con.close()

    def ask() -> dict[str, Any]:
        fresh = sqlite_app(db)
        try:
            return anchor(Judge(fresh.test_client()), m, {"head_hash": noted, "at": early + 10})[1]
        finally:
            fresh.extensions["judge"].close()

    alter(late)  # after the anchor: the audit fails there, the anchor still holds
    body = ask()
    assert body["ok"] is False and body["problems"][0]["at"] == late
    assert body["extends"] is True
    alter(early)  # before it: the anchor no longer holds, whatever the stored hashes say
    body = ask()
    assert body["extends"] is False and f"some event from 1 to {early + 10} changed" in body["explanation"]


def test_malformed_anchors_are_problems_never_500(judge: Judge, client: FlaskClient) -> None:
    m = judge.create_match(seed=6)
    for body in (
        {"head_hash": "xyz"},
        {"head_hash": "a" * 63},
        {"head_hash": "g" * 64},
        {},
        {"head_hash": 5},
        {"head_hash": "a" * 64, "at": 0},
        {"head_hash": "a" * 64, "extra": 1},
        [1],
    ):
        status, answer = anchor(judge, m, body)
        assert status in (400, 422), (body, status)
        assert answer["status"] == status and answer["type"].startswith("urn:wixoss-judge:problem:")
    r = client.post(f"{m.path}/audit", data=b"{", headers=judge.headers(), content_type="application/json")
    assert r.status_code == 400 and r.content_type == "application/problem+json"
    assert anchor(judge, MatchRef("0" * 32, {}), {"head_hash": "a" * 64})[0] == 404
    assert anchor(judge, m, {"head_hash": "a" * 64}, token=m.tokens["p1"])[0] == 403
