"""Safe retries: every POST that records something takes an ``Idempotency-Key`` (``/actions`` also a client
``action_id``). A retry with the same key gets the first answer (status, body, ``Location``) and records
nothing; the same key with another request is 422; a bad key is 400. Keys live in the log, so a new process
on the same SQLite file still finds them, and they are scoped to the caller."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app.application import IdempotentRequest, KeyReused
from tests.conftest import Judge, MatchRef, sqlite_app

CREATE = {
    "format": "diva",
    "first_player": "p1",
    "players": {"p1": {"name": "Ann", "deck": "WXDi-D01"}, "p2": {"name": "Bo", "deck": "WXDi-D02"}},
}


def keyed(judge: Judge, key: str, token: str | None = "judge") -> dict[str, str]:
    return {**judge.headers(token), "Idempotency-Key": key}


def post(client: FlaskClient, path: str, body: Any, headers: dict[str, str]) -> tuple[int, Any, str | None]:
    r = client.post(path, json=body, headers=headers)
    return r.status_code, r.get_json(), r.headers.get("Location")


def head(judge: Judge, m: MatchRef) -> int:
    return int(judge.get(m.path)["version"])


def test_a_keyed_action_sent_again_is_answered_as_the_first_and_recorded_once(judge: Judge) -> None:
    m = judge.create_match(seed=3)
    action = judge.legal(m)[0]
    path = f"{m.path}/actions"
    first = post(judge.client, path, {"action": action}, keyed(judge, "act-1"))
    assert first[0] == 201, first
    after = head(judge, m)
    assert first[1]["version"] == after
    # later actions do not change the answer to a retry of the first
    judge.act(m, judge.legal(m)[0])
    moved = head(judge, m)
    assert moved > after
    for _ in range(3):
        assert post(judge.client, path, {"action": action}, keyed(judge, "act-1")) == first
    assert head(judge, m) == moved
    # the key is on the first event of the batch, for the judge only
    events = judge.events(m)
    keyed_events = [e for e in events if "idempotency" in e]
    assert [e["n"] for e in keyed_events] == [first[1]["events"][0]["n"]]
    assert keyed_events[0]["idempotency"]["key"] == "act-1"
    assert keyed_events[0]["idempotency"]["caller"] == "judge"
    assert all("idempotency" not in e for e in judge.events(m, token=m.tokens["p1"]))
    assert judge.get(f"{m.path}/audit")["ok"] is True


def test_a_retry_with_an_expected_version_gets_the_first_answer_not_a_conflict(judge: Judge) -> None:
    m = judge.create_match(seed=4)
    version = head(judge, m)
    body = {"action": judge.legal(m)[0], "expected_version": version}
    first = post(judge.client, f"{m.path}/actions", body, keyed(judge, "with-version"))
    assert first[0] == 201
    assert post(judge.client, f"{m.path}/actions", body, keyed(judge, "with-version")) == first
    # without the key, the same body is a conflict: the match has moved on
    assert judge.client.post(f"{m.path}/actions", json=body, headers=judge.headers()).status_code == 409


def test_the_same_key_with_another_request_is_422_and_records_nothing(judge: Judge) -> None:
    m = judge.create_match(seed=5)
    legal = judge.legal(m)
    assert len(legal) > 1
    path = f"{m.path}/actions"
    assert post(judge.client, path, {"action": legal[0]}, keyed(judge, "k"))[0] == 201
    before = head(judge, m)
    status, problem, _ = post(judge.client, path, {"action": legal[1]}, keyed(judge, "k"))
    assert status == 422
    assert problem["type"].endswith(":idempotency-key-reused")
    assert problem["idempotency_key"] == "k"
    assert head(judge, m) == before
    # another request on another endpoint with the same key: reused as well
    status, problem, _ = post(judge.client, f"{m.path}/rewind", {"to": 9, "reason": "x"}, keyed(judge, "k"))
    assert (status, problem["type"].split(":")[-1]) == (422, "idempotency-key-reused")
    assert head(judge, m) == before


def test_action_id_in_the_body_works_as_the_key(judge: Judge) -> None:
    m = judge.create_match(seed=6)
    legal = judge.legal(m)
    path = f"{m.path}/actions"
    body = {"action": legal[0], "action_id": "client-action-17"}
    first = post(judge.client, path, body, judge.headers())
    assert first[0] == 201
    after = head(judge, m)
    assert post(judge.client, path, body, judge.headers()) == first
    assert head(judge, m) == after
    # the same id with another action: 422
    other = post(judge.client, path, {"action": legal[1], "action_id": "client-action-17"}, judge.headers())
    assert other[0] == 422
    assert other[1]["type"].endswith(":idempotency-key-reused")
    # the header and the id name the same key: together they must agree
    assert post(judge.client, path, body, keyed(judge, "client-action-17")) == first
    clash = post(judge.client, path, body, keyed(judge, "something-else"))
    assert clash[0] == 400
    assert clash[1]["type"].endswith(":invalid-idempotency-key")
    bad = post(judge.client, path, {"action": legal[0], "action_id": ""}, judge.headers())
    assert bad[0] == 422 and "action_id" in bad[1]["detail"]
    assert head(judge, m) == after


@pytest.mark.parametrize("key", ["", "   ", "x" * 201, "clé", "tab\there"])
def test_a_bad_key_is_400_and_records_nothing(judge: Judge, key: str) -> None:
    m = judge.create_match(seed=7)
    before = head(judge, m)
    r = judge.client.post(f"{m.path}/actions", json={"action": judge.legal(m)[0]}, headers=keyed(judge, key))
    assert r.status_code == 400, r.get_json()
    assert r.mimetype == "application/problem+json"
    assert r.get_json()["type"].endswith(":invalid-idempotency-key")
    assert head(judge, m) == before
    r = judge.client.post("/matches", json=CREATE, headers=keyed(judge, key))
    assert r.status_code == 400
    assert len(judge.get("/matches")["matches"]) == 1


def test_keys_are_the_callers_own(judge: Judge) -> None:
    """p2 sending p1's key gets no answer of p1's: for p2 it is a new key (and here a refused action)."""
    m = judge.create_match(seed=8)
    r = judge.client.post(
        f"{m.path}/actions",
        json={"action": {"player": "p1", "type": "mulligan", "cards": []}},
        headers=keyed(judge, "shared", m.tokens["p1"]),
    )
    assert r.status_code == 201, r.get_json()
    after = head(judge, m)
    # p2 replays p1's request with p1's key: not p1's answer; p2 may not act for p1 (403)
    r2 = judge.client.post(
        f"{m.path}/actions",
        json={"action": {"player": "p1", "type": "mulligan", "cards": []}},
        headers=keyed(judge, "shared", m.tokens["p2"]),
    )
    assert r2.status_code == 403
    # p2's own request with the same key is p2's own first request: recorded
    r3 = judge.client.post(
        f"{m.path}/actions",
        json={"action": {"player": "p2", "type": "mulligan", "cards": []}},
        headers=keyed(judge, "shared", m.tokens["p2"]),
    )
    assert r3.status_code == 201, r3.get_json()
    assert head(judge, m) > after
    # the judge sending p1's body with p1's key is the judge's first request: applied for p1? already done
    # by p1, so it is decided anew (and refused), never answered with p1's events
    r4 = judge.client.post(
        f"{m.path}/actions",
        json={"action": {"player": "p1", "type": "mulligan", "cards": []}},
        headers=keyed(judge, "shared"),
    )
    assert r4.status_code == 422
    assert r4.get_json()["type"].endswith(":rule-violation")


def test_a_keyed_match_creation_is_made_once(judge: Judge) -> None:
    first = post(judge.client, "/matches", CREATE, keyed(judge, "create-1"))
    assert first[0] == 201
    assert first[2] == f"/matches/{first[1]['id']}"
    assert "seed" in first[1]  # drawn by the service, and the same in every retry
    m = MatchRef(first[1]["id"], first[1]["tokens"])
    judge.act(m, judge.legal(m)[0])  # the match moves on: the retry still answers the version it had
    for _ in range(2):
        assert post(judge.client, "/matches", CREATE, keyed(judge, "create-1")) == first
    assert len(judge.get("/matches")["matches"]) == 1
    status, problem, _ = post(judge.client, "/matches", {**CREATE, "seed": 1}, keyed(judge, "create-1"))
    assert (status, problem["type"].split(":")[-1]) == (422, "idempotency-key-reused")
    # another key: another match
    assert post(judge.client, "/matches", CREATE, keyed(judge, "create-2"))[1]["id"] != m.id
    assert len(judge.get("/matches")["matches"]) == 2
    assert judge.get(f"{m.path}/audit")["ok"] is True


def test_a_keyed_position_is_made_once(judge: Judge) -> None:
    from app.api.positions import EXAMPLE

    body = {k: v for k, v in EXAMPLE.items() if k != "seed"}
    first = post(judge.client, "/positions", body, keyed(judge, "pos-1"))
    assert first[0] == 201, first
    assert post(judge.client, "/positions", body, keyed(judge, "pos-1")) == first
    assert len(judge.get("/matches")["matches"]) == 1
    assert post(judge.client, "/positions", EXAMPLE, keyed(judge, "pos-1"))[0] == 422


def test_keyed_rewind_and_branch_are_recorded_once(judge: Judge) -> None:
    m = judge.create_match(seed=9)
    judge.play(m, random.Random(9), stop_at=head(judge, m) + 12)
    points = [e["n"] for e in judge.events(m) if e.get("action") and e["n"] > 1]
    to = points[1] - 1
    rewind = post(judge.client, f"{m.path}/rewind", {"to": to, "reason": "a retry"}, keyed(judge, "rw"))
    assert rewind[0] == 201, rewind
    after = head(judge, m)
    assert (
        post(judge.client, f"{m.path}/rewind", {"to": to, "reason": "a retry"}, keyed(judge, "rw")) == rewind
    )
    assert head(judge, m) == after
    body = {"at": to, "reason": "what if"}
    branch = post(judge.client, f"{m.path}/branches", body, keyed(judge, "br"))
    assert branch[0] == 201, branch
    b = MatchRef(branch[1]["id"], branch[1]["tokens"])
    judge.act(b, judge.legal(b)[0])
    assert post(judge.client, f"{m.path}/branches", body, keyed(judge, "br")) == branch
    assert len(judge.get("/matches")["matches"]) == 2
    # the branch copies the parent's first events (keys and hashes included), but a key used on the
    # parent means nothing on the branch: there it is a new request
    assert judge.get(f"{b.path}/audit")["ok"] is True
    assert judge.get(f"{m.path}/audit")["ok"] is True


def test_the_branch_copy_of_a_keyed_event_is_not_the_branchs_key(judge: Judge) -> None:
    m = judge.create_match(seed=10)
    action = judge.legal(m)[0]
    first = post(judge.client, f"{m.path}/actions", {"action": action}, keyed(judge, "a1"))
    assert first[0] == 201
    at = first[1]["version"]
    branch = post(judge.client, f"{m.path}/branches", {"at": at, "reason": "copy"}, judge.headers())
    assert branch[0] == 201
    b = MatchRef(branch[1]["id"], branch[1]["tokens"])
    parent_events, branch_events = judge.events(m), judge.events(b)
    assert [e["hash"] for e in branch_events[:at]] == [e["hash"] for e in parent_events[:at]]
    assert any("idempotency" in e for e in branch_events[:at])
    # "a1" on the branch: the copy is the parent's, so this is decided on the branch (and refused, since
    # that mulligan was already declared there), not answered with the parent's events
    r = judge.client.post(f"{b.path}/actions", json={"action": action}, headers=keyed(judge, "a1"))
    assert r.status_code == 422
    assert r.get_json()["type"].endswith(":rule-violation")


def test_a_refused_request_is_not_remembered(judge: Judge) -> None:
    m = judge.create_match(seed=11)
    path = f"{m.path}/actions"
    stale = {"action": judge.legal(m)[0], "expected_version": 1}
    assert post(judge.client, path, stale, keyed(judge, "late"))[0] == 409
    fresh = {"action": judge.legal(m)[0], "expected_version": head(judge, m)}
    assert post(judge.client, path, fresh, keyed(judge, "late"))[0] == 201


def test_keys_survive_a_restart_on_the_same_sqlite_file(tmp_path: Path) -> None:
    db = tmp_path / "judge.sqlite"
    first_app = sqlite_app(db)
    judge = Judge(first_app.test_client())
    created = post(judge.client, "/matches", CREATE, keyed(judge, "c"))
    m = MatchRef(created[1]["id"], created[1]["tokens"])
    acted = post(judge.client, f"{m.path}/actions", {"action": judge.legal(m)[0]}, keyed(judge, "a"))
    assert acted[0] == 201
    first_app.extensions["judge"].close()

    again = sqlite_app(db)  # a new process: nothing in memory
    try:
        judge = Judge(again.test_client())
        before = head(judge, m)
        assert post(judge.client, "/matches", CREATE, keyed(judge, "c")) == created
        action = judge.events(m)[acted[1]["events"][0]["n"] - 1]["action"]
        assert post(judge.client, f"{m.path}/actions", {"action": action}, keyed(judge, "a")) == acted
        assert head(judge, m) == before
        assert len(judge.get("/matches")["matches"]) == 1
    finally:
        again.extensions["judge"].close()


def test_two_workers_on_one_sqlite_file_record_a_keyed_action_once(tmp_path: Path) -> None:
    """Two application instances (two workers) and eight threads send one keyed action 24 times."""
    db = tmp_path / "race.sqlite"
    apps: list[Flask] = [sqlite_app(db), sqlite_app(db)]
    try:
        judge = Judge(apps[0].test_client())
        m = judge.create_match(seed=12)
        before = head(judge, m)
        body = {"action": judge.legal(m)[0]}
        answers = _race(apps, f"{m.path}/actions", body, keyed(judge, "race"), threads=8, sends=24)
        assert {a[0] for a in answers} == {201}
        assert all(a == answers[0] for a in answers)
        assert head(judge, m) == answers[0][1]["version"] > before
        assert len([e for e in judge.events(m) if "idempotency" in e]) == 1
        assert judge.get(f"{m.path}/audit")["ok"] is True
    finally:
        for a in apps:
            a.extensions["judge"].close()


def _race(
    apps: list[Flask], path: str, body: Any, headers: dict[str, str], threads: int, sends: int
) -> list[tuple[int, Any]]:
    barrier = threading.Barrier(threads)
    answers: list[tuple[int, Any]] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        client = apps[i % len(apps)].test_client()
        barrier.wait()
        for _ in range(i, sends, threads):
            r = client.post(path, json=body, headers=headers)
            with lock:
                answers.append((r.status_code, r.get_json()))

    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join(timeout=120)
    assert len(answers) == sends
    return answers


def test_the_application_refuses_a_reused_key_on_every_store_shape() -> None:
    """The Application on its own (no HTTP): the key and digest are plain data."""
    from app.application import JudgeApplication
    from tests.integration.conftest import players

    app = JudgeApplication({"PERSISTENCE_MODULE": "eventsourcing.popo"})
    try:
        request = IdempotentRequest("k", "judge", "digest-1")
        match = app.create_match("diva", 1, players(1), "p1", request)
        assert match.id == request.match_id()
        again = app.create_match("diva", 2, players(2), "p1", request)  # a retry: the first match
        assert (again.id, again.version, again.state.seed) == (match.id, match.version, 1)
        with pytest.raises(KeyReused):
            app.create_match("diva", 1, players(1), "p1", IdempotentRequest("k", "judge", "digest-2"))
        other = app.create_match("diva", 1, players(1), "p1", IdempotentRequest("k", "p1", "digest-1"))
        assert other.id != match.id
    finally:
        app.close()
