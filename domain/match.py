"""The ``Match`` aggregate: one per match, its events typed and stored under explicit topics.

Each event type of ``domain.events.EVENT_TYPES`` is a class here (``Match.SigniPlayed`` ...) with the topic
``wixoss:<Type>``, so that moving a module never breaks a stored log. Every event carries ``hash``: SHA-256
over the previous event's hash and the canonical JSON of this event without its hash (the first chains from
64 zeros), which lets an audit find an edited or deleted row. ``docs/AUDIT.md`` says exactly which bytes.

Stored shapes are versioned with the library's own mechanism: a class whose shape changed has a
``class_version`` and an ``upcast_vN_vN+1`` static method for each step, which the library runs on every older
stored event it reads. An upcaster never changes what the hash covers (the chain is over the event as it was
written): a field it adds is one that the hashed body leaves out while it is empty.

The first event of a batch a request produced may carry ``idempotency``: the request's key, who sent it and
a digest of the request (``{"key", "caller", "request"}``), so that a retry of the same request is answered
from the log instead of being applied again. It is covered by the hash; events without it (all events of
logs written before it existed) hash and fold as before.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import KW_ONLY
from datetime import UTC, datetime
from typing import Any, ClassVar
from uuid import UUID

from eventsourcing.domain import Aggregate
from eventsourcing.utils import register_topic

from domain import evolve
from domain.events import EVENT_TYPES
from domain.events import Event as DomainEvent
from domain.state import GameState, canonical_json
from domain.version import ENGINE

GENESIS_HASH = "0" * 64
CREATION_TYPES = ("MatchCreated", "PositionSet")
# The events that record the engine that wrote them: a match's first event, and the event opening a branch.
ENGINE_TYPES = (*CREATION_TYPES, "Branched")
# What the hash covers, and nothing else: ``by``, ``action``, ``idempotency`` and ``engine`` only when set.
HASHED_FIELDS = (
    "n",
    "type",
    "actor",
    "rule",
    "caused_by",
    "time",
    "data",
    "by",
    "action",
    "idempotency",
    "engine",
)


def iso_time(ts: datetime) -> str:
    return ts.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def event_body(n: int, event: Any, time: str, engine: str | None = None) -> dict[str, Any]:
    """The event as the log shows it to a judge, without its hash: what the hash covers (``HASHED_FIELDS``).
    ``engine`` is the event's own when not given."""
    body: dict[str, Any] = {
        "n": n,
        "type": event.type,
        "actor": event.actor,
        "rule": event.rule,
        "caused_by": event.caused_by,
        "time": time,
        "data": event.data,
    }
    if event.by:
        body["by"] = event.by
    if event.action is not None:
        body["action"] = event.action
    engine = engine or getattr(event, "engine", None)
    if engine:
        body["engine"] = engine
    idempotency = getattr(event, "idempotency", None)
    if idempotency:
        body["idempotency"] = idempotency
    return body


def chain_hash(previous: str, body: dict[str, Any]) -> str:
    return hashlib.sha256((previous + canonical_json(body)).encode()).hexdigest()


