"""docs/AUDIT.md says exactly which bytes are hashed: its script, taken from the page as it is and run alone
(standard library only, an isolated interpreter), recomputes the hashes of real matches from the judge's view
of their logs, and finds an altered event."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from domain.match import HASHED_FIELDS
from tests.conftest import Judge, MatchRef
from tests.unit.test_golden_logs import LOGS, load_golden

DOC = Path(__file__).resolve().parents[2] / "docs" / "AUDIT.md"


def doc_script() -> str:
    """The first Python block of docs/AUDIT.md."""
    found = re.search(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert found, "docs/AUDIT.md has no Python block"
    return found.group(1)


def run_script(tmp_path: Path, pages: list[dict[str, Any]]) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "verify_chain.py"
    script.write_text(doc_script(), encoding="utf-8")
    files = []
    for i, page in enumerate(pages):
        path = tmp_path / f"page{i}.json"
        path.write_text(json.dumps(page, ensure_ascii=False), encoding="utf-8")
        files.append(str(path))
    return subprocess.run(
        [sys.executable, "-I", str(script), *files], capture_output=True, text=True, timeout=60, check=False
    )


def pages(judge: Judge, m: MatchRef, limit: int = 1000) -> list[dict[str, Any]]:
    out, after = [], 0
    while True:
        page = judge.get(f"{m.path}/events", after=after, limit=limit)
        if not page["events"]:
            return out
        out.append(page)
        after = page["events"][-1]["n"]


def test_the_documented_script_uses_the_fields_the_service_hashes() -> None:
    namespace: dict[str, Any] = {}
    exec(compile(doc_script(), str(DOC), "exec"), namespace)  # defines, runs nothing (not __main__)
    assert tuple(namespace["HASHED_FIELDS"]) == HASHED_FIELDS
    assert namespace["GENESIS"] == "0" * 64


def test_the_documented_script_recomputes_a_played_rewound_and_branched_match(
    judge: Judge, tmp_path: Path
) -> None:
    m = judge.create_match(
        "WXDi-D06",
        "WXDi-D07",
        seed=5,
        players={
            "p1": {"name": 'Åsa 李 "quoted"\n', "deck": "WXDi-D06"},
            "p2": {"name": "Bo", "deck": "WXDi-D07"},
        },
    )
    rng = random.Random(3)
    judge.play(m, rng, stop_at=40)
    decision = judge.state(m)["version"]  # a player is asked here: a decision point
    judge.play(m, rng, stop_at=decision + 30)
    r = judge.client.post(
        f"{m.path}/rewind", json={"to": decision, "reason": "a judge's ruling"}, headers=judge.headers()
    )
    assert r.status_code == 201, r.get_json()
    judge.play(m, rng)  # to a winner, every action sent by the judge for its player (``by``)

    logs = pages(judge, m, limit=97)
    events = [e for page in logs for e in page["events"]]
    assert len(logs) > 1
    assert any("rewound_by" in e for e in events) and any(e.get("by") == "judge" for e in events)
    assert events[0]["engine"].startswith("wixoss-judge ")
    audit = judge.get(f"{m.path}/audit")
    assert audit["ok"], audit["problems"]

    done = run_script(tmp_path, logs)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == f"ok: {len(events)} events, head hash {audit['head_hash']}"

    r = judge.client.post(
        f"{m.path}/branches", json={"at": decision, "reason": "another line"}, headers=judge.headers()
    )
    assert r.status_code == 201, r.get_json()
    b = MatchRef(r.get_json()["id"], r.get_json()["tokens"])
    branch_logs = pages(judge, b)
    branch_events = branch_logs[0]["events"]
    assert [e["hash"] for e in branch_events[:decision]] == [e["hash"] for e in events[:decision]]
    assert branch_events[decision]["type"] == "Branched" and branch_events[decision]["engine"]
    done = run_script(tmp_path, branch_logs)
    assert done.returncode == 0 and done.stdout.startswith(f"ok: {len(branch_events)} events")


def test_the_documented_script_finds_an_altered_event(judge: Judge, tmp_path: Path) -> None:
    m = judge.create_match("WXDi-D01", "WXDi-D02", seed=9)
    judge.play(m, random.Random(4), stop_at=30)
    logs = pages(judge, m)
    events = logs[0]["events"]
    target = next(e for e in events[10:] if e["data"].get("player") == "p1")
    target["data"]["player"] = "p2"
    done = run_script(tmp_path, logs)
    assert done.returncode == 1
    assert done.stdout.strip() == f"altered: event {target['n']} ({target['type']}) does not match its hash"


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_the_documented_script_recomputes_every_golden_log(app: Flask, tmp_path: Path, path: Path) -> None:
    """Golden logs, older engines' included, as a judge would fetch them today."""
    header, mid = load_golden(app.extensions["judge"], path)
    judge = Judge(app.test_client())
    logs = pages(judge, MatchRef(str(mid), {}))
    done = run_script(tmp_path, logs)
    assert done.stdout.strip() == f"ok: {header['events']} events, head hash {header['head_hash']}"
    for page in logs:
        for event in page["events"]:
            _assert_portable(event["data"], f"event {event['n']}")


def _assert_portable(value: Any, where: str) -> None:
    """What docs/AUDIT.md promises of the hashed JSON: no floating-point number (integers only)."""
    assert not isinstance(value, float), f"{where}: a floating-point number"
    if isinstance(value, dict):
        for item in value.values():
            _assert_portable(item, where)
    elif isinstance(value, list):
        for item in value:
            _assert_portable(item, where)
