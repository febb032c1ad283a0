"""``wixoss-judge simulate``: random legal matches between preset decks, one JSON line of totals."""

from __future__ import annotations

import argparse
import json

from domain.simulation import simulate


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=20, help="how many matches to play (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="the first match's seed; the next ones count up")
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks at every event")


def run(args: argparse.Namespace) -> int:
    report = simulate(args.games, args.seed, check=not args.no_check)
    print(json.dumps(report, sort_keys=True))
    return 0 if report["problem_count"] == 0 and report["capped"] == 0 else 1
