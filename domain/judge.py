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


def _resumable(target: GameState, n: int, rule: str, what: str) -> None:
    """The game can run on from any point but the middle of a match's creation from decks (its events are
    one indivisible step)."""
    if target.status == "setup" and target.pending is None:
        raise IllegalAction(
            rule, f"event {n} is inside the match's set-up: {what} to the first mulligan question or later"
        )


def rewind(state: GameState, target: GameState, to: int, reason: str) -> list[Event]:
    if not 1 <= to <= state.version:
        raise IllegalAction(
            "judge.rewind", f"a rewind goes back to an event from 1 to {state.version}, not {to}"
        )
    _resumable(target, to, "judge.rewind", "rewind")
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
    _resumable(state, at, "judge.branch", "branch")
    rec = Recorder(state.copy())
    rec.emit("Branched", "judge", "judge.branch", {"parent": parent, "at": at, "reason": reason})
    procedure.advance(rec)
    return finish(rec, Action("branch", None, {"parent": parent, "at": at, "reason": reason}))


def adjust(state: GameState, action: dict[str, Any]) -> list[Event]:
    """A judge resolves what the service does not enforce, as checked primitive steps; then the game runs on
    (rule processing included) as after any action."""
    from domain.adjust import check_steps

    reason = action.get("reason")
    if not isinstance(reason, str) or not reason.strip():
        raise IllegalAction("judge.adjust", "an adjustment needs a reason: which card or ruling it resolves")
    rec = Recorder(state.copy())
    steps = check_steps(state, list(action.get("steps") or []), rec.random("adjust"))
    if not steps:
        raise IllegalAction("judge.adjust", "an adjustment needs at least one step")
    pending = state.pending or {}
    # The decision that was pending is asked again after rule processing, unless it stands in the middle of
    # an effect (rule processing never happens there): then it simply still stands.
    reopen = pending.get("purpose") not in ("target", "effect") and pending.get("kind") != "spell_cut_in"
    rec.emit("Adjusted", "judge", "judge.adjust", {"steps": steps, "reason": reason, "reopen": reopen})
    procedure.advance(rec)
    return finish(rec, Action("adjust", None, {"steps": list(action.get("steps") or []), "reason": reason}))
