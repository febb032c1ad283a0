"""The judge's use cases, one method each, on the ``eventsourcing`` Application.

Each method gets the match, calls the domain, saves once, and returns plain values. The store is the
library's: a SQLite file by default, in-memory (POPO) for unit tests, PostgreSQL by configuration.

What keeps it fast (docs/PERFORMANCE.md has the figures):
- ``act`` with an expected version starts from the cached match when the cache is at that version, without
  asking the store first; if another process wrote meanwhile, the store's uniqueness of (match, version)
  refuses the insert, and the answer is the same VersionConflict (409) as when the versions differ.
- The events an action produced are decoded from what was just written, not read back.
- The state at N starts from the nearest checkpoint: in memory every ``CHECKPOINT_INTERVAL`` events (16), and
  in the store (the library's snapshots, written as a save crosses a multiple of
  ``STORED_CHECKPOINT_INTERVAL``, 100), so a new worker or a restarted one folds at most that many events.
- N is checked against the highest head this process has seen; only an N beyond it asks the store. The
  latest state is one read: the events after the newest checkpoint, to the end.
- Where several processes write (PostgreSQL), an action is recorded on a working copy of the cached match,
  so that a lost race leaves the cache usable instead of forcing a rebuild.

The store is the truth (``app.store``): an append whose first event is not the store's head + 1 is refused
in the insert's own transaction (``AppendRefused``), so a cache that is ahead of a store restored from an
older copy can never write past a hole. Whenever this process sees that the store moved away from what it
knew (such a refusal, a head lower than one already seen, a latest read that no longer finds the last event
known, the tables gone), it drops every cache (``forget_everything``) and answers from the store.

Retries (``IdempotentRequest``): a request sent with a key records the key on the first event it appends.
A retry finds it in the match's log and gets the events that request recorded, appending nothing; the same
key with another request is ``KeyReused``. Each process keeps an index of the keys of the logs it has read,
and brings it up to date from the store (the events after the last one it read) at every lookup, so a key
recorded by another worker, or before a restart, is found. Where two workers race with one key, the loser's
insert collides in the store, and it looks for the key again before deciding anew. A match created with a
key gets an id derived from the caller and the key, so a second creation collides in the store too.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar
from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Application, LRUCache
from eventsourcing.domain import Snapshot
from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    EventStore,
    IntegrityError,
    JSONTranscoder,
    PersistenceError,
    Transcoding,
)
from eventsourcing.utils import strtobool

from app import store
from domain import takebacks as takeback_rules
from domain.costs import payment_notes
from domain.engine import decide
from domain.errors import IllegalAction, JudgeError
from domain.events import EVENT_TYPES, Event
from domain.judge import Landing, branch, decision_points, rewind
from domain.match import Match, event_body, project
from domain.setup import PlayerSetup, create_match, create_position, position_warnings
from domain.state import GameState
from projections.audit import AnchorReport, AuditReport, anchor, audit
from projections.history import History, StaleHistory
from projections.index import MatchIndex
from projections.records import Replay, export_record, replay_record
from projections.takebacks import decide as decide_takeback


class MatchNotFound(LookupError):
    def __init__(self, match_id: object) -> None:
        super().__init__(f"no match {match_id}")
        self.match_id = match_id


class VersionConflict(Exception):
    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"the match is at version {actual}, not {expected}: reload it and try again")
        self.expected = expected
        self.actual = actual


class OutOfRange(ValueError):
    pass


class KeyReused(Exception):
    """An idempotency key sent again with a request other than the one it was first sent with."""

    def __init__(self, key: str, at: int) -> None:
        super().__init__(
            f"the idempotency key {key!r} was used for another request (event {at}): a retry must send "
            "the same request; a new request needs a new key"
        )
        self.key = key
        self.at = at


KEYED_IDS = uuid5(NAMESPACE_URL, "urn:wixoss-judge:idempotency")
MAX_KEY_LENGTH = 200
KEY_PATTERN_TEXT = r"^[\x20-\x7e]*[\x21-\x7e][\x20-\x7e]*$"  # a key: printable ASCII, not only spaces


@dataclass(frozen=True)
class IdempotentRequest:
    """A request sent with an idempotency key: a retry of it gets what it first recorded.

    ``caller`` scopes the key (``judge``, ``p1``, ``p2``): one caller's key means nothing for another.
    ``digest`` tells one request from another (SHA-256 of what was asked, of what, by whom)."""

    key: str
    caller: str
    digest: str

    def envelope(self) -> dict[str, str]:
        """What the first event of the request's batch records."""
        return {"key": self.key, "caller": self.caller, "request": self.digest}

    def match_id(self) -> UUID:
        """The id of the match this request creates: the same for every retry."""
        return uuid5(KEYED_IDS, f"{self.caller}\n{self.key}")


