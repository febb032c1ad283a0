"""A store that does not answer: the endpoints that need it answer 503 (a problem, with ``Retry-After``)
within 2 s, those that need no store answer as usual, and ``GET /health`` says the store is down."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("psycopg", reason="the PostgreSQL driver is not installed (pip install -e '.[dev]')")

from tests.conftest import JUDGE_TOKEN, make_app
from tests.loopback import free_port


def test_a_store_nobody_listens_for_gives_503_fast_and_the_catalogue_still_answers() -> None:
    app = make_app(
        PERSISTENCE_MODULE="eventsourcing.postgres",
        POSTGRES_DBNAME="wixoss_nowhere",
        POSTGRES_HOST="127.0.0.1",
        POSTGRES_PORT=str(free_port()),  # nothing listens there
        POSTGRES_USER="postgres",
        POSTGRES_PASSWORD="",
        CREATE_TABLE="no",
    )
    client = app.test_client()
    try:
        assert client.get("/cards").status_code == 200  # the worker is up without its store
        assert client.get("/rules").status_code == 200
        headers = {"Authorization": f"Bearer {JUDGE_TOKEN}"}
        body = {
            "format": "diva",
            "players": {"p1": {"name": "A", "deck": "WXDi-D01"}, "p2": {"name": "B", "deck": "WXDi-D02"}},
        }
        for _ in range(2):  # the first use makes the application, the second finds it made
            started = time.monotonic()
            r = client.post("/matches", json=body, headers=headers)
            took = time.monotonic() - started
            assert r.status_code == 503, r.get_json()
            assert r.mimetype == "application/problem+json"
            assert r.get_json()["type"].endswith(":store-unavailable")
            assert int(r.headers["Retry-After"]) > 0
            assert took < 2.0, f"the 503 took {took:.2f} s"
        r = client.get("/health")
        assert r.status_code == 503 and r.headers["Retry-After"]
        health = r.get_json()
        assert health["status"] == "degraded"
        assert health["store"]["ok"] is False and health["store"]["module"] == "eventsourcing.postgres"
        assert health["store"]["error"] and health["store"]["latency_ms"] < 2000
    finally:
        app.extensions["judge"].close()


def test_health_says_ok_when_the_store_answers(client: object) -> None:
    r = client.get("/health")  # type: ignore[attr-defined]
    assert r.status_code == 200
    body = r.get_json()
    assert body["status"] == "ok" and body["store"]["ok"] is True
    assert body["store"]["module"] == "eventsourcing.popo" and "error" not in body["store"]
