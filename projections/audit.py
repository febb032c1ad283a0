"""The audit of a match: is the stored log intact, and is it what the rules would have produced?

Two checks, each reporting the first event where it fails:
- the hash chain: every event's hash is recomputed from the previous hash and the event as stored, and the
  event numbers must run 1, 2, 3 ... with no gap, so an edited or deleted row is found;
- the replay: every batch of events is decided again from the state before it (the action that produced it is
  on its first event), and must come out the same, timestamps and hashes aside.

A log written by an earlier engine (``engine`` on its first event, ``domain.version``) was decided by that
engine's rules; where today's rules decide differently (a rule or a card's encoding fixed since), the replay
cannot go on comparing from there. That difference is reported as a rule change, not as a problem: the events
after it are still folded one by one (each must apply to the state before it) and the hash chain still covers
every event, so an altered log is still found. A log written by today's engine must replay exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from domain.decks import Deck
from domain.engine import decide
from domain.errors import JudgeError
from domain.events import same_event
from domain.evolve import EvolveError, apply
from domain.judge import adjust, branch, rewind
from domain.match import ENGINE_TYPES, GENESIS_HASH, chain_hash
from domain.setup import PlayerSetup, create_match, create_position
from domain.state import GameState
from domain.takebacks import at_creation
from domain.version import ENGINE, ENGINE_UNKNOWN
from projections.takebacks import TAKEBACK_ACTIONS
from projections.takebacks import decide as decide_takeback


@dataclass
class AuditReport:
    ok: bool
    events: int
    head_hash: str
    problems: list[dict[str, Any]] = field(default_factory=list)
    engine: str = ENGINE_UNKNOWN  # the engine that wrote the match's first event
    audited_by: str = ENGINE  # the engine that replayed it now
    # where today's rules decide differently from the earlier engine that wrote the log (see the module doc)
    rule_changes: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "events": self.events,
            "head_hash": self.head_hash,
            "problems": self.problems,
            "engine": self.engine,
            "audited_by": self.audited_by,
            "rule_changes": self.rule_changes,
        }


@dataclass
class AnchorReport:
    """Whether today's log extends a head hash written down earlier."""

    extends: bool
    at: int | None  # the event whose recomputed hash is the anchor
    anchor: str
    explanation: str
    audit: AuditReport

    def to_dict(self) -> dict[str, Any]:
        return {
            "extends": self.extends,
            "at": self.at,
            "anchor": self.anchor,
            "explanation": self.explanation,
            **self.audit.to_dict(),
        }


def recomputed_hashes(events: Sequence[Any]) -> list[str]:
    """The chain recomputed from the events' contents alone (the stored hashes are not trusted), as far as
    the event numbers run 1, 2, 3 ... without a gap."""
    hashes: list[str] = []
    previous = GENESIS_HASH
    for i, e in enumerate(events, start=1):
        if e.originator_version != i:
            break
        previous = chain_hash(previous, e.body())
        hashes.append(previous)
    return hashes


def anchor(events: Sequence[Any], head_hash: str, at: int | None = None) -> AnchorReport:
    """Whether ``head_hash`` (a hash a judge wrote down earlier, at event ``at`` if they noted it) is the
    recomputed hash of one of today's events: then nothing up to that event has changed since."""
    report = audit(events)
    wanted = head_hash.lower()
    hashes = recomputed_hashes(events)
    head = len(events)

    def answer(extends: bool, n: int | None, why: str) -> AnchorReport:
        return AnchorReport(extends, n, wanted, why, report)

    if wanted == GENESIS_HASH:
        return answer(True, 0, "this is the hash every chain starts from (before event 1): it proves nothing")
    if at is not None:
        if at > head:
            return answer(
                False,
                None,
                f"the log has {head} events today, fewer than the {at} it had when this hash was written "
                "down: events were removed",
            )
        if at > len(hashes):
            missing = len(hashes) + 1
            return answer(False, None, f"event {missing} is missing today, so event {at} cannot be checked")
        if hashes[at - 1] == wanted:
            return answer(True, at, f"event {at} still has this hash: events 1 to {at} are unchanged")
        elsewhere = hashes.index(wanted) + 1 if wanted in hashes else None
        if elsewhere is not None:
            return answer(
                False,
                elsewhere,
                f"this is the hash of event {elsewhere} today, not of event {at}: events were added or "
                "removed before it",
            )
        return answer(
            False,
            None,
            f"event {at} hashes to {hashes[at - 1]} today, not to this hash: some event from 1 to {at} "
            "changed since it was written down, or the hash was noted from another match",
        )
    if wanted in hashes:
        n = hashes.index(wanted) + 1
        return answer(True, n, f"this is the hash of event {n} today: events 1 to {n} are unchanged")
    return answer(
        False,
        None,
        f"no event of today's log (events 1 to {len(hashes)}, hashes recomputed from their contents) has "
        "this hash: an event up to the one it was noted at changed, events were removed, or it was noted "
        "from another match",
    )


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
        players = {
            p: PlayerSetup(
                info["name"], Deck(tuple(info["lrig_deck"]), tuple(info["main_deck"])), info.get("lrigs")
            )
            for p, info in action["players"].items()
        }
        created = create_match(
            action["format"], action["seed"], players, action.get("first_player"), action.get("options")
        )
        return created if "takebacks" not in action else at_creation(created, action["takebacks"])
    if atype == "position":
        created = create_position(action["position"], action["seed"])
        return created if "takebacks" not in action else at_creation(created, action["takebacks"])
    if atype in ("rewind", "branch"):
        if atype == "rewind":
            return rewind(state, history(int(action["to"])), int(action["to"]), action.get("reason", ""))
        return branch(state, action["parent"], int(action["at"]), action.get("reason", ""))
    if atype == "adjust":
        return adjust(state, action)
    if atype == "arrange":
        from domain.arrange import arrange

        return arrange(state, action)
    return decide(state, action, by=by)


