"""Bearer tokens: the judge's (from configuration) and one per player of each match (derived, never stored).

A player token is ``<match id>.<player>.<mac>``, where ``mac`` is
``HMAC-SHA256(secret, "<match id>:<player>")`` in hex. It says which match and which player it is for, and
the service recomputes the mac to check it, so nothing about tokens is kept in the store and any endpoint can
tell a player token from a made-up one (an unknown token is refused with 401 everywhere, not only on the
match's own paths).

Tokens issued before this form were the bare ``mac``. Such a token names no match, so it is checked only
against the match a request's path names (``identify(token, match_id)``); anywhere else it is unknown.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from dataclasses import dataclass
from uuid import UUID

PLAYERS = ("p1", "p2")

# RFC 6750's b64token: what a bearer token may look like at all
TOKEN_SYNTAX = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
_MAC = re.compile(r"[0-9a-f]{64}")


def derive_secret(judge_token: str) -> bytes:
    """The default secret for player tokens: derived from the judge token, so one setting is enough."""
    return hashlib.sha256(b"wixoss-judge player tokens\x00" + judge_token.encode()).digest()


@dataclass(frozen=True, slots=True)
class Identity:
    """Who a valid token stands for: the judge, or one player of one match."""

    role: str  # judge or player
    match_id: UUID | None = None
    player: str | None = None


JUDGE_IDENTITY = Identity("judge")


def well_formed(token: str) -> bool:
    """Whether ``token`` has the syntax of a bearer token (RFC 6750 ``b64token``)."""
    return TOKEN_SYNTAX.fullmatch(token) is not None


class Tokens:
    def __init__(self, judge_token: str, secret: bytes) -> None:
        if not judge_token:
            raise ValueError("the judge token must not be empty")
        self._judge = judge_token.encode()
        self._secret = secret

    def is_judge(self, token: str) -> bool:
        return hmac.compare_digest(token.encode(), self._judge)

    def _mac(self, match_id: UUID, player: str) -> str:
        return hmac.new(self._secret, f"{match_id}:{player}".encode(), hashlib.sha256).hexdigest()

    def player_token(self, match_id: UUID, player: str) -> str:
        if player not in PLAYERS:
            raise ValueError(f"no player {player!r}")
        return f"{match_id}.{player}.{self._mac(match_id, player)}"

    def legacy_player_token(self, match_id: UUID, player: str) -> str:
        """The bare-mac form issued before tokens named their match; still accepted on the match's paths."""
        if player not in PLAYERS:
            raise ValueError(f"no player {player!r}")
        return self._mac(match_id, player)

    def player_tokens(self, match_id: UUID) -> dict[str, str]:
        return {p: self.player_token(match_id, p) for p in PLAYERS}

    def player_of(self, token: str, match_id: UUID) -> str | None:
        """The player of ``match_id`` whose token this is (either form), or None."""
        found = self.identify(token, match_id)
        if found is None or found.role != "player" or found.match_id != match_id:
            return None
        return found.player

    def identify(self, token: str, match_id: UUID | None = None) -> Identity | None:
        """Who ``token`` stands for, or None when it is no token the service issued. ``match_id``, the match
        the request is about, is needed only to recognise a bare-mac token of that match."""
        if self.is_judge(token):
            return JUDGE_IDENTITY
        parts = token.split(".")
        if len(parts) == 3:
            raw_id, player, mac = parts
            try:
                mid = UUID(raw_id)
            except ValueError:
                return None
            if str(mid) != raw_id or player not in PLAYERS or not _MAC.fullmatch(mac):
                return None
            if hmac.compare_digest(mac.encode(), self._mac(mid, player).encode()):
                return Identity("player", mid, player)
            return None
        if match_id is not None and _MAC.fullmatch(token):
            found = None
            for p in PLAYERS:  # compare with both, always, in constant time
                if hmac.compare_digest(token.encode(), self._mac(match_id, p).encode()):
                    found = p
            if found is not None:
                return Identity("player", match_id, found)
        return None
