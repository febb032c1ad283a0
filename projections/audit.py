"""The audit of a match: is the stored log intact, and is it what the rules would have produced?

Two checks, each reporting the first event where it fails:
- the hash chain: every event's hash is recomputed from the previous hash and the event as stored, and the
  event numbers must run 1, 2, 3 ... with no gap, so an edited or deleted row is found;
- the replay: every batch of events is decided again from the state before it (the action that produced it is
  on its first event), and must come out the same, timestamps and hashes aside.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.engine import decide
from domain.errors import JudgeError
from domain.events import same_event
from domain.evolve import EvolveError, apply
from domain.match import GENESIS_HASH, chain_hash
from domain.setup import PlayerSetup, create_match, create_position
from domain.state import GameState
from domain.takebacks import at_creation
from projections.takebacks import TAKEBACK_ACTIONS
from projections.takebacks import decide as decide_takeback


@dataclass
class AuditReport:
    ok: bool
    events: int
    head_hash: str
    problems: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "events": self.events, "head_hash": self.head_hash, "problems": self.problems}


def check_chain(events: Sequence[Any]) -> tuple[str, list[dict[str, Any]]]:
    problems: list[dict[str, Any]] = []
    previous = GENESIS_HASH
    for i, e in enumerate(events, start=1):
        if e.originator_version != i:
            problems.append(
                {
                    "at": i,
                    "rule": "audit.sequence",
                    "message": f"event {i} is missing (the next one stored is {e.originator_version})",
                }
            )
            return previous, problems
        expected = chain_hash(previous, e.body())
        if expected != e.hash:
            problems.append(
                {
                    "at": i,
                    "rule": "audit.hash",
                    "message": f"event {i} ({e.type}) does not match its hash: it was altered",
                }
            )
            return previous, problems
        previous = e.hash
    return previous, problems


def _batches(events: Sequence[Any]) -> list[tuple[int, int]]:
    """(start index, end index) of each batch: a batch begins at an event that carries an action."""
    starts = [i for i, e in enumerate(events) if e.action is not None]
    if not starts or starts[0] != 0:
        starts.insert(0, 0)
    return [(a, b) for a, b in zip(starts, [*starts[1:], len(events)], strict=True)]


def _expected(
    action: dict[str, Any], state: GameState, by: str | None, history: Any, log: Any = None
) -> list[Any]:
    atype = action.get("type")
    if atype in TAKEBACK_ACTIONS:  # decided from the log before the batch (``log()``)
        return decide_takeback(state, action, log(), history, by)
    if atype == "create":
        from domain.decks import Deck

        players = {
            p: PlayerSetup(
                info["name"], Deck(tuple(info["lrig_deck"]), tuple(info["main_deck"])), info.get("lrigs")
            )
            for p, info in action["players"].items()
        }
        created = create_match(action["format"], action["seed"], players, action.get("first_player"))
        return created if "takebacks" not in action else at_creation(created, action["takebacks"])
    if atype == "position":
        created = create_position(action["position"], action["seed"])
        return created if "takebacks" not in action else at_creation(created, action["takebacks"])
    if atype in ("rewind", "branch"):
        from domain.judge import branch, rewind

        if atype == "rewind":
            return rewind(state, history(int(action["to"])), int(action["to"]), action.get("reason", ""))
        return branch(state, action["parent"], int(action["at"]), action.get("reason", ""))
    if atype == "adjust":
        from domain.judge import adjust

        return adjust(state, action)
    return decide(state, action, by=by)


def replay(events: Sequence[Any]) -> list[dict[str, Any]]:
    states: list[GameState] = [GameState()]

    def history(n: int) -> GameState:
        return states[n].copy()

    state = GameState()
    for start, end in _batches(events):
        first = events[start]
        # The batch a branch was cut from may stop short: the branch's copy ends where the parent was cut.
        cut = end < len(events) and (events[end].action or {}).get("type") == "branch"
        if first.action is None:
            return [
                {
                    "at": start + 1,
                    "rule": "audit.replay",
                    "message": f"event {start + 1} ({first.type}) was not produced by any recorded action",
                }
            ]
        try:
            expected = _expected(first.action, state, first.by, history, lambda at=start: events[:at])
        except JudgeError as exc:
            return [
                {
                    "at": start + 1,
                    "rule": "audit.replay",
                    "message": f"the action recorded on event {start + 1} is refused by the rules: {exc}",
                }
            ]
        actual = events[start:end]
        if cut:
            expected = expected[: len(actual)]
        for k in range(max(len(expected), len(actual))):
            if k >= len(expected) or k >= len(actual) or not same_event(expected[k], actual[k]):
                at = start + k + 1
                what = actual[k].type if k < len(actual) else "nothing"
                want = expected[k].type if k < len(expected) else "nothing"
                return [
                    {
                        "at": at,
                        "rule": "audit.replay",
                        "message": f"event {at} is {what}, but the rules would have produced {want} there",
                    }
                ]
        for e in actual:
            try:
                apply(state, e)
            except (EvolveError, KeyError, ValueError) as exc:
                return [
                    {
                        "at": e.originator_version,
                        "rule": "audit.replay",
                        "message": f"event {e.originator_version} cannot apply: {exc}",
                    }
                ]
            states.append(state.copy())
    return []


def audit(events: Sequence[Any]) -> AuditReport:
    head, problems = check_chain(events)
    if not problems:
        problems = replay(events)
    return AuditReport(ok=not problems, events=len(events), head_hash=head, problems=problems)
