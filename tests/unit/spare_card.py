"""A real card that has abilities nobody has encoded yet, for the tests that encode a card in a temporary file
(a new card is a data-only change). It is found, not named: a named card stops being spare the day its set is
encoded, and its encoding in the packaged data would then clash with the test's."""

from __future__ import annotations

from functools import cache

from domain.abilities.catalogue import is_enforced
from domain.cards import CardType
from domain.facts import catalogue


@cache
def spare_signi() -> str:
    """A level 1 SIGNI without a limiting condition, a Life Burst or Guard, whose abilities are not encoded:
    it plays from the hand in any main phase, and nothing printed on it acts by itself."""
    for card in sorted(catalogue(), key=lambda c: c.id):
        if (
            card.type == CardType.SIGNI
            and card.level == 1
            and card.has_abilities
            and not (card.limiting or card.life_burst or card.guard or card.reprints[1:] or card.dissona)
            and card.id.startswith("WXDi-P")
            and not is_enforced(card.id)
        ):
            return card.id
    raise LookupError("no spare SIGNI left: every level 1 Diva SIGNI is encoded")
