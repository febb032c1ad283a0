"""GET /matches/{id}/legal-actions: every answer to the pending decision at any event."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.api.matches import MATCH_EXAMPLE, MATCH_ID
from app.auth import check_acts_for, require_participant
from app.endpoint import PARTICIPANT, endpoint, judge_app, match_uuid
from app.schemas.actions import LegalActionsQuerySchema, LegalActionsSchema
from projections.views import legal_actions_view

bp = Blueprint("legal_actions", __name__)


@bp.get("/matches/<match_id>/legal-actions")
@endpoint(
    "List the legal actions",
    tag="play",
    auth=PARTICIPANT,
    response=LegalActionsSchema,
    query=LegalActionsQuerySchema,
    errors=(403, 404, 422),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    description=(
        "Every answer to the decision pending after event `at` (default: the latest), each a "
        "complete action that can be posted as it is. A player token gets its own answers (none "
        "when the decision is the other player's); the judge any player's; spectators none (401)."
    ),
)
def list_legal_actions(match_id: str, query: dict[str, Any]) -> dict[str, Any]:
    mid = match_uuid(match_id)
    caller = require_participant(mid, "Asking for the legal actions")
    player = query.get("player")
    if player is not None:
        check_acts_for(caller, player, "asking for the legal actions")
    elif not caller.is_judge:
        player = caller.player
    state = judge_app().state_at(mid, query.get("at"))
    return {"actions": legal_actions_view(state, caller.viewer, player), "at": state.version}
