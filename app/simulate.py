"""``wixoss-judge simulate``: random legal matches between preset decks, one JSON line of totals.

``--decks starter`` (the default) plays every pairing of the ten starter decks; ``--decks sample`` every
pairing of the project's own sample decks (``domain.decks.SAMPLE_IDS``). The totals count the decisions and
those a judge would have had to resolve by hand (``hand_resolved_decisions``, ``hand_resolved_share``).
"""

from __future__ import annotations

import argparse
import json

from domain.decks import DECK_POOLS
from domain.simulation import simulate


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=20, help="how many matches to play (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="the first match's seed; the next ones count up")
    parser.add_argument(
        "--decks",
        choices=DECK_POOLS,
        default="starter",
        help="the decks paired: the ten starter decks (default) or the project's own sample decks",
    )
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks at every event")


def run(args: argparse.Namespace) -> int:
    report = simulate(args.games, args.seed, check=not args.no_check, pool=args.decks)
    print(json.dumps(report, sort_keys=True))
    return 0 if report["problem_count"] == 0 and report["capped"] == 0 else 1
