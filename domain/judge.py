"""A judge's own actions on a match: rewind, branch, adjust.

A rewind appends an event that puts the whole state back as it was at an earlier event; nothing is deleted,
and the events it undid stay in the log (views mark them ``rewound_by``). If that earlier point was in the
middle of the game running on by itself, it runs on again from there, as events after the rewind. A branch is
a new match whose first events are the parent's. An adjustment resolves an ability the service does not
enforce, as primitive steps.
"""

from __future__ import annotations

from typing import Any

from domain import procedure
from domain.actions import Action
from domain.engine import Recorder, finish
from domain.errors import IllegalAction
from domain.events import Event
from domain.state import GameState


def rewind(state: GameState, target: GameState, to: int, reason: str) -> list[Event]:
    if not 1 <= to <= state.version:
        raise IllegalAction(
            "judge.rewind", f"a rewind goes back to an event from 1 to {state.version}, not {to}"
        )
    rec = Recorder(state.copy())
    rec.emit(
        "Rewound",
        "judge",
        "judge.rewind",
        {"to": to, "reason": reason, "state": target.to_dict(), "digest": target.digest()},
    )
    procedure.advance(rec)
    return finish(rec, Action("rewind", None, {"to": to, "reason": reason}))


def branch(state: GameState, parent: str, at: int, reason: str) -> list[Event]:
    """The events that open a branch after its copy of the parent's first ``at`` events; a branch taken in
    the middle of the game running on by itself runs on from there."""
    rec = Recorder(state.copy())
    rec.emit("Branched", "judge", "judge.branch", {"parent": parent, "at": at, "reason": reason})
    procedure.advance(rec)
    return finish(rec, Action("branch", None, {"parent": parent, "at": at, "reason": reason}))


def adjust(state: GameState, action: dict[str, Any]) -> list[Event]:
    raise IllegalAction(
        "judge.unenforced",
        "judge adjustments (primitive steps resolving an unenforced ability) are not available yet",
    )
