"""PostgreSQL behind gunicorn: 32 concurrent clients playing 100 matches, with 4 workers and with 1.

    python -m bench.postgres [--matches 100] [--clients 32] [--workers 4,1] [--race] [--quick] [--json PATH]

For each worker count, on a database of its own (created on the server at 127.0.0.1:5432 and dropped after):
``wixoss-judge init-db`` creates the schema once, then ``gunicorn -w N 'app:create_app()'`` starts on a free
loopback port with ``CREATE_TABLE=no`` (the README's production command). The matches are created first, then
played by the clients, each taking the next match and playing it to its end: ``GET /legal-actions``, then a
random one posted with the token of the player who must decide and the expected version. Every 8th action is
sent twice at once on two connections (a double click, a retry after a timeout): one copy is answered 201,
the other 409, whichever worker each reaches. With ``--race`` every match is instead played by two clients at
once, both answering every decision with the judge's token (every version contested: a stress test).
Play stops at the end of each game, after 400 actions in a match, or at the time limit. Afterwards every match
is audited through the API, and the stored log is checked: versions 1..head without a gap or a duplicate,
every event a 201 announced stored with the same hash, and as many events as the creations and the 201s
announced (none lost, none duplicated).
Targets: no lost or duplicated event, every audit ok, and more actions/s with 4 workers than with 1.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.common import JUDGE_TOKEN, Report, arguments, create_body, decks_for, eprint, finish

COMMAND = "python -m bench.postgres"
PG = {
    "POSTGRES_HOST": os.environ.get("BENCH_POSTGRES_HOST", "127.0.0.1"),
    "POSTGRES_PORT": os.environ.get("BENCH_POSTGRES_PORT", "5432"),
    "POSTGRES_USER": os.environ.get("BENCH_POSTGRES_USER", "postgres"),
    "POSTGRES_PASSWORD": os.environ.get("BENCH_POSTGRES_PASSWORD", ""),
}
MAX_ACTIONS_PER_MATCH = 400
BIN = Path(sys.executable).parent


def admin() -> Any:
    import psycopg

    return psycopg.connect(
        host=PG["POSTGRES_HOST"],
        port=PG["POSTGRES_PORT"],
        user=PG["POSTGRES_USER"],
        password=PG["POSTGRES_PASSWORD"],
        dbname="postgres",
        autocommit=True,
        connect_timeout=5,
    )


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# -- a tiny HTTP client ---------------------------------------------------------------------------


def request(
    port: int, method: str, path: str, body: Any = None, timeout: float = 60, token: str = JUDGE_TOKEN
) -> tuple[int, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Authorization": f"Bearer {token}"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=payload, headers=headers)
        r = conn.getresponse()
        data = r.read()
        return r.status, (json.loads(data) if data else None)
    finally:
        conn.close()


# -- one server -----------------------------------------------------------------------------------


class Server:
    """gunicorn with ``workers`` workers on a free loopback port, on its own fresh database."""

    def __init__(self, workers: int, log_dir: Path) -> None:
        self.workers = workers
        self.port = free_port()
        self.dbname = f"wixoss_bench_{uuid.uuid4().hex[:10]}"
        self.log = log_dir / f"gunicorn-w{workers}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.env = {
            **os.environ,
            **PG,
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": self.dbname,
            "JUDGE_TOKEN": JUDGE_TOKEN,
        }

    def __enter__(self) -> Server:
        with admin() as conn:
            conn.execute(f'CREATE DATABASE "{self.dbname}"')
        init = subprocess.run(
            [str(BIN / "wixoss-judge"), "init-db"], env=self.env, capture_output=True, text=True, timeout=120
        )
        if init.returncode != 0:
            raise RuntimeError(f"wixoss-judge init-db failed: {init.stderr[-2000:]}")
        with open(self.log, "wb") as log:
            self.proc = subprocess.Popen(
                [
                    str(BIN / "gunicorn"),
                    "-w",
                    str(self.workers),
                    "-b",
                    f"127.0.0.1:{self.port}",
                    "--timeout",
                    "120",
                    "--backlog",
                    "256",
                    *os.environ.get("BENCH_GUNICORN_ARGS", "").split(),
                    "app:create_app()",
                ],
                env={**self.env, "CREATE_TABLE": "no"},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited: {self.log.read_text()[-2000:]}")
            try:
                if request(self.port, "GET", "/decks", timeout=2)[0] == 200:
                    # every worker has built its app: ask a few more times
                    for _ in range(self.workers * 2):
                        request(self.port, "GET", "/decks", timeout=10)
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        self.__exit__(None, None, None)
        raise RuntimeError(f"gunicorn did not answer within 60 s: {self.log.read_text()[-2000:]}")

    def __exit__(self, *exc: object) -> None:
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(timeout=10)
        with admin() as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.dbname}" WITH (FORCE)')

    def stored(self, match_id: str) -> list[tuple[int, str]]:
        """(version, hash) of every stored event of the match, read straight from the table."""
        import psycopg

        with psycopg.connect(
            host=PG["POSTGRES_HOST"],
            port=PG["POSTGRES_PORT"],
            user=PG["POSTGRES_USER"],
            password=PG["POSTGRES_PASSWORD"],
            dbname=self.dbname,
        ) as conn:
            rows = conn.execute(
                "SELECT originator_version, state FROM wixoss_judge_events WHERE originator_id = %s "
                "ORDER BY originator_version",
                (uuid.UUID(match_id),),
            ).fetchall()
        return [(int(v), json.loads(bytes(s))["hash"]) for v, s in rows]


# -- where the CPU went ---------------------------------------------------------------------------


def cpu_seconds_of_children(parent: int) -> float:
    """User + system CPU seconds of the processes whose parent is ``parent`` (gunicorn's workers)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:  # fields[1] is the parent's pid
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def machine_busy() -> tuple[float, float]:
    """(busy, total) jiffies of all cores since boot, from /proc/stat."""
    with open("/proc/stat", encoding="ascii") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


# -- the clients ----------------------------------------------------------------------------------


@dataclass
class Tally:
    statuses: Counter[int] = field(default_factory=Counter)
    announced: dict[str, dict[int, str]] = field(default_factory=dict)  # match -> version -> hash (201s)
    requests: int = 0
    doubles: int = 0
    double_outcomes: Counter[tuple[int, ...]] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


DOUBLE_EVERY = 8


def note_answer(tally: Tally, mid: str, status: int, answer: Any) -> None:
    with tally.lock:
        tally.requests += 1
        tally.statuses[status] += 1
        if status == 201:
            seen = tally.announced.setdefault(mid, {})
            for e in answer["events"]:
                if e["n"] in seen:
                    tally.errors.append(f"match {mid}: event {e['n']} announced twice")
                seen[e["n"]] = e.get("hash")
        elif status not in (409, 422):  # 422: in a race, the other client changed the position first
            tally.errors.append(f"POST actions {status}: {answer}")


def play_match(port: int, mid: str, tokens: dict[str, str], tally: Tally, deadline: float) -> None:
    """One client plays a whole match, each action with the deciding player's token; every 8th action is
    sent twice at once."""
    chooser = random.Random(mid)
    for k in range(MAX_ACTIONS_PER_MATCH):
        if time.monotonic() > deadline:
            return
        status, body = request(port, "GET", f"/matches/{mid}/legal-actions")
        with tally.lock:
            tally.requests += 1
        if status != 200:
            with tally.lock:
                tally.errors.append(f"GET legal-actions {status}: {body}")
            return
        if not body["actions"]:
            return  # the game is over
        action = chooser.choice(body["actions"])
        post = {"action": action, "expected_version": body["at"]}
        token = tokens[action["player"]]
        path = f"/matches/{mid}/actions"
        if k % DOUBLE_EVERY == DOUBLE_EVERY - 1:
            twin: list[tuple[int, Any]] = []

            def send_twin(
                twin: list[tuple[int, Any]] = twin,
                path: str = path,
                post: dict[str, Any] = post,
                token: str = token,
            ) -> None:
                twin.append(request(port, "POST", path, post, token=token))

            t = threading.Thread(target=send_twin)
            t.start()
            first = request(port, "POST", path, post, token=token)
            t.join()
            answers = [first, *twin]
            with tally.lock:
                tally.doubles += 1
                tally.double_outcomes[tuple(sorted(a[0] for a in answers))] += 1
            for st, answer in answers:
                note_answer(tally, mid, st, answer)
        else:
            st, answer = request(port, "POST", path, post, token=token)
            note_answer(tally, mid, st, answer)


def race_seat(port: int, mid: str, seat: int, tally: Tally, deadline: float) -> None:
    """One of two clients answering every decision of a match with the judge's token (--race)."""
    chooser = random.Random(f"{mid}:{seat}")
    for _ in range(MAX_ACTIONS_PER_MATCH):
        if time.monotonic() > deadline:
            return
        status, body = request(port, "GET", f"/matches/{mid}/legal-actions")
        with tally.lock:
            tally.requests += 1
        if status != 200:
            with tally.lock:
                tally.errors.append(f"GET legal-actions {status}: {body}")
            return
        if not body["actions"]:
            return
        action = chooser.choice(body["actions"])
        st, answer = request(
            port, "POST", f"/matches/{mid}/actions", {"action": action, "expected_version": body["at"]}
        )
        note_answer(tally, mid, st, answer)


def run_one(
    workers: int, matches: int, clients: int, time_limit: float, log_dir: Path, race: bool
) -> dict[str, Any]:
    eprint(f"bench.postgres: gunicorn -w {workers}: {clients} clients, {matches} matches ...")
    with Server(workers, log_dir) as server:
        tally = Tally()
        ids: list[str] = []
        created: dict[str, int] = {}
        tokens: dict[str, dict[str, str]] = {}
        start = time.perf_counter()
        for i in range(matches):
            status, body = request(server.port, "POST", "/matches", create_body(9000 + i, decks_for(i)))
            assert status == 201, (status, body)
            ids.append(body["id"])
            created[body["id"]] = body["version"]
            tokens[body["id"]] = body["tokens"]
        create_s = time.perf_counter() - start
        work: list[tuple[str, int]] = [(mid, seat) for mid in ids for seat in ((0, 1) if race else (0,))]
        work_lock = threading.Lock()
        deadline = time.monotonic() + time_limit

        def client() -> None:
            while True:
                with work_lock:
                    if not work:
                        return
                    mid, seat = work.pop(0)
                try:
                    if race:
                        race_seat(server.port, mid, seat, tally, deadline)
                    else:
                        play_match(server.port, mid, tokens[mid], tally, deadline)
                except Exception as exc:
                    with tally.lock:
                        tally.errors.append(f"client: {type(exc).__name__}: {exc}")

        threads = [threading.Thread(target=client) for _ in range(clients)]
        assert server.proc is not None
        cpu0, busy0 = cpu_seconds_of_children(server.proc.pid), machine_busy()
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        play_s = time.perf_counter() - start
        cpu1, busy1 = cpu_seconds_of_children(server.proc.pid), machine_busy()
        server_cores = (cpu1 - cpu0) / play_s
        machine_load = (busy1[0] - busy0[0]) / max(1, busy1[1] - busy0[1])
        timed_out = time.monotonic() > deadline

        eprint(f"bench.postgres: gunicorn -w {workers}: auditing {matches} matches ...")
        audits_ok = 0
        lost = duplicated = gaps = mismatched = 0
        for mid in ids:
            status, report = request(server.port, "GET", f"/matches/{mid}/audit", timeout=120)
            audits_ok += status == 200 and bool(report["ok"])
            stored = server.stored(mid)
            versions = [v for v, _ in stored]
            if versions != list(range(1, len(versions) + 1)):
                gaps += 1
            duplicated += len(versions) - len(set(versions))
            by_version = dict(stored)
            announced = tally.announced.get(mid, {})
            lost += sum(1 for v in announced if v not in by_version)
            mismatched += sum(
                1 for v, h in announced.items() if h is not None and v in by_version and by_version[v] != h
            )
            expected = created[mid] + len(announced)
            if len(stored) != expected:
                tally.errors.append(f"match {mid}: {len(stored)} events stored, {expected} announced")
        return {
            "workers": workers,
            "created_s": create_s,
            "play_s": play_s,
            "timed_out": timed_out,
            "statuses": dict(tally.statuses),
            "requests": tally.requests,
            "actions": tally.statuses.get(201, 0),
            "conflicts": tally.statuses.get(409, 0),
            "refused": tally.statuses.get(422, 0),
            "audits_ok": audits_ok,
            "matches": len(ids),
            "events": sum(len(server.stored(m)) for m in ids),
            "lost": lost,
            "duplicated": duplicated,
            "gaps": gaps,
            "mismatched": mismatched,
            "server_cores": server_cores,
            "machine_busy": machine_load,
            "doubles": tally.doubles,
            "double_outcomes": {"+".join(map(str, k)): v for k, v in tally.double_outcomes.items()},
            "errors": tally.errors[:10],
            "error_count": len(tally.errors),
        }


def run(matches: int, clients: int, workers: list[int], time_limit: float, race: bool) -> Report:
    how = (
        "two clients racing on every decision"
        if race
        else "one client per match, every 8th action sent twice"
    )
    report = Report(
        "postgres",
        f"PostgreSQL, gunicorn, {clients} concurrent clients playing {matches} matches ({how})",
        COMMAND + (" --race" if race else ""),
    )
    try:
        admin().close()
    except Exception as exc:
        raise SystemExit(
            f"bench.postgres: no PostgreSQL server answers at {PG['POSTGRES_HOST']}: {exc}"
        ) from None
    results = []
    keep = os.environ.get("BENCH_LOG_DIR")  # keep gunicorn's logs there (with BENCH_GUNICORN_ARGS: more)
    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(keep) if keep else Path(tmp)
        logs.mkdir(parents=True, exist_ok=True)
        for w in workers:
            results.append(run_one(w, matches, clients, time_limit, logs, race))
    for r in results:
        w = r["workers"]
        rate = r["actions"] / r["play_s"]
        r["rate"] = rate
        report.figure(f"-w {w}: actions answered 201", r["actions"], "", "{:,}")
        report.figure(f"-w {w}: actions/s", rate, "actions/s", "{:,.0f}")
        report.figure(
            f"-w {w}: requests/s (GET legal-actions + POST)", r["requests"] / r["play_s"], "req/s", "{:,.0f}"
        )
        report.figure(f"-w {w}: CPU used by the workers", r["server_cores"], "cores", "{:.2f}")
        report.figure(
            f"-w {w}: machine busy (all processes, all cores)", r["machine_busy"] * 100, "%", "{:.0f}"
        )
        report.figure(f"-w {w}: 409 (lost races)", r["conflicts"], "", "{:,}")
        if race:
            report.figure(f"-w {w}: 422 (the position changed under the seat)", r["refused"], "", "{:,}")
        else:
            outcomes = ", ".join(f"{k}: {v}" for k, v in sorted(r["double_outcomes"].items()))
            ok = set(r["double_outcomes"]) <= {"201+409"}
            report.check(
                f"-w {w}: actions sent twice: answers",
                r["doubles"],
                f"({outcomes})",
                "201+409 each",
                ok,
                "{:,}",
            )
        others = {k: v for k, v in r["statuses"].items() if k not in (201, 409, 422)}
        report.check(
            f"-w {w}: other statuses", sum(others.values()), str(others or ""), "0", not others, "{:,}"
        )
        intact = r["lost"] == r["duplicated"] == r["gaps"] == r["mismatched"] == 0 and r["error_count"] == 0
        report.check(
            f"-w {w}: events lost / duplicated / gaps",
            r["lost"] + r["duplicated"] + r["gaps"],
            f"({r['lost']}/{r['duplicated']}/{r['gaps']}) of {r['events']:,} stored",
            "0",
            intact,
            "{}",
        )
        report.check(
            f"-w {w}: audits ok",
            r["audits_ok"],
            f"of {r['matches']}",
            "all",
            r["audits_ok"] == r["matches"],
            "{}",
        )
        if r["timed_out"]:
            report.note(f"-w {w}: stopped at the time limit; figures cover the actions up to then")
        for e in r["errors"][:3]:
            report.note(f"-w {w}: {e}")
    by = {r["workers"]: r for r in results}
    if 1 in by and len(by) > 1:
        most = max(by)
        ratio = by[most]["rate"] / by[1]["rate"]
        report.check(f"ratio -w {most} / -w 1 (baseline)", ratio, "x", "> 1", ratio > 1, "{:.2f}")
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments(__doc__ or "")
    parser.add_argument("--matches", type=int, default=100, help="matches to play (default 100)")
    parser.add_argument("--clients", type=int, default=32, help="concurrent client threads (default 32)")
    parser.add_argument("--workers", default="4,1", help="gunicorn worker counts to compare (default 4,1)")
    parser.add_argument("--time-limit", type=float, default=300, help="seconds of play per run at most (300)")
    parser.add_argument("--race", action="store_true", help="two clients racing on every decision of a match")
    args = parser.parse_args(argv)
    workers = [int(w) for w in args.workers.split(",") if w.strip()]
    if args.quick:
        return finish(run(16, args.clients, workers, 60, args.race), args)
    return finish(run(args.matches, args.clients, workers, args.time_limit, args.race), args)


if __name__ == "__main__":
    raise SystemExit(main())
