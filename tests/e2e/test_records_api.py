"""GET /matches/{id}/record and POST /records over HTTP (docs/RECORDS.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from flask.testing import FlaskClient

from app.cli import main
from tests.conftest import JUDGE_TOKEN, Judge, MatchRef, bearer

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


def _post_record(client: FlaskClient, text: str, key: str | None, as_json: bool = False) -> Any:
    headers = {**bearer(JUDGE_TOKEN), **({"Idempotency-Key": key} if key else {})}
    if as_json:
        return client.post("/records", json={"record": text}, headers=headers)
    return client.post("/records", data=text, headers={**headers, "Content-Type": "application/x-ndjson"})


def test_a_keyed_import_is_made_once_and_the_same_key_with_another_record_is_422(
    judge: Judge, client: FlaskClient
) -> None:
    """POST /records appends a match: with an Idempotency-Key, a retry (sent either way, JSON Lines or
    JSON) gets the first answer and creates nothing; the same key with another record is 422 (API.md,
    Additions: Retries). Both for an exported record (every time given: hash for hash) and a paper game
    (no times, no seed: field for field)."""
    m = _play(judge)
    exported = client.get(f"{m.path}/record", headers=judge.headers()).get_data(as_text=True)
    paper = PAPER.read_text()
    for text, other in ((exported, paper), (paper, exported)):
        key = f"import {len(text)}"
        first = _post_record(client, text, key)
        assert first.status_code == 201, first.get_json()
        listed = len(judge.get("/matches")["matches"])
        for as_json in (False, True):
            again = _post_record(client, text, key, as_json)
            assert (again.status_code, again.get_json()) == (201, first.get_json())
            assert again.headers["Location"] == first.headers["Location"]
        refused = _post_record(client, other, key)
        assert refused.status_code == 422 and refused.get_json()["type"].endswith(":idempotency-key-reused")
        assert len(judge.get("/matches")["matches"]) == listed
        mid = first.get_json()["id"]
        assert judge.get(f"/matches/{mid}/audit")["ok"] is True
    # a key that made a match with POST /matches is not a record's: 422, nothing made
    made = client.post(
        "/matches",
        json={
            "format": "diva",
            "seed": 1,
            "players": {"p1": {"name": "A", "deck": "WXDi-D01"}, "p2": {"name": "B", "deck": "WXDi-D02"}},
        },
        headers={**judge.headers(), "Idempotency-Key": "shared"},
    )
    assert made.status_code == 201
    assert _post_record(client, exported, "shared").status_code == 422


def test_a_record_spelling_a_lone_surrogate_is_400_not_500(judge: Judge, client: FlaskClient) -> None:
    """A body that holds lone surrogates is a 400 (API.md, Additions: Authentication); in a record they hide
    one level down, in a line's JSON, whichever way the record is sent."""
    header = json.loads(PAPER.read_text().splitlines()[0])
    header["players"]["p1"]["name"] = "Ann \ud800"
    text = json.dumps(header) + "\n"  # the surrogate as the escape \\ud800
    for as_json in (False, True):
        r = _post_record(client, text, None, as_json)
        assert r.status_code == 400 and r.mimetype == "application/problem+json", r.get_data(as_text=True)
        assert r.get_json()["line"] == 1 and "surrogate" in r.get_json()["detail"]
    assert judge.get("/matches")["matches"] == []
