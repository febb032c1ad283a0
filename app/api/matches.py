"""POST /matches, GET /matches, GET /matches/{id}: creating, listing and summarising matches."""

from __future__ import annotations

import secrets
from typing import Any

from flask import Blueprint

from app.auth import current_caller, resolve_viewer, tokens
from app.endpoint import JUDGE, endpoint, idempotency, judge_app, match_uuid
from app.problems import ApiProblem
from app.schemas.matches import (
    MAX_LIST,
    MatchCreatedSchema,
    MatchCreateSchema,
    MatchListQuerySchema,
    MatchListSchema,
    MatchSummarySchema,
    encode_cursor,
)
from app.schemas.state import ViewerQuerySchema
from domain.decks import Deck, UnknownDeck, preset
from domain.setup import PlayerSetup
from domain.state import GameState
from projections.views import enforced, pending_view, state_view

bp = Blueprint("matches", __name__)

MATCH_ID = {"match_id": "the match's id (a UUID)"}
MATCH_EXAMPLE = {"match_id": "0f8e4a52-5a43-4c1b-9a59-2f4e3e1d6c7b"}


def new_seed() -> int:
    return secrets.randbits(53)


def created(match_id: Any, version: int, seed: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": match_id, "version": version, "tokens": tokens().player_tokens(match_id)}
    if seed is not None:
        out["seed"] = seed
    return out


def _player_setup(player: str, info: dict[str, Any]) -> PlayerSetup:
    if "deck" in info:
        try:
            deck = preset(info["deck"])
        except UnknownDeck:
            raise ApiProblem(
                422,
                "invalid-request",
                f"{player}: there is no preset deck {info['deck']!r}; GET /decks lists them.",
            ) from None
    else:
        deck = Deck(tuple(info["lrig_deck"]), tuple(info["main_deck"]))
    return PlayerSetup(info["name"], deck, dict(info["lrigs"]) if info.get("lrigs") else None)


@bp.post("/matches")
@endpoint(
    "Create a match from two decks",
    tag="matches",
    auth=JUDGE,
    body=MatchCreateSchema,
    response=MatchCreatedSchema,
    status=201,
    idempotent=True,
    errors=(400, 401, 403, 415, 422),
    example={
        "format": "diva",
        "seed": 42,
        "first_player": "p1",
        "players": {"p1": {"name": "Ann", "deck": "WXDi-D01"}, "p2": {"name": "Bo", "deck": "WXDi-D02"}},
    },
    description=(
        "Each player brings a preset deck (`deck`) or a deck given card by card (`lrig_deck` and "
        "`main_deck`). Without `seed` the service draws one; without `first_player` a coin decides."
        " The answer holds one bearer token per player. With an `Idempotency-Key` header, a retry "
        "gets the first answer again (the same match, seed and tokens) and creates nothing."
    ),
)
def create_match(body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    players = {p: _player_setup(p, body["players"][p]) for p in ("p1", "p2")}
    seed = body.get("seed")
    if seed is None:
        seed = new_seed()
    request = idempotency(JUDGE)
    match = judge_app().create_match(
        body["format"],
        seed,
        players,
        body.get("first_player"),
        request,
        body.get("takebacks"),
        options=body.get("options", {}),
    )
    return created(match.id, match.version, match.state.seed), {"Location": f"/matches/{match.id}"}


SUMMARY_FIELDS = ("id", "players", "status", "version", "winner")
JUDGE_FIELDS = (*SUMMARY_FIELDS, "parent", "branched_at")


@bp.get("/matches")
@endpoint(
    "List the matches",
    tag="matches",
    response=MatchListSchema,
    shaped=True,
    query=MatchListQuerySchema,
    errors=(422,),
    description=(
        "Oldest first, a page at a time: `limit` matches (default 50, at most 200), then `cursor` to go on."
        " `status` and `player` (a part of a player's name, case-insensitive) filter the list. The judge "
        "sees every field; anyone else sees a summary: id, players' names, status, version and winner."
    ),
)
def list_matches(query: dict[str, Any]) -> dict[str, Any]:
    limit = min(query["limit"], MAX_LIST)
    page = judge_app().index.listing(query.get("cursor", 0), limit, query.get("status"), query.get("player"))
    keys = JUDGE_FIELDS if current_caller().is_judge else SUMMARY_FIELDS
    return {
        "matches": [{k: entry[k] for k in keys if k in entry} for entry in page.entries],
        "cursor": None if page.next_after is None else encode_cursor(page.next_after),
    }


def known_card_ids(state: GameState, viewer: str) -> set[str]:
    """The catalogue ids of the match's cards that ``viewer`` may know of: every card for the judge; the cards
    it can see, and for a player its own cards, for the others."""
    if viewer == "judge":
        return set(state.cards.values())
    ids: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            card = value.get("card")
            if isinstance(card, str) and "iid" in value:
                ids.add(card)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(state_view(state, viewer, options=False)["players"])
    if viewer in ("p1", "p2"):
        ids.update(cid for iid, cid in state.cards.items() if state.owners.get(iid) == viewer)
    return ids


@bp.get("/matches/<match_id>")
@endpoint(
    "Summarise a match",
    tag="matches",
    response=MatchSummarySchema,
    query=ViewerQuerySchema,
    errors=(403, 404),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    description=(
        "Where the match stands, the pending decision as the caller may see it, and which of the "
        "match's cards have abilities the service enforces."
    ),
)
def get_match(match_id: str, query: dict[str, Any]) -> dict[str, Any]:
    mid = match_uuid(match_id)
    viewer = resolve_viewer(current_caller(mid), query.get("viewer"))
    app = judge_app()
    state = app.state_at(mid)
    entry = app.index.entry(mid) or {}
    ids = sorted(known_card_ids(state, viewer))
    return {
        "id": mid,
        "format": state.format,
        "version": state.version,
        "status": state.status,
        "turn": state.turn,
        "turn_player": state.turn_player,
        "first_player": state.first_player,
        "phase": state.phase,
        "step": state.step,
        "pending": pending_view(state, viewer, options=False),
        "winner": state.winner,
        "result": state.result,
        "players": {p: {"name": ps.name} for p, ps in state.players.items()},
        "enforced": {
            "enforced": [c for c in ids if enforced(c)],
            "judge_resolved": [c for c in ids if not enforced(c)],
        },
        "parent": entry.get("parent"),
        "branched_at": entry.get("branched_at"),
    }
