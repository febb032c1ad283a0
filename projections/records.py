"""Match records: a match as a small portable file (JSON Lines), and its replay through the rules.

``export_record`` reads a match's stored events and writes one header line (the match's creation: format,
seed, first player, players and decks, or the position) and one line per action, in order: the action, who
sent it for whom (``by``), the number of its last event (``n``), the head hash after it (``hash``) and the
times of its events (``time`` and ``dt``, microseconds after ``time``), which the hash covers. Derived events
are not written: the rules produce them again. ``docs/RECORDS.md`` describes the format and
``docs/record.schema.json`` is its JSON Schema.

``replay_record`` replays a record into a new match, line by line: every action is decided again by the
rules, and the events it produces must be as many as ``n`` says and hash to ``hash`` where the record gives
them. It stops at the first line where the record and the rules part ways (``Divergence``: the line, a
reason, rule ids and the state there). A record without a seed (a paper game) may name, per line, the cards
each player drew, crushed or revealed (``facts``); the replay makes its arbitrary deck order agree with them
by ``arrange`` batches (``domain.arrange``) and lists what it could check and what it could not.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from importlib import resources
from typing import Any
from uuid import UUID, uuid4

from domain.arrange import UNSEEN_ZONES, arrange
from domain.decks import Deck
from domain.engine import decide
from domain.errors import JudgeError
from domain.events import Event
from domain.evolve import apply
from domain.facts import catalogue
from domain.judge import adjust, branch, rewind
from domain.match import ENGINE_TYPES, GENESIS_HASH, Match, _fields, _hash
from domain.setup import PlayerSetup, create_match, create_position
from domain.state import PLAYERS, GameState
from domain.takebacks import at_creation
from domain.version import ENGINE
from projections.audit import _batches
from projections.takebacks import TAKEBACK_ACTIONS
from projections.takebacks import decide as decide_takeback

FORMAT = "wixoss-judge-record"
FORMAT_VERSION = 1
FACT_KINDS = ("drawn", "crushed", "revealed")
TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
MAX_TRIES = 200  # re-decisions of one line while its stated cards are being set
# Events whose cards become known (the order of a shuffle or of a Life Cloth being placed is nobody's).
_ORDER_ONLY = frozenset({"DeckShuffled", "Refreshed", "LifeClothPlaced", "CardsArranged", "MatchCreated"})


def engine_version() -> str:
    """The engine writing records now."""
    return ENGINE


@cache
def record_schema() -> dict[str, Any]:
    """The record's JSON Schema (``docs/record.schema.json``, shipped beside this module's package data)."""
    text = resources.files("projections").joinpath("record.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


# -- export -----------------------------------------------------------------------------------------


def _times(batch: Sequence[Any]) -> dict[str, Any]:
    first = batch[0].timestamp
    out: dict[str, Any] = {"time": batch[0].time}
    if len(batch) > 1:
        out["dt"] = [(e.timestamp - first) // timedelta(microseconds=1) for e in batch[1:]]
    return out


def export_lines(events: Sequence[Any], match_id: Any) -> list[dict[str, Any]]:
    """The record of a match from its stored events: the header, then one line per action."""
    lines: list[dict[str, Any]] = []
    for a, b in _batches(events):
        batch = events[a:b]
        first = batch[0]
        action = dict(first.action or {})
        line: dict[str, Any]
        if not lines:
            line = {"record": FORMAT, "version": FORMAT_VERSION, "engine": engine_version()}
            line["match"] = str(match_id)
            start = action.pop("type", None)
            line["start"] = start
            line.update(action)
        else:
            line = {"action": action}
            if action.get("type") == "branch":
                lines[0]["branch"] = {"parent": action.get("parent"), "at": action.get("at")}
        if first.type in ENGINE_TYPES:  # the hash covers the engine the event records (None: before 0.2.0)
            line["engine"] = getattr(first, "engine", None)
        if first.by:
            line["by"] = first.by
        idempotency = getattr(first, "idempotency", None)
        if idempotency:
            line["idempotency"] = idempotency
        line["n"] = batch[-1].originator_version
        line["hash"] = batch[-1].hash
        line.update(_times(batch))
        lines.append(line)
    return lines


def dump_lines(lines: Sequence[dict[str, Any]]) -> str:
    """JSON Lines: one compact JSON object a line, keys in a stable order (diff-able)."""
    return "".join(json.dumps(line, ensure_ascii=False, separators=(", ", ": ")) + "\n" for line in lines)


def export_record(events: Sequence[Any], match_id: Any) -> str:
    return dump_lines(export_lines(events, match_id))


# -- reading ----------------------------------------------------------------------------------------


class Divergence(Exception):
    """The first line where a record and the rules part ways."""

    def __init__(
        self, line: int, reason: str, rule_refs: Sequence[str], detail: str, state: GameState | None = None
    ) -> None:
        super().__init__(f"line {line}: {detail}")
        self.line = line
        self.reason = reason
        self.rule_refs = list(rule_refs)
        self.detail = detail
        self.state = state

    def to_dict(self, state_view: Callable[[GameState], Any] | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "line": self.line,
            "reason": self.reason,
            "rule_refs": self.rule_refs,
            "detail": self.detail,
        }
        if state_view is not None and self.state is not None:
            out["state"] = state_view(self.state)
        return out


def parse_record(text: str) -> list[tuple[int, dict[str, Any]]]:
    """(line number, object) of each non-blank line, each checked against the record's JSON Schema."""
    import jsonschema

    schema = record_schema()
    header_v = jsonschema.Draft202012Validator({"$ref": "#/$defs/header", "$defs": schema["$defs"]})
    line_v = jsonschema.Draft202012Validator({"$ref": "#/$defs/line", "$defs": schema["$defs"]})
    out: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise Divergence(number, "malformed", ["record.format"], f"not JSON: {exc.msg}") from None
        except ValueError:  # an integer of more digits than Python converts (4,300)
            raise Divergence(number, "malformed", ["record.format"], "a number too long to read") from None
        validator = header_v if not out else line_v
        error = jsonschema.exceptions.best_match(validator.iter_errors(obj))
        if error is not None:
            where = "/".join(str(p) for p in error.absolute_path) or "the line"
            what = "header" if not out else "action line"
            raise Divergence(
                number, "malformed", ["record.format"], f"not a record {what}: at {where}: {error.message}"
            )
        out.append((number, obj))
    if not out:
        raise Divergence(1, "malformed", ["record.format"], "the record is empty: it needs a header line")
    return out


