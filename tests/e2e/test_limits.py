"""Limits: request bodies over the configured size are 413 (with a length or chunked, through the test client
and real servers), matches created per token are counted (429 with ``Retry-After``), ``GET /matches`` pages
and filters, the default SQLite file is the owner's only, and every 201 says where the new thing is."""

from __future__ import annotations

import http.client
import io
import json
import os
import shutil
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.serving import make_server

from app import store_env
from app.api.positions import EXAMPLE as POSITION
from app.application import JudgeApplication
from app.schemas.matches import MatchListSchema
from app.tokens import Tokens, derive_secret
from domain.setup import PlayerSetup
from tests.conftest import JUDGE_TOKEN, Judge, MatchRef, bearer, make_app
from tests.loopback import free_port

ROOT = Path(__file__).resolve().parents[2]
TEN_MB = 10 * 1024 * 1024
J = bearer(JUDGE_TOKEN)


def match_body(name1: str = "Ann", name2: str = "Bo", seed: int = 1) -> dict[str, Any]:
    return {
        "format": "diva",
        "seed": seed,
        "first_player": "p1",
        "players": {"p1": {"name": name1, "deck": "WXDi-D01"}, "p2": {"name": name2, "deck": "WXDi-D02"}},
    }


def padded(size: int) -> bytes:
    """A JSON object of exactly ``size`` bytes."""
    head = json.dumps(match_body())[:-1].encode() + b', "padding": "'
    return head + b"x" * (size - len(head) - 2) + b'"}'


def chunks(body: bytes, size: int = 64 * 1024) -> Iterator[bytes]:
    for i in range(0, len(body), size):
        yield body[i : i + size]


def post_raw(port: int, path: str, body: bytes, *, chunked: bool, token: str | None = JUDGE_TOKEN) -> Any:
    """POST ``body`` to 127.0.0.1:port, with Content-Length or chunked; (status, headers, decoded body)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {"Content-Type": "application/json", **bearer(token)}
        if chunked:
            headers["Transfer-Encoding"] = "chunked"
            conn.request("POST", path, body=chunks(body), headers=headers, encode_chunked=True)
        else:
            conn.request("POST", path, body=body, headers=headers)
        r = conn.getresponse()
        return r.status, r.headers, json.loads(r.read() or b"null")
    finally:
        conn.close()


# -- request bodies ----------------------------------------------------------------------------------------


@pytest.fixture
def dev_server() -> Iterator[tuple[Flask, int]]:
    """The app under werkzeug's development server, in a thread, on a free loopback port."""
    app = make_app(MAX_BODY_BYTES=1_000_000)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, server.server_port
    server.shutdown()
    thread.join(10)
    app.extensions["judge"].close()


def assert_too_large(answer: Any, limit: int) -> None:
    status, headers, body = answer
    assert status == 413, body
    assert headers["Content-Type"] == "application/problem+json"
    assert (
        body["type"].endswith(":too-large") and body["max_bytes"] == limit and f"{limit:,}" in body["detail"]
    )


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
def test_a_10_mb_body_is_413_under_the_development_server(
    dev_server: tuple[Flask, int], chunked: bool
) -> None:
    _, port = dev_server
    assert_too_large(post_raw(port, "/matches", padded(TEN_MB), chunked=chunked), 1_000_000)
    # the unauthenticated deck check has its own, smaller limit
    assert_too_large(
        post_raw(port, "/decks/validate", padded(TEN_MB), chunked=chunked, token=None), 64 * 1024
    )
    # the server still serves, and a body within the limit is read whole, chunked or not
    status, _, body = post_raw(port, "/matches", padded(999_999), chunked=chunked)
    assert status == 422 and "padding" in body["detail"], body  # parsed whole: the unknown field is named


def test_the_limit_is_exact_for_chunked_bodies(dev_server: tuple[Flask, int]) -> None:
    _, port = dev_server
    at_limit = post_raw(port, "/matches", padded(1_000_000), chunked=True)
    assert at_limit[0] == 422 and "padding" in at_limit[2]["detail"], at_limit
    assert_too_large(post_raw(port, "/matches", padded(1_000_001), chunked=True), 1_000_000)


