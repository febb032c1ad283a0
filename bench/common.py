"""What every benchmark shares: the machine, random legal matches, timing, the report table and its verdicts.

A benchmark measures its figures and a baseline in the same run, prints a table (figure, value, target,
verdict PASS or SHORT) and, with ``--json PATH``, writes the same figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

from domain.decks import PRESET_IDS, preset
from domain.engine import decide
from domain.evolve import apply
from domain.legal import legal_actions
from domain.setup import PlayerSetup, create_match
from domain.state import GameState

JUDGE_TOKEN = "bench-judge-token"


# -- the machine ----------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    def version(dist: str) -> str:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return "-"

    cpu = "-"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "-")
    except OSError:
        pass
    return {
        "cores": os.cpu_count(),
        "usable_cores": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "os": platform.platform(terse=True),
        "eventsourcing": version("eventsourcing"),
        "flask": version("flask"),
        "psycopg": version("psycopg"),
        "gunicorn": version("gunicorn"),
        "sqlite": __import__("sqlite3").sqlite_version,
    }


def pin_to_one_core() -> int | None:
    """Run this process on one core only (the first it may use); returns that core, or None if unsupported."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return core


# -- random legal matches -------------------------------------------------------------------------


def decks_for(i: int) -> tuple[str, str]:
    """Deck pairings that walk through all presets, both seats."""
    n = len(PRESET_IDS)
    return PRESET_IDS[i % n], PRESET_IDS[(i // n + i + 3) % n]


def player_setups(decks: tuple[str, str]) -> dict[str, PlayerSetup]:
    return {"p1": PlayerSetup("Ann", preset(decks[0])), "p2": PlayerSetup("Bo", preset(decks[1]))}


def create_body(seed: int, decks: tuple[str, str]) -> dict[str, Any]:
    """The body of POST /matches for a preset pairing (first player by the coin of the seed)."""
    return {
        "format": "diva",
        "seed": seed,
        "players": {"p1": {"name": "Ann", "deck": decks[0]}, "p2": {"name": "Bo", "deck": decks[1]}},
    }


def cpu_times() -> list[int] | None:
    """The machine's CPU time counters (``/proc/stat``: user, nice, system, idle, iowait, irq, softirq,
    steal, ...), or None where there are none."""
    try:
        with open("/proc/stat", encoding="utf-8") as f:
            return [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None


def reference_loop() -> float:
    """Milliseconds for a fixed piece of plain Python (dicts, lists, strings, calls; no project code), the
    best of 5: a yardstick of this machine's speed at this moment, so that runs on different days or
    machines can be compared (lower is faster)."""

    def work() -> int:
        total = 0
        table: dict[str, int] = {}
        for i in range(60_000):
            key = f"k{i % 997}"
            table[key] = table.get(key, 0) + i
            total += len(sorted(table)[:1]) if i % 5_000 == 0 else i & 7
        return total + sum(table.values())

    return 1000 * best_of(5, work)


@dataclass
class Script:
    """A complete random legal match, decided in advance: replaying its actions in order (each with its
    expected version) on a match created with the same seed and decks reproduces it exactly."""

    seed: int
    decks: tuple[str, str]
    actions: list[tuple[dict[str, Any], int]] = field(default_factory=list)  # (action, expected version)
    batches: list[int] = field(default_factory=list)  # events per action
    created_events: int = 0
    finished: bool = False

    @property
    def events(self) -> int:
        return self.created_events + sum(self.batches)


MAX_ACTIONS = 1500  # a random game that has not ended by then is stuck in a loop of the rules (a bug)


def make_script(seed: int, decks: tuple[str, str], max_actions: int = MAX_ACTIONS) -> Script:
    chooser = random.Random(f"bench:{seed}")
    first = create_match("diva", seed, player_setups(decks))
    state = GameState()
    for e in first:
        apply(state, e)
    script = Script(seed, decks, created_events=len(first))
    while state.status != "finished" and len(script.actions) < max_actions:
        actions = list(legal_actions(state))
        if not actions:
            break
        action = chooser.choice(actions)
        script.actions.append((action, state.version))
        batch = decide(state, action)
        script.batches.append(len(batch))
        for e in batch:
            apply(state, e)
    script.finished = state.status == "finished"
    return script


SKIPPED: list[int] = []  # seeds whose random game did not end within MAX_ACTIONS (reported by the benchmarks)


def make_scripts(count: int, seed: int = 1) -> list[Script]:
    """``count`` complete matches from successive seeds; a seed whose game does not end is skipped (and
    noted in ``SKIPPED``), at most ``count`` of them."""
    out: list[Script] = []
    s = seed
    while len(out) < count and s < seed + 2 * count:
        script = make_script(s, decks_for(s))
        if script.finished:
            out.append(script)
        else:
            SKIPPED.append(s)
        s += 1
    if len(out) < count:
        raise RuntimeError(
            f"only {len(out)} of {count} random matches ended: the rules loop (seeds {SKIPPED})"
        )
    return out


def skipped_note() -> str | None:
    if not SKIPPED:
        return None
    return (
        f"{len(SKIPPED)} seed(s) skipped because their random game did not end within {MAX_ACTIONS} "
        f"actions (a loop in the rules): {sorted(set(SKIPPED))[:10]}"
    )


# -- timing ---------------------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) by linear interpolation, as numpy's default."""
    if not values:
        return float("nan")
    s = sorted(values)
    k = (len(s) - 1) * q / 100
    lo, hi = int(k), min(int(k) + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


@contextmanager
def stopwatch() -> Iterator[Callable[[], float]]:
    start = time.perf_counter()
    end: list[float] = []
    yield lambda: (end[0] if end else time.perf_counter()) - start
    end.append(time.perf_counter())


def best_of(repeats: int, fn: Callable[[], Any]) -> float:
    """The shortest of ``repeats`` timed runs of ``fn``, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def best_each(repeats: int, *fns: Callable[[], Any]) -> list[float]:
    """The shortest of ``repeats`` timed runs of each of ``fns``, in seconds, run in turn (one of each per
    round), so that a figure and its baseline see the same moments of a machine whose speed varies."""
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            t = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - t)
    return best


# -- the report -----------------------------------------------------------------------------------


@dataclass
class Report:
    name: str
    title: str
    command: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    started: list[int] | None = field(default_factory=lambda: cpu_times())
    reference_ms: float = field(default_factory=lambda: reference_loop())

    def figure(self, label: str, value: float | int | str, unit: str = "", fmt: str = "{:,.1f}") -> None:
        self.rows.append({"label": label, "value": value, "unit": unit, "fmt": fmt})

    def check(
        self,
        label: str,
        value: float,
        unit: str,
        target: str,
        ok: bool,
        fmt: str = "{:,.1f}",
    ) -> None:
        self.rows.append(
            {"label": label, "value": value, "unit": unit, "fmt": fmt, "target": target, "verdict": ok}
        )

    def note(self, text: str) -> None:
        self.notes.append(text)

    @property
    def passed(self) -> bool:
        return all(r["verdict"] for r in self.rows if "verdict" in r)

    def load(self) -> str:
        """The machine's load average now (1, 5, 15 minutes): other work slows every figure."""
        try:
            one, five, fifteen = os.getloadavg()
        except OSError:
            return "-"
        return f"{one:.2f} {five:.2f} {fifteen:.2f}"

    def stolen(self) -> float | None:
        """The share of CPU time the virtual machine's host took from it (steal) since the report began."""
        now = cpu_times()
        if self.started is None or now is None or len(now) < 8:
            return None
        delta = [b - a for a, b in zip(self.started, now, strict=False)]
        return delta[7] / sum(delta[:8]) if sum(delta[:8]) else 0.0

    def conditions(self) -> str:
        stolen = self.stolen()
        steal = "-" if stolen is None else f"{100 * stolen:.1f}%"
        return (
            f"load average at the end: {self.load()} (on {os.cpu_count()} cores); CPU stolen by the host: "
            f"{steal}; reference loop: {self.reference_ms:.1f} ms (lower is faster)"
        )

    def render(self) -> str:
        def show(r: dict[str, Any]) -> str:
            v = r["value"]
            text = r["fmt"].format(v) if isinstance(v, (int, float)) else str(v)
            return f"{text} {r['unit']}".rstrip()

        lines = [f"{self.title}", f"  ({self.command})"]
        width = max((len(r["label"]) for r in self.rows), default=10)
        vwidth = max((len(show(r)) for r in self.rows), default=10)
        for r in self.rows:
            line = f"  {r['label']:<{width}}  {show(r):>{vwidth}}"
            if "verdict" in r:
                line += f"   target {r['target']:<16} {'PASS' if r['verdict'] else 'SHORT'}"
            lines.append(line)
        lines.extend(f"  note: {n}" for n in self.notes)
        lines.append(f"  {self.conditions()}")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "command": self.command,
            "machine": machine(),
            "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "rows": [{k: v for k, v in r.items() if k != "fmt"} for r in self.rows],
            "load_average": self.load(),
            "cpu_stolen": self.stolen(),
            "reference_loop_ms": self.reference_ms,
            "notes": self.notes,
            "passed": self.passed,
        }


def arguments(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    parser.add_argument("--quick", action="store_true", help="a smaller, faster run (rougher figures)")
    return parser


def finish(report: Report, args: argparse.Namespace) -> int:
    print(report.render(), flush=True)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report.to_dict(), f, indent=2, sort_keys=True)
            f.write("\n")
    return 0


def judge_headers(token: str = JUDGE_TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def eprint(*args: Any) -> None:
    print(*args, file=sys.stderr, flush=True)
