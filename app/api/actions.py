"""POST /matches/{id}/actions: a player (or the judge for a player) answers the pending decision."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.api.matches import MATCH_EXAMPLE, MATCH_ID
from app.auth import check_acts_for, require_participant
from app.endpoint import PARTICIPANT, endpoint, idempotency, judge_app, match_uuid
from app.problems import forbidden
from app.schemas.actions import ActionRequestSchema, ActionResultSchema
from domain.costs import PAID_FIELDS, payment_notes
from projections.views import event_view

bp = Blueprint("actions", __name__)


@bp.post("/matches/<match_id>/actions")
@endpoint(
    "Take an action",
    tag="play",
    auth=PARTICIPANT,
    body=ActionRequestSchema,
    response=ActionResultSchema,
    shaped=True,
    status=201,
    idempotent=True,
    errors=(400, 403, 404, 409, 415, 422),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    example={"action": {"player": "p1", "type": "mulligan", "cards": []}, "expected_version": 9},
    description=(
        "A player token acts only as its own player; the judge may answer any player's decision "
        "(the events then record `by: judge`). With `expected_version`, the action is refused with "
        "409 unless the match is still at that version. An action the rules refuse is 422 with "
        "`rule_refs`; nothing is recorded then. The answer lists the events the action produced, as"
        " the caller may see them. With an `Idempotency-Key` header (or `action_id`), a retry gets the "
        "first answer again, whatever happened since, and records nothing; the same key with another "
        "request is 422."
    ),
)
def act(match_id: str, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    mid = match_uuid(match_id)
    caller = require_participant(mid, "Acting")
    action = body["action"]
    if action.get("type") == "adjust" and not caller.is_judge:
        raise forbidden("Only the judge may adjust a match.")
    check_acts_for(caller, action.get("player"), "acting")
    app = judge_app()
    request = idempotency(caller.viewer, body.get("action_id"))
    by = "judge" if caller.is_judge else None
    events = app.act(mid, action, body.get("expected_version"), by=by, request=request)
    version = events[-1].originator_version if events else app.head(mid)
    after = events[0].originator_version - 1 if events else version
    out: dict[str, Any] = {"version": version, "events": [event_view(e, caller.viewer) for e in events]}
    if action.get("pay") is None and any(e.type in PAID_FIELDS for e in events):
        out["notes"] = payment_notes(app.state_at(mid, version).cards, action, events)  # the service chose
    return out, {"Location": f"/matches/{mid}/events?after={after}"}
