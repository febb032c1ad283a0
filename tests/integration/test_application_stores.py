"""``JudgeApplication`` on each store: in-memory, a SQLite file and PostgreSQL (when a server answers).

A match played to its end with random legal actions; the state at any event equals the fold of the stored
events, from a warm and from a cold process; rewind, branch and audit; N checked against the head; two writers
racing for the same version; the schema created once and workers that do not create it.
"""

from __future__ import annotations

import contextlib
import random
import threading
import uuid
from typing import Any

import pytest

from app.application import JudgeApplication, MatchNotFound, OutOfRange, VersionConflict, init_db
from app.store import StoreHasNoTables
from domain.evolve import fold
from domain.legal import legal_actions
from tests.integration.conftest import Store, new_match, play


def stored(app: JudgeApplication, match_id: Any) -> list[Any]:
    return list(app.events.get(match_id))


def decision_point_at_or_before(app: JudgeApplication, match_id: Any, n: int) -> int:
    """The latest decision point at or before event ``n``: time travel goes only there
    (judge.decision-point)."""
    return max(k for k, _, flag in app.decision_points(match_id, 0, n) if flag)


def assert_contiguous(events: list[Any]) -> None:
    versions = [e.originator_version for e in events]
    assert versions == list(range(1, len(events) + 1)), "the log has a gap or a duplicate"


def sample(head: int, rnd: random.Random, k: int = 60) -> list[int]:
    """Every edge and ``k`` random events, in a shuffled order (so checkpoints are met from both sides)."""
    picks = {1, 2, head - 1, head, *rnd.sample(range(1, head + 1), min(k, head))}
    out = sorted(n for n in picks if 1 <= n <= head)
    rnd.shuffle(out)
    return out


def test_a_match_played_to_its_end_and_the_state_at_any_event_is_the_fold(store: Store) -> None:
    app = store.app()
    mid = new_match(app, 7)
    actions = play(app, mid, random.Random(7))
    events = stored(app, mid)
    assert_contiguous(events)
    final = app.state_at(mid)
    assert final.status == "finished" and final.winner in ("p1", "p2")
    assert actions > 20 and final.version == len(events) == app.head(mid)
    assert app.get_match(mid).state.digest() == final.digest()
    rnd = random.Random(1)
    readers = [app] + ([store.app()] if store.shared else [])  # a second process: no checkpoints in memory
    for reader in readers:
        for n in sample(len(events), rnd):
            expected = fold(events[:n])
            got = reader.state_at(mid, n)
            assert got.version == n
            assert got.to_dict() == expected.to_dict(), f"{store.name}: state_at({n}) differs from the fold"
    assert app.audit(mid).ok


def test_a_state_handed_out_cannot_alter_the_history(store: Store) -> None:
    app = store.app()
    mid = new_match(app, 3)
    play(app, mid, random.Random(3), max_actions=40)
    n = app.head(mid) - 3
    first = app.state_at(mid, n)
    first.players["p1"].zones["hand"].clear()
    first.flags["tampered"] = True
    assert app.state_at(mid, n).to_dict() == fold(stored(app, mid)[:n]).to_dict()


