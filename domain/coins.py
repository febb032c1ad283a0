"""Coins from the coin icons printed on LRIGs.

An LRIG card may print a coin value. A player whose LRIGs are turned face up at the start of the game gains
the coins their LRIGs print, and a player gains the coins of an LRIG they grow into; a player holds at most
five coins, and what would go beyond is not gained (rule ``coin.icon``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from domain.state import COIN_LIMIT, GameState

if TYPE_CHECKING:  # the recorder is passed in; importing it would put this module on the abilities' circle
    from domain.recorder import Recorder


def _never(_s: GameState, _player: str) -> bool:
    return False


_banned: list[Callable[[GameState, str], bool]] = [_never]


def use_coin_ban(banned: Callable[[GameState, str], bool]) -> None:
    """Set how a constant ability that keeps a player from gaining coins is found (``constants`` registers it
    as it loads: this module imports nothing of the abilities)."""
    _banned[:] = [banned]


def can_gain(s: GameState, player: str) -> bool:
    """Whether ``player`` may gain coins now: no constant ability says they cannot (rule ``effect.coins``)."""
    return not _banned[0](s, player)


def gain_printed(rec: Recorder, player: str, printed: int) -> None:
    """``player`` gains ``printed`` coins (the values printed on their LRIGs), up to the limit; none while a
    constant ability says they cannot gain coins."""
    if not can_gain(rec.state, player):
        return
    n = min(printed, COIN_LIMIT - rec.state.players[player].coins)
    if n > 0:
        rec.emit("CoinsGained", "rules", "coin.icon", {"player": player, "count": n})
