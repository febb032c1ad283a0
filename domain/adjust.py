"""The primitive steps of a judge's adjustment. Not available yet: no ``Adjusted`` event can be produced."""

from __future__ import annotations

from typing import Any

from domain.state import GameState


def apply_steps(state: GameState, steps: list[dict[str, Any]]) -> None:
    raise ValueError("Adjusted events cannot be applied: judge adjustments are not available yet")
