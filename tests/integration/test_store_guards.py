"""The store is the truth: an append that does not start right after the store's head is refused in the
insert's own transaction (``app.store``), and a process whose caches are ahead of a store restored from an
older copy drops them, answers from the store, and never writes past a hole.

"Restored from an older copy" is done here by deleting a match's events after some event number (and its
stored checkpoints), as copying the rows of an earlier dump back would leave them, while the application keeps
running with its caches.
"""

from __future__ import annotations

import random
import sqlite3
from typing import Any
from uuid import UUID, uuid4

import pytest
from eventsourcing.persistence import IntegrityError, StoredEvent

from app.application import JudgeApplication, VersionConflict
from app.store import AppendRefused
from domain.legal import legal_actions
from tests.integration.conftest import Store, _pg_connect, new_match, play


def _stored(originator_id: UUID, versions: range) -> list[StoredEvent]:
    return [StoredEvent(originator_id, v, "test:Happened", b"{}") for v in versions]


def test_an_append_must_start_right_after_the_stores_head(store: Store) -> None:
    recorder = store.app().recorder
    mid = uuid4()
    recorder.insert_events(_stored(mid, range(1, 4)))
    with pytest.raises(AppendRefused):  # a hole: 4 is missing
        recorder.insert_events(_stored(mid, range(5, 7)))
    with pytest.raises(AppendRefused):  # a new match must start at 1
        recorder.insert_events(_stored(uuid4(), range(2, 3)))
    with pytest.raises(IntegrityError):  # already there: the library's own refusal
        recorder.insert_events(_stored(mid, range(3, 5)))
    assert [e.originator_version for e in recorder.select_events(mid)] == [1, 2, 3]
    recorder.insert_events(_stored(mid, range(4, 6)))
    assert [e.originator_version for e in recorder.select_events(mid)] == [1, 2, 3, 4, 5]


def cut_back(store: Store, app: JudgeApplication, mid: UUID, keep: int) -> None:
    """The store as an older copy has it: the match's events after ``keep`` and its checkpoints after it are
    gone; ``app`` is not told."""
    if store.name == "popo":
        for recorder in (app.recorder, app.snapshots.recorder if app.snapshots else None):
            if recorder is None:
                continue
            rows: Any = recorder
            with rows._database_lock:
                kept = [
                    s
                    for s in rows._stored_events
                    if not (s.originator_id == mid and s.originator_version > keep)
                ]
                rows._stored_events[:] = kept
                rows._stored_events_index.clear()
                for i, s in enumerate(kept):
                    rows._stored_events_index[str(s.originator_id)][s.originator_version] = i
        return
    tables = ("stored_events", "stored_snapshots")
    if store.name == "sqlite":
        con = sqlite3.connect(store.env["SQLITE_DBNAME"])
        with con:
            for table in tables:
                con.execute(
                    f"DELETE FROM {table} WHERE originator_id = ? AND originator_version > ?", (mid.hex, keep)
                )
        con.close()
        return
    schema = store.env["POSTGRES_SCHEMA"]
    with _pg_connect(store.env["POSTGRES_DBNAME"]) as con:
        for table in ("wixoss_judge_events", "wixoss_judge_snapshots"):
            con.execute(
                f'DELETE FROM "{schema}".{table} WHERE originator_id = %s AND originator_version > %s',
                (mid, keep),
            )


def test_a_cache_ahead_of_a_restored_store_never_writes_past_the_hole(store: Store) -> None:
    app = store.app(STORED_CHECKPOINT_INTERVAL="10", CHECKPOINT_INTERVAL="4")
    chooser = random.Random(7)
    mid = new_match(app, 3)
    play(app, mid, chooser, max_actions=15)
    restored_head = app.head(mid)
    play(app, mid, chooser, max_actions=15)
    cached = app.state_at(mid)  # every cache now knows the match at its later head
    assert cached.version > restored_head
    action = next(iter(legal_actions(cached)))

    cut_back(store, app, mid, restored_head)

    # an action expecting the cached head is refused as a conflict naming the store's head
    with pytest.raises(VersionConflict) as refused:
        app.act(mid, action, expected_version=cached.version)
    assert refused.value.actual == restored_head
    versions = [e.originator_version for e in app.recorder.select_events(mid)]
    assert versions == list(range(1, restored_head + 1)), "an event was written past the hole"

    # the latest state is the store's, and play goes on from there
    assert app.state_at(mid).version == restored_head
    play(app, mid, chooser, max_actions=10)
    versions = [e.originator_version for e in app.recorder.select_events(mid)]
    assert versions == list(range(1, len(versions) + 1)) and len(versions) > restored_head
    assert app.audit(mid).ok


def test_an_action_without_expected_version_is_decided_again_on_the_restored_store(store: Store) -> None:
    app = store.app()
    chooser = random.Random(11)
    mid = new_match(app, 4)
    play(app, mid, chooser, max_actions=10)
    restored_head = app.head(mid)
    restored_state = app.state_at(mid)
    play(app, mid, chooser, max_actions=10)
    app.state_at(mid)
    cut_back(store, app, mid, restored_head)
    # a legal answer where the store stands; the cached match (further on) would write past the hole
    events = app.act(mid, next(iter(legal_actions(restored_state))))
    assert events[0].originator_version == restored_head + 1
    assert app.audit(mid).ok


def test_a_head_lower_than_one_seen_drops_the_caches(store: Store) -> None:
    app = store.app()
    chooser = random.Random(5)
    mid = new_match(app, 6)
    play(app, mid, chooser, max_actions=12)
    high = app.head(mid)
    cut_back(store, app, mid, 5)
    assert app.head(mid) == 5
    assert app.state_at(mid, 5).version == 5
    with pytest.raises(Exception, match="out of range"):
        app.state_at(mid, high)  # no longer answered from what was seen before