# -- replay -----------------------------------------------------------------------------------------


@dataclass
class Replay:
    """A record replayed: the new match (not saved) and what the replay could and could not check."""

    match: Match
    lines: int
    seeded: bool
    hashes_checked: int = 0
    checked: list[str] = field(default_factory=list)
    unchecked: list[str] = field(default_factory=list)

    def report(self) -> dict[str, Any]:
        return {
            "ok": True,
            "lines": self.lines,
            "events": self.match.version,
            "head_hash": self.match.head_hash,
            "seeded": self.seeded,
            "hashes_checked": self.hashes_checked,
            "checked": self.checked,
            "unchecked": self.unchecked,
        }


def _parse_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.strptime(text, TIME_FORMAT).replace(tzinfo=UTC)


class _Builder:
    """The new match, event by event, with the recorded times (so that the hashes can agree)."""

    def __init__(self, match_id: UUID) -> None:
        self.match_id = match_id
        self.match: Match | None = None
        self.states: list[GameState] = [GameState()]

    @property
    def state(self) -> GameState:
        return self.match.state if self.match is not None else GameState()

    @property
    def log(self) -> list[Any]:
        """The events built so far (not saved yet: the match's pending events)."""
        return list(self.match.pending_events) if self.match is not None else []

    @property
    def version(self) -> int:
        return self.match.version if self.match is not None else 0

    def append(self, events: Sequence[Event], line: dict[str, Any]) -> None:
        first_time = _parse_time(line.get("time"))
        dt = list(line.get("dt") or [])
        idempotency = line.get("idempotency")
        # the engine an event records: the line's (as exported), or this engine's for a record without it
        engine = line.get("engine", ENGINE)
        for k, e in enumerate(events):
            if first_time is None:
                ts = Match.Event.create_timestamp()
            else:
                ts = first_time + timedelta(microseconds=dt[k - 1] if 0 < k <= len(dt) else 0)
            envelope = idempotency if k == 0 else None
            cls = Match.EVENT_CLASSES[e.type]
            previous = self.match.head_hash if self.match is not None else GENESIS_HASH
            recorded = engine if e.type in ENGINE_TYPES else None
            h = _hash(previous, self.version + 1, e, ts, envelope, recorded)
            kwargs = _fields(e, h, envelope)
            if e.type in ENGINE_TYPES:
                kwargs["engine"] = recorded
            if self.match is None:
                self.match = Match._create(cls, id=self.match_id, timestamp=ts, **kwargs)
            else:
                self.match.trigger_event(cls, timestamp=ts, **kwargs)
            self.states.append(self.match.state.copy())


