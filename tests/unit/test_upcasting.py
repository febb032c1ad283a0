"""Stored event shapes are versioned (the eventsourcing library's ``class_version`` and ``upcast_vN_vN+1``):
a match records the engine that wrote it, and a match stored before that (version 1 of its first event, as
the golden log ``match-d01-d02`` was written by the engine before 0.2.0) still reads, audits and folds."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.persistence import StoredEvent

from app.application import JudgeApplication
from domain.decks import preset
from domain.match import ENGINE_TYPES, Match
from domain.setup import PlayerSetup
from domain.version import ENGINE, ENGINE_UNKNOWN, ENGINE_VERSION
from tests.unit.test_golden_logs import GOLDEN, fresh_app, load_golden, read_golden

__all__ = ["fresh_app"]  # the fixture, shared with the golden-log tests

ROOT = Path(__file__).resolve().parents[2]
OLD = GOLDEN / "match-d01-d02.jsonl"  # written by the engine before 0.2.0


def _stored_state(record: StoredEvent) -> dict[str, Any]:
    return json.loads(record.state)


def test_the_engine_version_is_the_package_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert f"{project['name']} {project['version']}" == ENGINE and project["version"] == ENGINE_VERSION


def test_the_old_golden_log_is_stored_in_version_1_of_its_first_event() -> None:
    header, records = read_golden(OLD)
    first = _stored_state(records[0])
    assert header["written_by"] == ENGINE_UNKNOWN
    assert records[0].topic == "wixoss:MatchCreated"
    assert "class_version" not in first and "engine" not in first  # version 1, as it was written


def test_a_version_1_first_event_is_upcast_on_read(fresh_app: JudgeApplication) -> None:
    _, mid = load_golden(fresh_app, OLD)
    first = fresh_app.stored_events(mid, 0, 1)[0]
    assert type(first) is Match.MatchCreated and Match.MatchCreated.class_version == 2
    assert first.engine is None  # the upcaster's doing: the stored state has no engine
    assert "engine" not in first.body()  # so the hashed body is what it was when written
    report = fresh_app.audit(mid)
    assert report.ok and report.engine == ENGINE_UNKNOWN


def test_without_its_upcaster_a_version_1_event_would_not_read(
    fresh_app: JudgeApplication, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The upcaster is what makes the old log readable: with the class at version 2 and no upcaster, the
    library cannot map the stored version 1 event."""
    _, mid = load_golden(fresh_app, OLD)
    monkeypatch.delattr(Match.MatchCreated, "upcast_v1_v2")
    with pytest.raises(AttributeError, match="upcast_v1_v2"):
        fresh_app.stored_events(mid, 0, 1)


def test_a_new_match_stores_its_engine_in_version_2_and_hashes_it(fresh_app: JudgeApplication) -> None:
    players = {"p1": PlayerSetup("Ann", preset("WXDi-D01")), "p2": PlayerSetup("Bo", preset("WXDi-D02"))}
    match = fresh_app.create_match("diva", 1, players, "p1")
    record = fresh_app.recorder.select_events(match.id, limit=1)[0]
    state = _stored_state(record)
    assert state["class_version"] == 2 and state["engine"] == ENGINE
    first = fresh_app.stored_events(match.id, 0, 1)[0]
    assert first.body()["engine"] == ENGINE
    assert fresh_app.audit(match.id).engine == ENGINE

    # The engine is inside the hashed bytes: a stored first event whose engine was changed is found.
    altered = StoredEvent(
        record.originator_id,
        record.originator_version,
        record.topic,
        json.dumps({**state, "engine": "wixoss-judge 9.9.9"}).encode(),
    )
    other = JudgeApplication({"PERSISTENCE_MODULE": "eventsourcing.popo"})
    try:
        rest = fresh_app.recorder.select_events(match.id, gt=1)
        other.recorder.insert_events([altered, *rest])
        problems = other.audit(match.id).problems
    finally:
        other.close()
    assert problems and problems[0]["at"] == 1 and problems[0]["rule"] == "audit.hash"


def test_every_event_that_records_an_engine_has_an_upcaster_for_each_version() -> None:
    for name in ENGINE_TYPES:
        cls = Match.EVENT_CLASSES[name]
        for v in range(1, cls.class_version):
            assert callable(getattr(cls, f"upcast_v{v}_v{v + 1}")), name
