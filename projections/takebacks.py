"""Takebacks over the log: what the span a takeback would undo showed its requester, and the takeback
actions decided from the log (the service and the audit both decide them here, so they cannot differ).

A card counts as revealed to the requester by an event of the span when, after the event, the requester
sees it (in their view of the state, or named in their view of the event) and did not see it just before:
a card drawn, a look at the top of the deck, a crushed Life Cloth, the opponent's hand shown, a card the
opponent played from their hand, the cards of another player's takeback warning. It is what the requester's
own views showed, worked out with the one redaction module (``projections.views``), so nothing a player
could not see counts, and nothing they could is missed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from domain import takebacks
from domain.events import Event
from domain.evolve import apply
from domain.state import GameState
from projections.views import redact_data, state_view

# what kind of reveal an event is, for the warning (anything else: a card that came into view)
KINDS = {
    "CardsDrawn": "draw",
    "CardRevealed": "deck top",
    "DeckTopArranged": "look at the deck",
    "Asked": "look at the deck",
    "Answered": "look at the deck",
    "CardsMoved": "search",
    "CardsMilled": "deck top",
    "LifeClothCrushed": "life burst",
    "LifeBurstChosen": "life burst",
    "HandRevealed": "hand",
    "TakebackRequested": "takeback warning",
}


def _shown(value: Any) -> Iterator[str]:
    """The instance ids of the cards a view shows (a card is an object with ``iid`` and ``card``)."""
    if isinstance(value, dict):
        if isinstance(value.get("iid"), str) and "card" in value:
            yield value["iid"]
        for v in value.values():
            yield from _shown(v)
    elif isinstance(value, list):
        for v in value:
            yield from _shown(v)


def _named(value: Any, cards: dict[str, str]) -> Iterator[str]:
    """The instance ids an event's data names (a viewer is shown an instance id only for a card it sees)."""
    if isinstance(value, str):
        if value in cards:
            yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _named(v, cards)
    elif isinstance(value, list):
        for v in value:
            yield from _named(v, cards)


def seen_by(state: GameState, viewer: str) -> set[str]:
    """The cards ``viewer`` sees in ``state``."""
    return set(_shown(state_view(state, viewer, options=False)["players"]))


def revealed_to(player: str, start: GameState, events: Sequence[Any], first: int) -> list[dict[str, Any]]:
    """What ``events`` (numbered from ``first``, folded onto ``start``) showed ``player`` that they did not
    see just before: one entry per event that showed something, ``{n, event, what, cards: [{iid, card,
    owner}]}``, each card listed once."""
    state = start.copy()
    before = seen_by(state, player)
    listed: set[str] = set()
    out: list[dict[str, Any]] = []
    for n, event in enumerate(events, first):
        apply(state, event)
        after = seen_by(state, player)
        named = set(_named(redact_data(event.type, event.data, player), state.cards))
        new = sorted((after | named) - before - listed)
        if new:
            out.append(
                {
                    "n": n,
                    "event": event.type,
                    "what": KINDS.get(event.type, "card shown"),
                    "cards": [
                        {"iid": iid, "card": state.cards[iid], "owner": state.owners.get(iid)} for iid in new
                    ],
                }
            )
            listed.update(new)
        before = after
    return out


# -- the takeback actions, decided from the log -----------------------------------------------------


def decide(
    state: GameState,
    action: dict[str, Any],
    log: Sequence[Any],
    state_at: Callable[[int], GameState],
    by: str | None = None,
) -> list[Event]:
    """The events of a takeback action (``takeback_policy``, ``takeback_request``, ``takeback_accept``,
    ``takeback_decline``) in ``state``, the state after ``log`` (the whole log to the head);
    ``state_at(n)`` is the state after event n. The answerer of an answer is its ``player``, or the judge."""
    kind = action.get("type")
    if kind == "takeback_policy":
        return takebacks.set_policy(state, action.get("policy"), str(action.get("reason") or ""))
    if kind == "takeback_request":
        player = str(action.get("player"))
        to = action.get("to")
        floor = takebacks.last_rewind(log)
        start = state_at(floor) if floor else GameState()
        span = takebacks.plan(start, log, player, None if to is None else int(to))
        revealed = revealed_to(player, span.target, log[span.to :], span.to + 1)
        return takebacks.request(state, span, player, str(action.get("reason") or ""), revealed, to, by)
    answerer = action.get("player") or "judge"
    tid = int(action.get("takeback", 0))
    reason = str(action.get("reason") or "")
    if kind == "takeback_accept":
        return takebacks.accept(state, tid, answerer, state_at, reason)
    if kind == "takeback_decline":
        return takebacks.decline(state, tid, answerer, reason)
    raise ValueError(f"not a takeback action: {kind!r}")


TAKEBACK_ACTIONS = ("takeback_policy", "takeback_request", "takeback_accept", "takeback_decline")
