"""Keys live in the log: on every store a keyed request is recorded once, a new Application on the same store
(a restart, another worker) finds the key, and logs written before keys existed still fold and audit."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

import pytest

from app.application import IdempotentRequest, JudgeApplication, KeyReused, VersionConflict
from domain.legal import legal_actions
from tests.integration.conftest import Store, make_store, new_match, players


def keyed(key: str, digest: str = "d", caller: str = "judge") -> IdempotentRequest:
    return IdempotentRequest(key, caller, digest)


def test_a_keyed_action_is_recorded_once_on_every_store(store: Store) -> None:
    app = store.app()
    mid = new_match(app, 21)
    state = app.state_at(mid)
    action = next(iter(legal_actions(state)))
    first = app.act(mid, action, request=keyed("a"))
    head = app.head(mid)
    assert first[0].idempotency == {"key": "a", "caller": "judge", "request": "d"}
    assert all(e.idempotency is None for e in first[1:])
    again = app.act(mid, action, request=keyed("a"))
    assert [e.hash for e in again] == [e.hash for e in first]
    # with an expected version that is no longer the head: still the first answer, not a conflict
    assert [e.hash for e in app.act(mid, action, state.version, request=keyed("a"))] == [
        e.hash for e in first
    ]
    assert app.head(mid) == head
    with pytest.raises(KeyReused):
        app.act(mid, action, request=keyed("a", "another request"))
    # the same key is another caller's own key
    with pytest.raises(VersionConflict):
        app.act(mid, action, state.version, request=keyed("a", caller="p1"))
    assert app.audit(mid).ok


def test_a_new_application_on_the_same_store_finds_the_keys(shared_store: Store) -> None:
    """A restart (SQLite) or another worker (PostgreSQL): nothing in memory, the keys are in the log."""
    first_app = shared_store.app()
    made = first_app.create_match("diva", 5, players(5), "p1", keyed("create"))
    action = next(iter(legal_actions(first_app.state_at(made.id))))
    acted = first_app.act(made.id, action, request=keyed("act"))
    rewind_to = made.version
    rewound = first_app.rewind(made.id, rewind_to, "a retry", keyed("rewind"))
    branched = first_app.branch(made.id, rewind_to, "what if", keyed("branch"))
    head = first_app.head(made.id)
    first_app.close()

    app = shared_store.app()
    again = app.create_match("diva", 6, players(6), "p1", keyed("create"))
    assert (again.id, again.version, again.state.seed) == (made.id, made.version, 5)
    assert [e.hash for e in app.act(made.id, action, request=keyed("act"))] == [e.hash for e in acted]
    assert [e.hash for e in app.rewind(made.id, rewind_to, "a retry", keyed("rewind"))] == [
        e.hash for e in rewound
    ]
    b = app.branch(made.id, rewind_to, "what if", keyed("branch"))
    assert (b.id, b.version) == (branched.id, branched.version)
    assert app.head(made.id) == head
    assert len(app.list_matches()) == 2
    with pytest.raises(KeyReused):
        app.create_match("diva", 6, players(6), "p1", keyed("create", "another body"))


def test_two_applications_racing_with_one_key_record_it_once(shared_store: Store) -> None:
    """Two Applications (two workers), four threads each, one keyed action: one batch, one answer."""
    apps = [shared_store.app(), shared_store.app()]
    mid = new_match(apps[0], 22)
    head = apps[0].head(mid)
    action = next(iter(legal_actions(apps[0].state_at(mid))))
    barrier = threading.Barrier(8)
    answers: list[list[str]] = []
    errors: list[BaseException] = []

    def worker(i: int) -> None:
        barrier.wait()
        try:
            events = apps[i % 2].act(mid, action, request=keyed("race"))
            answers.append([e.hash for e in events])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    assert len(answers) == 8 and all(a == answers[0] for a in answers)
    stored = apps[0].stored_events(mid)
    assert len(stored) == head + len(answers[0])
    assert [e.n for e in stored if e.idempotency] == [head + 1]


def test_a_log_written_before_keys_existed_folds_and_audits(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Stored events without the ``idempotency`` field (every event of an older log): the same state, the same
    hashes, audit ok, and keyed requests work on that match."""
    s = make_store("sqlite", request, tmp_path)
    try:
        app = s.app()
        mid = new_match(app, 23)
        for _ in range(6):
            app.act(mid, next(iter(legal_actions(app.state_at(mid)))))
        digest, hashes = app.state_at(mid).digest(), [e.hash for e in app.stored_events(mid)]
        app.close()
        con = sqlite3.connect(s.env["SQLITE_DBNAME"])
        with con:
            rows = con.execute("SELECT rowid, state FROM stored_events").fetchall()
            assert rows
            for rowid, state in rows:
                data = json.loads(state)
                assert data.pop("idempotency") is None
                con.execute(
                    "UPDATE stored_events SET state = ? WHERE rowid = ?", (json.dumps(data).encode(), rowid)
                )
        con.close()
        old = s.app(IS_SNAPSHOTTING_ENABLED="n")
        assert old.state_at(mid).digest() == digest
        assert [e.hash for e in old.stored_events(mid)] == hashes
        assert all(e.idempotency is None for e in old.stored_events(mid))
        assert old.audit(mid).ok
        action = next(iter(legal_actions(old.state_at(mid))))
        once = old.act(mid, action, request=keyed("late"))
        assert [e.hash for e in old.act(mid, action, request=keyed("late"))] == [e.hash for e in once]
        assert old.audit(mid).ok
    finally:
        s.close()


def test_an_index_the_store_no_longer_backs_is_read_again(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """The store restored to an earlier copy: the key's batch is gone, so the request is decided anew
    instead of being answered with events that no longer exist."""
    s = make_store("sqlite", request, tmp_path)
    try:
        app: JudgeApplication = s.app(AGGREGATE_CACHE_FASTFORWARD="n")
        mid = new_match(app, 24)
        head = app.head(mid)
        action = next(iter(legal_actions(app.state_at(mid))))
        app.act(mid, action, request=keyed("gone"))
        assert app.recorded(mid, keyed("gone")) is not None
        con = sqlite3.connect(s.env["SQLITE_DBNAME"])
        with con:
            con.execute("DELETE FROM stored_events WHERE originator_version > ?", (head,))
        con.close()
        assert app.recorded(mid, keyed("gone")) is None
        # decided anew on the restored log, and recorded once again
        again = app.act(mid, action, request=keyed("gone"))
        assert again[0].n == head + 1
        assert [e.hash for e in app.act(mid, action, request=keyed("gone"))] == [e.hash for e in again]
    finally:
        s.close()


def test_the_keys_kept_in_memory_stay_within_their_budget_and_the_log_keeps_them_all(store: Store) -> None:
    app = store.app()
    app.KEYS_IN_MEMORY = 3  # matches plus keys
    matches = [new_match(app, seed) for seed in (31, 32, 33)]
    first: dict[object, list[Any]] = {}
    for mid in matches:
        action = next(iter(legal_actions(app.state_at(mid))))
        first[mid] = app.act(mid, action, request=keyed(f"k-{mid}"))
    heads = {mid: app.head(mid) for mid in matches}
    for _ in range(2):
        for mid in matches:  # a dropped index is read again from the log
            again = app.act(mid, first[mid][0].action, request=keyed(f"k-{mid}"))
            assert [e.hash for e in again] == [e.hash for e in first[mid]]
            assert len(app._keys) + app._keyed_batches <= 3
            assert len(app._keys) < 3  # the least recently used match's keys were dropped
    assert {mid: app.head(mid) for mid in matches} == heads
