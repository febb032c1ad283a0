"""Takebacks: a player asks to take back their play to an earlier decision point, and the opponent (or a
judge) accepts or declines.

Everything is an event, and nothing is deleted: ``TakebackRequested`` opens a request and the match waits
for its answer (any other action is refused, ``takeback.open``, a concession aside); ``TakebackDeclined``
closes it; ``TakebackAccepted`` closes it and is followed by a ``Rewound`` to the decision point asked for,
so that the state after it is the state at that point.

What the match allows is its policy (``TakebackPolicySet``, given when the match is created or by a judge
later; without one, ``DEFAULT_POLICY``):

- ``policy``: ``never``, ``with-consent`` (the opponent answers, or a judge) or ``judge-only`` (a player may
  ask; only a judge answers);
- ``max_back_decisions``: how many answered decisions one takeback may undo (None: any);
- ``per_player``: how many takebacks each player may have accepted in the match (None: any);
- ``refuse_after_reveal`` (default true): refuse a takeback whose span showed the requester a card they
  could not see before it (a draw, a look at the deck, a crushed Life Cloth, the opponent's hand).

The list of what the span revealed is worked out from the log by ``projections.takebacks`` (it is a
question of who could see what) and handed in here; the request records it, for the opponent and the judge.

A takeback never rolls the dice again: the RNG (``Recorder.random``) is keyed by the event number, and the
takeback's rewind records ``rng_shift``, so that the events after it draw exactly as the events after the
point taken back to did. The same actions played again give the same shuffles; nobody fishes for a better one.

A takeback reaches back at most to the last rewind (a judge's or a takeback's): what lies before it was
undone once already, and is no longer the play being taken back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from domain import procedure
from domain.actions import Action
from domain.errors import InvalidAction, NotYourTakeback, TakebackRefused
from domain.events import Event
from domain.evolve import apply, fold
from domain.judge import Landing, is_decision_point, require_decision_point
from domain.recorder import Recorder, finish
from domain.state import GameState, opponent

POLICIES = ("never", "with-consent", "judge-only")
DEFAULT_POLICY: dict[str, Any] = {
    "policy": "with-consent",
    "max_back_decisions": None,
    "per_player": None,
    "refuse_after_reveal": True,
}
# actions that are no answer to a game decision: they are not counted as decisions a takeback undoes
NOT_DECISIONS = frozenset(("create", "position", "rewind", "branch", "adjust", "concede")) | frozenset(
    ("takeback_policy", "takeback_request", "takeback_accept", "takeback_decline")
)
MAX_LIMIT = 1_000_000


def parse_policy(raw: Any) -> dict[str, Any]:
    """A policy as given: a name (``"with-consent"``) or an object; the fields left out take their default.
    ``InvalidAction`` for anything else."""
    if isinstance(raw, str):
        raw = {"policy": raw}
    if not isinstance(raw, dict):
        raise InvalidAction("a takeback policy is one of never, with-consent, judge-only, or an object")
    unknown = sorted(set(raw) - set(DEFAULT_POLICY))
    if unknown:
        raise InvalidAction(f"a takeback policy has no field {', '.join(unknown)}")
    policy = {**DEFAULT_POLICY, **raw}
    if policy["policy"] not in POLICIES:
        raise InvalidAction(f"a takeback policy is one of {', '.join(POLICIES)}, not {policy['policy']!r}")
    for name in ("max_back_decisions", "per_player"):
        value = policy[name]
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_LIMIT
        ):
            raise InvalidAction(f"{name} is a whole number from 0 to {MAX_LIMIT}, or null for no limit")
    if not isinstance(policy["refuse_after_reveal"], bool):
        raise InvalidAction("refuse_after_reveal is true or false")
    return policy


def policy_of(state: GameState) -> dict[str, Any]:
    """The match's takeback policy (the default where none was set)."""
    return {**DEFAULT_POLICY, **(state.takebacks.get("policy") or {})}


def open_request(state: GameState) -> dict[str, Any] | None:
    """The takeback waiting for its answer, if any: ``{id, player, to}``."""
    found = state.takebacks.get("open")
    return dict(found) if found else None


def set_policy(state: GameState, raw: Any, reason: str) -> list[Event]:
    """A judge sets the match's takeback policy (also done when a match is created with one)."""
    policy = parse_policy(raw)
    rec = Recorder(state.copy())
    rec.emit("TakebackPolicySet", "judge", "takeback.policy", {"policy": policy, "reason": reason})
    return finish(rec, Action("takeback_policy", None, {"policy": policy, "reason": reason}))


