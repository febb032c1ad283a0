"""Actions per second through the HTTP layer on SQLite, against a bare library ``save`` of the same events.

    python -m bench.actions [--matches 10] [--clients 8] [--quick] [--json PATH]

Complete random matches are decided in advance (``bench.common.make_scripts``); their actions are then posted
through the API (Flask test client, SQLite file, as the judge, each with its expected version):
- by one client, one action after another;
- by ``--clients`` threads at once in the same process, each playing its own matches (a tournament);
- directly on ``JudgeApplication.act`` without HTTP (where the time goes).
The baseline, in the same run: the events those actions stored, saved again batch by batch (one ``save``
per action, as ``act`` does) by a plain ``eventsourcing`` Application into a fresh SQLite file.
The SQLite files are on disk (``--dir``, default the system's temporary folder), where every commit waits for
an fsync; the one-client run and the baseline are repeated with the files in /dev/shm (tmpfs, where an fsync
costs nothing), which leaves the CPU cost alone.
Target: at least 1,000 actions/s per process on SQLite.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

from eventsourcing.application import Application

from app.application import JudgeApplication
from bench.common import (
    Report,
    Script,
    arguments,
    eprint,
    finish,
    make_scripts,
    player_setups,
    skipped_note,
)
from bench.http import Client, flask_app, judge_of

COMMAND = "python -m bench.actions"


def sqlite(path: Path) -> dict[str, str]:
    return {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(path)}


def play_http(client: Client, script: Script) -> tuple[str, float]:
    """Create the match, then post every action; returns (id, seconds spent on the actions)."""
    mid, version = client.create(script.seed, script.decks)
    assert version == script.created_events
    start = time.perf_counter()
    for (action, expected), size in zip(script.actions, script.batches, strict=True):
        r = client.act(mid, action, expected)
        assert r.status_code == 201, (r.status_code, r.get_json())
        assert r.get_json()["version"] == expected + size
    return mid, time.perf_counter() - start


def sequential(store: dict[str, str], scripts: list[Script]) -> tuple[float, list[str]]:
    with flask_app(store) as app:
        client = Client(app)
        played = [play_http(client, s) for s in scripts]
    return sum(s for _, s in played), [m for m, _ in played]


def concurrent(store: dict[str, str], scripts: list[Script], clients: int) -> float:
    with flask_app(store) as app:
        todo = list(scripts)
        lock = threading.Lock()
        errors: list[BaseException] = []
        barrier = threading.Barrier(clients + 1)

        def worker() -> None:
            client = Client(app)
            barrier.wait()
            while True:
                with lock:
                    if not todo:
                        return
                    script = todo.pop()
                try:
                    play_http(client, script)
                except BaseException as exc:
                    errors.append(exc)
                    return

        threads = [threading.Thread(target=worker) for _ in range(clients)]
        for t in threads:
            t.start()
        barrier.wait()
        start = time.perf_counter()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - start
        if errors:
            raise errors[0]
    return elapsed


def direct(store: dict[str, str], scripts: list[Script]) -> float:
    app = JudgeApplication(store)
    try:
        elapsed = 0.0
        for s in scripts:
            mid = app.create_match("diva", s.seed, player_setups(s.decks)).id
            start = time.perf_counter()
            for action, expected in s.actions:
                app.act(mid, action, expected)
            elapsed += time.perf_counter() - start
    finally:
        app.close()
    return elapsed


def batches_of(events: list[Any], script: Script) -> list[list[Any]]:
    out, i = [], script.created_events
    for size in script.batches:
        out.append(events[i : i + size])
        i += size
    return out


def bare_saves(source: dict[str, str], ids: list[str], scripts: list[Script], target: Path) -> float:
    reader = JudgeApplication(source)
    try:
        batches = [
            b
            for mid, s in zip(ids, scripts, strict=True)
            for b in batches_of(list(reader.events.get(UUID(mid))), s)
        ]
    finally:
        reader.close()
    plain: Application[UUID] = Application(sqlite(target))
    try:
        start = time.perf_counter()
        for batch in batches:
            plain.save(*batch)
        return time.perf_counter() - start
    finally:
        plain.close()


TMPFS = Path("/dev/shm")


def run(matches: int, clients: int, where: str | None) -> Report:
    report = Report("actions", "Actions per second through the HTTP layer (SQLite file)", COMMAND)
    eprint(f"bench.actions: deciding {matches} random matches in advance ...")
    scripts = make_scripts(matches, seed=500)
    actions = sum(len(s.actions) for s in scripts)
    events = sum(sum(s.batches) for s in scripts)
    with tempfile.TemporaryDirectory(dir=where) as tmp:
        root = Path(tmp)
        eprint(f"bench.actions: one client, SQLite in {root} ...")
        seq_s, ids = sequential(sqlite(root / "seq.sqlite"), scripts)
        with flask_app(sqlite(root / "seq.sqlite")) as app:  # every match is whole and audits ok
            judge = judge_of(app)
            assert all(judge.audit(UUID(m)).ok for m in ids)
        eprint(f"bench.actions: {clients} clients ...")
        conc_s = concurrent(sqlite(root / "conc.sqlite"), scripts, clients)
        eprint("bench.actions: JudgeApplication.act without HTTP ...")
        direct_s = direct(sqlite(root / "direct.sqlite"), scripts)
        eprint("bench.actions: bare library saves ...")
        bare_s = bare_saves(sqlite(root / "seq.sqlite"), ids, scripts, root / "bare.sqlite")
    shm_seq_s = shm_bare_s = None
    if TMPFS.is_dir():
        with tempfile.TemporaryDirectory(dir=TMPFS) as tmp:
            root = Path(tmp)
            eprint(f"bench.actions: one client and bare saves, SQLite in {root} ...")
            shm_seq_s, shm_ids = sequential(sqlite(root / "seq.sqlite"), scripts)
            shm_bare_s = bare_saves(sqlite(root / "seq.sqlite"), shm_ids, scripts, root / "bare.sqlite")

    seq, conc, bare = actions / seq_s, actions / conc_s, actions / bare_s
    report.figure("actions / events", f"{actions:,} / {events:,} ({events / actions:.1f} events per action)")
    report.check("HTTP, one client", seq, "actions/s", ">= 1,000", seq >= 1000, "{:,.0f}")
    report.check(
        f"HTTP, {clients} clients in one process", conc, "actions/s", ">= 1,000", conc >= 1000, "{:,.0f}"
    )
    report.figure("JudgeApplication.act, no HTTP", actions / direct_s, "actions/s", "{:,.0f}")
    report.figure("bare library save of the same batches (baseline)", bare, "saves/s", "{:,.0f}")
    report.figure("ratio HTTP one client / bare save", seq / bare, "x", "{:.2f}")
    report.figure(f"ratio HTTP {clients} clients / bare save", conc / bare, "x", "{:.2f}")
    report.figure("time per action, HTTP one client", seq_s / actions * 1e3, "ms", "{:.2f}")
    report.figure("time per save, bare library", bare_s / actions * 1e3, "ms", "{:.2f}")
    if shm_seq_s is not None and shm_bare_s is not None:
        shm, shm_bare = actions / shm_seq_s, actions / shm_bare_s
        report.check(
            "HTTP, one client, SQLite on tmpfs (CPU only)",
            shm,
            "actions/s",
            ">= 1,000",
            shm >= 1000,
            "{:,.0f}",
        )
        report.figure("bare library save on tmpfs (baseline)", shm_bare, "saves/s", "{:,.0f}")
        report.figure("ratio HTTP one client / bare save, tmpfs", shm / shm_bare, "x", "{:.2f}")
    if skipped_note():
        report.note(skipped_note() or "")
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments(__doc__ or "")
    parser.add_argument("--matches", type=int, default=10, help="complete matches to play (default 10)")
    parser.add_argument("--clients", type=int, default=8, help="client threads for the concurrent run (8)")
    parser.add_argument("--dir", help="where the SQLite files go (default: the system's temporary folder)")
    args = parser.parse_args(argv)
    return finish(run(3 if args.quick else args.matches, args.clients, args.dir), args)


if __name__ == "__main__":
    raise SystemExit(main())
