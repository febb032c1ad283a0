"""Invariants every state of every match keeps, whatever happened: used by property tests and ``simulate``.

- every card instance of a player is in exactly one place, on its owner's side;
- the field holds the right kinds of card (LRIGs in LRIG zones, SIGNI in SIGNI zones);
- a game that is not over always names a pending decision, and a finished one names none.
"""

from __future__ import annotations

from collections import Counter

from domain import facts
from domain.cards import CardType
from domain.state import GameState

SIGNI_TYPES = {CardType.SIGNI, CardType.RESONA, CardType.SIGNI_CRAFT, CardType.RESONA_CRAFT}
LRIG_TYPES = {CardType.LRIG, CardType.ASSIST_LRIG}


def problems(s: GameState, *, between_actions: bool = True) -> list[str]:
    out: list[str] = []
    seen: Counter[str] = Counter()
    for p, ps in s.players.items():
        places: list[str] = []
        for cards in ps.zones.values():
            places.extend(cards)
        for pos, slot in ps.lrig.items():
            if slot is not None:
                places.append(slot.iid)
                places.extend(slot.under)
                if facts.card_of(s, slot.iid).type not in LRIG_TYPES:
                    out.append(f"{p}'s {pos} LRIG zone holds a non-LRIG {slot.iid}")
        for zone, slot in ps.signi.items():
            if slot is not None:
                places.append(slot.iid)
                places.extend(slot.under)
                if facts.card_of(s, slot.iid).type not in SIGNI_TYPES:
                    out.append(f"{p}'s {zone} SIGNI zone holds a non-SIGNI {slot.iid}")
        for iid in places:
            if s.owners.get(iid) != p:
                out.append(f"card {iid} is on {p}'s side but belongs to {s.owners.get(iid)}")
        seen.update(places)
    seen.update(s.limbo)
    for iid in s.owners:
        if seen[iid] != 1:
            out.append(f"card {iid} is in {seen[iid]} places")
    extra = set(seen) - set(s.owners)
    if extra:
        out.append(f"unknown card instances on the field: {sorted(extra)}")
    if between_actions:
        if s.status == "finished" and s.pending is not None:
            out.append("a finished game still asks a decision")
        if s.status != "finished" and s.pending is None and s.version > 0:
            out.append("the game waits for nobody")
    return out
