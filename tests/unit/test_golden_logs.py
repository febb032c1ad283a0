"""Old logs stay readable: every golden log under ``tests/golden/`` (complete matches as an older or the
current engine stored them, written by ``tools/make_golden_logs.py`` and never regenerated) is loaded into
a fresh store of the current version, and must audit ok (hash chain and replay through today's rules) and
fold to the state whose digest its header recorded. A failure here means a change made the engine read an
old log differently: a real finding, to be explained, never silenced by rewriting the golden log."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest
from eventsourcing.persistence import StoredEvent

from app.application import JudgeApplication
from domain.evolve import apply
from domain.state import GameState

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
LOGS = sorted(GOLDEN.glob("*.jsonl"))


# Where today's rules decide differently from the earlier engine that wrote a golden log, each explained.
# The audit stays ok (chain intact, every event folds), but replays with today's rules only up to there.
_FRAME_2 = (
    "event {} (Asked) differs from what the rules would have produced: data.resume.frame is missing (the "
    "rules give 2)"
)
RULE_CHANGES: dict[str, list[tuple[int, str]]] = {
    # 0.4.0: an effect waiting for an answer is stored as a typed, versioned frame (``"frame": 2``,
    # domain.abilities.frames); these logs stored it unversioned (version 1), so the first Asked in the middle
    # of an effect differs in its frame only (what was asked, of whom, with which choices is the same; the
    # frame is upcast when it is read back: tests/unit/test_effect_frames.py resumes every such question of
    # these logs as the engine that wrote them did). Each log's first such Asked:
    # - branch-d05-d09p 77: the cards to discard, asked by a Life Burst;
    # - match-d01-d02 46: the cards to discard, asked by an Enter ability (the 0.3.0 change at 673, where a
    #   "look at the top" effect's frame gained its order rule, comes later and is no longer reached);
    # - rewind-d03-d04 189: "you may pay" of an Enter ability.
    # position-main never waits inside an effect.
    # 0.x (coin.icon): the coins printed on an LRIG are gained as the LRIGs are turned face up and on growing
    # into it; this log's p2 plays WXDi-D09-P, whose level 0 LRIG prints three coins, so today's rules gain
    # them right after the LRIGs are revealed (event 22), where the log turns to the first turn.
    "branch-d05-d09p": [(22, "event 22 is TurnBegan, but the rules would have produced CoinsGained there")],
    "match-d01-d02": [(46, _FRAME_2.format(46))],
    "rewind-d03-d04": [(189, _FRAME_2.format(189))],
}


def read_golden(path: Path) -> tuple[dict[str, Any], list[StoredEvent]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    mid = UUID(header["match_id"])
    records = [
        StoredEvent(
            originator_id=mid,
            originator_version=line["originator_version"],
            topic=line["topic"],
            state=line["state"].encode("utf-8"),
        )
        for line in map(json.loads, lines[1:])
    ]
    return header, records


def load_golden(app: JudgeApplication, path: Path) -> tuple[dict[str, Any], UUID]:
    """The golden log inserted into ``app``'s store as the records it was, exactly."""
    header, records = read_golden(path)
    app.recorder.insert_events(records)
    return header, UUID(header["match_id"])


@pytest.fixture
def fresh_app() -> Iterator[JudgeApplication]:
    app = JudgeApplication({"PERSISTENCE_MODULE": "eventsourcing.popo"})
    yield app
    app.close()


def _differences(old: Any, new: Any, path: str = "") -> list[str]:
    """Where two states differ, for a readable failure (a field that is new in ``new`` is listed too)."""
    if isinstance(old, dict) and isinstance(new, dict):
        out: list[str] = []
        for key in sorted(set(old) | set(new), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in new:
                out.append(f"{where}: gone (was {old[key]!r:.80})")
            elif key not in old:
                out.append(f"{where}: new ({new[key]!r:.80})")
            else:
                out.extend(_differences(old[key], new[key], where))
        return out
    if old != new:
        return [f"{path}: {old!r:.80} -> {new!r:.80}"]
    return []


def test_there_are_golden_logs_of_complete_matches_of_several_kinds() -> None:
    headers = [read_golden(p)[0] for p in LOGS]
    assert len(headers) >= 3
    assert all(h["final"]["status"] == "finished" and h["final"]["winner"] in ("p1", "p2") for h in headers)
    topics = {line["topic"] for p in LOGS for line in map(json.loads, p.read_text().splitlines()[1:2])}
    assert {"wixoss:MatchCreated", "wixoss:PositionSet"} <= topics  # from decks, and from a position
    text = "".join(p.read_text() for p in LOGS)
    assert "wixoss:Rewound" in text and "wixoss:Branched" in text
    assert any(h["written_by"].startswith("unknown") for h in headers)  # one written before engine versions


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_a_golden_log_audits_ok_and_folds_to_its_recorded_state(
    fresh_app: JudgeApplication, path: Path
) -> None:
    header, mid = load_golden(fresh_app, path)

    report = fresh_app.audit(mid)
    assert report.problems == [], f"{path.name}: today's engine no longer accepts this log"
    changed = [(c["at"], c["message"]) for c in report.rule_changes]
    assert changed == RULE_CHANGES.get(path.stem, []), (
        f"{path.name}: today's rules part ways with this log elsewhere than known; explain the change and "
        "list it in RULE_CHANGES"
    )
    assert report.ok and report.events == header["events"]
    assert report.head_hash == header["head_hash"]
    assert report.engine == header["written_by"]

    state = fresh_app.state_at(mid)
    folded = GameState()
    for event in fresh_app.stored_events(mid):  # the one fold, event by event, as a replay does it
        apply(folded, event)
    assert folded.digest() == state.digest()
    final = header["final"]
    if state.digest() != final["digest"]:
        changed = _differences(final["state"], state.to_dict())
        pytest.fail(
            f"{path.name} folds to another state than the one recorded when it was written:\n  "
            + "\n  ".join(changed[:30])
        )
    assert (state.status, state.winner, state.result, state.turn) == (
        final["status"],
        final["winner"],
        final["result"],
        final["turn"],
    )