def test_bodies_over_the_limit_through_the_test_client() -> None:
    app = make_app(MAX_BODY_BYTES=10_000, DECK_VALIDATE_MAX_BYTES=2_000)
    client = app.test_client()
    r = client.post("/matches", data=padded(10_001), content_type="application/json", headers=J)
    assert r.status_code == 413 and r.get_json()["max_bytes"] == 10_000
    # chunked: no Content-Length, the server has dechunked the stream (as werkzeug's and gunicorn's do)
    r = client.post(
        "/matches",
        input_stream=io.BytesIO(padded(10_001)),
        content_type="application/json",
        headers={**J, "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True},
    )
    assert r.status_code == 413, r.get_json()
    assert r.request.content_length is None  # a chunked body has no length
    r = client.post(
        "/decks/validate", data=padded(2_001), content_type="application/json", headers={"X-Any": "1"}
    )
    assert r.status_code == 413 and r.get_json()["max_bytes"] == 2_000
    r = client.post("/decks/validate", json={"lrig_deck": ["WXDi-D01-001"] * 60, "main_deck": []})
    assert r.status_code == 200
    app.extensions["judge"].close()


@pytest.mark.slow
def test_a_10_mb_body_is_413_under_gunicorn(tmp_path: Path) -> None:
    gunicorn = shutil.which("gunicorn", path=str(Path(sys.executable).parent))
    if gunicorn is None:
        pytest.skip("gunicorn is not installed in this environment")
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PERSISTENCE_MODULE", "SQLITE_", "POSTGRES_"))
    }
    env.update(
        JUDGE_TOKEN=JUDGE_TOKEN,
        PERSISTENCE_MODULE="eventsourcing.sqlite",
        SQLITE_DBNAME=str(tmp_path / "g.sqlite"),
        PYTHONPATH=str(ROOT),
        MAX_BODY_BYTES="1000000",
    )
    log = tmp_path / "gunicorn.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [gunicorn, "-w", "1", "-b", f"127.0.0.1:{port}", "app:create_app()"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()[-2000:]
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            try:  # a slow start may time a probe out: its socket is closed all the same
                conn.request("GET", "/decks")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                assert time.monotonic() < deadline, log.read_text()[-2000:]
                time.sleep(0.2)
            finally:
                conn.close()
        for chunked in (False, True):
            assert_too_large(post_raw(port, "/matches", padded(TEN_MB), chunked=chunked), 1_000_000)
            assert_too_large(
                post_raw(port, "/decks/validate", padded(TEN_MB), chunked=chunked, token=None), 64 * 1024
            )
        status, _, body = post_raw(port, "/matches", json.dumps(match_body()).encode(), chunked=True)
        assert status == 201, body
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


# -- quotas ------------------------------------------------------------------------------------------------


def create(client: FlaskClient, headers: dict[str, str] = J, **names: str) -> Any:
    return client.post("/matches", json=match_body(**names), headers=headers)


def assert_quota_refused(r: Any) -> int:
    assert r.status_code == 429, r.get_json()
    assert r.mimetype == "application/problem+json"
    body = r.get_json()
    assert body["type"].endswith(":too-many-requests")
    seconds = int(r.headers["Retry-After"])
    assert seconds >= 1 and body["retry_after"] == seconds
    return seconds


def test_the_101st_match_of_a_token_in_an_hour_is_429_and_another_token_is_not_affected() -> None:
    app = make_app(RATELIMIT_ENABLED=True)  # the default quota: 100 matches an hour
    client = app.test_client()
    for i in range(100):
        r = create(client, seed=i)
        assert r.status_code == 201, (i, r.get_json())
    seconds = assert_quota_refused(create(client))
    assert seconds <= 3600
    assert "100 matches" in client.post("/positions", json=POSITION, headers=J).get_json()["detail"]
    # another token (here: the judge token after a rotation) has its own count
    other = "another-judge-token"
    app.extensions["judge_tokens"] = Tokens(other, derive_secret(other))
    assert create(client, bearer(other)).status_code == 201
    assert create(client).status_code in (401, 403)  # the old token is refused as a token, not by a quota
    app.extensions["judge"].close()


