"""Complete simulated matches per second, on one core.

    python -m bench.simulate [--games 100] [--quick] [--json PATH]

The process is pinned to one core. Each game is what ``wixoss-judge simulate`` plays (``domain.simulation``):
random legal actions between preset decks, chosen among ``legal_actions``, decided and folded, with the
invariants checked at every event. Measured in the same run (each game is played with and without the
checks, one after the other, so that both figures see the same load):
- the same games with the invariants checked (what the CLI does by default: the figure held to the target);
- the same games without the checks (the baseline: the rules engine alone);
- the same games recorded through ``JudgeApplication`` on a SQLite file, one ``act`` per action.
A game that has not ended after 1,500 actions is stopped and counted as not complete (a loop in the rules).
Target: at least 20 complete simulated matches per second on one core.
"""

from __future__ import annotations

import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from app.application import JudgeApplication
from bench.common import (
    MAX_ACTIONS,
    Report,
    arguments,
    decks_for,
    eprint,
    finish,
    pin_to_one_core,
    player_setups,
)
from domain import invariants
from domain.engine import decide
from domain.evolve import apply
from domain.legal import legal_actions
from domain.setup import create_match
from domain.state import GameState

COMMAND = "python -m bench.simulate"


def play(seed: int, check: bool) -> tuple[bool, int, list[str]]:
    """One game as ``domain.simulation.play_game`` plays it, with a cap on the actions."""
    chooser = random.Random(f"chooser:{seed}")
    state = GameState()
    found: list[str] = []

    def fold_in(batch: Sequence[object]) -> None:
        for i, e in enumerate(batch):
            apply(state, e)
            if check:
                found.extend(invariants.problems(state, between_actions=i == len(batch) - 1))

    fold_in(create_match("diva", seed, player_setups(decks_for(seed))))
    actions = 0
    while state.status != "finished" and actions < MAX_ACTIONS and not found:
        legal = list(legal_actions(state))
        if not legal:
            found.append(f"no legal answer at event {state.version}")
            break
        fold_in(decide(state, chooser.choice(legal)))
        actions += 1
    return state.status == "finished", state.version, found


def play_recorded(app: JudgeApplication, seed: int) -> bool:
    chooser = random.Random(f"chooser:{seed}")
    mid = app.create_match("diva", seed, player_setups(decks_for(seed))).id
    for _ in range(MAX_ACTIONS):
        state = app.get_match(mid).state
        if state.status == "finished":
            return True
        app.act(mid, chooser.choice(list(legal_actions(state))), state.version)
    return False


def timed(games: int, seed: int) -> dict[bool, tuple[float, int, int, list[str]]]:
    """Each game played twice in a row, with and without the invariant checks, so that both figures see the
    same load: {check: (seconds, complete games, events, problems)}."""
    totals: dict[bool, list] = {True: [0.0, 0, 0, []], False: [0.0, 0, 0, []]}
    for i in range(games):
        for check in (True, False):
            start = time.perf_counter()
            done, n, found = play(seed + i, check)
            t = totals[check]
            t[0] += time.perf_counter() - start
            t[1] += done
            t[2] += n
            t[3].extend(f"seed {seed + i}: {p}" for p in found)
    return {k: (v[0], v[1], v[2], v[3]) for k, v in totals.items()}


def run(games: int, recorded_games: int, seed: int) -> Report:
    core = pin_to_one_core()
    report = Report("simulate", f"Complete simulated matches per second, one core (core {core})", COMMAND)
    eprint(f"bench.simulate: {games} games with invariants, {games} without, {recorded_games} recorded ...")
    play(seed, check=True)  # warm-up, not timed: loads the card catalogue and the ability data once
    both = timed(games, seed)
    checked_s, complete, events, problems = both[True]
    bare_s, bare_complete, _, _ = both[False]
    with tempfile.TemporaryDirectory() as tmp:
        app = JudgeApplication(
            {"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(Path(tmp) / "sim.sqlite")}
        )
        try:
            start = time.perf_counter()
            recorded_complete = sum(play_recorded(app, seed + i) for i in range(recorded_games))
            recorded_s = time.perf_counter() - start
        finally:
            app.close()

    rate = complete / checked_s
    bare_rate = bare_complete / bare_s
    report.figure("games (complete / played)", f"{complete} / {games}")
    report.figure("events per game", events / games, "", "{:,.0f}")
    report.check(
        "matches/s, invariants checked (CLI default)", rate, "matches/s", ">= 20", rate >= 20, "{:.1f}"
    )
    report.figure("matches/s, rules alone (baseline)", bare_rate, "matches/s", "{:.1f}")
    report.figure("ratio checked / rules alone", rate / bare_rate, "x", "{:.2f}")
    report.figure(
        "matches/s, recorded via JudgeApplication (SQLite)",
        recorded_complete / recorded_s,
        "matches/s",
        "{:.1f}",
    )
    report.figure("events/s, invariants checked", events / checked_s, "events/s", "{:,.0f}")
    if complete < games:
        report.note(
            f"{games - complete} game(s) did not end within {MAX_ACTIONS} actions (a loop in the rules); "
            "they count as not complete"
        )
    if problems:
        report.note(f"{len(problems)} invariant problem(s), first: {problems[0]}")
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments(__doc__ or "")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100: every pairing)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed (default 1)")
    args = parser.parse_args(argv)
    games = 20 if args.quick else args.games
    return finish(run(games, max(2, games // 10), args.seed), args)


if __name__ == "__main__":
    raise SystemExit(main())
