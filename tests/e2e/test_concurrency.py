"""Many writers, one match: one action lands per version, the others get 409, and the log stays whole."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any
from uuid import UUID

from flask import Flask

from tests.conftest import Judge, sqlite_app

THREADS = 16


def _race(apps: list[Flask], path: str, body: dict[str, Any], headers: dict[str, str]) -> list[int]:
    barrier = threading.Barrier(THREADS)
    statuses: list[int] = []
    lock = threading.Lock()

    def worker(i: int) -> None:
        client = apps[i % len(apps)].test_client()
        barrier.wait()
        r = client.post(path, json=body, headers=headers)
        with lock:
            statuses.append(r.status_code)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(THREADS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return statuses


def _stored_versions(db: Path, match_id: str) -> list[int]:
    con = sqlite3.connect(db)
    try:
        rows = con.execute(
            "SELECT originator_version FROM stored_events WHERE originator_id = ? "
            "ORDER BY originator_version",
            (UUID(match_id).hex,),
        ).fetchall()
    finally:
        con.close()
    return [v for (v,) in rows]


def test_sixteen_writers_with_one_expected_version(tmp_path: Path) -> None:
    db = tmp_path / "race.sqlite"
    # two application instances on one file, as two workers would be: the race reaches the store itself
    apps = [sqlite_app(db), sqlite_app(db)]
    judge = Judge(apps[0].test_client())
    m = judge.create_match(seed=5)
    for _ in range(3):
        state = judge.state(m)
        version = state["version"]
        action = judge.legal(m)[0]
        statuses = _race(
            apps, f"{m.path}/actions", {"action": action, "expected_version": version}, judge.headers()
        )
        assert sorted(statuses) == [201] + [409] * (THREADS - 1), statuses
        head = judge.get(m.path)["version"]
        assert head > version
        events = judge.events(m)
        assert [e["n"] for e in events] == list(range(1, head + 1))
        assert _stored_versions(db, m.id) == list(range(1, head + 1))
    assert judge.get(f"{m.path}/audit")["ok"] is True
    for a in apps:
        a.extensions["judge"].close()
