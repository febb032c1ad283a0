"""``decide(state, action) -> [events]``: check an action against the rules and say what happens.

``decide`` is pure and deterministic. It works on a scratch copy of the state: every event it produces is
applied to that copy at once (through the same ``apply`` the fold uses), so that what follows sees the game as
it now is. After the action it runs the game on by itself (rule processing, triggers, phases that need no
decision) until somebody must decide something, and records that question as an ``Asked`` event.

The events are made through a ``domain.recorder.Recorder``; randomness comes only from ``Recorder.random``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import domain.original  # noqa: F401  (registers the original format's hooks before any match is played)
from domain.actions import Action, parse_action
from domain.errors import IllegalAction, TakebackRefused
from domain.events import Event
from domain.formats import format_of
from domain.kinds import describe_pending
from domain.recorder import Accepted, Recorder, finish
from domain.state import GameState, opponent

Answer = Callable[[Recorder, Action], None]


def decide(state: GameState, raw_action: dict[str, Any] | Action, *, by: str | None = None) -> list[Event]:
    """The events that ``action`` produces in ``state``, or ``IllegalAction`` citing the rules.

    ``by`` is ``"judge"`` when a judge answers a player's decision for that player.
    """
    # Imported here, not at module level, only while ``domain.abilities`` imports ``domain.engine`` at module
    # level (for ``Recorder``): answers, the procedure and the judge import the abilities, which import this
    # module. Once the abilities import ``domain.recorder`` instead, these move to the top.
    from domain import answers, procedure
    from domain.judge import adjust

    action = raw_action if isinstance(raw_action, Action) else parse_action(raw_action)
    if state.status == "finished":
        raise IllegalAction(
            "game.over", f"the game is over ({_result(state)}); nothing more can happen in it"
        )
    waiting = state.takebacks.get("open")
    if waiting and action.type != "concede":
        raise TakebackRefused(
            "takeback.open",
            f"{waiting['player']} asked for a takeback (request {waiting['id']}): the match waits for its "
            "answer (accept or decline it first); only a concession goes before it",
        )
    if action.type == "adjust":
        if by != "judge":
            raise IllegalAction("judge.adjust", "an adjustment is a judge's action: send it as the judge")

        return adjust(state, action.to_dict())
    rec = Recorder(state.copy(), action, by)
    if action.type == "concede":
        answers.concede(rec, action)
        return finish(rec, action)
    pending = state.pending
    if pending is None:
        raise IllegalAction("decision.not-pending", "no decision is pending in this state")
    answers.refuse_whoever_decides(state, action)
    if action.player != pending["player"]:
        raise IllegalAction(
            "decision.not-yours",
            f"{pending['player']} must decide now ({describe_pending(pending)}); {action.player} cannot act",
        )
    handler = answers.handler(pending["kind"], action.type)
    if handler is None:
        answers.refuse_out_of_turn(state, action)
    assert handler is not None
    try:
        handler(rec, action)
    except IllegalAction as exc:
        raise format_of(state).cite_all(exc) from None
    procedure.advance(rec)
    return finish(rec, action)


def _result(state: GameState) -> str:
    r = state.result or {}
    if r.get("winner"):
        return f"{r['winner']} won, {r.get('reason', '')}".rstrip(", ")
    return "finished"


__all__ = ["Accepted", "Answer", "Recorder", "decide", "describe_pending", "finish", "opponent"]