def replay(events: Sequence[Any], strict: bool = True) -> list[dict[str, Any]]:
    """The first problem of the replay (an empty list when there is none). Not ``strict`` (a log of an
    earlier engine): the first difference from today's rules is returned with the rule ``audit.rules-changed``
    and the rest of the log is folded without deciding it again."""
    states: list[GameState] = [GameState()]

    def history(n: int) -> GameState:
        return states[n].copy()

    state = GameState()
    changed: list[dict[str, Any]] = []
    for start, end in _batches(events):
        first = events[start]
        if changed:  # today's rules part ways with the log's engine: fold the rest only
            if (problem := _fold(state, events[start:end], states)) is not None:
                return [problem]
            continue
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
            expected: list[Any] | None = _expected(
                first.action, state, first.by, history, lambda at=start: events[:at]
            )
        except JudgeError as exc:
            refused = {
                "at": start + 1,
                "rule": "audit.replay" if strict else "audit.rules-changed",
                "message": f"the action recorded on event {start + 1} is refused by the rules: {exc}",
            }
            if strict:
                return [refused]
            changed.append(refused)
            expected = None
        actual = events[start:end]
        if expected is None:
            if (problem := _fold(state, actual, states)) is not None:
                return [problem]
            continue
        if cut:
            expected = expected[: len(actual)]
        for k in range(max(len(expected), len(actual))):
            if k >= len(expected) or k >= len(actual) or not same_event(expected[k], actual[k]):
                at = start + k + 1
                what = actual[k].type if k < len(actual) else "nothing"
                want = expected[k].type if k < len(expected) else "nothing"
                message = f"event {at} is {what}, but the rules would have produced {want} there"
                if what == want:
                    message = f"event {at} ({what}) differs from what the rules would have produced: " + (
                        _where_it_differs(expected[k].data, actual[k].data) or "its envelope differs"
                    )
                differs = {
                    "at": at,
                    "rule": "audit.replay" if strict else "audit.rules-changed",
                    "message": message,
                }
                if strict:
                    return [differs]
                changed.append(differs)
                break
        if (problem := _fold(state, actual, states)) is not None:
            return [problem]
    return changed


def _where_it_differs(expected: Any, actual: Any, path: str = "data") -> str:
    """The first place where two event data differ, in words."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual), key=str):
            if key not in actual:
                return f"{path}.{key} is missing (the rules give {expected[key]!r:.60})"
            if key not in expected:
                return f"{path}.{key} is there ({actual[key]!r:.60}), the rules give none"
            if (found := _where_it_differs(expected[key], actual[key], f"{path}.{key}")) != "":
                return found
        return ""
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        for i, (a, b) in enumerate(zip(expected, actual, strict=True)):
            if (found := _where_it_differs(a, b, f"{path}[{i}]")) != "":
                return found
        return ""
    if expected != actual:
        return f"{path} is {actual!r:.60}, the rules give {expected!r:.60}"
    return ""


def _fold(state: GameState, events: Sequence[Any], states: list[GameState]) -> dict[str, Any] | None:
    """Apply ``events`` to ``state`` one by one, keeping each state; the problem of the first that cannot."""
    for e in events:
        try:
            apply(state, e)
        except (EvolveError, KeyError, ValueError) as exc:
            return {
                "at": e.originator_version,
                "rule": "audit.replay",
                "message": f"event {e.originator_version} cannot apply: {exc}",
            }
        states.append(state.copy())
    return None


def written_by(events: Sequence[Any]) -> str:
    """The engine that wrote the match's first event, as it records it."""
    first = events[0] if events else None
    engine = getattr(first, "engine", None) if first is not None and first.type in ENGINE_TYPES else None
    return engine or ENGINE_UNKNOWN


def audit(events: Sequence[Any]) -> AuditReport:
    head, problems = check_chain(events)
    engine = written_by(events)
    changes: list[dict[str, Any]] = []
    if not problems:
        found = replay(events, strict=engine == ENGINE)
        changes = [p for p in found if p["rule"] == "audit.rules-changed"]
        problems = [p for p in found if p["rule"] != "audit.rules-changed"]
    return AuditReport(
        ok=not problems,
        events=len(events),
        head_hash=head,
        problems=problems,
        engine=engine,
        rule_changes=changes,
    )
