"""Facts kept per match: found again only for the very map they were made from, at its length."""

from __future__ import annotations

from domain.per_match import PerMatch


def test_facts_kept_per_match_follow_a_map_that_grew() -> None:
    """A position being built adds cards to its map: what was worked out from the smaller map is not used."""
    kept: PerMatch[int] = PerMatch(limit=2)
    cards = {"a": "x"}
    assert kept.get(cards, lambda: len(cards)) == 1
    cards["b"] = "y"
    assert kept.get(cards, lambda: len(cards)) == 2, "grown: made again"
    assert kept.get(cards, lambda: -1) == 2, "same map, same length: kept"
    assert kept.get(dict(cards), lambda: 3) == 3, "an equal map is another match's"
    assert kept.get(cards, lambda: 4, key="other") == 4, "another key, another value"
