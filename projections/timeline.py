"""Which events a rewind undid: events after a rewind's target and before the rewind carry ``rewound_by``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def rewound_by(events: Iterable[Any]) -> dict[int, int]:
    """Event number -> the number of the rewind that undid it (the first rewind that covers it)."""
    marks: dict[int, int] = {}
    for e in events:
        if e.type == "Rewound":
            for k in range(int(e.data["to"]) + 1, e.originator_version):
                marks.setdefault(k, e.originator_version)
    return marks
