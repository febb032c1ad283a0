"""Start-up: the long-lived data (card catalogue, ability data) is loaded and frozen out of the garbage
collector's full passes, except under TESTING; FREEZE_HEAP says otherwise either way."""

from __future__ import annotations

import gc

from tests.conftest import make_app


def test_the_heap_is_frozen_after_start_up_unless_testing() -> None:
    gc.unfreeze()
    try:
        make_app()
        assert gc.get_freeze_count() == 0, "under TESTING nothing is frozen"
        make_app(FREEZE_HEAP="n")
        assert gc.get_freeze_count() == 0
        make_app(FREEZE_HEAP=True)
        assert gc.get_freeze_count() > 10_000, "the catalogue and everything alive at start-up are frozen"
    finally:
        gc.unfreeze()
