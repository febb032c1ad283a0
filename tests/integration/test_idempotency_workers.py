"""Safe retries across workers: gunicorn with 4 workers on PostgreSQL (the README's production command:
``init-db`` once, then workers with ``CREATE_TABLE=no``). One keyed request sent 50 times at once by 8
threads is recorded once, and every answer equals the first; the same for a keyed match creation."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import _new_schema, _pg_connect
from tests.loopback import free_port

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "idempotency-workers-judge-token"
WORKERS = 4
THREADS = 8
SENDS = 50


def send(port: int, method: str, path: str, body: Any = None, key: str | None = None) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if key is not None:
            headers["Idempotency-Key"] = key
        conn.request(method, path, body=payload, headers=headers)
        r = conn.getresponse()
        data = r.read()
        return r.status, (json.loads(data) if data else None)
    finally:
        conn.close()


@pytest.fixture
def server(postgres_database: dict[str, str], tmp_path: Path) -> Iterator[int]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PERSISTENCE_MODULE", "SQLITE_", "POSTGRES_", "CREATE_TABLE"))
    }
    schema = _new_schema(postgres_database)
    env.update(postgres_database, POSTGRES_SCHEMA=schema, JUDGE_TOKEN=TOKEN, PYTHONPATH=str(ROOT))
    init = subprocess.run(
        [sys.executable, "-m", "app.cli", "init-db"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert init.returncode == 0, init.stderr[-2000:]
    port = free_port()
    log = tmp_path / "gunicorn.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "-w",
                str(WORKERS),
                "-b",
                f"127.0.0.1:{port}",
                "app:create_app()",
            ],
            cwd=ROOT,
            env={**env, "CREATE_TABLE": "no"},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                pytest.fail(f"gunicorn exited: {log.read_text()[-2000:]}")
            try:
                if send(port, "GET", "/decks")[0] == 200:
                    for _ in range(WORKERS * 2):  # every worker has built its app
                        send(port, "GET", "/decks")
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"gunicorn did not answer within 90 s: {log.read_text()[-2000:]}")
            time.sleep(0.2)
        yield port
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        with _pg_connect(postgres_database["POSTGRES_DBNAME"]) as conn:
            conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def race(port: int, path: str, body: Any, key: str) -> list[tuple[int, Any]]:
    """``SENDS`` copies of one keyed request, from ``THREADS`` threads released at once."""
    barrier = threading.Barrier(THREADS)
    answers: list[tuple[int, Any]] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        barrier.wait()
        for _ in range(i, SENDS, THREADS):
            answer = send(port, "POST", path, body, key)
            with lock:
                answers.append(answer)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert len(answers) == SENDS
    return answers


def test_one_keyed_creation_and_one_keyed_action_sent_fifty_times_to_four_workers(server: int) -> None:
    port = server
    create = {
        "format": "diva",
        "first_player": "p1",
        "players": {"p1": {"name": "Ann", "deck": "WXDi-D03"}, "p2": {"name": "Bo", "deck": "WXDi-D04"}},
    }
    key = f"create-{uuid.uuid4()}"
    answers = race(port, "/matches", create, key)
    first = answers[0]
    assert first[0] == 201, first
    assert all(a == first for a in answers), {json.dumps(a, sort_keys=True) for a in answers}
    match_id = first[1]["id"]
    status, listed = send(port, "GET", "/matches")
    assert status == 200
    assert [m["id"] for m in listed["matches"]] == [match_id]

    path = f"/matches/{match_id}"
    status, legal = send(port, "GET", f"{path}/legal-actions")
    assert status == 200
    head_before = send(port, "GET", path)[1]["version"]
    action_key = f"act-{uuid.uuid4()}"
    answers = race(port, f"{path}/actions", {"action": legal["actions"][0]}, action_key)
    first = answers[0]
    assert first[0] == 201, first
    assert all(a == first for a in answers), {json.dumps(a, sort_keys=True) for a in answers}
    head = send(port, "GET", path)[1]["version"]
    assert head == first[1]["version"] > head_before
    events = send(port, "GET", f"{path}/events")[1]["events"]
    assert [e["n"] for e in events] == list(range(1, head + 1))
    assert [e["idempotency"]["key"] for e in events if "idempotency" in e] == [key, action_key]
    assert send(port, "GET", f"{path}/audit")[1]["ok"] is True

    # the same key with another request: 422 from whichever worker answers, and nothing recorded
    other = {"action": {**legal["actions"][0], "cards": ["not-the-same"]}}
    for _ in range(WORKERS):
        status, problem = send(port, "POST", f"{path}/actions", other, action_key)
        assert status == 422, problem
        assert problem["type"].endswith(":idempotency-key-reused")
    assert send(port, "GET", path)[1]["version"] == head