def test_only_created_matches_count_and_positions_and_branches_share_the_quota() -> None:
    app = make_app(RATELIMIT_ENABLED=True, MATCHES_PER_HOUR=3)
    client = app.test_client()
    for _ in range(3):  # refused requests are not counted
        assert client.post("/matches", json={"format": "diva"}, headers=J).status_code == 422
    assert client.post("/matches", json=match_body()).status_code == 401
    m = create(client).get_json()
    assert m["id"] and client.post("/positions", json=POSITION, headers=J).status_code == 201
    p = client.post("/positions", json=POSITION, headers=J)
    assert p.status_code == 201
    assert_quota_refused(create(client))
    pid = p.get_json()["id"]
    at = client.get(f"/matches/{pid}", headers=J).get_json()["version"]
    assert_quota_refused(
        client.post(f"/matches/{pid}/branches", json={"at": at, "reason": "what if"}, headers=J)
    )
    # reading and playing are not limited by the creation quota
    assert client.get("/matches", headers=J).status_code == 200
    app.extensions["judge"].close()


def test_a_keyed_retry_of_a_creation_neither_counts_nor_is_refused_and_records_count() -> None:
    """A retry with the Idempotency-Key of a creation already made gets the first answer and creates
    nothing (API.md, Additions: Retries), so it is no creation for the quota either, even once the quota is
    used up; an import of a record (POST /records) creates a match and counts like the others."""
    app = make_app(RATELIMIT_ENABLED=True, MATCHES_PER_HOUR=2)
    client = app.test_client()
    keyed = {**J, "Idempotency-Key": "table 7, round 2"}
    first = create(client, keyed)
    assert first.status_code == 201
    for _ in range(3):  # before the quota is used up: the same answer, and no count
        again = create(client, keyed)
        assert (again.status_code, again.get_json()) == (201, first.get_json())
    record = client.get(f"/matches/{first.get_json()['id']}/record", headers=J).get_data(as_text=True)
    assert client.post("/records", json={"record": record}, headers=J).status_code == 201  # the second
    assert_quota_refused(create(client))
    assert_quota_refused(client.post("/records", json={"record": record}, headers=J))
    again = create(client, keyed)  # used up: a retry is still answered, as nothing is created
    assert (again.status_code, again.get_json()) == (201, first.get_json())
    assert_quota_refused(create(client, {**J, "Idempotency-Key": "a new key"}))  # a new key is a new match
    assert len(client.get("/matches", headers=J).get_json()["matches"]) == 2
    app.extensions["judge"].close()


def test_the_cap_in_all_and_settings_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATCHES_IN_ALL", "2")
    monkeypatch.setenv("RATELIMIT_ENABLED", "yes")
    app = make_app()
    assert app.config["MATCHES_IN_ALL"] == 2 and app.config["RATELIMIT_ENABLED"] is True
    client = app.test_client()
    assert create(client).status_code == create(client).status_code == 201
    r = create(client)
    seconds = assert_quota_refused(r)
    assert seconds > 3600 and "2 matches" in r.get_json()["detail"]
    app.extensions["judge"].close()
    monkeypatch.setenv("MATCHES_PER_HOUR", "many")
    with pytest.raises(ValueError, match="MATCHES_PER_HOUR"):
        make_app()


def test_quotas_are_off_under_testing_unless_turned_on() -> None:
    app = make_app(MATCHES_PER_HOUR=1, DECK_VALIDATE_RATE_LIMIT="1 per minute")
    client = app.test_client()
    assert [create(client).status_code for _ in range(3)] == [201, 201, 201]
    deck = {"lrig_deck": [], "main_deck": []}
    assert [client.post("/decks/validate", json=deck).status_code for _ in range(3)] == [200, 200, 200]
    app.extensions["judge"].close()


def test_heavy_endpoints_anyone_may_call_are_rate_limited() -> None:
    app = make_app(
        RATELIMIT_ENABLED=True, DECK_VALIDATE_RATE_LIMIT="2 per minute", RULINGS_RATE_LIMIT="2/minute"
    )
    client = app.test_client()
    deck = {"lrig_deck": [], "main_deck": []}
    assert [client.post("/decks/validate", json=deck).status_code for _ in range(2)] == [200, 200]
    assert assert_quota_refused(client.post("/decks/validate", json=deck)) <= 60
    m = create(client).get_json()
    ask = {"action": {"player": "p1", "type": "mulligan", "cards": []}}
    p1 = bearer(m["tokens"]["p1"])
    path = f"/matches/{m['id']}/rulings"
    assert [client.post(path, json=ask, headers=p1).status_code for _ in range(2)] == [200, 200]
    assert_quota_refused(client.post(path, json=ask, headers=p1))
    assert client.post(path, json=ask, headers=J).status_code == 200  # counted per token
    app.extensions["judge"].close()


