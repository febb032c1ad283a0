"""Bearer tokens: the judge's (from configuration) and one per player of each match (derived, never stored).

A player token is ``HMAC-SHA256(secret, "<match id>:<player>")`` in hex: the service recomputes it to check a
token, so nothing about tokens is kept in the store, and a token for one match means nothing in another.
"""

from __future__ import annotations

import hashlib
import hmac
from uuid import UUID

PLAYERS = ("p1", "p2")


def derive_secret(judge_token: str) -> bytes:
    """The default secret for player tokens: derived from the judge token, so one setting is enough."""
    return hashlib.sha256(b"wixoss-judge player tokens\x00" + judge_token.encode()).digest()


class Tokens:
    def __init__(self, judge_token: str, secret: bytes) -> None:
        if not judge_token:
            raise ValueError("the judge token must not be empty")
        self._judge = judge_token.encode()
        self._secret = secret

    def is_judge(self, token: str) -> bool:
        return hmac.compare_digest(token.encode(), self._judge)

    def player_token(self, match_id: UUID, player: str) -> str:
        if player not in PLAYERS:
            raise ValueError(f"no player {player!r}")
        return hmac.new(self._secret, f"{match_id}:{player}".encode(), hashlib.sha256).hexdigest()

    def player_tokens(self, match_id: UUID) -> dict[str, str]:
        return {p: self.player_token(match_id, p) for p in PLAYERS}

    def player_of(self, token: str, match_id: UUID) -> str | None:
        """The player of ``match_id`` whose token this is, or None."""
        found = None
        for p in PLAYERS:  # compare with both, always, in constant time
            if hmac.compare_digest(token.encode(), self.player_token(match_id, p).encode()):
                found = p
        return found