def test_rewind_branch_and_audit(store: Store) -> None:
    app = store.app()
    mid = new_match(app, 11)
    rnd = random.Random(11)
    play(app, mid, rnd, max_actions=30)
    head = app.head(mid)
    to = decision_point_at_or_before(app, mid, head // 2)
    before = app.state_at(mid, to)
    app.rewind(mid, to, "a misplayed card")
    events = stored(app, mid)
    assert_contiguous(events)
    rewound = next(e for e in events[head:] if e.type == "Rewound")
    assert app.state_at(mid, rewound.originator_version).digest() == before.digest()
    play(app, mid, rnd, max_actions=15)
    report = app.audit(mid)
    assert report.ok, report.problems
    assert app.rewound_marks(mid), "the events undone by the rewind are marked"

    at = decision_point_at_or_before(app, mid, app.head(mid) - 5)
    parent_at = app.state_at(mid, at)
    child = app.branch(mid, at, "what if")
    child_events = stored(app, child.id)
    assert_contiguous(child_events)
    assert app.state_at(child.id, at).digest() == parent_at.digest()
    play(app, child.id, random.Random(5), max_actions=10)
    assert app.audit(child.id).ok and app.audit(mid).ok
    entry = next(m for m in app.list_matches() if m["id"] == str(child.id))
    assert entry["parent"] == str(mid)
    assert app.state_at(child.id).to_dict() == fold(stored(app, child.id)).to_dict()


def test_n_is_checked_against_the_head(store: Store) -> None:
    app = store.app()
    mid = new_match(app, 2)
    play(app, mid, random.Random(2), max_actions=5)
    head = app.head(mid)
    for bad in (0, -1, head + 1, head + 1000):
        with pytest.raises(OutOfRange):
            app.state_at(mid, bad)
        with pytest.raises(OutOfRange):
            app.ruling(mid, {"type": "pass", "player": "p1"}, at=bad)
        with pytest.raises(OutOfRange):
            app.rewind(mid, bad, "no")
        with pytest.raises(OutOfRange):
            app.branch(mid, bad, "no")
    assert app.state_at(mid, head).version == head
    assert app.head(mid) == head, "nothing was appended by the refused requests"
    with pytest.raises(MatchNotFound):
        app.state_at(uuid.uuid4(), 1)
    # a head that moved on in another process is seen: N up to the new head is in range
    if store.shared:
        other = store.app()
        state = other.state_at(mid)
        other.act(mid, next(iter(legal_actions(state))), state.version)
        new_head = other.head(mid)
        assert new_head > head
        assert app.state_at(mid, new_head).version == new_head
        assert app.state_at(mid).version == new_head


@pytest.mark.parametrize("working_copy", ["y", "n"])
@pytest.mark.parametrize("fastforward", ["y", "n"])
def test_two_writers_racing_for_one_version(shared_store: Store, fastforward: str, working_copy: str) -> None:
    """Two processes act on the same match with the same expected version: one wins, the other is refused
    (VersionConflict, a 409), and the log has no gap and no duplicate. The loser decides on its cached match
    without asking the store first, so its insert is the one that collides in the store."""
    a = shared_store.app(WORKING_COPY=working_copy)
    b = shared_store.app(AGGREGATE_CACHE_FASTFORWARD=fastforward, WORKING_COPY=working_copy)
    assert b.working_copy is (working_copy == "y")
    mid = new_match(a, 21)
    play(a, mid, random.Random(21), max_actions=3)
    rnd = random.Random(4)
    for _round in range(6):
        state = a.state_at(mid)
        if state.status == "finished":
            break
        b._fresh(mid)  # b's cached match is now at the same version as a's, and stays there
        action = rnd.choice(list(legal_actions(state)))
        a.act(mid, action, state.version)
        with pytest.raises(VersionConflict) as conflict:
            b.act(mid, action, state.version)
        assert conflict.value.expected == state.version and conflict.value.actual > state.version
        assert_contiguous(stored(a, mid))
        # b catches up (from its cached match left at its version, or rebuilt) and acts on the new head
        state = b.state_at(mid)
        if state.status == "finished":
            break
        b.act(mid, rnd.choice(list(legal_actions(state))), state.version)
        assert_contiguous(stored(a, mid))
    assert a.audit(mid).ok


def test_concurrent_writers_in_threads(shared_store: Store) -> None:
    """Four writers (two processes, two threads each) race on one match: every answered action is in the
    log exactly once, refused ones are not, and the audit is ok."""
    apps = [shared_store.app(), shared_store.app()]
    mid = new_match(apps[0], 33)
    won: list[tuple[int, str]] = []
    refused = 0
    lock = threading.Lock()
    barrier = threading.Barrier(4)

    def writer(k: int) -> None:
        nonlocal refused
        app = apps[k % 2]
        rnd = random.Random(k)
        for _ in range(25):
            state = app.state_at(mid)
            if state.status == "finished":
                return
            action = rnd.choice(list(legal_actions(state)))
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait(timeout=10)
            try:
                events = app.act(mid, action, state.version)
            except VersionConflict:
                with lock:
                    refused += 1
                continue
            with lock:
                won.append((events[0].originator_version, events[0].hash))

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    barrier.abort()
    events = stored(apps[0], mid)
    assert_contiguous(events)
    by_version = {e.originator_version: e.hash for e in events}
    for version, h in won:
        assert by_version[version] == h, f"answered action at {version} is not in the log"
    assert len({v for v, _ in won}) == len(won), "two writers were both answered for one version"
    assert refused > 0, "the writers never collided: the test did not race"
    assert apps[0].audit(mid).ok


def test_schema_created_once_then_workers_that_do_not_create_it(shared_store: Store) -> None:
    env = shared_store.env
    if shared_store.name == "postgres":
        worker = shared_store.app(CREATE_TABLE="no")  # made without the tables: it does not connect yet
        with pytest.raises(StoreHasNoTables, match="init-db"):
            new_match(worker, 1)
    init_db(env)
    init_db(env)  # once more: harmless
    errors: list[BaseException] = []
    made: list[Any] = []
    start = threading.Barrier(4)

    def boot_and_play(k: int) -> None:
        try:
            start.wait(timeout=10)
            app = shared_store.app(CREATE_TABLE="no")
            mid = new_match(app, 100 + k)
            play(app, mid, random.Random(k), max_actions=5)
            made.append(mid)
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=boot_and_play, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors, errors
    reader = shared_store.app(CREATE_TABLE="no")
    listed = {m["id"] for m in reader.list_matches()}
    assert {str(m) for m in made} <= listed and len(made) == 4
    for mid in made:
        assert reader.audit(mid).ok


def test_checkpoints_in_memory_and_in_the_store(store: Store) -> None:
    """Stored checkpoints at odd places, in-memory ones every 5 events, a tiny memory budget: the state at
    every N is still the fold, and a match rebuilt from a stored checkpoint plays on."""
    settings = {"STORED_CHECKPOINT_INTERVAL": "7", "CHECKPOINT_INTERVAL": "5", "CHECKPOINTS_IN_MEMORY": "12"}
    app = store.app(**settings)
    mid = new_match(app, 13)
    play(app, mid, random.Random(13), max_actions=60)
    events = stored(app, mid)
    assert app.snapshots is not None
    checkpoints = [s.originator_version for s in app.snapshots.get(mid)]
    assert checkpoints == sorted(set(checkpoints)) and len(checkpoints) >= len(events) // 21, checkpoints
    reader = store.app(**settings) if store.shared else app
    reader.history.forget(mid)
    reader._evict(mid)
    for n in range(len(events), 0, -1):
        assert reader.state_at(mid, n).to_dict() == fold(events[:n]).to_dict(), f"state_at({n})"
    assert reader.history.states <= 12 + 1
    rebuilt = reader.get_match(mid)  # from the newest stored checkpoint and the events after it
    assert rebuilt.version == len(events) and rebuilt.state.digest() == fold(events).digest()
    assert rebuilt.head_hash == events[-1].hash
    play(reader, mid, random.Random(14), max_actions=5)
    assert_contiguous(stored(app, mid))
    assert reader.audit(mid).ok


def test_no_stored_checkpoints_when_snapshotting_is_off(store: Store) -> None:
    app = store.app(IS_SNAPSHOTTING_ENABLED="n")
    assert app.snapshots is None
    mid = new_match(app, 17)
    play(app, mid, random.Random(17), max_actions=40)
    events = stored(app, mid)
    app.history.forget(mid)
    for n in (1, len(events) // 2, len(events)):
        assert app.state_at(mid, n).to_dict() == fold(events[:n]).to_dict()