class Match(Aggregate):
    TOPIC = "wixoss:Match"
    EVENT_CLASSES: ClassVar[dict[str, type[Any]]] = {}

    class Event(Aggregate.Event):
        actor: str
        rule: str
        caused_by: int | None
        by: str | None
        data: dict[str, Any]
        action: dict[str, Any] | None
        hash: str
        _: KW_ONLY
        idempotency: dict[str, Any] | None = None  # on a batch's first event: the request's key (see above)

        @property
        def type(self) -> str:
            return type(self).__name__

        @property
        def n(self) -> int:
            return self.originator_version

        @property
        def time(self) -> str:
            return iso_time(self.timestamp)

        def body(self) -> dict[str, Any]:
            return event_body(self.originator_version, self, self.time)

        def apply(self, aggregate: Match) -> None:
            evolve.apply(aggregate.state, self)
            aggregate.head_hash = self.hash

    class Created(Event, Aggregate.Created):
        TOPIC = "wixoss:Match.Created"

    def __init__(self) -> None:
        self.state = GameState()
        self.head_hash = GENESIS_HASH

    @classmethod
    def start(
        cls,
        events: Sequence[Any],
        match_id: UUID | None = None,
        *,
        copy: bool = False,
        idempotency: dict[str, Any] | None = None,
    ) -> Match:
        """A new match from its first events (``MatchCreated`` or ``PositionSet`` first). With ``copy``, the
        events are another match's stored events (a branch) and keep their original times (and keys);
        otherwise ``idempotency`` goes on the first event."""
        if not events or events[0].type not in CREATION_TYPES:
            raise ValueError("a match starts with MatchCreated or PositionSet")
        first = events[0]
        ts = first.timestamp if copy else cls.Event.create_timestamp()
        # A new match records the engine writing it; a branch's copy of the parent's first event keeps the
        # parent's (None for a match written before engines were recorded), and its key.
        engine = getattr(first, "engine", None) if copy else ENGINE
        if copy:
            idempotency = getattr(first, "idempotency", None)
        kwargs = _fields(first, _hash(GENESIS_HASH, 1, first, ts, idempotency, engine), idempotency)
        kwargs["engine"] = engine
        kwargs["timestamp"] = ts
        if match_id is not None:
            kwargs["id"] = match_id
        match = cls._create(cls.EVENT_CLASSES[first.type], **kwargs)
        if copy:
            match.copy_of(events[1:])
        else:
            match.record(events[1:])
        return match

    def record(self, events: Iterable[DomainEvent], idempotency: dict[str, Any] | None = None) -> None:
        """Append decided events, each chained to the one before; ``idempotency`` goes on the first."""
        for e in events:
            cls = self.EVENT_CLASSES[e.type]
            ts = cls.create_timestamp()
            engine = ENGINE if e.type in ENGINE_TYPES else None
            h = _hash(self.head_hash, self.version + 1, e, ts, idempotency, engine)
            kwargs = _fields(e, h, idempotency)
            if e.type in ENGINE_TYPES:
                kwargs["engine"] = engine
            self.trigger_event(cls, timestamp=ts, **kwargs)
            idempotency = None

    def copy_of(self, stored: Iterable[Any]) -> None:
        """Append copies of another match's stored events (a branch), with their original times."""
        for e in stored:
            cls = self.EVENT_CLASSES[e.type]
            idempotency = getattr(e, "idempotency", None)
            h = _hash(self.head_hash, self.version + 1, e, e.timestamp, idempotency)
            kwargs = _fields(e, h, idempotency)
            if e.type in ENGINE_TYPES:
                kwargs["engine"] = getattr(e, "engine", None)
            self.trigger_event(cls, timestamp=e.timestamp, **kwargs)


def _hash(
    previous: str,
    n: int,
    e: Any,
    ts: datetime,
    idempotency: dict[str, Any] | None,
    engine: str | None = None,
) -> str:
    body = event_body(n, e, iso_time(ts), engine)
    if idempotency:
        body["idempotency"] = idempotency
    return chain_hash(previous, body)


def _fields(e: Any, h: str, idempotency: dict[str, Any] | None = None) -> dict[str, Any]:
    fields = {
        "actor": e.actor,
        "rule": e.rule,
        "caused_by": e.caused_by,
        "by": e.by,
        "data": e.data,
        "action": e.action,
        "hash": h,
    }
    if idempotency:
        fields["idempotency"] = idempotency
    return fields


def _upcast_engine_v1_v2(state: dict[str, Any]) -> None:
    """Version 2 of ``MatchCreated``, ``PositionSet`` and ``Branched`` records the engine that wrote the
    event. A version 1 event was written before that: its engine is not known (``None``, which the audit names
    ``domain.version.ENGINE_UNKNOWN``). The hashed body leaves an empty engine out, so the chain still
    holds."""
    state.setdefault("engine", None)


def _define_event_classes() -> None:
    for name in EVENT_TYPES:
        base = Match.Created if name in CREATION_TYPES else Match.Event
        namespace: dict[str, Any] = {
            "TOPIC": f"wixoss:{name}",
            "__module__": __name__,
            "__qualname__": f"Match.{name}",
        }
        if name in ENGINE_TYPES:
            namespace["__annotations__"] = {"engine": "str | None"}
            namespace["class_version"] = 2
            namespace["upcast_v1_v2"] = staticmethod(_upcast_engine_v1_v2)
        metaclass: Any = type(base)  # the library's aggregate-event metaclass builds the class
        cls = metaclass(name, (base,), namespace)
        setattr(Match, name, cls)
        register_topic(f"wixoss:{name}", cls)
        Match.EVENT_CLASSES[name] = cls


_define_event_classes()


def project(match: Match | None, events: Iterable[Any]) -> Match | None:
    """A lean projector for the repository: each event mutates the match, nothing else is checked."""
    for e in events:
        match = e.mutate(match)
    return match
