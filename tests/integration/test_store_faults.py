"""Store faults under real workers: gunicorn on PostgreSQL (``init-db`` first, then workers with
``CREATE_TABLE=no``, as the README says), with a small TCP proxy between the workers and the server so that
"PostgreSQL stopped" or "unreachable" can be played without touching the shared server:

- the database restored to an earlier copy of its rows while the workers run: no event is written past a
  hole, the audit stays ok, play goes on;
- the database dropped and made again: 503 meanwhile, recovery without a restart;
- the server stopped (the proxy refuses connections and cuts the open ones) or unreachable (it accepts and
  never answers): 503 with ``Retry-After`` within 2 s, ``/cards`` and ``/health`` still answer, recovery when
  it comes back; and workers started while it is stopped boot and serve ``/cards``.

Every test makes its own database and drops it at the end.
"""

from __future__ import annotations

import contextlib
import os
import random
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.application import init_db
from domain.decks import PRESET_IDS
from tests import loopback
from tests.integration.conftest import PG_HOST, PG_PASSWORD, PG_PORT, PG_USER, _pg_connect
from tests.loopback import free_port

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

TOKEN = "store-faults-judge-token"
ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).parent / "gunicorn"


class Proxy:
    """A TCP proxy on a free loopback port to the PostgreSQL server, in one of three modes: ``forward``,
    ``refuse`` (no listener: connections are refused; the open ones are cut) and ``blackhole`` (connections
    are accepted and never answered; the open ones are cut)."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = free_port()
        self.mode = "forward"
        self._listener: socket.socket | None = None
        self._open: list[socket.socket] = []
        self._lock = threading.Lock()
        self._stopped = False

    def start(self) -> Proxy:
        self.set("forward")
        return self

    def set(self, mode: str) -> None:
        with self._lock:
            self.mode = mode
            for s in self._open:
                _close(s)
            self._open.clear()
            if mode == "refuse":
                if self._listener is not None:
                    _close(self._listener)
                    self._listener = None
                return
            if self._listener is None:
                listener = socket.socket()
                listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                listener.bind(("127.0.0.1", self.port))
                listener.listen(64)
                self._listener = listener
                threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def close(self) -> None:
        self._stopped = True
        self.set("refuse")

    def _accept(self, listener: socket.socket) -> None:
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            with self._lock:
                if self._listener is not listener:
                    _close(client)
                    return
                self._open.append(client)
                if self.mode == "blackhole":
                    continue  # accepted, never answered
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                _close(client)
                continue
            with self._lock:
                self._open.append(upstream)
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=_pipe, args=(a, b), daemon=True).start()


def _pipe(a: socket.socket, b: socket.socket) -> None:
    try:
        while data := a.recv(65536):
            b.sendall(data)
    except OSError:
        pass
    finally:
        _close(a)
        _close(b)


def _close(s: socket.socket) -> None:
    with contextlib.suppress(OSError):
        s.shutdown(socket.SHUT_RDWR)
    s.close()


@pytest.fixture
def database() -> Iterator[str]:
    try:
        admin = _pg_connect("postgres")
    except Exception as exc:
        pytest.skip(f"PostgreSQL tests skipped: no server answers on {PG_HOST}:{PG_PORT}: {exc}")
    name = f"wixoss_faults_{os.getpid()}_{uuid.uuid4().hex[:8]}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        with _pg_connect("postgres") as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def store_env(dbname: str, port: int | str) -> dict[str, str]:
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": "127.0.0.1" if str(port) != PG_PORT else PG_HOST,
        "POSTGRES_PORT": str(port),
        "POSTGRES_USER": PG_USER,
        "POSTGRES_PASSWORD": PG_PASSWORD,
    }


class Workers:
    """``gunicorn -w 2`` on the store behind the proxy."""

    def __init__(self, dbname: str, proxy: Proxy, log: Path) -> None:
        self.port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PERSISTENCE_MODULE", "SQLITE_"))}
        env = {k: v for k, v in env.items() if not k.startswith(("POSTGRES_", "CREATE_TABLE"))}
        env.update(store_env(dbname, proxy.port))
        env.update(JUDGE_TOKEN=TOKEN, CREATE_TABLE="no", PYTHONPATH=str(ROOT))
        self.log = log
        with open(log, "ab") as out:
            self.proc = subprocess.Popen(
                [
                    str(GUNICORN),
                    "-w",
                    "2",
                    "-b",
                    f"127.0.0.1:{self.port}",
                    "--timeout",
                    "60",
                    "app:create_app()",
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.wait_for(lambda: self.call("GET", "/cards?limit=1", timeout=2)[0] == 200, 60, "boot")

    def call(self, method: str, path: str, body: Any = None, timeout: float = 30) -> tuple[int, Any]:
        return loopback.call(self.port, method, path, body, token=TOKEN, timeout=timeout)

    def timed(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        started = time.monotonic()
        status, answer = self.call(method, path, body)
        return status, answer, time.monotonic() - started

    def wait_for(self, ok: Callable[[], bool], seconds: float, what: str) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                pytest.fail(f"the workers exited: {self.log.read_text()[-3000:]}")
            try:
                if ok():
                    return
            except OSError:
                pass
            time.sleep(0.2)
        pytest.fail(f"{what}: not within {seconds} s; log: {self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)


@pytest.fixture
def proxy() -> Iterator[Proxy]:
    p = Proxy(PG_HOST, int(PG_PORT)).start()
    yield p
    p.close()


@pytest.fixture
def started(tmp_path: Path) -> Iterator[list[Workers]]:
    running: list[Workers] = []
    yield running
    for w in running:
        w.stop()


def new_match(w: Workers, i: int, recovering: bool = False) -> str:
    """A new match; while ``recovering``, a 503 saying the store does not answer is retried after its
    ``Retry-After`` for up to 30 s, as a client does."""
    body = {
        "format": "diva",
        "seed": 900 + i,
        "players": {
            "p1": {"name": "Ann", "deck": PRESET_IDS[i % len(PRESET_IDS)]},
            "p2": {"name": "Bo", "deck": PRESET_IDS[(i + 3) % len(PRESET_IDS)]},
        },
    }
    status, answer = (
        call_when_up(w, "POST", "/matches", body) if recovering else w.call("POST", "/matches", body)
    )
    assert status == 201, answer
    return str(answer["id"])


def call_when_up(w: Workers, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    """A call whose 503 saying the store does not answer is retried after its ``Retry-After`` (1 s), for
    up to 30 s, as a client does."""
    deadline = time.monotonic() + 30
    status, answer = w.call(method, path, body)
    while status == 503 and time.monotonic() < deadline:
        assert answer["type"].endswith(":store-unavailable"), answer
        time.sleep(1)
        status, answer = w.call(method, path, body)
    return status, answer


def play(w: Workers, mid: str, chooser: random.Random, actions: int, recovering: bool = False) -> int:
    """Legal actions with their expected version (a 409 from a worker that was behind is retried). While
    ``recovering``, a 503 is retried too after its ``Retry-After``, as a client does: a worker whose pooled
    connections died with the server may answer one more 503 before its pool has reconnected."""
    landed = 0
    for _ in range(actions * 6):
        if landed >= actions:
            break
        status, legal = w.call("GET", f"/matches/{mid}/legal-actions")
        if recovering and status == 503:
            time.sleep(2)
            continue
        assert status == 200, legal
        if not legal["actions"]:
            break
        body = {"action": chooser.choice(legal["actions"]), "expected_version": legal["at"]}
        status, answer = w.call("POST", f"/matches/{mid}/actions", body)
        if recovering and status == 503:
            assert answer["type"].endswith(":store-unavailable"), answer
            time.sleep(2)
            continue
        assert status in (201, 409), answer
        landed += status == 201
    return landed


def stored_versions(dbname: str, mid: str) -> list[int]:
    with _pg_connect(dbname) as con:
        rows = con.execute(
            "SELECT originator_version FROM wixoss_judge_events WHERE originator_id = %s "
            "ORDER BY originator_version",
            (uuid.UUID(mid),),
        ).fetchall()
    return [v for (v,) in rows]


def test_restored_to_an_earlier_copy_while_workers_run(
    database: str, proxy: Proxy, started: list[Workers], tmp_path: Path
) -> None:
    init_db(store_env(database, PG_PORT))
    w = Workers(database, proxy, tmp_path / "gunicorn.log")
    started.append(w)
    chooser = random.Random(3)
    matches = [new_match(w, i) for i in range(2)]
    for mid in matches:
        play(w, mid, chooser, 12)
    with _pg_connect(database) as con:  # the copy: every row of the store, as a dump has them
        con.execute("CREATE TABLE copy_events AS SELECT * FROM wixoss_judge_events")
        con.execute("CREATE TABLE copy_snapshots AS SELECT * FROM wixoss_judge_snapshots")
        (seq,) = con.execute("SELECT last_value FROM wixoss_judge_events_notification_id_seq").fetchone()
    copied = {mid: stored_versions(database, mid) for mid in matches}
    for mid in matches:
        play(w, mid, chooser, 12)  # both workers' caches go further than the copy
        for _ in range(4):
            w.call("GET", f"/matches/{mid}/state")
    with _pg_connect(database) as con, con.transaction():  # the restore, while the workers run
        con.execute("TRUNCATE wixoss_judge_events, wixoss_judge_snapshots")
        con.execute("INSERT INTO wixoss_judge_events SELECT * FROM copy_events")
        con.execute("INSERT INTO wixoss_judge_snapshots SELECT * FROM copy_snapshots")
        con.execute("SELECT setval('wixoss_judge_events_notification_id_seq', %s)", (seq,))
    for mid in matches:
        assert stored_versions(database, mid) == copied[mid]
        status, state = w.call("GET", f"/matches/{mid}/state")
        assert status == 200 and state["version"] in (copied[mid][-1], *range(copied[mid][-1] + 1, 10**6))
        assert play(w, mid, chooser, 10) > 0
        versions = stored_versions(database, mid)
        assert versions == list(range(1, len(versions) + 1)), f"a hole in match {mid}: {versions}"
        for _ in range(3):  # every worker, whatever it kept, audits the store's log as ok
            status, report = w.call("GET", f"/matches/{mid}/audit", timeout=60)
            assert status == 200 and report["ok"], report
            status, state = w.call("GET", f"/matches/{mid}/state")
            assert status == 200 and state["version"] == versions[-1]
    status, listed = w.call("GET", "/matches")
    assert status == 200 and {m["id"] for m in listed["matches"]} == set(matches)


def test_database_dropped_and_made_again(
    database: str, proxy: Proxy, started: list[Workers], tmp_path: Path
) -> None:
    env = store_env(database, PG_PORT)
    init_db(env)
    w = Workers(database, proxy, tmp_path / "gunicorn.log")
    started.append(w)
    mid = new_match(w, 1)
    play(w, mid, random.Random(1), 5)
    with _pg_connect("postgres") as admin:
        admin.execute(f'DROP DATABASE "{database}" WITH (FORCE)')
    for _ in range(4):
        status, answer, took = w.timed("GET", f"/matches/{mid}/state")
        assert status == 503 and answer["type"].endswith(":store-unavailable"), answer
        assert took < 2.5
    with _pg_connect("postgres") as admin:
        admin.execute(f'CREATE DATABASE "{database}"')
    seen: list[str] = []

    def says_no_tables() -> bool:  # once the pool connects again (it backs off meanwhile)
        status, answer = w.call("POST", "/matches", NEW_MATCH)
        assert status == 503, answer
        seen.append(answer["type"])
        return answer["type"].endswith(":store-not-initialised")

    w.wait_for(says_no_tables, 30, "503 saying the store has no tables")

    def health_says_no_tables() -> bool:
        status, health = w.call("GET", "/health")
        assert status == 503 and health["status"] == "degraded"
        return "init-db" in health["store"]["error"]

    w.wait_for(health_says_no_tables, 30, "/health saying the store has no tables")
    init_db(env)
    w.wait_for(lambda: all_ok(w, "/health"), 60, "recovery after init-db")
    # eight answers in a row may all come from one worker while the other's pool still backs off: a 503 with
    # Retry-After is then retried, as a client does, and every worker must recover within the wait
    for _ in range(4):  # each worker: the old match is gone, new ones are made and played
        status, _ = call_when_up(w, "GET", f"/matches/{mid}/state")
        assert status == 404
        fresh = new_match(w, 2, recovering=True)
        assert play(w, fresh, random.Random(2), 3, recovering=True) == 3
        assert w.call("GET", f"/matches/{fresh}/audit")[1]["ok"]


NEW_MATCH = {
    "format": "diva",
    "players": {"p1": {"name": "A", "deck": PRESET_IDS[0]}, "p2": {"name": "B", "deck": PRESET_IDS[1]}},
}


def all_ok(w: Workers, path: str, times: int = 8) -> bool:
    return all(w.call("GET", path)[0] == 200 for _ in range(times))


def check_store_down(w: Workers, mid: str) -> None:
    for path in (f"/matches/{mid}/state", f"/matches/{mid}/legal-actions", "/matches"):
        status, answer, took = w.timed("GET", path)
        assert status == 503, (path, answer)
        assert answer["type"].endswith(":store-unavailable"), answer
        assert took < 2.0, f"{path}: the 503 took {took:.2f} s"
    status, answer = w.call("POST", f"/matches/{mid}/actions", {"action": {"player": "p1", "type": "pass"}})
    assert status == 503, answer
    assert w.call("GET", "/cards?limit=1")[0] == 200
    status, health, took = w.timed("GET", "/health")
    assert status == 503 and health["status"] == "degraded" and not health["store"]["ok"] and took < 2.0


def test_server_stopped_or_unreachable_then_back(
    database: str, proxy: Proxy, started: list[Workers], tmp_path: Path
) -> None:
    init_db(store_env(database, PG_PORT))
    w = Workers(database, proxy, tmp_path / "gunicorn.log")
    started.append(w)
    mid = new_match(w, 4)
    play(w, mid, random.Random(4), 4)
    for mode in ("refuse", "blackhole"):
        proxy.set(mode)
        check_store_down(w, mid)
        proxy.set("forward")
        # every worker recovers on its own (its pool reconnects, backing off meanwhile): 8 answers in a row
        w.wait_for(lambda: all_ok(w, f"/matches/{mid}/state"), 60, f"recovery after {mode}")
        assert play(w, mid, random.Random(5), 2, recovering=True) == 2
    status, report = w.call("GET", f"/matches/{mid}/audit")
    assert status == 200 and report["ok"]


def test_workers_boot_while_the_server_is_stopped(
    database: str, proxy: Proxy, started: list[Workers], tmp_path: Path
) -> None:
    init_db(store_env(database, PG_PORT))
    proxy.set("refuse")
    w = Workers(database, proxy, tmp_path / "gunicorn.log")  # waits for GET /cards to answer 200
    started.append(w)
    status, health = w.call("GET", "/health")
    assert status == 503 and health["status"] == "degraded"
    status, answer = w.call(
        "POST",
        "/matches",
        {
            "format": "diva",
            "players": {
                "p1": {"name": "A", "deck": PRESET_IDS[0]},
                "p2": {"name": "B", "deck": PRESET_IDS[1]},
            },
        },
    )
    assert status == 503, answer
    proxy.set("forward")
    w.wait_for(lambda: all_ok(w, "/health"), 60, "the store coming up after boot")
    mid = new_match(w, 6)
    assert play(w, mid, random.Random(6), 3) == 3
