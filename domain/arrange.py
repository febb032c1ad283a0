"""Setting what a record without a seed names: which card each unseen instance is.

A paper game is recorded without its deck order: nobody knew it. When such a record names a card a player
drew, crushed or revealed, the replay needs that card where the rules take one from. The replay's own deck
order is arbitrary (it comes from a seed the game never had), so exchanging which catalogue card two unseen
instances are changes nothing anybody knew, and makes the replay take the named card. Where the card came out
of a shuffle nobody recorded, the replay may instead pick other randomness (``seed``) for the match.

``arrange`` checks that every exchange is of two instances of one player, both unseen: in the deck or the
Life Cloth (or, during the set-up, the hand: the opening hand is what the record names). Which instances
were never seen is the replay's to track (``projections.records``); this check keeps the game consistent.
"""

from __future__ import annotations

from typing import Any

from domain.actions import Action
from domain.errors import IllegalAction
from domain.events import Event
from domain.recorder import Recorder, finish
from domain.state import GameState

RULE = "record.arrange"
UNSEEN_ZONES = ("deck", "life_cloth")


def arrange(state: GameState, action: dict[str, Any]) -> list[Event]:
    """The event that exchanges the identities of unseen instances (``swaps``: pairs of instance ids) and
    optionally sets the match's randomness (``seed``), as a record without a seed calls for."""
    swaps = action.get("swaps") or []
    seed = action.get("seed")
    reason = action.get("reason") or "the record names these cards"
    if not isinstance(swaps, list) or (not swaps and seed is None):
        raise IllegalAction(RULE, "an arrangement exchanges at least one pair of cards or sets the seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise IllegalAction(RULE, "an arrangement's seed is an integer")
    pairs: list[list[str]] = []
    for pair in swaps:
        if not isinstance(pair, list | tuple) or len(pair) != 2:
            raise IllegalAction(RULE, "each exchange is a pair of instance ids")
        a, b = pair
        for iid in (a, b):
            if iid not in state.cards:
                raise IllegalAction(RULE, f"there is no card {iid!r} in this match")
            where = state.players[state.owners[iid]].find(iid)
            if where not in UNSEEN_ZONES and not (where == "hand" and state.status == "setup"):
                raise IllegalAction(
                    RULE, f"card {iid} is in {where}: only cards nobody has seen can be set by a record"
                )
        if state.owners[a] != state.owners[b]:
            raise IllegalAction(RULE, f"cards {a} and {b} belong to different players")
        pairs.append([a, b])
    rec = Recorder(state.copy())
    data: dict[str, Any] = {"swaps": pairs, "reason": reason}
    if seed is not None:
        data["seed"] = seed
    rec.emit("CardsArranged", "judge", RULE, data)
    fields: dict[str, Any] = {"swaps": pairs, "reason": reason}
    if seed is not None:
        fields["seed"] = seed
    return finish(rec, Action("arrange", None, fields))
