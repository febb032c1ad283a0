"""GET /matches/{id}/record and POST /records over HTTP (docs/RECORDS.md)."""

from __future__ import annotations

import json
from pathlib import Path

from flask.testing import FlaskClient

from app.cli import main
from tests.conftest import Judge, MatchRef, bearer

PAPER = Path(__file__).parent.parent / "records" / "paper-game.jsonl"


def _play(judge: Judge, steps: int = 12) -> MatchRef:
    m = judge.create_match(seed=5)
    for _ in range(steps):
        assert judge.act(m, judge.legal(m)[0]).status_code == 201
    return m


def test_a_record_exported_and_posted_back_is_a_new_match_with_every_hash_equal(
    judge: Judge, client: FlaskClient
) -> None:
    m = _play(judge)
    got = client.get(f"{m.path}/record", headers=judge.headers())
    assert got.status_code == 200 and got.mimetype == "application/x-ndjson"
    text = got.get_data(as_text=True)
    posted = client.post(
        "/records", data=text, headers={**judge.headers(), "Content-Type": "application/x-ndjson"}
    )
    assert posted.status_code == 201, posted.get_json()
    body = posted.get_json()
    assert posted.headers["Location"] == f"/matches/{body['id']}" and set(body["tokens"]) == {"p1", "p2"}
    original = [e["hash"] for e in judge.events(m)]
    imported = [e["hash"] for e in judge.events(MatchRef(body["id"], body["tokens"]))]
    assert imported == original and body["report"]["hashes_checked"] == len(text.splitlines())
    as_json = client.post("/records", json={"record": text}, headers=judge.headers())
    assert as_json.status_code == 201


def test_an_edited_record_is_422_at_the_line_with_reason_rules_and_state(
    judge: Judge, client: FlaskClient
) -> None:
    m = _play(judge)
    lines = client.get(f"{m.path}/record", headers=judge.headers()).get_data(as_text=True).splitlines()
    edited = json.loads(lines[4])
    edited["hash"] = "f" * 64
    lines[4] = json.dumps(edited)
    answer = client.post("/records", json={"record": "\n".join(lines)}, headers=judge.headers())
    assert answer.status_code == 422 and answer.mimetype == "application/problem+json"
    body = answer.get_json()
    assert (body["line"], body["reason"], body["rule_refs"]) == (5, "hash-differs", ["record.hash"])
    assert body["state"]["version"] >= 1


def test_records_are_the_judge_s_only(judge: Judge, client: FlaskClient) -> None:
    m = _play(judge, 1)
    assert client.get(f"{m.path}/record", headers=bearer(m.tokens["p1"])).status_code == 403
    assert client.post("/records", json={"record": "{}"}).status_code == 401
    bad = client.post("/records", json={"record": "not json"}, headers=judge.headers())
    assert bad.status_code == 422 and bad.get_json()["reason"] == "malformed"


def test_the_audit_command_reports_a_paper_game(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["audit", str(PAPER)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] and report["unchecked"] and report["checked"]
