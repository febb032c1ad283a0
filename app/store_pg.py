"""The PostgreSQL recorders (imported only where the store is PostgreSQL): the library's, with

- the append guard of ``app.store``, inside the insert statement itself: the rows are inserted only when each
  match's first new event is its stored head + 1, read after the library's table lock, in the same
  transaction (no extra round trip: the insert returns no notification id, and the append is refused);
- fail-fast calls: the library retries a failed call ten times, and each attempt waits for the pool up to
  ``POSTGRES_CONNECT_TIMEOUT``; here a call is tried again only while its failures come quickly (a pooled
  connection the server closed), so a store that is down or unreachable is reported after one pool wait;
- a store without tables reported as ``StoreHasNoTables``, and the stored-event type looked up again when
  the tables come back (a database dropped and made again gives it a new identity).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import psycopg
from eventsourcing.persistence import (
    DatabaseError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    ProgrammingError,
    StoredEvent,
)
from eventsourcing.postgres import (
    PgStoredEvent,
    PostgresAggregateRecorder,
    PostgresApplicationRecorder,
    PostgresDatastore,
    PostgresFactory,
)
from psycopg.sql import SQL, Identifier

from app.store import AppendRefused, StoreHasNoTables, firsts

T = TypeVar("T")
QUICK = 0.25  # seconds: failures faster than this are a dead pooled connection, worth another try
MAX_QUICK_ATTEMPTS = 8  # a pool's worth of dead connections, and one more
NO_TABLES = "the store has no tables: create them with `wixoss-judge init-db`"


def _no_tables(exc: BaseException) -> bool:
    cause = exc.__cause__
    return isinstance(cause, psycopg.errors.UndefinedTable | psycopg.errors.UndefinedObject)


class _FailFast:
    """What both recorders share: one datastore, calls that fail fast, the tables' presence."""

    datastore: PostgresDatastore
    replaced: list[Callable[[], None]]

    def _call(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        started = time.monotonic()
        attempts = 0
        while True:
            try:
                return fn(self, *args, **kwargs)
            except StoreHasNoTables:
                raise
            except (InterfaceError, OperationalError):
                attempts += 1
                if attempts >= MAX_QUICK_ATTEMPTS or time.monotonic() - started > QUICK:
                    raise
            except ProgrammingError as exc:
                if _no_tables(exc):
                    self._tables_lost()
                    raise StoreHasNoTables(NO_TABLES) from exc
                raise

    def _tables_lost(self) -> None:
        """Forget the stored-event type (it is looked up again once the tables exist) and tell the
        application that the store it knew is gone."""
        self.datastore.psycopg_type_adapters.clear()
        self.datastore.psycopg_python_types.clear()
        for listener in list(self.replaced):
            listener()

    def select_events(self, *args: Any, **kwargs: Any) -> Sequence[StoredEvent]:
        return self._call(PostgresAggregateRecorder.select_events.__wrapped__, *args, **kwargs)  # type: ignore[attr-defined]


class FailFastSnapshotRecorder(_FailFast, PostgresAggregateRecorder):
    """The stored checkpoints' recorder, failing fast."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str) -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        self.replaced = []

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        return self._call(PostgresAggregateRecorder.insert_events.__wrapped__, stored_events, **kwargs)  # type: ignore[attr-defined]

    def construct_pg_stored_event(self, *args: Any) -> PgStoredEvent:
        return _stored_event(self, *args)


class GuardedPostgresRecorder(_FailFast, PostgresApplicationRecorder):
    """The application recorder: appends only right after the store's head, fails fast."""

    def __init__(self, datastore: PostgresDatastore, *, events_table_name: str) -> None:
        super().__init__(datastore, events_table_name=events_table_name)
        self.replaced = []
        self._types_lock = threading.Lock()
        table = Identifier(self.datastore.schema), Identifier(self.events_table_name)
        event_type = Identifier(self.datastore.schema), Identifier(self.stored_event_type_name)
        self.guarded_insert_statement = SQL(
            "INSERT INTO {s}.{t} AS t (originator_id, originator_version, topic, state) "
            "SELECT e.originator_id, e.originator_version, e.topic, e.state "
            "FROM unnest(%s::{es}.{et}[]) AS e "
            "WHERE NOT EXISTS ("
            " SELECT 1 FROM unnest(%s::{es}.{et}[]) AS f GROUP BY f.originator_id"
            " HAVING min(f.originator_version) <> 1 + coalesce("
            "  (SELECT max(h.originator_version) FROM {s}.{t} AS h WHERE h.originator_id = f.originator_id),"
            "  0)"
            ") RETURNING notification_id"
        ).format(s=table[0], t=table[1], es=event_type[0], et=event_type[1])

    def construct_pg_stored_event(self, *args: Any) -> PgStoredEvent:
        return _stored_event(self, *args)

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        try:
            return self._call(type(self)._insert_guarded, stored_events)
        except (IntegrityError, OperationalError, InterfaceError):
            raise
        except DatabaseError:
            # the stored-event type this process knew is not the store's any more (its database was
            # dropped and made again): look it up again, once
            self._tables_lost()
            return self._call(type(self)._insert_guarded, stored_events)

    def _insert_guarded(self, stored_events: Sequence[StoredEvent]) -> Sequence[int]:
        if not stored_events:
            return []
        rows = [
            self.construct_pg_stored_event(s.originator_id, s.originator_version, s.topic, s.state)
            for s in stored_events
        ]
        exc: Exception | None = None
        ids: list[int] = []
        with self.datastore.get_connection() as conn:
            with conn.pipeline() as pipeline, conn.transaction(), conn.cursor() as curs:
                try:
                    self._lock_table(curs)
                    self._notify_channel(curs)
                    curs.execute(self.guarded_insert_statement, (rows, rows))
                    pipeline.sync()
                    ids = [row["notification_id"] for row in curs.fetchall()]
                except Exception as e:  # raised after the pipeline is closed, as the library does
                    exc = e
            if exc:
                raise exc
        if len(ids) != len(stored_events):
            originator_id, first = next(iter(firsts(stored_events).items()))
            raise AppendRefused(originator_id, first)
        return ids

    def select_notifications(self, *args: Any, **kwargs: Any) -> Any:
        return self._call(PostgresApplicationRecorder.select_notifications.__wrapped__, *args, **kwargs)  # type: ignore[attr-defined]

    def max_notification_id(self) -> int | None:
        return self._call(PostgresApplicationRecorder.max_notification_id.__wrapped__)  # type: ignore[attr-defined]


def _stored_event(recorder: PostgresAggregateRecorder, *args: Any) -> PgStoredEvent:
    """The stored-event value the insert sends, its type looked up in the store first when not known yet."""
    datastore = recorder.datastore
    if recorder.stored_event_type_name not in datastore.psycopg_python_types:
        with contextlib.suppress(psycopg.Error):
            PostgresDatastore.register_type_adapters(datastore)
        if recorder.stored_event_type_name not in datastore.psycopg_python_types:
            raise StoreHasNoTables(NO_TABLES)
    return PostgresAggregateRecorder.construct_pg_stored_event(recorder, *args)


def _prepare(factory: PostgresFactory) -> PostgresDatastore:
    """The factory's datastore, set to look its types up on first use (not while the application is made,
    so that a worker starts with the store unreachable) and to give up connecting after the pool's wait."""
    datastore = factory.datastore
    if not getattr(datastore, "wixoss_prepared", False):
        datastore.register_type_adapters = lambda: None  # type: ignore[method-assign]
        kwargs = datastore.pool.kwargs
        if isinstance(kwargs, dict):
            kwargs.setdefault("connect_timeout", max(1, round(datastore.pool.timeout)))
        datastore.wixoss_prepared = True  # type: ignore[attr-defined]
    return datastore


def application_recorder(factory: PostgresFactory) -> GuardedPostgresRecorder:
    datastore = _prepare(factory)
    prefix = factory.env.name.lower() or "stored"
    recorder = GuardedPostgresRecorder(datastore, events_table_name=prefix + "_events")
    if factory.env_create_table():
        recorder.create_table()
    return recorder


def snapshot_recorder(factory: PostgresFactory) -> FailFastSnapshotRecorder:
    datastore = _prepare(factory)
    prefix = factory.env.name.lower() or "stored"
    recorder = FailFastSnapshotRecorder(datastore, events_table_name=prefix + "_snapshots")
    if factory.env_create_table():
        recorder.create_table()
    return recorder
