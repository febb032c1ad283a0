"""What a ruling may show a player or a spectator of the events it predicts.

Stored events are redacted by ``projections.views``; a prediction needs one more step. An event that has not
happened yet may name cards the viewer cannot know at that point (the top cards of the viewer's own deck that
a draw would bring, the Life Cloth a crush would reveal). What the viewer can know at that point is what its
own view of the state shows; fields naming any other card are left out, as for any hidden field, and a list
is replaced by its ``count``.
"""

from __future__ import annotations

from typing import Any

from domain.state import GameState
from projections.views import state_view


def hidden_iids(state: GameState, viewer: str) -> frozenset[str]:
    """The instance ids ``viewer`` cannot see in ``state``: every card of the match that its own view of the
    state (``projections.views.state_view``, the pending decision and its options included) does not show."""
    if viewer == "judge":
        return frozenset()
    shown: set[str] = set()
    _collect(state_view(state, viewer), set(state.cards), shown)
    return frozenset(set(state.cards) - shown)


def _collect(value: Any, iids: set[str], out: set[str]) -> None:
    if isinstance(value, str):
        if value in iids:
            out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            _collect(k, iids, out)
            _collect(v, iids, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _collect(v, iids, out)


def _mentions(value: Any, hidden: frozenset[str]) -> bool:
    if isinstance(value, str):
        return value in hidden
    if isinstance(value, dict):
        return any(_mentions(k, hidden) or _mentions(v, hidden) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_mentions(v, hidden) for v in value)
    return False


def scrub_data(data: dict[str, Any], hidden: frozenset[str]) -> dict[str, Any]:
    """``data`` without the fields that name a hidden card (a list of cards leaves its ``count``)."""
    if not hidden or not _mentions(data, hidden):
        return data
    out: dict[str, Any] = {}
    for key, value in data.items():
        if not _mentions(value, hidden):
            out[key] = value
        elif isinstance(value, list | tuple) and "count" not in data:
            out["count"] = len(value)
    return out


def scrub_prediction(event: dict[str, Any], hidden: frozenset[str]) -> dict[str, Any]:
    if hidden and isinstance(event.get("data"), dict):
        event = {**event, "data": scrub_data(event["data"], hidden)}
    return event