def at_creation(events: Sequence[Event], raw: Any) -> list[Event]:
    """The events that create a match, with its takeback policy: the creating action names the policy, and
    a ``TakebackPolicySet`` ends the creation's batch (after everything else, so that the rest of the
    creation, its shuffles included, is what it would be without it)."""
    policy = parse_policy(raw)
    first = events[0]
    action = {**(first.action or {}), "takebacks": policy}
    out = [Event(first.type, first.actor, first.rule, first.data, first.caused_by, first.by, action)]
    out.extend(events[1:])
    rec = Recorder(fold(out))
    reason = "set when the match was created"
    rec.emit("TakebackPolicySet", "judge", "takeback.policy", {"policy": policy, "reason": reason}, 1)
    return out + rec.events


# -- the span a takeback undoes ---------------------------------------------------------------------


@dataclass(frozen=True)
class Span:
    """What a takeback to ``to`` would undo: the events after it up to the head, of which ``decisions``
    are answers to the game's decisions; ``target`` is the state after event ``to``."""

    to: int
    target: GameState
    decisions: int


def last_rewind(log: Sequence[Any]) -> int:
    """The number of the last ``Rewound`` event of the log (0: none): no takeback reaches before it."""
    for i in range(len(log) - 1, -1, -1):
        if log[i].type == "Rewound":
            return i + 1
    return 0


def plan(start: GameState, log: Sequence[Any], player: str, to: int | None) -> Span:
    """The span of a takeback by ``player`` to ``to`` (None: back to the player's last answered decision).

    ``log`` is the whole log to the head; ``start`` is the state after its last rewind (``last_rewind``),
    or the empty state when there is none. ``to`` must be a decision point from that rewind on, before the
    head."""
    head = len(log)
    floor = last_rewind(log)
    if to is not None and not floor <= to < head:
        if to >= head:
            raise TakebackRefused(
                "takeback.nothing",
                f"a takeback goes back to an event before the head ({head}), not {to}: nothing lies after it",
            )
        raise TakebackRefused(
            "takeback.across-rewind",
            f"event {to} lies before the rewind at event {floor}: a takeback reaches back at most to the "
            "last rewind",
        )
    state = start.copy()
    points: list[int] = []  # the decision points from the floor on
    kept: dict[int, GameState] = {}
    n = floor
    while True:
        following = log[n] if n < head else None
        flag = n >= 1 and is_decision_point(state, following)
        if flag:
            points.append(n)
        answered_by = (following.action or {}).get("player") if following is not None else None
        candidate = (
            flag
            and following is not None
            and state.pending is not None
            and state.pending.get("player") == player
            and answered_by == player
            and (following.action or {}).get("type") not in NOT_DECISIONS
        )
        if n == to or (to is None and candidate):
            kept = {n: state.copy()}
        if n == head:
            break
        apply(state, log[n])
        n += 1
    if to is None:
        if not kept:
            raise TakebackRefused(
                "takeback.nothing",
                f"{player} has answered no decision since "
                + (f"the rewind at event {floor}" if floor else "the match began")
                + ": there is nothing of theirs to take back",
            )
        to = next(iter(kept))
    target = kept[to]
    earlier = max((p for p in points if p < to), default=None)
    later = min((p for p in points if p > to), default=None)
    landing = Landing(log[to] if to < head else None, lambda: (earlier, later))
    require_decision_point(target, to, landing, "takeback.request", "takeback")
    decisions = sum(
        1
        for e in log[to:]
        if e.action is not None
        and e.action.get("player") in ("p1", "p2")
        and e.action.get("type") not in NOT_DECISIONS
    )
    return Span(to, target, decisions)


# -- asking and answering ---------------------------------------------------------------------------