def _canonical(card: str) -> str:
    cat = catalogue()
    return cat.canonical(card) if card in cat else card


def _exposed(events: Sequence[Event]) -> list[tuple[str, str, str]]:
    """(player, kind, instance) of every card the events take from a hidden zone, in order."""
    out: list[tuple[str, str, str]] = []
    for e in events:
        d = e.data
        if e.type == "CardsDrawn":
            out.extend((d["player"], "drawn", iid) for iid in d.get("cards") or ())
        elif e.type == "LifeClothCrushed":
            out.extend((d["player"], "crushed", iid) for iid in d.get("cards") or ())
        elif e.type == "CardRevealed":
            out.append((d["player"], "revealed", d["card"]))
    return out


def _mentioned(value: Any, known: dict[str, str], out: set[str]) -> None:
    if isinstance(value, str):
        if value in known:
            out.add(value)
    elif isinstance(value, dict):
        for v in value.values():
            _mentioned(v, known, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _mentioned(v, known, out)


class _Facts:
    """What a record without a seed says about hidden cards, against the replay's arbitrary order."""

    def __init__(self, replay: Replay, seeded: bool) -> None:
        self.replay = replay
        self.seeded = seeded
        self.unseen: dict[str, set[str]] = {p: set() for p in PLAYERS}
        self.loose: dict[str, set[str]] = {p: set() for p in PLAYERS}

    def start(self, state: GameState) -> None:
        for p in PLAYERS:
            zones = state.players[p].zones
            self.unseen[p] = {i for z in (*UNSEEN_ZONES, "hand") for i in zones[z]}

    def after(self, state: GameState, events: Sequence[Event]) -> None:
        """Cards the batch showed, or that left the unseen zones, are seen from now on; a shuffle makes the
        positions of a deck's cards unknown again (``loose``: their identities may be known)."""
        shown: set[str] = set()
        for e in events:
            if e.type in ("DeckShuffled", "Refreshed"):
                self.loose[e.data["player"]] = set(e.data.get("order") or ())
            elif e.type not in _ORDER_ONLY:
                found: set[str] = set()
                _mentioned(e.data, state.cards, found)
                shown |= found
                for p in PLAYERS:
                    self.loose[p] -= found
        for p in PLAYERS:
            zones = state.players[p].zones
            still = {i for z in UNSEEN_ZONES for i in zones[z]}
            self.unseen[p] = (self.unseen[p] & still) - shown
            self.loose[p] &= set(zones["deck"])

    def stated(self, number: int, facts: dict[str, Any] | None) -> dict[tuple[str, str], list[str]]:
        out: dict[tuple[str, str], list[str]] = {}
        for p, kinds in (facts or {}).items():
            for kind, cards in kinds.items():
                out[(p, kind)] = [_canonical(c) for c in cards]
        return out

    def settle(
        self,
        number: int,
        state: GameState,
        facts: dict[str, Any] | None,
        decide_on: Callable[[GameState], list[Event]],
        setup: bool = False,
    ) -> tuple[list[Event], list[list[str]], int | None]:
        """The line's events once its stated cards are where the rules take them: (events, exchanges of
        unseen instances, new seed or None), or ``Divergence`` where that cannot be."""
        stated = self.stated(number, facts)
        work = state.copy()
        swaps: list[list[str]] = []
        seed: int | None = None
        for _ in range(MAX_TRIES):
            work = state.copy()
            if swaps or seed is not None:  # decided after the arrangement, as it will be appended
                data: dict[str, Any] = {"swaps": [list(w) for w in swaps]}
                if seed is not None:
                    data["seed"] = seed
                apply(work, Event("CardsArranged", "judge", "record.arrange", data))
            events = decide_on(work)
            taken: dict[tuple[str, str], list[str]] = {}
            for p, kind, iid in _exposed(events):
                taken.setdefault((p, kind), []).append(iid)
            miss = self._first_miss(number, work, stated, taken)
            if miss is None:
                self._note(number, work, stated, taken, swaps, seed)
                return events, swaps, seed
            p, kind, y, x = miss
            if self.seeded:
                raise Divergence(
                    number,
                    "card-not-there",
                    ["record.fact"],
                    f"{p} {kind} {work.cards[y]} here by the rules; the record says {x}",
                    state,
                )
            if y in self.unseen[p] or y in self.loose[p]:
                # two unseen cards, or two cards of one deck whose places nobody knows since its shuffle
                pool = self.unseen[p] if y in self.unseen[p] else self.loose[p]
                zone = work.players[p].find(y)
                z = next(
                    (
                        i
                        for i in sorted(pool)
                        if i != y
                        and work.cards[i] == x
                        and work.players[p].find(i) in (UNSEEN_ZONES if pool is self.unseen[p] else (zone,))
                    ),
                    None,
                )
                if z is None:
                    raise Divergence(
                        number,
                        "card-not-there",
                        ["record.fact"],
                        f"the record says {p} {kind} {x}, but no {x} was left unseen in {p}'s deck or "
                        "Life Cloth",
                        state,
                    )
                swaps.append([y, z])
            elif setup:
                raise Divergence(number, "card-not-there", ["record.fact"], f"{p} has no {x} to draw", state)
            else:  # the card came out of a shuffle nobody recorded: any outcome is as good as another
                seed = (seed if seed is not None else work.seed) + 1
        raise Divergence(
            number,
            "card-not-there",
            ["record.fact"],
            "the replay could not take the cards this line names from where the rules take cards",
            state,
        )

    @staticmethod
    def _first_miss(
        number: int,
        work: GameState,
        stated: dict[tuple[str, str], list[str]],
        taken: dict[tuple[str, str], list[str]],
    ) -> tuple[str, str, str, str] | None:
        for (p, kind), names in stated.items():
            got = taken.get((p, kind), [])
            if len(names) > len(got):
                raise Divergence(
                    number,
                    "card-not-there",
                    ["record.fact"],
                    f"the record says {p} {kind} {len(names)} card(s) here; by the rules {p} {kind} "
                    f"{len(got)}",
                    work,
                )
            for y, x in zip(got, names, strict=False):
                if work.cards[y] != x:
                    return p, kind, y, x
        return None

    def _note(
        self,
        number: int,
        work: GameState,
        stated: dict[tuple[str, str], list[str]],
        taken: dict[tuple[str, str], list[str]],
        swaps: list[list[str]],
        seed: int | None,
    ) -> None:
        r = self.replay
        for (p, kind), got in taken.items():
            names = stated.get((p, kind), [])
            for x in names:
                how = "it was unseen there" if not self.seeded else "the recorded order has it there"
                r.checked.append(f"line {number}: {p} {kind} {x} ({how})")
            rest = len(got) - len(names)
            if rest > 0 and not self.seeded:
                r.unchecked.append(
                    f"line {number}: {p} {kind} {rest} card(s) the record does not name; the replay took "
                    "unseen cards of its own choosing"
                )
        if seed is not None:
            r.unchecked.append(
                f"line {number}: the outcome of a shuffle was not recorded; the replay chose one that agrees "
                f"with the cards the record names (seed {seed})"
            )


def _player_setups(header: dict[str, Any]) -> dict[str, PlayerSetup]:
    return {
        p: PlayerSetup(
            info["name"], Deck(tuple(info["lrig_deck"]), tuple(info["main_deck"])), info.get("lrigs")
        )
        for p, info in header["players"].items()
    }


def replay_record(text: str, match_id: UUID | None = None) -> Replay:
    """Replay a record into a new match (not saved); ``Divergence`` at the first line that parts ways."""
    lines = parse_record(text)
    number, header = lines[0]
    seeded = header.get("seed") is not None
    builder = _Builder(match_id or uuid4())
    replay = Replay(Match.__new__(Match), lines=len(lines), seeded=seeded)
    facts = _Facts(replay, seeded)
    seed = int(header["seed"]) if seeded else 0
    try:
        if header["start"] == "create":
            players, options = _player_setups(header), header.get("options")
            first = create_match(header["format"], seed, players, header.get("first_player"), options)
        else:
            first = create_position(header["position"], seed)
        if "takebacks" in header:  # the match's takeback policy, set as its creation ends
            first = at_creation(first, header["takebacks"])
    except JudgeError as exc:
        raise Divergence(
            number, "illegal-action", _refs(exc), f"the match cannot be created: {exc}"
        ) from None
    if not seeded:
        replay.unchecked.append(
            "no seed: the order of every deck and Life Cloth, and the outcome of every shuffle, are unknown; "
            "the replay checks only the cards the record names"
        )
        if header["start"] == "create" and header.get("first_player") is None:
            replay.unchecked.append("no first player: the replay tossed its own coin")
    _close(builder, replay, number, header, first)
    facts.start(builder.state)
    if header.get("facts"):
        state = builder.state
        _, swaps, _ = facts.settle(
            number, state, header.get("facts"), lambda w: _opening(state, w, first), setup=True
        )
        if swaps:
            builder.append(arrange(builder.state, {"swaps": swaps, "reason": f"record line {number}"}), {})
    facts.after(builder.state, first)
    for index, (number, line) in enumerate(lines[1:], start=1):
        action = line["action"]
        state = builder.state

        def decide_on(
            work: GameState, action: dict[str, Any] = action, line: dict[str, Any] = line
        ) -> list[Event]:
            return _decide(work, action, line.get("by"), builder.states, lambda: builder.log)

        try:
            events, swaps, new_seed = facts.settle(number, state, line.get("facts"), decide_on)
        except JudgeError as exc:
            raise Divergence(
                number, "illegal-action", _refs(exc), f"the rules refuse this line's action: {exc}", state
            ) from None
        if swaps or new_seed is not None:
            order: dict[str, Any] = {"swaps": swaps, "reason": f"record line {number}"}
            if new_seed is not None:
                order["seed"] = new_seed
            builder.append(arrange(state, order), {})
        nxt = lines[index + 1][1] if index + 1 < len(lines) else None
        if nxt is not None and nxt["action"].get("type") == "branch" and line.get("n") is not None:
            events = events[: max(0, int(line["n"]) - builder.version)]  # a parent's batch cut by a branch
        _close(builder, replay, number, line, events)
        facts.after(builder.state, events)
    assert builder.match is not None
    replay.match = builder.match
    if replay.hashes_checked < replay.lines:
        replay.unchecked.append(
            f"{replay.lines - replay.hashes_checked} line(s) give no hash: nothing shows that they are as "
            "first written"
        )
    replay.checked.insert(0, f"{replay.lines} line(s): every action is legal by the rules")
    return replay


def _opening(before: GameState, work: GameState, first: Sequence[Event]) -> list[Event]:
    """The creation's draws, as the arranged state would have them: the hands hold the same instances."""
    del before
    return [e for e in first if e.type == "CardsDrawn"] if work is not None else []


def _decide(
    state: GameState,
    action: dict[str, Any],
    by: str | None,
    states: Sequence[GameState],
    log: Callable[[], Sequence[Any]] = lambda: (),
) -> list[Event]:
    atype = action.get("type")
    if atype == "rewind":
        to = int(action["to"])
        if not 1 <= to < len(states):
            raise _illegal("judge.rewind", f"a rewind goes back to an event from 1 to {len(states) - 1}")
        return rewind(state, states[to].copy(), to, action.get("reason", ""))
    if atype == "branch":
        return branch(state, str(action["parent"]), int(action["at"]), action.get("reason", ""))
    if atype == "adjust":
        return adjust(state, action)
    if atype == "arrange":
        return arrange(state, action)
    if atype in TAKEBACK_ACTIONS:  # decided from the log so far, as the service and the audit decide them
        return decide_takeback(state, action, log(), lambda n: states[n].copy(), by)  # the log, only here
    return decide(state, action, by=by)


def _illegal(rule: str, message: str) -> JudgeError:
    from domain.errors import IllegalAction

    return IllegalAction(rule, message)


def _refs(exc: JudgeError) -> list[str]:
    refs = getattr(exc, "rule_refs", None) or ("record.format",)
    return [refs] if isinstance(refs, str) else list(refs)


def _close(
    builder: _Builder, replay: Replay, number: int, line: dict[str, Any], events: Sequence[Event]
) -> None:
    """Append the line's events and check its event count and its hash."""
    before = builder.state
    if line.get("n") is not None and int(line["n"]) != builder.version + len(events):
        raise Divergence(
            number,
            "events-differ",
            ["record.events"],
            f"the record says this line ends at event {line['n']}; by the rules it ends at event "
            f"{builder.version + len(events)}",
            before,
        )
    builder.append(events, line)
    assert builder.match is not None
    if line.get("hash") is not None:
        if line["hash"] != builder.match.head_hash:
            raise Divergence(
                number,
                "hash-differs",
                ["record.hash"],
                f"the events of this line hash to {builder.match.head_hash}; the record says {line['hash']}"
                " (an edited line, other times, or other rules)",
                before,
            )
        replay.hashes_checked += 1
