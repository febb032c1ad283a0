"""What each viewer may see: the state and the events, redacted per viewer.

Viewers: ``judge`` (everything), ``p1`` / ``p2`` (their own hand and LRIG deck, and the public zones) and
``spectator`` (public zones only). Nobody but the judge sees the order of a deck, which cards are in a Life
Cloth, or the match's seed. Cards a viewer may not see are given as counts: not even their instance ids,
which would let a viewer follow a card through a shuffle.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from domain import facts
from domain.engine import describe_pending
from domain.legal import legal_actions
from domain.state import LRIG_POSITIONS, PILE_ZONES, SIGNI_ZONES, GameState, Slot

VIEWERS = ("judge", "p1", "p2", "spectator")
PUBLIC_ZONES = ("ener", "trash", "lrig_trash", "check", "excluded")
OWNER_ZONES = ("hand", "lrig_deck", *PUBLIC_ZONES)


def zone_visible(viewer: str, owner: str, zone: str) -> bool:
    if viewer == "judge":
        return True
    if zone in PUBLIC_ZONES:
        return True
    return viewer == owner and zone in OWNER_ZONES


def enforced(card_id: str) -> bool:
    """Whether the service enforces everything the card does (cards with no abilities, for now)."""
    from domain.abilities import is_enforced

    return is_enforced(card_id)


@cache
def _printed(card_id: str) -> dict[str, Any]:
    """A card's printed facts as a view shows them (the same for every instance, so made once per card;
    never handed out, only copied)."""
    card = facts.catalogue().get(card_id)
    out: dict[str, Any] = {"card": card.id, "name": card.name, "type": card.type.value}
    if card.level is not None:
        out["level"] = card.level
    if card.power is not None:
        out["power"] = card.power
    out["enforced"] = enforced(card.id)
    return out


def card_view(state: GameState, iid: str) -> dict[str, Any]:
    return {"iid": iid, **_printed(state.cards[iid])}


def slot_view(
    state: GameState,
    slot: Slot,
    applying: Sequence[Any] | None = None,
    granting: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """A card on the field; ``applying`` and ``granting``: the constant power and keyword steps that apply
    now, when the caller has worked them out once for every slot of the state."""
    out = card_view(state, slot.iid)
    out["downed"] = slot.downed
    out["frozen"] = slot.frozen
    if out.get("power") is not None:
        out["power"] = facts.power(state, slot, applying)
    if out.get("level") is not None and state.flags.get("base_changed"):  # an effect set a level this turn
        level = facts.level(state, slot.iid)
        if level != out["level"]:
            out["printed_level"], out["level"] = out["level"], level
    if slot.power_mod:
        out["power_mod"] = slot.power_mod
    kws = sorted(facts.keywords(state, slot, granting))
    if kws:
        out["keywords"] = kws
    out["under"] = [card_view(state, u) for u in slot.under]
    if slot.awakened:
        out["awakened"] = True
    return out


def state_view(state: GameState, viewer: str, *, options: bool = True) -> dict[str, Any]:
    """The state as ``viewer`` may see it, in the contract's shape."""
    from domain.abilities.constants import active

    players: dict[str, Any] = {}
    applying = list(active(state, "power"))  # worked out once for every card shown on the field
    granting = list(active(state, "keywords"))
    for p, ps in state.players.items():
        face_up = ps.lrigs_face_up or viewer in ("judge", p)
        lrig: dict[str, Any] = {}
        for pos in LRIG_POSITIONS:
            slot = ps.lrig[pos]
            if slot is None:
                lrig[pos] = None
            elif face_up:
                lrig[pos] = slot_view(state, slot, applying, granting)
            else:
                lrig[pos] = {"face_down": True, "downed": slot.downed, "frozen": slot.frozen}
        view: dict[str, Any] = {
            "name": ps.name,
            "lrig": lrig,
            "signi": {
                z: (slot_view(state, sl, applying, granting) if sl else None) for z, sl in ps.signi.items()
            },
        }
        for zone in PILE_ZONES:
            cards = ps.zones[zone]
            z: dict[str, Any] = {"count": len(cards)}
            if zone_visible(viewer, p, zone):
                z["cards"] = [card_view(state, c) for c in cards]
            view[zone] = z
        view["refreshes_this_turn"] = ps.refreshes_this_turn
        view["coins"] = ps.coins
        players[p] = view
    out: dict[str, Any] = {
        "version": state.version,
        "status": state.status,
        "winner": state.winner,
        "result": state.result,
        "turn": state.turn,
        "turn_player": state.turn_player,
        "first_player": state.first_player,
        "phase": state.phase,
        "step": state.step,
        "pending": pending_view(state, viewer, options=options),
        "players": players,
        "format": state.format,
    }
    if state.attack is not None:
        out["attack"] = {k: v for k, v in state.attack.items()}
    if viewer == "judge":
        out["seed"] = state.seed
        out["digest"] = state.digest()
    return out


# what a pending decision shows its decider and the judge (API "Turn flow and decisions"); the rest of what
# the engine keeps with it (the effect to resume, what the answer is for) is for the engine only
PENDING_FIELDS = frozenset(
    {"player", "kind", "prompt", "min", "max", "count", "choices", "cards", "card", "card_id", "zones"}
    | {"looked", "order", "options", "attacker"}
)


