"""Invariants every state of every match keeps, whatever happened: used by property tests and ``simulate``.

- every card instance of a player is in exactly one place, on its owner's side;
- the field holds the right kinds of card (LRIGs in LRIG zones, SIGNI in SIGNI zones);
- a game that is not over always names a pending decision, and a finished one names none.
"""

from __future__ import annotations

from collections import Counter

from domain import facts
from domain.cards import CardType
from domain.per_match import PerMatch
from domain.state import GameState

SIGNI_TYPES = {CardType.SIGNI, CardType.RESONA, CardType.SIGNI_CRAFT, CardType.RESONA_CRAFT}
LRIG_TYPES = {CardType.LRIG, CardType.ASSIST_LRIG}


_MINE: PerMatch[dict[str, frozenset[str]]] = PerMatch(256)


def _owned(s: GameState) -> dict[str, frozenset[str]]:
    """Each player's card instances, found once per match."""
    return _MINE.get(
        s.owners, lambda: {p: frozenset(i for i, o in s.owners.items() if o == p) for p in s.players}
    )


def problems(s: GameState, *, between_actions: bool = True) -> list[str]:
    """What is wrong with the state: an empty list when every invariant holds."""
    out = [] if _cards_in_place(s) else _misplaced(s)
    if between_actions:
        if s.status == "finished" and s.pending is not None:
            out.append("a finished game still asks a decision")
        if s.status != "finished" and s.pending is None and s.version > 0:
            out.append("the game waits for nobody")
    return out


def _cards_in_place(s: GameState) -> bool:
    """The quick check: each player's places (limbo included) hold exactly that player's cards, once each,
    and the field holds the right kinds of card. When it fails, ``_misplaced`` says what is wrong."""
    owned = _owned(s)
    for p, ps in s.players.items():
        places = [iid for iid in s.limbo if s.owners.get(iid) == p]
        for cards in ps.zones.values():
            places += cards
        for slots, kinds in ((ps.lrig, LRIG_TYPES), (ps.signi, SIGNI_TYPES)):
            for slot in slots.values():
                if slot is not None:
                    if facts.card_of(s, slot.iid).type not in kinds:
                        return False
                    places.append(slot.iid)
                    places += slot.under
        for _zone, entry in ps.face_down_cards():
            places += [entry["iid"], *entry["under"]]
        mine = owned.get(p, frozenset())
        if len(places) != len(mine) or set(places) != mine:
            return False
    return sum(len(m) for m in owned.values()) == len(s.owners)


def _misplaced(s: GameState) -> list[str]:
    out: list[str] = []
    every: list[str] = list(s.limbo)
    for p, ps in s.players.items():
        places: list[str] = []
        for cards in ps.zones.values():
            places += cards
        for pos, slot in ps.lrig.items():
            if slot is not None:
                places.append(slot.iid)
                places += slot.under
                if facts.card_of(s, slot.iid).type not in LRIG_TYPES:
                    out.append(f"{p}'s {pos} LRIG zone holds a non-LRIG {slot.iid}")
        for zone, slot in ps.signi.items():
            if slot is not None:
                places.append(slot.iid)
                places += slot.under
                if facts.card_of(s, slot.iid).type not in SIGNI_TYPES:
                    out.append(f"{p}'s {zone} SIGNI zone holds a non-SIGNI {slot.iid}")
        for zone, entry in ps.face_down_cards():
            places += [entry["iid"], *entry["under"]]
            if facts.card_of(s, entry["iid"]).type not in SIGNI_TYPES:
                out.append(f"{p}'s {zone} SIGNI zone holds a face-down non-SIGNI {entry['iid']}")
        owners = s.owners
        if any(owners.get(iid) != p for iid in places):
            out += [
                f"card {i} is on {p}'s side but belongs to {owners.get(i)}"
                for i in places
                if owners.get(i) != p
            ]
        every += places
    if len(every) != len(s.owners) or len(set(every)) != len(every):
        seen = Counter(every)
        out += [f"card {iid} is in {seen[iid]} places" for iid in s.owners if seen[iid] != 1]
        extra = set(seen) - set(s.owners)
        if extra:
            out.append(f"unknown card instances on the field: {sorted(extra)}")
    return out
