"""Random legal matches between preset decks: a soak test of the rules, and a benchmark.

Each game picks every action at random among the legal ones, with the match's own seed and a chooser
seeded from it, so that a run is repeatable. The invariants are checked at every event.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from domain import invariants
from domain.abilities.catalogue import abilities_of, encoded_cards
from domain.decks import preset
from domain.engine import decide
from domain.evolve import apply
from domain.formats import format_named
from domain.legal import legal_actions
from domain.setup import PlayerSetup, create_match
from domain.state import GameState

TURN_CAP = 400


@dataclass
class GameResult:
    seed: int
    decks: tuple[str, str]
    events: int
    turns: int
    winner: str | None
    reason: str | None
    capped: bool
    problems: list[str] = field(default_factory=list)
    activations: Counter[str] = field(
        default_factory=Counter
    )  # ability kind -> times it resolved or was used
    used: set[tuple[str, int]] = field(default_factory=set)  # (card id, ability index) used at least once


# An ability is "used" when it begins to resolve: triggered ones (enter, auto), [Action] abilities, spells,
# PIECEs, and Life Bursts the player chose to activate; Rise, when its SIGNI goes on top of another.
def _note_activation(state: GameState, e: Any, result: GameResult) -> None:
    d = e.data
    if e.type == "AbilityActivated":
        kind, card, index = d["kind"], d["card"], d["ability"]
    elif e.type == "AbilityUsed":
        kind, card, index = "action", d["card"], d["ability"]
    elif e.type in ("SpellUsed", "PieceUsed", "ArtsUsed"):
        kind = "piece" if e.type == "PieceUsed" else "spell"
        card = d["card"]
        index = next((i for i, a in enumerate(abilities_of(state.cards[card])) if a["kind"] == kind), -1)
    elif e.type in ("SigniPlayed", "SigniPutOntoField") and d.get("rise_on"):
        kind, card = "rise", d["card"]
        index = next((i for i, a in enumerate(abilities_of(state.cards[card])) if a["kind"] == "rise"), -1)
    elif e.type == "LifeBurstChosen" and d.get("use"):
        kind, card = "life_burst", d["card"]
        index = next(
            (i for i, a in enumerate(abilities_of(state.cards[card])) if a["kind"] == "life_burst"), -1
        )
    else:
        return
    result.activations[kind] += 1
    if isinstance(index, int) and index >= 0:
        result.used.add((state.cards[card], index))


def pairings(fmt: str = "diva") -> list[tuple[str, str]]:
    """All ordered pairings of the format's presets (both seats): 100 of the ten Diva presets."""
    ids = format_named(fmt).preset_ids
    return list(product(ids, ids))


def play_game(
    seed: int, decks: tuple[str, str], check: bool = True, turn_cap: int = TURN_CAP, fmt: str = "diva"
) -> GameResult:
    chooser = random.Random(f"chooser:{seed}")
    events = create_match(
        fmt, seed, {"p1": PlayerSetup("p1", preset(decks[0])), "p2": PlayerSetup("p2", preset(decks[1]))}
    )
    state = GameState()
    found: list[str] = []
    result = GameResult(seed, decks, 0, 0, None, None, True, found)

    def fold_in(batch: list[Any]) -> None:
        for i, e in enumerate(batch):
            apply(state, e)
            _note_activation(state, e, result)
            if check:
                last = i == len(batch) - 1
                for prob in invariants.problems(state, between_actions=last):
                    found.append(f"event {state.version} ({e.type}): {prob}")

    fold_in(events)
    total = len(events)
    while state.status != "finished" and state.turn <= turn_cap and not found:
        actions = list(legal_actions(state))
        if not actions:
            found.append(f"event {state.version}: a decision with no legal answer: {state.pending}")
            break
        batch = decide(state, chooser.choice(actions))
        total += len(batch)
        fold_in(batch)
    result.events, result.turns, result.winner = total, state.turn, state.winner
    result.reason = (state.result or {}).get("reason")
    result.capped = state.status != "finished"
    return result


def simulate(games: int, seed: int, check: bool = True, fmt: str = "diva") -> dict[str, Any]:
    pairs = pairings(fmt)
    started = time.perf_counter()
    results = [play_game(seed + i, pairs[i % len(pairs)], check, fmt=fmt) for i in range(games)]
    seconds = time.perf_counter() - started
    events = sum(r.events for r in results)
    winners = Counter(r.winner for r in results if r.winner)
    reasons = Counter(r.reason for r in results if r.reason)
    problems = [f"game seed {r.seed} {r.decks[0]} v {r.decks[1]}: {p}" for r in results for p in r.problems]
    activations: Counter[str] = Counter()
    used: set[tuple[str, int]] = set()
    for r in results:
        activations.update(r.activations)
        used |= r.used
    usable = {
        (c, i) for c in encoded_cards() for i, a in enumerate(abilities_of(c)) if a["kind"] != "constant"
    }
    ids = format_named(fmt).preset_ids
    in_decks = {c for d in ids for c in (*preset(d).lrig_deck, *preset(d).main_deck)}
    usable = {(c, i) for c, i in usable if c in in_decks}
    return {
        "games": games,
        "events": events,
        "events_per_game": round(events / games, 1) if games else 0,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds else None,
        "finished": sum(1 for r in results if not r.capped),
        "capped": sum(1 for r in results if r.capped),
        "winners": dict(sorted(winners.items())),
        "reasons": dict(sorted(reasons.items())),
        "pairings": len({r.decks for r in results}),
        "invariants_checked": check,
        "ability_activations": dict(sorted(activations.items())),
        "encoded_abilities": len(usable),
        "encoded_abilities_used": len(used & usable),
        "encoded_abilities_used_share": round(len(used & usable) / len(usable), 3) if usable else None,
        "problems": problems[:20],
        "problem_count": len(problems),
    }
