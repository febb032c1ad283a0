"""Fold speed: the state of a whole log from event 0, against merely reading and decoding that log.

    python -m bench.fold [--matches 20] [--quick] [--json PATH]

Complete random matches are recorded in a SQLite file through ``JudgeApplication``; then, for every match,
the best of several rounds, each round running every one of these once, in turn:
- read and decode: every event of ``app.events.get(id)``, each dropped once decoded (the baseline; keeping
  them all in a list costs more than folding them, as the garbage collector then walks them again and again);
- read, decode and fold: ``fold(app.events.get(id))``, what the state at N costs with no checkpoint;
- the fold alone, on events already decoded;
- the ``Match`` aggregate rebuilt by the repository with ``domain.match.project`` and with the library's
  default projector.
Targets: folding at least 50,000 events/s, and at least half the speed of reading and decoding alone.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from app.application import JudgeApplication
from bench.common import (
    Report,
    arguments,
    best_each,
    eprint,
    finish,
    make_scripts,
    player_setups,
    skipped_note,
)
from domain.evolve import fold
from domain.match import project

COMMAND = "python -m bench.fold"


def record(app: JudgeApplication, count: int) -> list[Any]:
    ids = []
    for script in make_scripts(count, seed=100):
        mid = app.create_match("diva", script.seed, player_setups(script.decks)).id
        for action, version in script.actions:
            app.act(mid, action, version)
        ids.append(mid)
    return ids


def run(matches: int, repeats: int) -> Report:
    report = Report("fold", "Fold speed for whole logs (SQLite file)", COMMAND)
    with tempfile.TemporaryDirectory() as tmp:
        env = {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(Path(tmp) / "fold.sqlite"),
            "IS_SNAPSHOTTING_ENABLED": "n",  # whole logs: no stored checkpoint to start from
        }
        app = JudgeApplication(env)
        try:
            eprint(f"bench.fold: recording {matches} complete matches ...")
            ids = record(app, matches)
            logs = {mid: list(app.events.get(mid)) for mid in ids}
            total = sum(len(v) for v in logs.values())
            heads = {mid: len(v) for mid, v in logs.items()}

            def read_all() -> None:  # each event dropped once decoded, as the fold drops it once applied
                for mid in ids:
                    for _event in app.events.get(mid):
                        pass

            def read_fold_all() -> None:
                for mid in ids:
                    fold(app.events.get(mid))

            def fold_only() -> None:
                for log in logs.values():
                    fold(log)

            def rebuild(projector: Any) -> None:
                for mid in ids:
                    app.repository.get(mid, version=heads[mid], projector_func=projector)

            def rebuild_default() -> None:
                for mid in ids:
                    app.repository.get(mid, version=heads[mid])

            read_s, read_fold_s, fold_s, project_s, default_s = best_each(
                repeats, read_all, read_fold_all, fold_only, lambda: rebuild(project), rebuild_default
            )
            for mid, log in logs.items():  # the two projectors agree
                a = app.repository.get(mid, version=heads[mid], projector_func=project)
                b = app.repository.get(mid, version=heads[mid])
                assert a.state.to_dict() == b.state.to_dict() == fold(log).to_dict()
        finally:
            app.close()

    rate = total / read_fold_s
    read_rate = total / read_s
    report.figure("matches / events", f"{matches} / {total:,}")
    report.figure("read + decode (baseline)", read_rate, "events/s", "{:,.0f}")
    report.check(
        "read + decode + fold from event 0", rate, "events/s", ">= 50,000", rate >= 50_000, "{:,.0f}"
    )
    report.check(
        "ratio to read + decode alone", rate / read_rate, "x", ">= 0.5", rate / read_rate >= 0.5, "{:.2f}"
    )
    report.figure("fold alone (events in memory)", total / fold_s, "events/s", "{:,.0f}")
    report.figure("aggregate rebuild, domain.match.project", total / project_s, "events/s", "{:,.0f}")
    report.figure("aggregate rebuild, library default projector", total / default_s, "events/s", "{:,.0f}")
    report.figure("project vs default projector", default_s / project_s, "x faster", "{:.2f}")
    if skipped_note():
        report.note(skipped_note() or "")
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments(__doc__ or "")
    parser.add_argument("--matches", type=int, default=20, help="complete matches to record (default 20)")
    args = parser.parse_args(argv)
    matches = 5 if args.quick else args.matches
    return finish(run(matches, 3 if args.quick else 7), args)


if __name__ == "__main__":
    raise SystemExit(main())