def request(
    state: GameState,
    span: Span,
    player: str,
    reason: str,
    revealed: Sequence[dict[str, Any]],
    asked_to: int | None = None,
    by: str | None = None,
) -> list[Event]:
    """The event of ``player``'s request to take back to ``span.to`` (``asked_to``: the event the request
    named, None when it named none), or ``TakebackRefused`` citing what the policy says. ``revealed`` is what
    the span showed ``player`` that they could not see before it (``projections.takebacks``)."""
    if state.status == "finished":
        raise TakebackRefused("game.over", "the game is over: there is nothing to take back into")
    waiting = open_request(state)
    if waiting is not None:
        raise TakebackRefused(
            "takeback.open",
            f"takeback {waiting['id']} ({waiting['player']}) still waits for its answer: one at a time",
        )
    policy = policy_of(state)
    if policy["policy"] == "never":
        raise TakebackRefused("takeback.policy", "this match allows no takebacks (its policy is never)")
    used = int((state.takebacks.get("used") or {}).get(player, 0))
    if policy["per_player"] is not None and used >= policy["per_player"]:
        raise TakebackRefused(
            "takeback.limit",
            f"{player} has had {used} takeback(s) accepted; the match allows {policy['per_player']} a player",
        )
    limit = policy["max_back_decisions"]
    if limit is not None and span.decisions > limit:
        raise TakebackRefused(
            "takeback.limit",
            f"a takeback to event {span.to} would undo {span.decisions} decisions; this match allows at most "
            f"{limit}",
        )
    if revealed and policy["refuse_after_reveal"]:
        kinds = sorted({r["what"] for r in revealed})
        count = sum(len(r["cards"]) for r in revealed)
        raise TakebackRefused(
            "takeback.reveal",
            f"since event {span.to}, {player} was shown {count} card(s) they could not see before "
            f"({', '.join(kinds)}); this match refuses takebacks after hidden information came out",
        )
    action = Action("takeback_request", player, {"to": asked_to, "reason": reason})
    rec = Recorder(state.copy(), action, by)
    answered_by = "judge" if policy["policy"] == "judge-only" else opponent(player)
    rec.emit(
        "TakebackRequested",
        player,
        "takeback.request",
        {
            "takeback": rec.next_n(),
            "player": player,
            "to": span.to,
            "head": state.version,
            "decisions": span.decisions,
            "reason": reason,
            "answered_by": answered_by,
            "revealed": [dict(r) for r in revealed],
        },
    )
    return finish(rec, action)


def _check_answer(state: GameState, takeback: int, answerer: str) -> dict[str, Any]:
    """The open request ``takeback``, if ``answerer`` (``p1``, ``p2`` or ``judge``) may answer it."""
    waiting = open_request(state)
    if waiting is None or waiting["id"] != takeback:
        now = f"takeback {waiting['id']} waits" if waiting else "none waits"
        raise TakebackRefused("takeback.not-open", f"takeback {takeback} does not wait for an answer ({now})")
    if answerer == "judge":
        return waiting
    if answerer == waiting["player"]:
        raise NotYourTakeback(
            "takeback.not-opponent",
            f"{answerer} asked for takeback {takeback}: their opponent or a judge answers it, not they",
        )
    if policy_of(state)["policy"] == "judge-only":
        raise NotYourTakeback(
            "takeback.judge-only", "in this match only a judge rules on takebacks (its policy is judge-only)"
        )
    return waiting


def accept(
    state: GameState, takeback: int, answerer: str, target: Callable[[int], GameState], reason: str = ""
) -> list[Event]:
    """The events of accepting the open request ``takeback``: ``TakebackAccepted``, then the rewind to the
    point asked for (``target(n)`` is the state after event n)."""
    waiting = _check_answer(state, takeback, answerer)
    to = int(waiting["to"])
    back = target(to)
    player = None if answerer == "judge" else answerer
    action = Action("takeback_accept", player, {"takeback": takeback, "reason": reason})
    rec = Recorder(state.copy(), action, "judge" if answerer == "judge" else None)
    rec.emit(
        "TakebackAccepted",
        answerer,
        "takeback.accept",
        {"takeback": takeback, "player": waiting["player"], "to": to, "reason": reason},
    )
    # the RNG goes on from where the point taken back to had it: the next event draws as event to + 1 did
    shift = rec.next_n() - to + int(back.takebacks.get("rng_shift", 0))
    position = back.to_dict()
    position.pop("takebacks", None)  # the match's takebacks are not rewound
    rec.emit(
        "Rewound",
        "rules",
        "takeback.rewind",
        {
            "to": to,
            "reason": f"takeback {takeback} by {waiting['player']} accepted",
            "state": position,
            "digest": back.digest(),
            "takeback": takeback,
            "rng_shift": shift,
        },
    )
    procedure.advance(rec)
    return finish(rec, action)


def decline(state: GameState, takeback: int, answerer: str, reason: str = "") -> list[Event]:
    """The event of declining the open request ``takeback``: the match goes on as it was."""
    waiting = _check_answer(state, takeback, answerer)
    player = None if answerer == "judge" else answerer
    action = Action("takeback_decline", player, {"takeback": takeback, "reason": reason})
    rec = Recorder(state.copy(), action, "judge" if answerer == "judge" else None)
    rec.emit(
        "TakebackDeclined",
        answerer,
        "takeback.decline",
        {"takeback": takeback, "player": waiting["player"], "to": waiting["to"], "reason": reason},
    )
    return finish(rec, action)


__all__ = [
    "DEFAULT_POLICY",
    "POLICIES",
    "Span",
    "accept",
    "decline",
    "last_rewind",
    "open_request",
    "parse_policy",
    "plan",
    "policy_of",
    "request",
    "set_policy",
]
