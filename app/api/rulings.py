"""POST /matches/{id}/rulings: what would happen if an action were taken at some event; appends nothing."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.api.matches import MATCH_EXAMPLE, MATCH_ID
from app.auth import check_acts_for, require_participant
from app.endpoint import PARTICIPANT, endpoint, judge_app, match_uuid
from app.problems import forbidden
from app.schemas.actions import RulingRequestSchema, RulingSchema
from projections.views import ruling_view

bp = Blueprint("rulings", __name__)


@bp.post("/matches/<match_id>/rulings")
@endpoint(
    "Ask for a ruling",
    tag="play",
    auth=PARTICIPANT,
    body=RulingRequestSchema,
    response=RulingSchema,
    errors=(400, 403, 404, 415, 422),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    example={"at": 9, "action": {"player": "p1", "type": "mulligan", "cards": []}},
    description=(
        "Whether `action` is legal after event `at` (default: the latest), the rules that say so, "
        "and the events it would produce, numbered from `at + 1`. Appends nothing. A well-formed "
        "action the rules refuse is 200 with `legal: false`; a malformed one is 422. A player may "
        "ask about its own actions and sees the predicted events as it would see them, never a card"
        " it cannot know yet: the prediction stops (`complete: false`) at the first event that would "
        "show one, with the cards of that event left out."
    ),
)
def ask_ruling(match_id: str, body: dict[str, Any]) -> dict[str, Any]:
    mid = match_uuid(match_id)
    caller = require_participant(mid, "Asking for a ruling")
    action = body["action"]
    if action.get("type") == "adjust" and not caller.is_judge:
        raise forbidden("Only the judge may adjust a match, or ask what an adjustment would do.")
    check_acts_for(caller, action.get("player"), "asking a ruling")
    app = judge_app()
    ruling = app.ruling(mid, action, body.get("at"), by="judge" if caller.is_judge else None)
    return ruling_view(app.state_at(mid, ruling.at), ruling, caller.viewer, action)
