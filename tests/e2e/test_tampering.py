"""An altered or deleted stored event is found by the audit, at its number."""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest

from domain.version import ENGINE
from tests.conftest import Judge, MatchRef, sqlite_app


def _events_table(con: sqlite3.Connection) -> str:
    tables = [name for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    for name in tables:
        columns = {row[1] for row in con.execute(f"PRAGMA table_info({name})")}
        if {"originator_id", "originator_version", "state"} <= columns:
            return name
    raise AssertionError(f"no events table among {tables}")


@pytest.fixture
def recorded(tmp_path: Path) -> Iterator[tuple[Path, MatchRef, list[dict]]]:
    db = tmp_path / "judge.sqlite"
    app = sqlite_app(db)
    judge = Judge(app.test_client())
    m = judge.create_match("WXDi-D07", "WXDi-D08", seed=77)
    judge.play(m, random.Random(8), stop_at=80)
    assert judge.get(f"{m.path}/audit")["ok"] is True
    events = judge.events(m)
    app.extensions["judge"].close()
    yield db, m, events


def _audit(db: Path, m: MatchRef) -> dict:
    app = sqlite_app(db)
    try:
        return Judge(app.test_client()).get(f"{m.path}/audit")
    finally:
        app.extensions["judge"].close()


def test_an_edited_card_reference_is_found_at_its_event(recorded: tuple[Path, MatchRef, list[dict]]) -> None:
    db, m, events = recorded
    target = next(e for e in events[20:] if e["type"] in ("EnerCharged", "SigniPlayed"))
    n, old = target["n"], target["data"]["card"]
    other = next(
        e["data"]["card"]
        for e in events
        if e["data"].get("card") not in (None, old) and isinstance(e["data"].get("card"), str)
    )
    con = sqlite3.connect(db)
    table = _events_table(con)
    key = UUID(m.id).hex  # the SQLite recorder keeps ids as 32 hex digits
    (state,) = con.execute(
        f"SELECT state FROM {table} WHERE originator_id = ? AND originator_version = ?", (key, n)
    ).fetchone()
    text = bytes(state).decode()
    assert old in text
    changed = text.replace(old, other)
    json.loads(changed)
    con.execute(
        f"UPDATE {table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
        (changed.encode(), key, n),
    )
    assert con.total_changes == 1
    con.commit()
    con.close()

    report = _audit(db, m)
    assert report["ok"] is False
    assert report["problems"][0]["at"] == n
    assert report["problems"][0]["rule"] == "audit.hash"
    assert report["events"] == len(events)


def test_a_deleted_event_is_found(recorded: tuple[Path, MatchRef, list[dict]]) -> None:
    db, m, events = recorded
    n = 33
    con = sqlite3.connect(db)
    table = _events_table(con)
    con.execute(
        f"DELETE FROM {table} WHERE originator_id = ? AND originator_version = ?", (UUID(m.id).hex, n)
    )
    assert con.total_changes == 1
    con.commit()
    con.close()

    report = _audit(db, m)
    assert report["ok"] is False
    assert report["problems"][0]["at"] == n
    assert report["events"] == len(events) - 1


def test_an_untouched_log_passes_the_audit(recorded: tuple[Path, MatchRef, list[dict]]) -> None:
    db, m, events = recorded
    report = _audit(db, m)
    assert report == {
        "ok": True,
        "events": len(events),
        "head_hash": events[-1]["hash"],
        "problems": [],
        "engine": ENGINE,
        "audited_by": ENGINE,
        "rule_changes": [],
    }
