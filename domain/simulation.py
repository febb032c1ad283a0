"""Random legal matches between preset decks: a soak test of the rules, and a benchmark.

Each game picks every action at random among the legal ones, with the match's own seed and a chooser
seeded from it, so that a run is repeatable. The invariants are checked at every event. The decks are a
pool's (``domain.decks.DECK_POOLS``): the format's starter (or demo) decks, or its sample decks.

Every decision (one action sent to ``decide``) is counted, and so is every decision a judge would have had
to resolve by hand (``hand_resolved``): its events hold an ``Adjusted`` event (a judge's resolution), an event
the engine marks ``enforced: false`` (a Life Burst it does not enforce), or put into play or use a card
whose abilities the service does not enforce (played or put onto the field, grown into, or used as a spell
or a PIECE). A simulation whose decks hold only enforced cards has none.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from domain import invariants
from domain.abilities.catalogue import abilities_of, encoded_cards, is_enforced
from domain.decks import pool_ids, preset
from domain.engine import decide
from domain.evolve import apply
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
    decisions: int = 0  # actions sent to decide
    hand_resolved: int = 0  # of them, those a judge would have had to resolve by hand (``hand_resolved``)
    unenforced: Counter[str] = field(default_factory=Counter)  # card id -> decisions it made hand-resolved


# the events that put a card into play or use: its abilities must be enforced, or a judge resolves them
_CARD_ENTERS = frozenset({"SigniPlayed", "SigniPutOntoField", "LrigGrew", "SpellUsed", "PieceUsed"})


def hand_resolved(state: GameState, batch: list[Any]) -> list[str]:
    """What in a decision's events a judge resolves by hand: the card ids concerned (``"judge"`` for an
    ``Adjusted`` event); empty when the service enforced all of it. ``state`` holds the match's cards."""
    found: list[str] = []
    for e in batch:
        d = e.data
        if e.type == "Adjusted":
            found.append("judge")
        elif d.get("enforced") is False:
            found.append(str(state.cards.get(d.get("card"), d.get("card"))))
        elif e.type in _CARD_ENTERS and d.get("card") in state.cards:
            card_id = state.cards[d["card"]]
            if not is_enforced(card_id):
                found.append(card_id)
    return found


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


def pairings(fmt: str = "diva", pool: str = "starter") -> list[tuple[str, str]]:
    """All ordered pairings of a pool's decks (both seats): 100 of the ten Diva starter decks, 36 of the six
    sample decks."""
    ids = pool_ids(fmt, pool)
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
        result.decisions += 1
        by_hand = hand_resolved(state, batch)
        if by_hand:
            result.hand_resolved += 1
            result.unenforced.update(set(by_hand))
        fold_in(batch)
    result.events, result.turns, result.winner = total, state.turn, state.winner
    result.reason = (state.result or {}).get("reason")
    result.capped = state.status != "finished"
    return result


def simulate(
    games: int, seed: int, check: bool = True, fmt: str = "diva", pool: str = "starter"
) -> dict[str, Any]:
    pairs = pairings(fmt, pool)
    started = time.perf_counter()
    results = [play_game(seed + i, pairs[i % len(pairs)], check, fmt=fmt) for i in range(games)]
    seconds = time.perf_counter() - started
    events = sum(r.events for r in results)
    winners = Counter(r.winner for r in results if r.winner)
    reasons = Counter(r.reason for r in results if r.reason)
    problems = [f"game seed {r.seed} {r.decks[0]} v {r.decks[1]}: {p}" for r in results for p in r.problems]
    activations: Counter[str] = Counter()
    used: set[tuple[str, int]] = set()
    unenforced: Counter[str] = Counter()
    for r in results:
        activations.update(r.activations)
        used |= r.used
        unenforced.update(r.unenforced)
    decisions = sum(r.decisions for r in results)
    by_hand = sum(r.hand_resolved for r in results)
    usable = {
        (c, i) for c in encoded_cards() for i, a in enumerate(abilities_of(c)) if a["kind"] != "constant"
    }
    ids = pool_ids(fmt, pool)
    in_decks = {c for d in ids for c in (*preset(d).lrig_deck, *preset(d).main_deck)}
    usable = {(c, i) for c, i in usable if c in in_decks}
    return {
        "games": games,
        "decks": pool,
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
        "decisions": decisions,
        "hand_resolved_decisions": by_hand,
        "hand_resolved_share": round(by_hand / decisions, 4) if decisions else 0.0,
        "hand_resolved_cards": dict(unenforced.most_common(20)),
        "unenforced_deck_cards": sorted(c for c in in_decks if not is_enforced(c)),
        "problems": problems[:20],
        "problem_count": len(problems),
    }