# -- GET /matches ------------------------------------------------------------------------------------------


def walk(client: FlaskClient, headers: dict[str, str], **params: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    cursor = None
    for _ in range(1000):
        query = dict(params, **({"cursor": cursor} if cursor else {}))
        r = client.get("/matches", query_string=query, headers=headers)
        assert r.status_code == 200, r.get_json()
        page = r.get_json()
        assert MatchListSchema().dump(page) == page  # the shaped answer is in the schema's shape
        assert len(page["matches"]) <= int(params.get("limit", 50))
        out.extend(page["matches"])
        cursor = page["cursor"]
        if cursor is None:
            return out
        assert page["matches"], "a page with a cursor onwards holds matches"
    raise AssertionError("the walk did not end")


def test_get_matches_pages_filters_and_shows_summaries_to_others(client: FlaskClient, judge: Judge) -> None:
    names = ["Ann", "Bo", "Cyd", "Dana", "Annika"]
    made = [_named(judge, names[i % 5], "Zed", i) for i in range(17)]
    finished = made[3::4]
    for m in finished:
        assert judge.act(m, {"player": "p2", "type": "concede"}).status_code == 201
    ids = [m.id for m in made]

    walked = walk(client, J, limit=4)
    assert [x["id"] for x in walked] == ids  # every match once, oldest first
    assert walk(client, J, limit=200) == walked

    # stable while matches are created during the walk: the new ones come at the end, nothing twice
    first = client.get("/matches", query_string={"limit": 5}, headers=J).get_json()
    late = [_named(judge, "Late", "Zed", 100 + i) for i in range(3)]
    rest = walk(client, J, limit=5, cursor=first["cursor"]) if first["cursor"] else []
    assert [x["id"] for x in first["matches"] + rest] == ids + [m.id for m in late]

    # filters, on their own and together, page the same way
    fin = walk(client, J, limit=2, status="finished")
    assert [x["id"] for x in fin] == [m.id for m in finished] and all(x["winner"] == "p1" for x in fin)
    assert {x["status"] for x in walk(client, J, limit=3, status="setup")} == {"setup"}
    ann = walk(client, J, limit=2, player="ann")  # a part of the name, any case: Ann and Annika
    assert [x["id"] for x in ann] == [m.id for i, m in enumerate(made) if names[i % 5].startswith("Ann")]
    both = walk(client, J, limit=1, player="ANNIKA", status="finished")
    expected = [m.id for i, m in enumerate(made) if names[i % 5] == "Annika" and m in finished]
    assert [x["id"] for x in both] == expected
    assert walk(client, J, player="nobody") == []

    # the judge sees branches' parents; a player or a spectator gets summaries with no judge-only field
    position = judge.create_position(POSITION)
    at = judge.get(position.path)["version"]
    r = client.post(f"{position.path}/branches", json={"at": at, "reason": "what if"}, headers=J)
    assert r.status_code == 201, r.get_json()
    branch = r.get_json()["id"]
    by_judge = {x["id"]: x for x in walk(client, J, limit=7)}
    assert by_judge[branch]["parent"] == position.id and by_judge[branch]["branched_at"] == at
    summary_fields = {"id", "players", "status", "version", "winner"}
    for headers in ({}, bearer(made[0].tokens["p1"])):
        seen = walk(client, headers, limit=7)
        assert [x["id"] for x in seen] == list(by_judge)
        for x in seen:
            assert set(x) == summary_fields
            assert {k: by_judge[x["id"]][k] for k in summary_fields} == x


def _named(judge: Judge, p1: str, p2: str, seed: int) -> MatchRef:
    r = judge.client.post("/matches", json=match_body(p1, p2, seed), headers=J)
    assert r.status_code == 201, r.get_json()
    return MatchRef(r.get_json()["id"], r.get_json()["tokens"])


@pytest.mark.parametrize(
    "query",
    [{"limit": 0}, {"limit": "many"}, {"cursor": "nonsense"}, {"cursor": "YWZ0ZXI6LTE"}, {"status": "won"}],
    ids=["limit 0", "limit not a number", "cursor not ours", "negative cursor", "unknown status"],
)
def test_bad_list_queries_are_422(client: FlaskClient, query: dict[str, Any]) -> None:
    r = client.get("/matches", query_string=query)
    assert r.status_code == 422 and r.mimetype == "application/problem+json", r.get_json()


def test_a_limit_over_200_counts_as_200() -> None:
    app = make_app()
    judge_app: JudgeApplication = app.extensions["judge"]
    from domain.decks import preset

    players = {p: PlayerSetup(n, preset(d)) for p, n, d in (("p1", "A", "WXDi-D01"), ("p2", "B", "WXDi-D02"))}
    for i in range(205):
        judge_app.create_match("diva", i, players, "p1")
    client = app.test_client()
    page = client.get("/matches", query_string={"limit": 1000}).get_json()
    assert len(page["matches"]) == 200 and page["cursor"] is not None
    rest = client.get("/matches", query_string={"limit": 1000, "cursor": page["cursor"]}).get_json()
    assert len(rest["matches"]) == 5 and rest["cursor"] is None
    judge_app.close()


# -- the SQLite file -------------------------------------------------------------------------------------


def test_the_default_sqlite_file_is_the_owners_only(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        instance = tmp_path / "instance"
        env = store_env({}, {}, str(instance))
        app = JudgeApplication(env=env)
        from domain.decks import preset

        players = {p: PlayerSetup(p, preset("WXDi-D01")) for p in ("p1", "p2")}
        match = app.create_match("diva", 1, players, "p1")
        assert app.head(match.id) > 0
        files = sorted(instance.iterdir())
        assert Path(env["SQLITE_DBNAME"]) in files
        for f in files:  # the database, and its -wal and -shm files while the store is open
            assert stat.S_IMODE(f.stat().st_mode) == 0o600, (f, oct(f.stat().st_mode))
        assert stat.S_IMODE(instance.stat().st_mode) == 0o700
        app.close()
        # an existing folder others could read loses their access; the file its group's and others'
        instance.chmod(0o755)
        Path(env["SQLITE_DBNAME"]).chmod(0o644)
        store_env({}, {}, str(instance))
        assert stat.S_IMODE(instance.stat().st_mode) == 0o750
        assert stat.S_IMODE(Path(env["SQLITE_DBNAME"]).stat().st_mode) == 0o600
    finally:
        os.umask(old)


# -- Location ----------------------------------------------------------------------------------------------


def test_every_201_says_where(client: FlaskClient, judge: Judge) -> None:
    r = create(client)
    m = r.get_json()
    assert r.headers["Location"] == f"/matches/{m['id']}"
    assert client.get(r.headers["Location"], headers=J).get_json()["id"] == m["id"]

    r = client.post("/positions", json=POSITION, headers=J)
    pos = MatchRef(r.get_json()["id"], r.get_json()["tokens"])
    assert r.status_code == 201 and r.headers["Location"] == pos.path
    start = judge.get(pos.path)["version"]

    action = judge.legal(pos)[0]
    r = judge.act(pos, action, expected_version=start)
    assert r.status_code == 201, r.get_json()
    posted = r.get_json()["events"]
    assert r.headers["Location"] == f"{pos.path}/events?after={start}"
    listed = client.get(r.headers["Location"], headers=J).get_json()["events"]
    assert [e["n"] for e in listed] == [e["n"] for e in posted]

    r = client.post(f"{pos.path}/rewind", json={"to": start, "reason": "again"}, headers=J)
    assert r.status_code == 201, r.get_json()
    head = posted[-1]["n"]
    assert r.headers["Location"] == f"{pos.path}/events?after={head}"
    assert client.get(r.headers["Location"], headers=J).get_json()["events"][0]["type"] == "Rewound"

    r = client.post(f"{pos.path}/branches", json={"at": start, "reason": "what if"}, headers=J)
    assert r.status_code == 201, r.get_json()
    assert r.headers["Location"] == f"/matches/{r.get_json()['id']}"
    assert UUID(r.get_json()["id"]) and client.get(r.headers["Location"]).status_code == 200
