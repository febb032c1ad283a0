"""Which cards' abilities the service enforces.

No card ability is encoded yet: a card with abilities is shown with ``enforced: false`` everywhere, and
what its abilities would do is a judge's to resolve. A card without abilities is enforced in full.
"""

from __future__ import annotations

from domain.facts import catalogue


def is_enforced(card_id: str) -> bool:
    card = catalogue().get(card_id)
    return not getattr(card, "has_abilities", True)
