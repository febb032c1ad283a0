"""The state at a random event N of a 3,000-event match, through the HTTP layer.

    python -m bench.state_at [--events 3000] [--requests 500] [--quick] [--json PATH]

A match of at least 3,000 events is played through the API (Flask test client, SQLite file): random legal
actions, and a judge's rewind each time a game ends. Then a fresh app on the same file (a new process: no
checkpoint in memory) answers ``GET /matches/{id}/state?at=N`` as the judge for random N: the first answer
(cold), then the median and p99 of the rest. The baseline, in the same run, is the same request answered by a
full fold from event 0 (no checkpoint of any kind), to the same N, and to the end of the log. Targets: p99
under 10 ms, and the median at least 20x faster than the full fold (both readings are reported: the fold to
the same N, the stricter, and the fold of the whole log).
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from uuid import UUID

from app.application import JudgeApplication
from bench.common import Report, arguments, eprint, finish, median, percentile
from bench.http import Client, flask_app, judge_of, long_match
from projections.history import History

COMMAND = "python -m bench.state_at"


def timed_get(client: Client, mid: str, n: int) -> float:
    start = time.perf_counter()
    r = client.state(mid, n)
    elapsed = time.perf_counter() - start
    assert r.status_code == 200 and r.get_json()["version"] == n, (r.status_code, r.get_json())
    return elapsed


def timed_state_at(judge: JudgeApplication, match_id: UUID, n: int) -> float:
    start = time.perf_counter()
    state = judge.state_at(match_id, n)
    elapsed = time.perf_counter() - start
    assert state.version == n
    return elapsed


def run(events: int, requests: int, baseline_requests: int) -> Report:
    report = Report(
        "state_at", f"State at a random N of a {events:,}-event match, HTTP layer (SQLite)", COMMAND
    )
    with tempfile.TemporaryDirectory() as tmp:
        store = {
            "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            "SQLITE_DBNAME": str(Path(tmp) / "state.sqlite"),
        }
        eprint(f"bench.state_at: playing a match of {events:,} events through the API ...")
        with flask_app(store) as app:
            start = time.perf_counter()
            mid, head, rewinds = long_match(Client(app), events)
            build_s = time.perf_counter() - start
        rnd = random.Random(42)
        ns = [rnd.randint(1, head) for _ in range(requests)]
        with flask_app(store) as app:  # a new process: nothing in memory
            client = Client(app)
            cold = timed_get(client, mid, ns[0])
            warm = [timed_get(client, mid, n) for n in ns[1:]]
            over = client.state(mid, head + 1).status_code
            # the baseline: the same requests, each a full fold from event 0 (no checkpoint of any kind),
            # interleaved with the same request answered from the checkpoints, so that both see the same load
            judge = judge_of(app)
            fast_history = judge.history
            bare_history = History(fast_history.read, interval=10**9)
            base, paired = [], []
            for n in ns[1 : baseline_requests + 1]:
                paired.append(timed_get(client, mid, n))
                judge.history = bare_history
                bare_history.forget(UUID(mid))
                base.append(timed_get(client, mid, n))
                judge.history = fast_history
            judge.history = bare_history
            bare_history.forget(UUID(mid))
            full_head = timed_get(client, mid, head)
            judge.history = fast_history
        # the same, without HTTP: JudgeApplication.state_at in a new process
        judge = JudgeApplication(store)
        try:
            match_id = UUID(mid)
            app_cold = timed_state_at(judge, match_id, ns[0])
            app_warm = [timed_state_at(judge, match_id, n) for n in ns[1:]]
            bare = History(judge.history.read, interval=10**9)
            app_base = []
            for n in ns[1 : baseline_requests + 1]:
                bare.forget(match_id)
                start = time.perf_counter()
                bare.state_at(match_id, judge.check_at(match_id, n))
                app_base.append(time.perf_counter() - start)
        finally:
            judge.close()

    med, p99 = median(warm), percentile(warm, 99)
    base_med = median(base)
    ratio = base_med / median(paired)
    app_med = median(app_warm)
    report.figure("match", f"{head:,} events, {rewinds} rewinds (built in {build_s:.0f} s)")
    report.figure("requests at random N", len(warm) + 1, "", "{:,}")
    report.figure("first request, cold process", cold * 1e3, "ms", "{:.2f}")
    report.figure("median", med * 1e3, "ms", "{:.2f}")
    report.check("p99", p99 * 1e3, "ms", "< 10 ms", p99 < 0.010, "{:.2f}")
    report.figure("max", max(warm) * 1e3, "ms", "{:.2f}")
    report.figure("baseline: full fold from event 0, median", base_med * 1e3, "ms", "{:.2f}")
    report.figure(f"baseline: full fold of all {head:,} events", full_head * 1e3, "ms", "{:.2f}")
    report.check(
        "ratio full fold to the same N / state at N (medians)", ratio, "x", ">= 20x", ratio >= 20, "{:.1f}"
    )
    whole = full_head / median(paired)
    report.check(
        f"ratio full fold of all {head:,} events / state at N", whole, "x", ">= 20x", whole >= 20, "{:.1f}"
    )
    report.figure("without HTTP: JudgeApplication.state_at, first (cold)", app_cold * 1e3, "ms", "{:.3f}")
    report.figure("without HTTP: median", app_med * 1e3, "ms", "{:.3f}")
    report.figure("without HTTP: p99", percentile(app_warm, 99) * 1e3, "ms", "{:.3f}")
    report.figure("without HTTP: full fold from event 0, median", median(app_base) * 1e3, "ms", "{:.3f}")
    report.figure("without HTTP: ratio full fold / state at N", median(app_base) / app_med, "x", "{:.1f}")
    report.figure(
        "HTTP share of the median (serialising the state view)", (med - app_med) / med * 100, "%", "{:.0f}"
    )
    report.figure("N = head + 1 answers", over, "(HTTP status)", "{}")
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments(__doc__ or "")
    parser.add_argument("--events", type=int, default=3000, help="the match's length (default 3000)")
    parser.add_argument("--requests", type=int, default=500, help="random-N requests (default 500)")
    args = parser.parse_args(argv)
    if args.quick:
        return finish(run(1000, 200, 20), args)
    return finish(run(args.events, args.requests, 60), args)


if __name__ == "__main__":
    raise SystemExit(main())
