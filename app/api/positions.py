"""POST /positions: a match that starts from a position a judge describes (the ruling sandbox)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.api.matches import created, new_seed
from app.endpoint import JUDGE, endpoint, idempotency, judge_app
from app.schemas.matches import PositionCreatedSchema, PositionSchema

bp = Blueprint("positions", __name__)

EXAMPLE = {
    "format": "diva",
    "turn": 5,
    "turn_player": "p1",
    "first_player": "p1",
    "phase": "main",
    "step": None,
    "seed": 7,
    "players": {
        "p1": {
            "lrig": {"center": "WXDi-D01-002", "left": "WXDi-D01-006", "right": "WXDi-D01-009"},
            "signi": {
                "left": "WXDi-D01-013",
                "center": {"card": "WXDi-D01-014", "downed": True},
                "right": "WXDi-D01-012",
            },
            "hand": ["WXDi-D01-018"],
            "deck": ["WXDi-D01-012"] * 8,
            "life_cloth": ["WXDi-D01-020"] * 3,
            "ener": ["WXDi-D01-017"],
            "trash": [],
            "lrig_deck": ["WXDi-D01-003"],
            "refreshes_this_turn": 0,
        },
        "p2": {
            "lrig": {"center": "WXDi-D01-004"},
            "deck": ["WXDi-D01-012"] * 8,
            "life_cloth": ["WXDi-D01-020"] * 3,
        },
    },
}


@bp.post("/positions")
@endpoint(
    "Create a match from a position",
    tag="positions",
    auth=JUDGE,
    body=PositionSchema,
    response=PositionCreatedSchema,
    status=201,
    idempotent=True,
    errors=(400, 401, 403, 415, 422),
    example=EXAMPLE,
    description=(
        "The position is the match's first event; the match starts at the beginning of the given "
        "phase and step and runs on to the next decision, rule processing first. `warnings` says what "
        "rule processing changed in the position (a SIGNI above its LRIG's level put into the trash ...) "
        "and any choice it waits for; it is empty when the position stood as given. A position that "
        "cannot exist is refused with 422 and the reason. With an `Idempotency-Key` header, a retry "
        "gets the first answer again and creates nothing."
    ),
)
def create_position(body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    position = {k: v for k, v in body.items() if k not in ("seed", "takebacks")}
    seed = body.get("seed")
    if seed is None:
        seed = new_seed()
    match, warnings = judge_app().create_position(position, seed, idempotency(JUDGE), body.get("takebacks"))
    body = {**created(match.id, match.version, match.state.seed), "warnings": warnings}
    return body, {"Location": f"/matches/{match.id}"}
