"""Facts worked out once per match: a match's card and owner maps never change once the match is made, and
every copy of its state shares them, so what depends only on them is kept, keyed by the map itself.

A value is found again only for the very map it was made from (``is``, not an equal one), at the length it
had then: a position being built only adds cards to its maps, which the length tells.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Generic, TypeVar

T = TypeVar("T")


class PerMatch(Generic[T]):
    def __init__(self, limit: int = 1024) -> None:
        self.limit = limit  # the most values kept; all are dropped past it (a few matches refill it fast)
        self._kept: dict[tuple[int, Hashable], tuple[Mapping[str, str], int, T]] = {}

    def get(self, mapping: Mapping[str, str], build: Callable[[], T], key: Hashable = None) -> T:
        """The value for ``mapping`` (and ``key``), made by ``build`` the first time."""
        at = (id(mapping), key)
        hit = self._kept.get(at)
        if hit is not None and hit[0] is mapping and hit[1] == len(mapping):
            return hit[2]
        value = build()
        if len(self._kept) >= self.limit:
            self._kept.clear()
        self._kept[at] = (mapping, len(mapping), value)
        return value
