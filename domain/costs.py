"""Paying ener costs: which ener cards can pay which part of a cost.

One ener card pays one ener of one of its colours. A colorless cost takes any card. A coloured cost cannot be
paid with a colorless card, except one with Multi Ener, which pays any colour while in the ener zone. A cost
such as ``red/green`` takes either colour. Choosing the cards is a bipartite matching between the units of
the cost and the ener cards; the sizes are tiny, so a plain augmenting-path search does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.cards import COLORS, Card, CostItem
from domain.facts import catalogue

ANY = frozenset(COLORS) | {"colorless"}


def units(cost: Sequence[CostItem]) -> list[frozenset[str] | None]:
    """One entry per ener to pay: the colours that may pay it, or None for colorless (anything)."""
    out: list[frozenset[str] | None] = []
    for item in cost:
        if item.color == "colorless":
            out.extend([None] * item.n)
        else:
            out.extend([frozenset(item.color.split("/"))] * item.n)
    # coloured units first: they are the hard ones to match
    out.sort(key=lambda u: (u is None, sorted(u or ())))
    return out


def unsupported(cost: Sequence[CostItem]) -> list[str]:
    """Parts of a cost the engine cannot pay with ener (coins, unknown colours)."""
    bad = []
    for item in cost:
        if item.color == "colorless":
            continue
        if not set(item.color.split("/")) <= set(COLORS):
            bad.append(item.color)
    return bad


def pays(card: Card) -> frozenset[str]:
    """The colours one ener card can pay."""
    if card.multi_ener:
        return frozenset(COLORS)
    return frozenset(c for c in card.colors if c in COLORS)


def _match(need: list[frozenset[str] | None], cards: list[frozenset[str]]) -> list[int] | None:
    """Indices of cards paying each unit, or None. Kuhn's algorithm, cards tried in the given order."""
    owner_of: dict[int, int] = {}

    def fits(u: int, c: int) -> bool:
        allowed = need[u]
        return allowed is None or bool(allowed & cards[c])

    def augment(u: int, seen: set[int]) -> bool:
        for c in range(len(cards)):
            if c in seen or not fits(u, c):
                continue
            seen.add(c)
            if c not in owner_of or augment(owner_of[c], seen):
                owner_of[c] = u
                return True
        return False

    for u in range(len(need)):
        if not augment(u, set()):
            return None
    by_unit = {u: c for c, u in owner_of.items()}
    return [by_unit[u] for u in range(len(need))]


def can_pay_with(cost: Sequence[CostItem], paid: Sequence[Card]) -> bool:
    """Whether exactly these cards pay exactly this cost."""
    need = units(cost)
    if len(need) != len(paid):
        return False
    return _match(need, [pays(c) for c in paid]) is not None


def choose_payment(cost: Sequence[CostItem], ener: Sequence[tuple[str, Card]]) -> list[str] | None:
    """A canonical payment from the ener zone: single-colour cards before multicolour and Multi Ener ones,
    in zone order; None when the ener zone cannot pay."""
    need = units(cost)
    if not need:
        return []
    order = sorted(range(len(ener)), key=lambda i: (len(pays(ener[i][1])) if ener[i][1].colors else 9, i))
    cards = [pays(ener[i][1]) for i in order]
    picked = _match(need, cards)
    if picked is None:
        return None
    return [ener[i][0] for i in sorted(order[c] for c in picked)]


PAID_FIELDS = {
    "LrigGrew": "paid",
    "SpellUsed": "ener",
    "PieceUsed": "ener",
    "ArtsUsed": "ener",
    "AbilityUsed": "ener",
}


def payment_notes(cards: dict[str, str], action: dict[str, Any], events: Sequence[Any]) -> list[str]:
    """The sentence saying which ener cards paid, when ``action`` (a grow or a use) named no payment and the
    service chose one: the payment recorded by the first event that paid. ``cards``: the match's instances
    and their catalogue ids. The ener zone is public, so the sentence tells nobody anything hidden. Nothing
    is added to the events themselves: whether the service chose is read from the action they record."""

    if not isinstance(action, dict) or action.get("pay") is not None:
        return []
    out = []
    for e in events:
        data = e.data
        field = PAID_FIELDS.get(e.type)
        if field is None or not data.get(field):
            continue
        names = []
        for iid in data.get(field, []):
            cid = cards.get(iid, iid)
            names.append(f"{catalogue().get(cid).name} ({cid})" if cid in catalogue() else str(iid))
        out.append(
            f"paid with {', '.join(names)} from {data.get('player')}'s ener zone: the action named no "
            "payment, so the service chose one that pays the cost"
        )
        break
    return out
