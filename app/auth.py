"""Who is calling: the judge, a player of the match at hand, or a spectator.

Tokens travel as ``Authorization: Bearer <token>``. A token that is neither the judge's nor one of this
match's player tokens (a token of another match included) makes the caller a spectator for reading, and is
refused (403) where acting needs a token; no token at all is refused with 401 there.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from flask import current_app, request

from app.problems import forbidden, unauthorized
from app.tokens import Tokens


@dataclass(frozen=True, slots=True)
class Caller:
    role: str  # judge, player, spectator
    player: str | None = None
    has_token: bool = False

    @property
    def viewer(self) -> str:
        """The view this caller gets by default: judge, p1, p2 or spectator."""
        if self.role == "judge":
            return "judge"
        return self.player or "spectator"

    @property
    def is_judge(self) -> bool:
        return self.role == "judge"


def tokens() -> Tokens:
    return current_app.extensions["judge_tokens"]


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()


def current_caller(match_id: UUID | None = None) -> Caller:
    token = bearer_token()
    if token is None:
        return Caller("spectator")
    t = tokens()
    if t.is_judge(token):
        return Caller("judge", has_token=True)
    if match_id is not None:
        player = t.player_of(token, match_id)
        if player is not None:
            return Caller("player", player, has_token=True)
    return Caller("spectator", has_token=True)


def require_judge() -> Caller:
    caller = current_caller()
    if not caller.has_token:
        raise unauthorized("This needs the judge's token, sent as Authorization: Bearer <token>.")
    if not caller.is_judge:
        raise forbidden("Only the judge may do this; the token sent is not the judge's.")
    return caller


def require_participant(match_id: UUID, what: str) -> Caller:
    """The judge or a player of this match. Spectators (no token, or a token of no use here) are refused with
    403: they may read, never act or ask about a player's decisions."""
    caller = current_caller(match_id)
    if caller.role == "spectator":
        sent = "the token sent is neither" if caller.has_token else "no token was sent"
        raise forbidden(
            f"{what} needs a player token of this match or the judge's token, sent as "
            f"Authorization: Bearer <token>; {sent}."
        )
    return caller


def check_acts_for(caller: Caller, player: object, what: str) -> None:
    """A player token may only act (or ask) as its own player."""
    if caller.is_judge:
        return
    if player != caller.player:
        raise forbidden(
            f"This token is {caller.player}'s: {what} for {player} needs {player}'s token or the judge's."
        )


def _view_words(viewer: str) -> str:
    """A view named in words: "p1's view", "a spectator's view"."""
    return "a spectator's view" if viewer == "spectator" else f"{viewer}'s view"


def resolve_viewer(caller: Caller, requested: str | None) -> str:
    """The view to give: the caller's own, or the one a judge asks for. Others may only name their own."""
    if requested is None or requested == caller.viewer:
        return caller.viewer
    if caller.is_judge:
        return requested
    raise forbidden(
        f"Only the judge may choose the view; this caller sees {_view_words(caller.viewer)}, not "
        f"{_view_words(requested)}."
    )
