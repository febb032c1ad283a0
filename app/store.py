"""The store's guards: the library's recorders, with one more check on every append.

The store is the truth. The library's optimistic concurrency (the uniqueness of (originator, version)) refuses
a second event at a version already written; what it does not refuse is a gap: a worker whose cache says a
match is at event 120 writing event 121 into a store restored to event 100. The recorders here refuse, in the
same transaction as the insert, an append whose first event is not exactly the store's head + 1 for that match
(``AppendRefused``, an ``IntegrityError``: the application treats it as a conflict, drops what it knew of the
match and decides again from the store).

Where the store is PostgreSQL (``app.store_pg``), the recorders also fail fast when the server is down or
unreachable (the library's own retries, ten attempts each waiting for the pool, would hold a request for many
seconds), and notice a store whose tables are gone (``StoreHasNoTables``) or were made again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar
from uuid import UUID

from eventsourcing.persistence import (
    AggregateRecorder,
    ApplicationRecorder,
    InfrastructureFactory,
    IntegrityError,
    OperationalError,
    StoredEvent,
)
from eventsourcing.popo import POPOApplicationRecorder, POPOFactory
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor, SQLiteFactory

A = TypeVar("A")


class AppendRefused(IntegrityError):
    """An append that does not start right after the store's head of its match: the writer's idea of the
    match is not what the store holds (the store was restored, or made again)."""

    def __init__(self, originator_id: object, first: int, head: int | None = None) -> None:
        where = "" if head is None else f" (the store's head is {head})"
        super().__init__(
            f"refused to append event {first} to {originator_id}: it does not follow the store's head{where}"
        )
        self.originator_id = originator_id
        self.first = first
        self.head = head


class StoreHasNoTables(OperationalError):
    """The store answers but has no tables (dropped, or a new database where ``init-db`` was not run)."""


def firsts(stored_events: Sequence[StoredEvent]) -> dict[Any, int]:
    """The first version each originator's events in this append start at."""
    out: dict[Any, int] = {}
    for s in stored_events:
        first = out.get(s.originator_id)
        if first is None or s.originator_version < first:
            out[s.originator_id] = s.originator_version
    return out


def check_follows_head(stored_events: Sequence[StoredEvent], head_of: Callable[[Any], int]) -> None:
    """Raise ``AppendRefused`` unless every originator's first event here is its stored head + 1."""
    for originator_id, first in firsts(stored_events).items():
        head = head_of(originator_id)
        if first != head + 1:
            raise AppendRefused(originator_id, first, head)


class GuardedPOPORecorder(POPOApplicationRecorder):
    """The in-memory recorder, refusing an append past a hole (checked under its lock, with the insert)."""

    def _assert_uniqueness(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> None:
        super()._assert_uniqueness(stored_events, **kwargs)

        def head_of(originator_id: Any) -> int:
            index = self._stored_events_index.get(str(originator_id))
            return max(index, default=0) if index else 0

        check_follows_head(stored_events, head_of)


class GuardedSQLiteRecorder(SQLiteApplicationRecorder):
    """The SQLite recorder, refusing an append past a hole: checked in the insert's transaction, after the
    insert (which takes the write lock first; a read first would make the transaction fail instead of wait
    when another process writes meanwhile), and rolled back with it."""

    def __init__(self, datastore: Any, events_table_name: str = "stored_events") -> None:
        super().__init__(datastore, events_table_name)
        self.select_head_statement = (
            f"SELECT MAX(originator_version) FROM {self.events_table_name} "
            "WHERE originator_id=? AND originator_version<?"
        )

    def _insert_events(
        self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any
    ) -> Sequence[int] | None:
        ids = super()._insert_events(c, stored_events, **kwargs)
        starts = firsts(stored_events)

        def head_of(originator_id: Any) -> int:  # the head before this append
            key = originator_id.hex if isinstance(originator_id, UUID) else originator_id
            c.execute(self.select_head_statement, (key, starts[originator_id]))
            row = c.fetchone()
            return int(row[0]) if row is not None and row[0] is not None else 0

        check_follows_head(stored_events, head_of)
        return ids


def application_recorder(factory: InfrastructureFactory[Any]) -> ApplicationRecorder:
    """The guarded recorder for the factory's store (the library's own for a store not known here)."""
    recorder: ApplicationRecorder
    if isinstance(factory, POPOFactory):
        return GuardedPOPORecorder()
    if isinstance(factory, SQLiteFactory):
        recorder = GuardedSQLiteRecorder(factory.datastore)
        if factory.env_create_table():
            recorder.create_table()
        return recorder
    if type(factory).__module__ == "eventsourcing.postgres":
        from app import store_pg

        return store_pg.application_recorder(factory)
    return factory.application_recorder()


def snapshot_recorder(factory: InfrastructureFactory[Any]) -> AggregateRecorder:
    """The recorder of stored checkpoints: the library's, failing fast where the store is PostgreSQL."""
    if type(factory).__module__ == "eventsourcing.postgres":
        from app import store_pg

        return store_pg.snapshot_recorder(factory)
    return factory.aggregate_recorder(purpose="snapshots")


class LazyApplication(Generic[A]):
    """The application, made on first use rather than when the web app starts, so that a worker starts (and
    serves what needs no store) while the store is unreachable; a failed making is tried again on the next
    use. Attributes are the application's (``lazy.state_at(...)``); ``get()`` returns it."""

    def __init__(self, build: Callable[[], A]) -> None:
        self._build = build
        self._app: A | None = None
        self._lock = threading.Lock()

    def get(self) -> A:
        app = self._app
        if app is None:
            with self._lock:
                if self._app is None:
                    self._app = self._build()
                app = self._app
        return app

    @property
    def made(self) -> bool:
        return self._app is not None

    def close(self) -> None:
        with self._lock:
            app, self._app = self._app, None
        if app is not None:
            app.close()  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.get(), name)
