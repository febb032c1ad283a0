"""Run every benchmark, one after another: ``python -m bench [--quick] [--only NAME,...] [--json-dir DIR]``.

Each benchmark also runs alone: ``python -m bench.state_at``, ``bench.actions``, ``bench.fold``,
``bench.simulate``, ``bench.postgres`` (that one needs a PostgreSQL server at 127.0.0.1:5432; it is skipped
with a message when none answers). See docs/PERFORMANCE.md for the latest figures.
"""

from __future__ import annotations

import argparse
import importlib
import os
import subprocess
import sys
import time
from collections.abc import Sequence

NAMES = ("fold", "simulate", "state_at", "actions", "postgres")


def postgres_reachable() -> str | None:
    try:
        from bench.postgres import admin

        admin().close()
    except Exception as exc:  # any failure to connect means: no server for this run
        return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller, faster runs (rougher figures)")
    parser.add_argument("--only", help=f"a comma-separated subset of {', '.join(NAMES)}")
    parser.add_argument("--json-dir", help="write each benchmark's figures to DIR/NAME.json")
    args = parser.parse_args(argv)
    names = [n.strip() for n in args.only.split(",")] if args.only else list(NAMES)
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        parser.error(f"unknown benchmark(s): {', '.join(unknown)}")
    if args.json_dir:
        os.makedirs(args.json_dir, exist_ok=True)
    status = 0
    for name in names:
        if name == "postgres":
            why = postgres_reachable()
            if why is not None:
                print(f"bench.postgres skipped: no PostgreSQL server answers ({why})\n", flush=True)
                continue
        importlib.import_module(f"bench.{name}")  # fail early on an import error
        cmd = [sys.executable, "-m", f"bench.{name}"]
        if args.quick:
            cmd.append("--quick")
        if args.json_dir:
            cmd += ["--json", os.path.join(args.json_dir, f"{name}.json")]
        start = time.perf_counter()
        code = subprocess.call(cmd)  # each in a process of its own: no benchmark warms another's caches
        print(f"  ({name}: {time.perf_counter() - start:.0f} s)\n", flush=True)
        status = status or code
    return status


if __name__ == "__main__":
    raise SystemExit(main())
