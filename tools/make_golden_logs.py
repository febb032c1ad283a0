"""Write golden logs: complete matches as the store holds them, for ``tests/unit/test_golden_logs.py``.

A golden log is a file of JSON Lines under ``tests/golden/``: a header (what the match is, which engine wrote
it, how many events, the head hash, and the digest of the state its events fold to), then one line per stored
event exactly as the store keeps it (``originator_version``, ``topic``, ``state``: the stored JSON text).
The test loads each into a fresh store of the current version, folds it and audits it.

A golden log is never regenerated once committed: it is the record of what an older engine wrote, and the test
is there to show that every later engine still reads it the same. To cover something new, add a new log
(a new name) with ``--only NAME``. The tool runs with whatever code is on the path, which is how a log of an
older engine is written: put that engine's checkout first on ``PYTHONPATH``.

    PYTHONPATH=. python tools/make_golden_logs.py --only rewind-d03-d04 --out tests/golden
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

from app.application import JudgeApplication
from domain.decks import preset
from domain.legal import legal_actions
from domain.setup import PlayerSetup

try:
    from domain.version import ENGINE
except ImportError:  # an engine from before versions were recorded
    ENGINE = "unknown (before 0.2.0)"

MAX_ACTIONS = 5000


def _actions(state: Any) -> list[dict[str, Any]]:
    """The legal answers, conceding aside (a golden match is played to a winner by the rules)."""
    return [a for a in legal_actions(state) if a.get("type") != "concede"]


def play_out(app: JudgeApplication, mid: UUID, rng: random.Random, stop: int | None = None) -> list[int]:
    """Random legal answers until the match is finished (or has ``stop`` actions more); returns the event
    numbers at which a player was asked (each one a decision point)."""
    asked: list[int] = []
    for _ in range(MAX_ACTIONS):
        state = app.state_at(mid)
        if state.status == "finished" or (stop is not None and len(asked) >= stop):
            return asked
        actions = _actions(state)
        if not actions:
            raise RuntimeError(f"no legal action at event {state.version}: {state.pending}")
        asked.append(state.version)
        app.act(mid, rng.choice(actions), expected_version=state.version)
    raise RuntimeError(f"the match did not end within {MAX_ACTIONS} actions")


def _players(p1: str, p2: str) -> dict[str, PlayerSetup]:
    return {"p1": PlayerSetup("Ann", preset(p1)), "p2": PlayerSetup("Bo", preset(p2))}


def deck_match(p1: str, p2: str, seed: int) -> Callable[[JudgeApplication], tuple[UUID, str]]:
    def make(app: JudgeApplication) -> tuple[UUID, str]:
        match = app.create_match("diva", seed, _players(p1, p2))
        play_out(app, match.id, random.Random(f"golden:{seed}"))
        return match.id, f"{p1} against {p2}, seed {seed}, random legal answers to a winner"

    return make


def rewound_match(p1: str, p2: str, seed: int) -> Callable[[JudgeApplication], tuple[UUID, str]]:
    def make(app: JudgeApplication) -> tuple[UUID, str]:
        match = app.create_match("diva", seed, _players(p1, p2))
        rng = random.Random(f"golden:{seed}")
        asked = play_out(app, match.id, rng, stop=60)
        to = asked[len(asked) // 2]  # a decision point: a player was asked there
        app.rewind(match.id, to, "golden log: a judge's decision undid the last actions")
        play_out(app, match.id, rng)
        about = f"{p1} against {p2}, seed {seed}, rewound to event {to} after 60 actions, then to a winner"
        return match.id, about

    return make


def branched_match(p1: str, p2: str, seed: int) -> Callable[[JudgeApplication], tuple[UUID, str]]:
    def make(app: JudgeApplication) -> tuple[UUID, str]:
        parent = app.create_match("diva", seed, _players(p1, p2))
        rng = random.Random(f"golden:{seed}")
        asked = play_out(app, parent.id, rng, stop=30)
        at = asked[-5]
        branch = app.branch(parent.id, at, "golden log: the judge tries another line of play")
        play_out(app, branch.id, rng)
        return branch.id, f"a branch at event {at} of {p1} against {p2} (seed {seed}), played to a winner"

    return make


def position_match(app: JudgeApplication) -> tuple[UUID, str]:
    filler = ["WXDi-D01-012"] * 10
    position = {
        "format": "diva",
        "turn": 5,
        "turn_player": "p1",
        "phase": "main",
        "step": None,
        "players": {
            "p1": {
                "lrig": {"center": "WXDi-D01-002", "left": "WXDi-D01-006", "right": "WXDi-D01-009"},
                "signi": {"left": "WXDi-D01-012", "center": "WXDi-D01-012", "right": "WXDi-D01-012"},
                "hand": ["WXDi-D01-012", "WXDi-D01-012"],
                "deck": filler,
                "life_cloth": filler[:3],
                "ener": filler[:4],
            },
            "p2": {
                "lrig": {"center": "WXDi-D01-004"},
                "hand": ["WXDi-D01-012"],
                "deck": filler,
                "life_cloth": filler[:2],
            },
        },
    }
    match, _warnings = app.create_position(position, 11)
    play_out(app, match.id, random.Random("golden:position"))
    return match.id, "a position at p1's main phase (p2 with two Life Cloth), played to a winner"


GOLDEN: dict[str, Callable[[JudgeApplication], tuple[UUID, str]]] = {
    "match-d01-d02": deck_match("WXDi-D01", "WXDi-D02", 101),
    "rewind-d03-d04": rewound_match("WXDi-D03", "WXDi-D04", 202),
    "position-main": position_match,
    "branch-d05-d09p": branched_match("WXDi-D05", "WXDi-D09-P", 303),
}


def export(app: JudgeApplication, mid: UUID, name: str, about: str) -> list[str]:
    """The golden log's lines: the header, then every stored event as the store keeps it."""
    report = app.audit(mid)
    if not report.ok:
        raise RuntimeError(f"{name}: the audit fails: {report.problems}")
    state = app.state_at(mid)
    header = {
        "golden": name,
        "about": about,
        "written_by": ENGINE,
        "match_id": str(mid),
        "events": report.events,
        "head_hash": report.head_hash,
        "final": {
            "digest": state.digest(),
            "status": state.status,
            "winner": state.winner,
            "result": state.result,
            "turn": state.turn,
            "state": state.to_dict(),  # to say what differs, should the digest ever change
        },
    }
    lines = [json.dumps(header, sort_keys=True)]
    for record in app.recorder.select_events(mid):
        line = {"originator_version": record.originator_version, "topic": record.topic}
        line["state"] = record.state.decode("utf-8")
        lines.append(json.dumps(line, sort_keys=True, ensure_ascii=False))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("tests/golden"))
    parser.add_argument("--only", action="append", choices=sorted(GOLDEN), help="write only this log")
    parser.add_argument("--name", help="write it under this name (the engine's own logs keep theirs)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for key in args.only or sorted(GOLDEN):
        name = args.name or key
        path = args.out / f"{name}.jsonl"
        if path.exists():
            print(f"{path} exists: a golden log is never regenerated; add a new one", file=sys.stderr)
            return 1
        app = JudgeApplication({"PERSISTENCE_MODULE": "eventsourcing.popo", "IS_SNAPSHOTTING_ENABLED": "n"})
        try:
            mid, about = GOLDEN[key](app)
            path.write_text("\n".join(export(app, mid, name, about)) + "\n", encoding="utf-8")
        finally:
            app.close()
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
