"""A judge's own actions on a match: rewind, branch, adjust.

A rewind appends an event that puts the whole state back as it was at an earlier event; nothing is deleted,
and the events it undid stay in the log (views mark them ``rewound_by``). A branch is a new match whose first
events are the parent's. Both go only to a decision point (``judge.decision-point``): an event after which a
player is asked to decide. (Logs written before that rule may hold a rewind into the middle of the game
running on by itself: there it ran on again, as events after the rewind, and a replay does the same.) An
adjustment resolves an ability the service does not enforce, as primitive steps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from domain import procedure
from domain.actions import Action
from domain.adjust import check_steps
from domain.errors import IllegalAction, TakebackRefused
from domain.events import Event
from domain.evolve import apply
from domain.recorder import Recorder, finish
from domain.state import GameState

Nearest = Callable[[], tuple[int | None, int | None]]


class NotADecisionPoint(IllegalAction):
    """Time travel to an event that is not a decision point. ``earlier`` and ``later`` are the nearest
    decision points before and after it (None where there is none)."""

    def __init__(
        self, rule_refs: tuple[str, ...], message: str, at: int, earlier: int | None, later: int | None
    ) -> None:
        super().__init__(rule_refs, message)
        self.at = at
        self.earlier = earlier
        self.later = later

    @property
    def fields(self) -> dict[str, int | None]:
        """What a refusal names besides its sentence: the event asked for and the nearest decision points."""
        return {"at": self.at, "earlier": self.earlier, "later": self.later}

    def __reduce__(self) -> tuple[type, tuple[Any, ...]]:
        return (type(self), (self.rule_refs, self.message, self.at, self.earlier, self.later))


def is_decision_point(state: GameState, next_event: Any | None) -> bool:
    """Whether the event that ``state`` follows is a decision point: the game waits there for a player's
    answer (a state the players could have seen). The state names a pending decision, the game is not over,
    and the event after it, if any (None: it is the last), begins a batch: the answer to that decision, a
    concession or a judge's action. Inside a batch a state may still name the decision being answered (an
    LRIG attack declared from the SIGNI attack step moves to its step first), so the state alone is not
    enough."""
    return (
        state.status != "finished"
        and state.pending is not None
        and (next_event is None or next_event.action is not None)
    )


def decision_points(
    start: GameState, events: Sequence[Any], next_event: Any | None
) -> Iterator[tuple[GameState, bool]]:
    """For each of ``events``, folded onto a copy of ``start``: the state after it and whether it is a
    decision point. ``next_event`` is the event after the last of them (None: the last is the head). The
    state yielded is the running one: read it before asking for the next."""
    state = start.copy()
    for i, event in enumerate(events):
        apply(state, event)
        following = events[i + 1] if i + 1 < len(events) else next_event
        yield state, is_decision_point(state, following)


@dataclass(frozen=True)
class Landing:
    """What the log says around the event time travel goes to: the event after it (None when it is the
    head), and how to find the nearest decision points on each side, asked only for a refusal."""

    next_event: Any | None
    nearest: Nearest


def require_decision_point(target: GameState, n: int, landing: Landing, rule: str, what: str) -> None:
    """Refuse time travel to event ``n`` (``target`` is the state after it) unless it is a decision point:
    anywhere else the game is in the middle of running on by itself (a crush after damage, rule processing,
    the match's set-up), and a match put back there would lose what was still to happen."""
    following = landing.next_event
    if is_decision_point(target, following):
        return
    nxt = f"event {n + 1} ({following.type})" if following is not None else "nothing"
    if target.status == "finished":
        why = f"after event {n} the game is over: nobody decides anything there"
    elif target.status == "setup" and target.pending is None:
        why = f"event {n} is inside the match's set-up"
    elif target.pending is None:
        why = f"after event {n} the game runs on by itself: {nxt} follows from it"
    else:
        why = f"event {n} is inside the resolution of an answer: {nxt} follows from it"
    earlier, later = landing.nearest()
    sides = [f"{earlier} before it" if earlier is not None else "none before it"]
    sides.append(f"{later} after it" if later is not None else "none after it")
    raise NotADecisionPoint(
        ("judge.decision-point", rule),
        f"{why}; a {what} goes only to a decision point, an event after which a player is asked to decide. "
        f"The nearest decision points: {' and '.join(sides)}",
        n,
        earlier,
        later,
    )


def rewind(
    state: GameState, target: GameState, to: int, reason: str, landing: Landing | None = None
) -> list[Event]:
    """The events of a rewind to event ``to`` (``target`` is the state after it). ``landing`` says what the
    log holds around ``to``, for the check that it is a decision point; an audit replaying a rewind already
    recorded gives none, since the log is checked against what was decided when it was written."""
    if not 1 <= to <= state.version:
        raise IllegalAction(
            "judge.rewind", f"a rewind goes back to an event from 1 to {state.version}, not {to}"
        )
    waiting = state.takebacks.get("open")
    if waiting:
        raise TakebackRefused(
            "takeback.open",
            f"takeback {waiting['id']} ({waiting['player']}) waits for its answer: rule on it first "
            f"(POST /matches/{{id}}/takebacks/{waiting['id']}/accept or decline)",
        )
    if landing is not None:
        require_decision_point(target, to, landing, "judge.rewind", "rewind")
    rec = Recorder(state.copy())
    rec.emit(
        "Rewound",
        "judge",
        "judge.rewind",
        {"to": to, "reason": reason, "state": target.to_dict(), "digest": target.digest()},
    )
    procedure.advance(rec)
    return finish(rec, Action("rewind", None, {"to": to, "reason": reason}))


def branch(
    state: GameState, parent: str, at: int, reason: str, landing: Landing | None = None
) -> list[Event]:
    """The events that open a branch after its copy of the parent's first ``at`` events (``state`` is the
    state after them); ``landing`` as for a rewind, in the parent's log."""
    if landing is not None:
        require_decision_point(state, at, landing, "judge.branch", "branch")
    rec = Recorder(state.copy())
    rec.emit("Branched", "judge", "judge.branch", {"parent": parent, "at": at, "reason": reason})
    procedure.advance(rec)
    return finish(rec, Action("branch", None, {"parent": parent, "at": at, "reason": reason}))


def adjust(state: GameState, action: dict[str, Any]) -> list[Event]:
    """A judge resolves what the service does not enforce, as checked primitive steps; then the game runs on
    (rule processing included) as after any action."""

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