def pending_view(state: GameState, viewer: str, *, options: bool = True) -> dict[str, Any] | None:
    pending = state.pending
    if pending is None:
        return None
    decider = pending["player"]
    if viewer in ("judge", decider):
        out = {k: v for k, v in pending.items() if k in PENDING_FIELDS}  # never the engine's own notes
        out["description"] = describe_pending(pending)
        if "options" in out:  # the labels of a choice between options (pay or decline, a mode, a rule)
            out["labels"] = out.pop("options")
        if options:
            out["options"] = list(legal_actions(state))
        return out
    return {"player": decider, "kind": pending["kind"], "description": describe_pending(pending)}


# -- events ---------------------------------------------------------------------------------------


def _own(viewer: str, player: str) -> bool:
    return viewer in ("judge", player)


def _count(data: dict[str, Any], key: str) -> dict[str, Any]:
    out = {k: v for k, v in data.items() if k != key}
    out["count"] = len(data.get(key) or ())
    return out


def redact_data(
    etype: str, data: dict[str, Any], viewer: str, state_before: GameState | None = None
) -> dict[str, Any]:
    """An event's data as ``viewer`` may see it."""
    if viewer == "judge":
        return data
    p = data.get("player")
    if etype == "MatchCreated":
        players = {}
        for q, info in data["players"].items():
            entry: dict[str, Any] = {
                "name": info["name"],
                "main_deck": {"count": len(info["main_deck"])},
                "lrig_deck": {"count": len(info["lrig_deck"])},
            }
            if viewer == q:
                entry["lrig_deck"]["cards"] = [
                    {"iid": i, "card": data["cards"][i]} for i in info["lrig_deck"]
                ]
            players[q] = entry
        return {"format": data["format"], "players": players}
    if etype == "PositionSet":
        from domain.state import GameState as _GS

        return {"state": state_view(_GS.from_dict(data["state"]), viewer, options=False)}
    if etype == "Rewound":
        return {k: v for k, v in data.items() if k != "state"}
    if etype in ("DeckShuffled",):
        return _count(data, "order")
    if etype == "CardsToDeckBottom":  # the order at the bottom of a deck is nobody's to know
        return _count(data, "cards")
    if etype == "HandRevealed" and viewer not in (p, data.get("to")) and data.get("to") != "all":
        return _count(data, "cards")
    if etype == "DeckTopArranged" and viewer != p:  # only the player looked at them
        return {"player": p, "top": {"count": len(data["top"])}, "bottom": {"count": len(data["bottom"])}}
    if etype == "Refreshed":
        return _count(data, "order")
    if etype == "LifeClothPlaced":
        return _count(data, "cards")
    if etype == "LrigsPlaced":
        if viewer == p:
            return data
        return {"player": p, "face_down": True}
    if etype in ("CardsDrawn", "MulliganDeclared", "CardsReturned"):
        return data if viewer == p else _count(data, "cards")
    if etype == "Asked":
        out = {k: v for k, v in data.items() if k != "resume"}
        if data.get("private") and viewer != p:
            for key in ("choices", "looked"):
                if key in out:
                    out[key] = {"count": len(out[key])}
        return out
    if etype == "Answered":
        if data.get("private") and viewer != p:
            return {k: v for k, v in data.items() if k != "answer"}
        return data
    if etype == "CardsMoved" and data.get("to") == "hand" and not data.get("reveal") and viewer != p:
        return _count(data, "cards") if data.get("from_hidden") else data
    if etype == "Adjusted":
        return {
            "reason": data.get("reason"),
            "steps": [_redact_step(s, viewer) for s in data.get("steps", [])],
        }
    return data


def _redact_step(step: dict[str, Any], viewer: str) -> dict[str, Any]:
    if step.get("public", True) or viewer == step.get("player"):
        return {k: v for k, v in step.items() if k != "public"}
    return {"op": step.get("op"), "player": step.get("player"), "hidden": True}


def event_view(event: Any, viewer: str, rewound_by: int | None = None) -> dict[str, Any]:
    """A stored event in the contract's shape, as ``viewer`` may see it."""
    body = event.body()
    body["data"] = redact_data(event.type, event.data, viewer)
    if viewer == "judge":
        body["hash"] = event.hash
    else:
        if ("action" in body and viewer != body.get("actor")) or (
            "action" in body and body["action"].get("type") in ("create", "position")
        ):
            body.pop("action")
    if rewound_by is not None:
        body["rewound_by"] = rewound_by
    return body


def domain_event_view(n: int, event: Any, viewer: str) -> dict[str, Any]:
    """A predicted (not stored) event, as ``viewer`` may see it: no time and no hash."""
    body: dict[str, Any] = {
        "n": n,
        "type": event.type,
        "actor": event.actor,
        "rule": event.rule,
        "caused_by": event.caused_by,
        "data": redact_data(event.type, event.data, viewer),
    }
    if event.by:
        body["by"] = event.by
    return body


__all__ = ["SIGNI_ZONES", "VIEWERS", "card_view", "domain_event_view", "event_view", "state_view"]