@dataclass
class _Keys:
    """The keyed batches of one match's log, as far as it was read: (caller, key) -> (first event, last
    event, request digest)."""

    upto: int = 0
    upto_hash: str = ""  # the hash of event ``upto``: a store that no longer has it was restored
    batches: dict[tuple[str, str], tuple[int, int, str]] = field(default_factory=dict)
    open: tuple[str, str] | None = None  # the batch read last, if keyed: it may go on

    def read(self, events: Iterable[Any]) -> None:
        for e in events:
            n = e.originator_version
            if n <= self.upto:
                continue
            if n != self.upto + 1:
                return  # not the next event: read again from the store next time
            self.upto, self.upto_hash = n, e.hash
            envelope = getattr(e, "idempotency", None)
            if e.type == "Branched":
                self.batches.clear()  # the events before it are copies of the parent's
            if envelope or e.action is not None:  # a new batch
                self.open = None
                if envelope:
                    self.open = (envelope["caller"], envelope["key"])
                    self.batches[self.open] = (n, n, envelope["request"])
            elif self.open is not None:
                first, _, digest = self.batches[self.open]
                self.batches[self.open] = (first, n, digest)


@dataclass(frozen=True)
class Ruling:
    legal: bool
    at: int
    rule_refs: tuple[str, ...]
    explanation: str
    events: tuple[Event, ...]


class GameStateAsDict(Transcoding):
    """Stored checkpoints (snapshots) hold the game state in its canonical dict form."""

    type = GameState
    name = "wixoss_game_state"

    def encode(self, obj: GameState) -> dict[str, Any]:
        return obj.to_dict()

    def decode(self, data: dict[str, Any]) -> GameState:
        return GameState.from_dict(data)


