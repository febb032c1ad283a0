"""``decide(state, action) -> [events]``: check an action against the rules and say what happens.

``decide`` is pure and deterministic. It works on a scratch copy of the state: every event it produces is
applied to that copy at once (through the same ``apply`` the fold uses), so that what follows sees the game as
it now is. After the action it runs the game on by itself (rule processing, triggers, phases that need no
decision) until somebody must decide something, and records that question as an ``Asked`` event.

Randomness comes only from ``Recorder.random``, seeded by the match's seed and the event number, and its
outcome is written into the event (the new deck order): replaying a log never draws a number.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from domain.actions import Action, parse_action
from domain.errors import IllegalAction, TakebackRefused
from domain.events import Event
from domain.evolve import apply
from domain.formats import format_of
from domain.state import GameState, opponent

_TRIGGERS: tuple[frozenset[str], Callable[[Recorder, Event], None]] | None = None


def _triggers() -> tuple[frozenset[str], Callable[[Recorder, Event], None]]:
    """The event types that can trigger abilities and the hook that collects what they trigger
    (``domain.abilities.triggers``, which imports this module: loaded on first use, once)."""
    global _TRIGGERS
    if _TRIGGERS is None:
        from domain.abilities.triggers import TRIGGERING, after_emit

        _TRIGGERS = (frozenset(TRIGGERING), after_emit)
    return _TRIGGERS


class Accepted(Exception):
    """Raised by a probing ``Recorder`` at the first event: the action passed every check before it."""


class Recorder:
    """A scratch state and the events produced on it so far.

    A probing recorder (``probe=True``) only asks whether an action would be accepted: an answer checks
    everything before it emits its first event, so the recorder stops it there with ``Accepted``, before
    anything resolves. ``legal_actions`` probes the spells and abilities it offers this way."""

    def __init__(
        self, state: GameState, action: Action | None = None, by: str | None = None, probe: bool = False
    ) -> None:
        self.state = state
        self.events: list[Event] = []
        self.base = state.version
        self.action = action
        self.by = by
        self.probe = probe

    @property
    def cause(self) -> int:
        """The event number of this batch's first event: what the rest of the batch follows from."""
        return self.base + 1

    def next_n(self) -> int:
        return self.base + len(self.events) + 1

    def emit(
        self,
        type: str,
        actor: str,
        rule: str,
        data: dict[str, Any] | None = None,
        caused_by: int | None = None,
    ) -> int:
        if self.probe:
            raise Accepted(type)
        rule = format_of(self.state).cite(rule)  # the format's own rule where it has one (domain.formats)
        first = not self.events
        if caused_by is None and not first:
            caused_by = self.cause
        by = self.by if (first and self.action is not None and actor in ("p1", "p2")) else None
        event = Event(type, actor, rule, data or {}, caused_by, by)
        apply(self.state, event)
        self.events.append(event)
        n = self.state.version
        triggering, after_emit = _TRIGGERS or _triggers()
        if type in triggering:
            after_emit(self, event)
        return n

    def ask(self, player: str, kind: str, rule: str, **extra: Any) -> None:
        self.emit("Asked", "rules", rule, {"player": player, "kind": kind, **extra})

    def random(self, label: str) -> random.Random:
        """The match's RNG for the event about to be produced."""
        # After a takeback the events are numbered on from the log's head, but the RNG goes on as it did
        # from the point taken back to (``rng_shift``): the same actions again get the same shuffles.
        n = self.next_n() - int(self.state.takebacks.get("rng_shift", 0))
        return random.Random(f"{self.state.seed}:{n}:{label}")


Answer = Callable[[Recorder, Action], None]


def decide(state: GameState, raw_action: dict[str, Any] | Action, *, by: str | None = None) -> list[Event]:
    """The events that ``action`` produces in ``state``, or ``IllegalAction`` citing the rules.

    ``by`` is ``"judge"`` when a judge answers a player's decision for that player.
    """
    from domain import answers, procedure

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
        from domain.judge import adjust

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


def finish(rec: Recorder, action: Action) -> list[Event]:
    """Mark the batch's first event with the action that produced it, so that an audit can replay it."""
    if rec.events:
        first = rec.events[0]
        rec.events[0] = Event(
            first.type, first.actor, first.rule, first.data, first.caused_by, first.by, action.to_dict()
        )
    return rec.events


def describe_pending(pending: dict[str, Any]) -> str:
    kind = pending["kind"]
    names = {
        "mulligan": "whether to mulligan",
        "ener": "the ener phase",
        "grow": "the grow phase",
        "main": "the main phase",
        "pre_attack": "the pre-attack step",
        "arts_use": "the ARTS use step",
        "defense": "the defense step",
        "signi_attack": "the SIGNI attack step",
        "lrig_attack": "the LRIG attack step",
        "guard": "whether to guard",
        "life_burst": "whether to activate a Life Burst",
        "discard": "which cards to discard",
        "choose": pending.get("prompt", "a choice"),
        "trigger_order": "the order of triggered abilities",
        "spell_cut_in": "whether to cut in on the spell being used, or pass",
    }
    return f"{pending['player']}: {names.get(kind, kind.replace('_', ' '))}"


def _result(state: GameState) -> str:
    r = state.result or {}
    if r.get("winner"):
        return f"{r['winner']} won, {r.get('reason', '')}".rstrip(", ")
    return "finished"


__all__ = ["Accepted", "Recorder", "decide", "describe_pending", "opponent"]
