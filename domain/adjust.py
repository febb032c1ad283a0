"""A judge's adjustment: primitive steps that resolve an ability the service does not enforce.

Each step is checked for zone and card consistency before anything happens (the card must be where the step
says, a SIGNI zone takes one SIGNI, a card stays on its owner's side), so an adjustment can never produce a
state that could not exist. Steps:

- ``{"op": "move", "card", "from", "to", "zone"?, "top"?}``: a card between zones (``to: "signi"`` needs
  ``zone``: left, center or right; ``top`` puts it on top of a deck or Life Cloth);
- ``{"op": "power", "card", "amount"}``: power changed until end of turn;
- ``{"op": "down" | "up" | "freeze", "card"}``;
- ``{"op": "draw", "player", "n"}``; ``{"op": "shuffle", "player"}`` (the new order is decided once).
"""

from __future__ import annotations

import random
from typing import Any

from domain import facts
from domain.errors import IllegalAction
from domain.evolve import apply_steps
from domain.state import PILE_ZONES, PLAYERS, SIGNI_ZONES, GameState

OPS = ("move", "power", "down", "up", "freeze", "draw", "shuffle")
FIELD_TYPES = ("signi", "resona", "signi_craft", "resona_craft")
HIDDEN = ("hand", "deck", "life_cloth", "lrig_deck")


def _bad(message: str) -> IllegalAction:
    return IllegalAction("judge.adjust", message)


def _where(s: GameState, iid: str) -> str:
    found = s.where(iid)
    if found is None:
        raise _bad(f"unknown card {iid}")
    place = found[1]
    if place.startswith("signi:"):
        return "signi"
    if place.startswith("lrig:"):
        return "lrig"
    return place


def _card(s: GameState, ref: Any, where: str | None) -> str:
    if not isinstance(ref, str):
        raise _bad("each step names a card by instance id (or catalogue id with 'from' and 'player')")
    if ref in s.owners:
        return ref
    raise _bad(f"unknown card instance {ref!r}: name cards by their instance id as the state shows it")


def check_steps(s: GameState, steps: list[dict[str, Any]], rng: random.Random) -> list[dict[str, Any]]:
    """Check every step against the state as the steps before it leave it; the normalised steps."""
    work = s.copy()
    out: list[dict[str, Any]] = []
    for i, raw in enumerate(steps):
        where = f"step {i + 1}"
        op = raw.get("op")
        if op not in OPS:
            raise _bad(f"{where}: unknown step {op!r}; the steps are {', '.join(OPS)}")
        step: dict[str, Any] = {"op": op}
        if op in ("draw", "shuffle"):
            p = raw.get("player")
            if p not in PLAYERS:
                raise _bad(f"{where}: 'player' must be p1 or p2")
            step["player"] = p
            deck = work.players[p].zones["deck"]
            if op == "draw":
                n = raw.get("n", 1)
                if not isinstance(n, int) or isinstance(n, bool) or n < 1:
                    raise _bad(f"{where}: 'n' must be a whole number from 1")
                step["cards"] = deck[:n]
                step["public"] = False
            else:
                order = list(deck)
                rng.shuffle(order)
                step["order"] = order
                step["public"] = False
        else:
            iid = _card(work, raw.get("card"), None)
            step["card"] = iid
            step["player"] = work.owners[iid]
            at = _where(work, iid)
            if op == "move":
                src, dst = raw.get("from"), raw.get("to")
                if src != at:
                    raise _bad(f"{where}: {iid} is in the {at}, not the {src}")
                if dst not in (*PILE_ZONES, "signi"):
                    raise _bad(f"{where}: 'to' must be a zone: {', '.join((*PILE_ZONES, 'signi'))}")
                step["from"], step["to"] = src, dst
                if dst == "signi":
                    zone = raw.get("zone")
                    if zone not in SIGNI_ZONES:
                        raise _bad(f"{where}: moving onto the field needs 'zone': left, center or right")
                    if work.players[step["player"]].signi[zone] is not None:
                        raise _bad(f"{where}: the {zone} SIGNI zone is not empty")
                    if facts.card_of(work, iid).type.value not in FIELD_TYPES:
                        raise _bad(f"{where}: only a SIGNI can stand in a SIGNI zone")
                    step["zone"] = zone
                step["top"] = bool(raw.get("top", False))
                step["public"] = not (src in HIDDEN and dst in HIDDEN)
            else:
                if at not in ("signi", "lrig"):
                    raise _bad(f"{where}: {op} needs a card on the field; {iid} is in the {at}")
                if op == "power":
                    amount = raw.get("amount")
                    if not isinstance(amount, int) or isinstance(amount, bool):
                        raise _bad(f"{where}: 'amount' must be a whole number")
                    step["amount"] = amount
                step["public"] = True
        apply_steps(work, [step])
        out.append(step)
    return out


__all__ = ["apply_steps", "check_steps"]
