"""Fingerprint of the events of seeded simulated matches: did a change alter what the engine decides?

``python -m tools.simulation_fingerprint --games 40 --seed 1`` plays the same matches as ``wixoss-judge
simulate`` and prints one JSON line: a digest of every event of every game (``all``), the same digest with the
effect frames of ``Asked`` events left out (``decisions``: what was decided, whatever shape a paused effect's
state is stored in), and one digest per game, to find the first game that differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from typing import Any

from domain.decks import preset
from domain.engine import decide
from domain.evolve import apply
from domain.legal import legal_actions
from domain.setup import PlayerSetup, create_match
from domain.simulation import TURN_CAP, pairings
from domain.state import GameState


def _line(event: Any, frames: bool) -> bytes:
    d = event.to_dict()
    if not frames and event.type == "Asked":
        d = {**d, "data": {k: v for k, v in d["data"].items() if k != "resume"}}
    return json.dumps(d, sort_keys=True, default=list).encode()


def game_events(seed: int, decks: tuple[str, str]) -> list[Any]:
    chooser = random.Random(f"chooser:{seed}")
    batch = create_match(
        "diva", seed, {"p1": PlayerSetup("p1", preset(decks[0])), "p2": PlayerSetup("p2", preset(decks[1]))}
    )
    state = GameState()
    out: list[Any] = []
    while True:
        for e in batch:
            apply(state, e)
        out.extend(batch)
        if state.status == "finished" or state.turn > TURN_CAP:
            return out
        batch = decide(state, chooser.choice(list(legal_actions(state))))


def fingerprint(games: int, seed: int) -> dict[str, Any]:
    pairs = pairings()
    whole, decisions, per_game = hashlib.sha256(), hashlib.sha256(), []
    for i in range(games):
        g = hashlib.sha256()
        for e in game_events(seed + i, pairs[i % len(pairs)]):
            whole.update(_line(e, True))
            decisions.update(_line(e, False))
            g.update(_line(e, True))
        per_game.append(g.hexdigest()[:16])
    return {"all": whole.hexdigest(), "decisions": decisions.hexdigest(), "games": per_game}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(json.dumps(fingerprint(args.games, args.seed)))


if __name__ == "__main__":
    main()