class JudgeApplication(Application[UUID]):
    name = "wixoss_judge"
    env: ClassVar[dict[str, str]] = {
        "AGGREGATE_CACHE_MAXSIZE": "256",
        "DEEPCOPY_FROM_AGGREGATE_CACHE": "n",
        # PostgreSQL: wait at most 1 s for a connection, 2 s for the table lock of an append (the library's
        # defaults, 30 s and for ever, hold a request until the web server kills its worker)
        "POSTGRES_CONNECT_TIMEOUT": "1",
        "POSTGRES_LOCK_TIMEOUT": "2",
    }
    is_snapshotting_enabled = True  # the stored checkpoints; IS_SNAPSHOTTING_ENABLED=n turns them off
    MAX_KNOWN_HEADS = 100_000
    KEYS_IN_MEMORY = 100_000  # matches plus keys indexed in memory (~200 bytes each); the logs keep them all

    def __init__(self, env: dict[str, str] | None = None) -> None:
        super().__init__(env)
        self.stored_checkpoint_interval = max(1, int(self.env.get("STORED_CHECKPOINT_INTERVAL") or 100))
        self.history = History(
            self._read_events,
            interval=max(1, int(self.env.get("CHECKPOINT_INTERVAL") or 16)),
            max_states=int(self.env.get("CHECKPOINTS_IN_MEMORY") or 10_000),
            max_events=int(self.env.get("EVENTS_IN_MEMORY") or 20_000),
            load_checkpoint=self._load_checkpoint if self.snapshots is not None else None,
            stored_interval=self.stored_checkpoint_interval,
        )
        self.index = MatchIndex(self)
        self._locks: dict[UUID, threading.Lock] = {}
        self._locks_lock = threading.Lock()
        self._heads: dict[UUID, int] = {}  # the highest head seen per match: the log only grows
        self._keys: OrderedDict[UUID, _Keys] = OrderedDict()  # the keys of the logs read, least recent first
        self._keyed_batches = 0
        self._keys_lock = threading.Lock()
        shared = "postgres" in (self.env.get("PERSISTENCE_MODULE") or "")
        self.working_copy = strtobool(self.env.get("WORKING_COPY") or ("y" if shared else "n"))
        replaced = getattr(self.recorder, "replaced", None)
        if isinstance(replaced, list):  # the store tells when its tables vanished or were made again
            replaced.append(self.forget_everything)

    def construct_recorder(self) -> ApplicationRecorder:
        return store.application_recorder(self.factory)

    def construct_snapshot_store(self) -> EventStore[UUID]:
        recorder: AggregateRecorder = store.snapshot_recorder(self.factory)
        return self.factory.event_store(mapper=self.mapper, recorder=recorder)

    def forget_everything(self) -> None:
        """Drop every cache of every match (the cached matches, the heads seen, the states and events kept,
        the match index): the store moved away from what this process knew, and is read again."""
        cache = self.repository.cache
        if isinstance(cache, LRUCache):
            with cache.lock:
                cache.cache.clear()
                cache.clear()
                cache.full = False
        elif cache is not None:
            cache.cache.clear()
        self._heads.clear()
        self.history.clear()
        self.index.reset()

    def register_transcodings(self, transcoder: JSONTranscoder) -> None:
        super().register_transcodings(transcoder)
        transcoder.register(GameStateAsDict())

    # -- reading ----------------------------------------------------------------------------------

    def _read_events(self, match_id: UUID, after: int, upto: int | None) -> Sequence[Any]:
        return list(self.events.get(match_id, gt=after or None, lte=upto))

    def _load_checkpoint(self, match_id: UUID, n: int) -> tuple[int, GameState] | None:
        """The newest stored checkpoint at or before event ``n``, if any."""
        assert self.snapshots is not None
        found = list(self.snapshots.get(match_id, lte=n, desc=True, limit=1))
        if not found:
            return None
        snapshot = found[0]
        state = snapshot.state.get("state")  # type: ignore[attr-defined]
        if not isinstance(state, GameState) or state.version != snapshot.originator_version:
            return None
        return snapshot.originator_version, state

    def get_match(self, match_id: UUID) -> Match:
        try:
            return self.repository.get(match_id, projector_func=project)  # type: ignore[arg-type,return-value]
        except AggregateNotFoundError:
            raise MatchNotFound(match_id) from None

    def _seen(self, match_id: UUID, head: int) -> None:
        if head > self._heads.get(match_id, 0):
            if len(self._heads) >= self.MAX_KNOWN_HEADS:
                self._heads.clear()
            self._heads[match_id] = head

    def head(self, match_id: UUID) -> int:
        """The match's last event number, as the store has it now."""
        last = self.recorder.select_events(match_id, desc=True, limit=1)
        if not last:
            if match_id in self._heads:  # a match seen here is gone: the store is not the one it was
                self.forget_everything()
            raise MatchNotFound(match_id)
        head = last[0].originator_version
        if head < self._heads.get(match_id, 0):  # the store went back (restored from an older copy)
            self.forget_everything()
        self._seen(match_id, head)
        return head

    def exists(self, match_id: UUID) -> bool:
        """Whether the store holds a match with this id (one read of its first event)."""
        return bool(self.recorder.select_events(match_id, limit=1))

    def check_at(self, match_id: UUID, at: int | None) -> int:
        """``at`` checked against the head (the head itself when ``at`` is None)."""
        if at is not None and 1 <= at <= self._heads.get(match_id, 0):
            return at  # within a head already seen: the log only grows, so it is still in range
        head = self.head(match_id)
        if at is None:
            return head
        if not 1 <= at <= head:
            raise OutOfRange(f"event {at} is out of range: match {match_id} has events 1 to {head}")
        return at

    def state_at(self, match_id: UUID, at: int | None = None) -> GameState:
        """The state after event ``at`` (default: the latest), checked against the head."""
        if at is None:  # the latest: one read of the events after the newest checkpoint, to the end
            try:
                state = self.history.latest(match_id, hint=self._heads.get(match_id, 0))
            except StaleHistory:  # the store moved away from what was kept: read it again
                self.forget_everything()
                state = self.history.latest(match_id)
            if state.version == 0:
                raise MatchNotFound(match_id)
            self._seen(match_id, state.version)
            return state
        return self.history.state_at(match_id, self.check_at(match_id, at))

    def stored_events(self, match_id: UUID, after: int = 0, limit: int | None = None) -> list[Any]:
        self.head(match_id)
        upto = None if limit is None else after + limit
        return self._read_events(match_id, after, upto)

    # -- creating matches -------------------------------------------------------------------------

    def create_match(
        self,
        fmt: str,
        seed: int,
        players: dict[str, PlayerSetup],
        first_player: str | None = None,
        request: IdempotentRequest | None = None,
        takebacks: Any = None,
        options: dict[str, Any] | None = None,
    ) -> Match:
        """A new match; with ``request``, a retry gets the match its first creation made, as it was then.
        ``takebacks``: the match's takeback policy (``domain.takebacks``), if given; ``options``: the
        format's options (``domain.setup.create_match``)."""
        if request is not None and (done := self._created(request)) is not None:
            return done
        match_id, envelope = _keyed(request)
        events = create_match(fmt, seed, players, first_player, options)
        if takebacks is not None:
            events = takeback_rules.at_creation(events, takebacks)
        match = Match.start(events, match_id, idempotency=envelope)
        return self._save_new(match, request)

    def create_position(
        self,
        position: dict[str, Any],
        seed: int,
        request: IdempotentRequest | None = None,
        takebacks: Any = None,
    ) -> tuple[Match, list[str]]:
        """The new match, and what rule processing changed in the position as it was set; with ``request``,
        a retry gets the match its first creation made, as it was then. ``takebacks``: the match's takeback
        policy (``domain.takebacks``), if given."""
        if request is not None and (done := self._created(request)) is not None:
            return done, position_warnings(self._read_events(done.id, 0, done.version))
        match_id, envelope = _keyed(request)
        events = create_position(position, seed)
        if takebacks is not None:
            events = takeback_rules.at_creation(events, takebacks)
        match = Match.start(events, match_id, idempotency=envelope)
        saved = self._save_new(match, request)
        if saved is not match:  # the same request's retry won the race
            return saved, position_warnings(self._read_events(saved.id, 0, saved.version))
        return saved, position_warnings(events)

    def _save_new(self, match: Match, request: IdempotentRequest | None = None) -> Match:
        try:
            self.save(match)
        except IntegrityError:  # a match with this id exists: a retry of a keyed creation won the race
            if request is None or (done := self._created(request)) is None:
                raise
            return done
        self._seen(match.id, match.version)
        self._checkpoint(match, 0)
        return match

    # -- retries ----------------------------------------------------------------------------------

    def recorded(self, match_id: UUID, request: IdempotentRequest) -> list[Any] | None:
        """The stored events a request with this key recorded in the match, or None if none did; KeyReused
        when the key was sent with another request."""
        for fresh in (False, True):
            found = self._key_index(match_id, fresh).batches.get((request.caller, request.key))
            if found is None:
                return None
            first, last, digest = found
            if digest != request.digest:
                raise KeyReused(request.key, first)
            events = self._read_events(match_id, first - 1, last)
            envelope = getattr(events[0], "idempotency", None) if events else None
            if len(events) == last - first + 1 and envelope == request.envelope():
                return events
            # the store no longer holds what the index says (restored from a backup): read it all again
        return None

    def _key_index(self, match_id: UUID, fresh: bool = False) -> _Keys:
        """The match's keys, brought up to date with the events the store has after the last one read (read
        again from the start when the store no longer has that one as it was read)."""
        with self._keys_lock:
            keys = None if fresh else self._keys.get(match_id)
            if keys is None:
                self._keyed_batches -= len(self._keys.pop(match_id, _Keys()).batches)
                keys = self._keys[match_id] = _Keys()
            self._keys.move_to_end(match_id)
            upto, upto_hash = keys.upto, keys.upto_hash
        events = self._read_events(match_id, max(upto - 1, 0), None)
        if upto and (not events or events[0].originator_version != upto or events[0].hash != upto_hash):
            return self._key_index(match_id, fresh=True)  # the store moved away from what was read
        with self._keys_lock:
            before = len(keys.batches)
            keys.read(events)
            if self._keys.get(match_id) is keys:
                self._keyed_batches += len(keys.batches) - before
            while len(self._keys) + self._keyed_batches > self.KEYS_IN_MEMORY and len(self._keys) > 1:
                _, dropped = self._keys.popitem(last=False)  # read again from the log when asked again
                self._keyed_batches -= len(dropped.batches)
        return keys

    def _created(self, request: IdempotentRequest) -> Match | None:
        """The match a keyed creation (or branch) made, as it was when that request's events were written."""
        events = self.recorded(request.match_id(), request)
        if events is None:
            return None
        match_id, version = request.match_id(), events[-1].originator_version
        self._seen(match_id, version)
        return self.repository.get(match_id, version=version, projector_func=project)  # type: ignore[arg-type,return-value]

    # -- playing ----------------------------------------------------------------------------------

    def _lock(self, match_id: UUID) -> threading.Lock:
        with self._locks_lock:
            return self._locks.setdefault(match_id, threading.Lock())

    def act(
        self,
        match_id: UUID,
        action: dict[str, Any],
        expected_version: int | None = None,
        by: str | None = None,
        request: IdempotentRequest | None = None,
    ) -> list[Any]:
        """Decide and record one action; returns the stored events it produced.

        With ``expected_version``, the action is refused (VersionConflict) unless the match is at that
        version when its events are written; without it, a lost race is decided again on the new head.
        With ``request``, a retry gets the events the first request recorded, whatever the version now."""
        attempts = 3 if expected_version is None else 1
        for attempt in range(attempts):
            last_try = attempt == attempts - 1
            with self._lock(match_id):
                match = self._cached_at(match_id, expected_version) or self._fresh(match_id)
                # looked up after the match was read: a request recorded before that is found
                if request is not None and (done := self.recorded(match_id, request)) is not None:
                    return done
                if expected_version is not None and expected_version != match.version:
                    raise VersionConflict(expected_version, match.version)
                events = decide(match.state, action, by=by)
                try:
                    return self._append(match, events, last_try and request is None, request)
                except IntegrityError:  # another writer won the race: was it this request's retry?
                    if request is not None and (done := self.recorded(match_id, request)) is not None:
                        return done
                    if last_try:
                        raise VersionConflict(match.version, self.head(match_id)) from None
                    # decide again on the new head
        raise AssertionError("unreachable")  # pragma: no cover

    def _fresh(self, match_id: UUID) -> Match:
        """The match as the store has it now: the cached one brought up to date, or rebuilt when the cache
        is set not to fast-forward (``AGGREGATE_CACHE_FASTFORWARD=n``)."""
        if not self.repository.fastforward:
            self._evict(match_id)
        else:
            self._check_cached(match_id)
        return self.get_match(match_id)

    def _check_cached(self, match_id: UUID) -> None:
        """Drop the caches when the store's head of the match is below the cached match's version (the
        store was restored from an older copy): a decision is taken on the store's match, never on one it
        no longer has."""
        cache = self.repository.cache
        if cache is None:
            return
        try:
            cached: Match = cache.get(match_id)
        except KeyError:
            return
        last = self.recorder.select_events(match_id, desc=True, limit=1)
        if not last or last[0].originator_version < cached.version:
            self.forget_everything()

    def _cached_at(self, match_id: UUID, version: int | None) -> Match | None:
        """The cached match if it is at ``version``, without asking the store whether it moved on: if it
        did, the insert of ``version + 1`` collides in the store and the action is refused as a conflict,
        which is the answer ``version`` calls for anyway."""
        cache = self.repository.cache
        if version is None or cache is None:
            return None
        try:
            match: Match = cache.get(match_id)
        except KeyError:
            return None
        return match if match.version == version else None

    def _append(
        self,
        match: Match,
        events: Sequence[Event],
        last_try: bool = True,
        request: IdempotentRequest | None = None,
    ) -> list[Any]:
        """Record ``events`` on ``match`` (the first with ``request``'s key) and save it.

        Where several processes write (``WORKING_COPY``, on by default for PostgreSQL), the events are
        recorded on a working copy that replaces the cached match once saved: when another writer wins the
        race, the cached match stays as it was, at its version, and the next read brings it up to date with
        the few events it missed. Elsewhere a lost race is rare, and the match is recorded on in place (no
        copy of the state per action) and dropped from the cache when its save fails."""
        before = match.version
        work = _working_copy(match) if self.working_copy else match
        try:
            work.record(events, request.envelope() if request is not None else None)
            recordings = self.save(work)
        except IntegrityError as exc:
            if isinstance(exc, store.AppendRefused):  # the store is behind this process's idea of the match
                self.forget_everything()
            elif work is match:
                self._evict(match.id)
            if last_try:
                raise VersionConflict(before, self.head(match.id)) from None
            raise
        except BaseException:
            if work is match:
                self._evict(match.id)
            raise
        cache = self.repository.cache
        if cache is not None and work is not match:
            cache.put(match.id, work)
        self._seen(match.id, work.version)
        self._checkpoint(work, before)
        if len(recordings) == work.version - before:  # decode what was written, as a read would
            return [self.mapper.to_domain_event(r.notification) for r in recordings]
        return list(self.events.get(match.id, gt=before))  # pragma: no cover - recorders without ids

    def _checkpoint(self, match: Match, before: int) -> None:
        """Store a checkpoint of the match when this save crossed a multiple of the interval: the state
        at its new head, as the fold of its events builds it (through JSON, as the events were).

        The checkpoint is the library's snapshot, put in its snapshot store, but not through its
        ``snapshotting_intervals``: in eventsourcing 9.5 ``Application.save`` then calls ``take_snapshot``,
        which reads the match back from the store and folds it again to the multiple, inside ``save``,
        and lets a failure of that write fail a save whose events are already stored. Here the match in
        hand is snapshotted as it is, and a failed checkpoint only costs a longer fold later."""
        k = self.stored_checkpoint_interval
        if self.snapshots is None or match.version // k == before // k:
            return
        with contextlib.suppress(PersistenceError):  # a checkpoint is only a shortcut: never fail a save
            self.snapshots.put([Snapshot.take(match)])

    def _evict(self, match_id: UUID) -> None:
        cache = self.repository.cache
        if cache is not None:
            with contextlib.suppress(KeyError):
                cache.get(match_id, evict=True)

    def ruling(
        self, match_id: UUID, action: dict[str, Any], at: int | None = None, by: str | None = None
    ) -> Ruling:
        """What would happen if ``action`` were taken after event ``at``; nothing is recorded."""
        state = self.state_at(match_id, at)
        n = state.version
        try:
            events = decide(state, action, by=by)
        except IllegalAction as exc:
            return Ruling(False, n, exc.rule_refs, exc.message, ())
        first = events[0] if events else None
        refs = tuple(dict.fromkeys(e.rule for e in events if e.type != "Asked"))
        what = "legal"
        if first is not None:
            said = EVENT_TYPES.get(first.type, "something happened")
            what = f"legal: it produces {len(events)} event(s), the first: {said}"
        notes = payment_notes(state.cards, action, events)
        if notes:
            what += "; " + "; ".join(notes)
        return Ruling(True, n, refs, what, tuple(events))

    # -- the judge's tools ------------------------------------------------------------------------

    def rewind(
        self, match_id: UUID, to: int, reason: str, request: IdempotentRequest | None = None
    ) -> list[Any]:
        """Put the match back as it was at event ``to``, a decision point (``judge.decision-point``)."""
        with self._lock(match_id):
            match = self._fresh(match_id)
            if request is not None and (done := self.recorded(match_id, request)) is not None:
                return done
            if not 1 <= to <= match.version:
                raise OutOfRange(
                    f"event {to} is out of range: match {match_id} has events 1 to {match.version}"
                )
            target = self.history.state_at(match_id, to)
            landing = self._landing(match_id, to, match.version)
            try:
                return self._append(
                    match, rewind(match.state, target, to, reason, landing), request is None, request
                )
            except IntegrityError:  # another writer won the race: was it this request's retry?
                if request is not None and (done := self.recorded(match_id, request)) is not None:
                    return done
                raise VersionConflict(match.version, self.head(match_id)) from None

    # -- takebacks (``domain.takebacks``; decided from the log by ``projections.takebacks``) ----------

    def set_takeback_policy(
        self, match_id: UUID, policy: Any, reason: str, request: IdempotentRequest | None = None
    ) -> list[Any]:
        """The judge sets the match's takeback policy."""
        action = {"type": "takeback_policy", "policy": policy, "reason": reason}
        return self._takeback(match_id, action, None, request)

    def request_takeback(
        self,
        match_id: UUID,
        player: str,
        to: int | None,
        reason: str,
        by: str | None = None,
        request: IdempotentRequest | None = None,
    ) -> list[Any]:
        """``player`` asks to take back to event ``to`` (None: their last answered decision); ``by`` is
        ``judge`` when a judge files it for them."""
        action = {"type": "takeback_request", "player": player, "to": to, "reason": reason}
        return self._takeback(match_id, action, by, request)

    def accept_takeback(
        self,
        match_id: UUID,
        takeback: int,
        answerer: str,
        reason: str = "",
        request: IdempotentRequest | None = None,
    ) -> list[Any]:
        """The opponent (``p1``/``p2``) or the judge (``judge``) accepts the open takeback: it is rewound."""
        action = _answer("takeback_accept", takeback, answerer, reason)
        return self._takeback(match_id, action, None, request)

    def decline_takeback(
        self,
        match_id: UUID,
        takeback: int,
        answerer: str,
        reason: str = "",
        request: IdempotentRequest | None = None,
    ) -> list[Any]:
        """The opponent or the judge declines the open takeback: the match goes on as it was."""
        action = _answer("takeback_decline", takeback, answerer, reason)
        return self._takeback(match_id, action, None, request)

    def _takeback(
        self, match_id: UUID, action: dict[str, Any], by: str | None, request: IdempotentRequest | None
    ) -> list[Any]:
        with self._lock(match_id):
            match = self._fresh(match_id)
            if request is not None and (done := self.recorded(match_id, request)) is not None:
                return done
            # a request is decided from the log (the span it undoes); the other actions need none of it
            asks = action["type"] == "takeback_request"
            log = self._read_events(match_id, 0, match.version) if asks else []
            events = decide_takeback(
                match.state, action, log, lambda n: self.history.state_at(match_id, n), by
            )
            try:
                return self._append(match, events, request is None, request)
            except IntegrityError:  # another writer won the race: was it this request's retry?
                if request is not None and (done := self.recorded(match_id, request)) is not None:
                    return done
                raise VersionConflict(match.version, self.head(match_id)) from None

    def branch(self, match_id: UUID, at: int, reason: str, request: IdempotentRequest | None = None) -> Match:
        if request is not None and (done := self._created(request)) is not None:
            return done
        head = self.head(match_id)
        if not 1 <= at <= head:
            raise OutOfRange(f"event {at} is out of range: match {match_id} has events 1 to {head}")
        parent_events = self._read_events(match_id, 0, at + 1)
        following = parent_events[at] if len(parent_events) > at else None
        new_id, envelope = _keyed(request)
        new = Match.start(parent_events[:at], new_id, copy=True)
        landing = Landing(following, lambda: self._nearest_decision_points(match_id, at, head))
        new.record(branch(new.state, str(match_id), at, reason, landing), envelope)
        return self._save_new(new, request)

    def _landing(self, match_id: UUID, n: int, head: int) -> Landing:
        following = self._read_events(match_id, n, n + 1) if n < head else []
        return Landing(
            following[0] if following else None, lambda: self._nearest_decision_points(match_id, n, head)
        )

    def decision_points(
        self, match_id: UUID, after: int, upto: int, events: Sequence[Any] | None = None
    ) -> Iterator[tuple[int, GameState, bool]]:
        """For each event after ``after`` up to ``upto`` (both within the log): its number, the state after
        it (the running state of the fold: read it before the next) and whether it is a decision point.
        ``events`` are those events when the caller has read them already."""
        if events is None:
            read = self._read_events(match_id, after, upto + 1)
            events, rest = read[: upto - after], read[upto - after :]
        else:
            rest = self._read_events(match_id, upto, upto + 1)
        start = self.history.state_at(match_id, after) if after else GameState()
        for n, (state, flag) in enumerate(
            decision_points(start, events, rest[0] if rest else None), after + 1
        ):
            yield n, state, flag

    def _nearest_decision_points(self, match_id: UUID, n: int, head: int) -> tuple[int | None, int | None]:
        """The nearest decision points before and after event ``n`` (None where there is none), looked for
        in windows that double as they move away from ``n``."""
        earlier = later = None
        hi, size = n - 1, 64
        while earlier is None and hi >= 1:
            lo = max(0, hi - size)
            found = [k for k, _, flag in self.decision_points(match_id, lo, hi) if flag]
            earlier = found[-1] if found else None
            hi, size = lo, size * 2
        lo, size = n, 64
        while later is None and lo < head:
            hi = min(head, lo + size)
            later = next((k for k, _, flag in self.decision_points(match_id, lo, hi) if flag), None)
            lo, size = hi, size * 2
        return earlier, later

    def audit(self, match_id: UUID) -> AuditReport:
        self.head(match_id)
        return audit(self._read_events(match_id, 0, None))

    def anchor(self, match_id: UUID, head_hash: str, at: int | None = None) -> AnchorReport:
        """Whether today's log still extends ``head_hash``, a hash a judge wrote down earlier."""
        self.head(match_id)
        return anchor(self._read_events(match_id, 0, None), head_hash, at)

    def record(self, match_id: UUID) -> str:
        """The match's record (JSON Lines, ``projections.records``)."""
        self.head(match_id)
        return export_record(self._read_events(match_id, 0, None), match_id)

    def import_record(self, text: str, request: IdempotentRequest | None = None) -> Replay:
        """Replay a record into a new match and save it; ``Divergence`` names the line where it and the rules
        part ways, and nothing is saved then.

        With ``request``, the new match's id is the request's (``IdempotentRequest.match_id``), and a retry
        gets the match the first import made. The key cannot be recorded on the match's first event as other
        creations do (the record's own events, hashes included, are replayed exactly), so a retry is told
        from another request by replaying it again: the same record gives the same events, hash for hash
        where the record gives every time, field for field (times aside) where it leaves some out."""
        match_id = None if request is None else request.match_id()
        replay = replay_record(text, match_id)
        if request is None:
            self._save_new(replay.match)
            return replay
        made = list(replay.match.pending_events)
        if not self.exists(replay.match.id):
            try:
                self._save_new(replay.match)
                return replay
            except IntegrityError:  # the same key's other request won the race
                pass
        stored = self._read_events(replay.match.id, 0, None)
        if not _same_import(stored, made, _timed(text)):
            raise KeyReused(request.key, 1)
        self._seen(replay.match.id, stored[-1].originator_version)
        return replace(replay, match=self.get_match(replay.match.id))

    def list_matches(self) -> list[dict[str, Any]]:
        return self.index.all()

    def rewound_marks(self, match_id: UUID) -> dict[int, int]:
        return self.index.rewound_marks(match_id)


