"""Where the reference card data is (``../shared/cards`` from the project root, or ``$WIXOSS_SHARED_CARDS``):
tests that read it skip when it is absent, since it is not part of a user's clone."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any

import pytest

SHARED_CARDS = Path(
    os.environ.get("WIXOSS_SHARED_CARDS") or Path(__file__).resolve().parents[1] / ".." / "shared" / "cards"
)
ABSENT = "../shared/cards not present: reference data is not part of a user's clone"


@cache
def _records() -> list[dict[str, Any]]:
    from tools.import_cards import link_hand_reprints

    with (SHARED_CARDS / "cards.json").open(encoding="utf-8") as f:
        return link_hand_reprints(list(json.load(f)))


def reference_records() -> list[dict[str, Any]]:
    """Every record of the reference ``cards.json``, as the importer reads it (with the reprints it links by
    hand, ``tools.import_cards.HAND_REPRINTS``); skips the calling test when the file is absent."""
    if not (SHARED_CARDS / "cards.json").is_file():
        pytest.skip(ABSENT)
    return _records()
