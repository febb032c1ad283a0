"""Who is calling, and whether they may: checked once per request, before the body is read.

Tokens travel as ``Authorization: Bearer <token>``. Every endpoint declares who may call it (``@endpoint(auth=
...)``), and ``authorize`` settles the caller before anything else of the request is looked at:

- No ``Authorization`` header: a spectator. Endpoints open to ``ANYONE`` answer (a match's reads with the
  public information only); every other endpoint refuses with 401.
- A header that is not a bearer token (another scheme, no value, characters a token cannot hold) or a token
  the service did not issue: 401 with ``WWW-Authenticate: Bearer ... error="invalid_token"``, on every
  endpoint, reads included. A wrong token is never quietly taken for no token.
- A valid token without the right: 403. A player token may act and ask only as its own player and only on
  its own match; the judge's token may do everything. A player token of another match on a match's paths,
  reads included, is 403, not a spectator's view: a player whose client points at the wrong table learns so
  at once instead of reading a board with its own hand hidden. On endpoints that are about no match (cards,
  decks, rules, the list of matches) any valid token is welcome.

A player token names its match (``app.tokens``), so it is recognised everywhere; a token in the older bare
form is recognised only on the paths of its own match and is unknown (401) anywhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from flask import current_app, g, request

from app.problems import forbidden, invalid_token, unauthorized
from app.tokens import Tokens, well_formed

# who may call an endpoint (its ``@endpoint(auth=...)``)
ANYONE = "anyone"  # no token (a spectator), the judge, or any player; on a match's paths, its own players
PARTICIPANT = "participant"  # the judge or a player of the match the path names
JUDGE = "judge"  # the judge only
AUTH_LEVELS = (ANYONE, PARTICIPANT, JUDGE)

_CALLER = "wixoss_caller"


@dataclass(frozen=True, slots=True)
class Caller:
    role: str  # judge, player, spectator
    player: str | None = None
    has_token: bool = False
    match_id: UUID | None = None  # the match a player token is for

    @property
    def viewer(self) -> str:
        """The view this caller gets by default: judge, p1, p2 or spectator."""
        if self.role == "judge":
            return "judge"
        return self.player or "spectator"

    @property
    def is_judge(self) -> bool:
        return self.role == "judge"


SPECTATOR = Caller("spectator")


def tokens() -> Tokens:
    return current_app.extensions["judge_tokens"]


def bearer_token() -> str | None:
    """The token sent, or None when no ``Authorization`` header was sent. A header that holds no bearer token
    is refused (401), never read as no token."""
    header = request.headers.get("Authorization")
    if header is None or not header.strip():
        return None
    scheme, _, value = header.strip().partition(" ")
    value = value.strip()
    if scheme.lower() != "bearer":
        raise invalid_token(
            "The Authorization header must be 'Bearer <token>'; this service knows no other scheme."
        )
    if not value or not well_formed(value):
        raise invalid_token("The Authorization header holds no well-formed bearer token.")
    return value


def path_match(raw: str | None) -> UUID | None:
    """The match id a path names, when it is one."""
    if raw is None:
        return None
    try:
        return UUID(raw)
    except ValueError:
        return None


def authenticate(match_id: UUID | None = None) -> Caller:
    """The caller the request's token stands for: 401 for a token that stands for no one."""
    token = bearer_token()
    if token is None:
        return SPECTATOR
    found = tokens().identify(token, match_id)
    if found is None:
        raise invalid_token("The token sent is not one this service issued (nor the judge's).")
    if found.role == "judge":
        return Caller("judge", has_token=True)
    return Caller("player", found.player, has_token=True, match_id=found.match_id)


def _player_of_another_match(caller: Caller, raw_match: str) -> bool:
    return caller.role == "player" and caller.match_id != path_match(raw_match)


def authorize(auth: str, raw_match: str | None = None) -> Caller:
    """Who is calling, checked against who may call (``auth``) and the match the path names (``raw_match``,
    as it stands in the path); raises 401 or 403. The caller is kept for the rest of the request."""
    if auth not in AUTH_LEVELS:
        raise ValueError(f"unknown auth level {auth!r}")
    caller = authenticate(path_match(raw_match))
    if not caller.has_token and auth != ANYONE:
        who = "the judge's token" if auth == JUDGE else "a player token of this match or the judge's token"
        raise unauthorized(f"This needs {who}, sent as Authorization: Bearer <token>; none was sent.")
    if auth == JUDGE and not caller.is_judge:
        raise forbidden("Only the judge may do this; the token sent is a player's.")
    if raw_match is not None and _player_of_another_match(caller, raw_match):
        raise forbidden(
            f"The token sent is {caller.player}'s token of match {caller.match_id}, not of this match; "
            "it gives no rights here (without a token, a match's public information may be read)."
        )
    setattr(g, _CALLER, caller)
    return caller


def current_caller(match_id: UUID | None = None) -> Caller:
    """The caller this request was authorized as (by ``@endpoint``), or, outside a declared endpoint, the
    caller its token stands for."""
    caller = g.get(_CALLER)
    if caller is not None:
        return caller
    caller = authenticate(match_id)
    if caller.role == "player" and match_id is not None and caller.match_id != match_id:
        raise forbidden("The token sent is a player token of another match; it gives no rights here.")
    return caller


def require_judge() -> Caller:
    caller = current_caller()
    if not caller.has_token:
        raise unauthorized("This needs the judge's token, sent as Authorization: Bearer <token>.")
    if not caller.is_judge:
        raise forbidden("Only the judge may do this; the token sent is not the judge's.")
    return caller


def require_participant(match_id: UUID, what: str) -> Caller:
    """The judge or a player of this match. No token: 401; a player token of another match: 403 (both are
    settled already where the endpoint is declared ``PARTICIPANT``)."""
    caller = current_caller(match_id)
    if not caller.has_token:
        raise unauthorized(
            f"{what} needs a player token of this match or the judge's token, sent as "
            "Authorization: Bearer <token>; none was sent."
        )
    if not caller.is_judge and caller.match_id != match_id:
        raise forbidden(f"{what} needs a player token of this match or the judge's token.")
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