def _keyed(request: IdempotentRequest | None) -> tuple[UUID | None, dict[str, str] | None]:
    """The id and the key record of a match created by ``request``."""
    if request is None:
        return None, None
    return request.match_id(), request.envelope()


def _timed(text: str) -> bool:
    """Whether every line of a record (one the replay read) gives the time of its events."""
    return all("time" in json.loads(line) for line in text.splitlines() if line.strip())


def _same_import(stored: Sequence[Any], made: Sequence[Any], timed: bool) -> bool:
    """Whether ``made`` (a record replayed again) are the events an earlier import of it stored."""
    if len(stored) != len(made) or not stored:
        return False
    if timed:
        return all(a.hash == b.hash for a, b in zip(stored, made, strict=True))
    return all(
        event_body(n, a, "") == event_body(n, b, "")
        for n, (a, b) in enumerate(zip(stored, made, strict=True), 1)
    )


def _answer(kind: str, takeback: int, answerer: str, reason: str) -> dict[str, Any]:
    """A takeback's answer as an action: the answering player, or none for the judge."""
    action: dict[str, Any] = {"type": kind, "takeback": takeback, "reason": reason}
    if answerer != "judge":
        action["player"] = answerer
    return action


def _working_copy(match: Match) -> Match:
    """A copy of ``match`` that can record events without changing ``match``: its own game state (the
    state's copy is cheap) and no pending events; everything else is immutable and shared.

    Made with the library's public snapshot API, in memory: ``Snapshot.take`` copies the aggregate's
    attributes (without its pending events) and ``mutate`` builds a second aggregate of the same class and
    version from them, with its own empty list of pending events. Nothing is stored. The game state is the
    one mutable attribute the two would otherwise share, so the copy gets its own."""
    work = Snapshot.take(match).mutate(None)
    assert isinstance(work, Match)
    work.state = match.state.copy()
    return work


def init_db(env: dict[str, str] | None = None) -> None:
    """Create the store's tables, once, before any worker starts (the ``init-db`` command).

    Several workers creating the PostgreSQL tables at the same time race (``tuple concurrently updated``):
    create them here, then run the workers with ``CREATE_TABLE=no``. Creating them again is harmless.
    """
    JudgeApplication({**(env or {}), "CREATE_TABLE": "yes"}).close()


__all__ = [
    "IdempotentRequest",
    "JudgeApplication",
    "JudgeError",
    "KeyReused",
    "MatchNotFound",
    "OutOfRange",
    "Ruling",
    "VersionConflict",
    "init_db",
]
