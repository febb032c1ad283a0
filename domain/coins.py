"""Coins from the coin icons printed on LRIGs.

An LRIG card may print a coin value. A player whose LRIGs are turned face up at the start of the game gains
the coins their LRIGs print, and a player gains the coins of an LRIG they grow into; a player holds at most
five coins, and what would go beyond is not gained (rule ``coin.icon``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.state import COIN_LIMIT

if TYPE_CHECKING:  # the recorder is passed in; importing it would put this module on the abilities' circle
    from domain.recorder import Recorder


def gain_printed(rec: Recorder, player: str, printed: int) -> None:
    """``player`` gains ``printed`` coins (the values printed on their LRIGs), up to the limit."""
    n = min(printed, COIN_LIMIT - rec.state.players[player].coins)
    if n > 0:
        rec.emit("CoinsGained", "rules", "coin.icon", {"player": player, "count": n})
