"""GET /matches/{id}/state: the state after any event, as the caller may see it."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.api.matches import MATCH_EXAMPLE, MATCH_ID
from app.auth import current_caller, resolve_viewer
from app.endpoint import endpoint, judge_app, match_uuid
from app.schemas.state import StateQuerySchema, StateViewSchema
from projections.views import state_view

bp = Blueprint("state", __name__)


@bp.get("/matches/<match_id>/state")
@endpoint(
    "Show the state",
    tag="history",
    response=StateViewSchema,
    shaped=True,
    query=StateQuerySchema,
    errors=(403, 404, 422),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    description=(
        "The state as of event `at` (default: the latest). A player token sees that player's view, "
        "no token the spectator's; the judge sees everything (with the seed and the state's digest)"
        " or names a `viewer`."
    ),
)
def get_state(match_id: str, query: dict[str, Any]) -> dict[str, Any]:
    mid = match_uuid(match_id)
    viewer = resolve_viewer(current_caller(mid), query.get("viewer"))
    return state_view(judge_app().state_at(mid, query.get("at")), viewer)
