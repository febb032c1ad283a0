"""POST /matches/{id}/rewind: the judge puts the match back as it was at an earlier event."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.api.events import match_cast
from app.api.matches import MATCH_EXAMPLE, MATCH_ID
from app.endpoint import JUDGE, endpoint, idempotency, judge_app, match_uuid
from app.schemas.matches import RewindSchema, RewoundSchema
from projections.views import event_view

bp = Blueprint("rewind", __name__)


@bp.post("/matches/<match_id>/rewind")
@endpoint(
    "Rewind a match",
    tag="judge",
    auth=JUDGE,
    body=RewindSchema,
    response=RewoundSchema,
    status=201,
    idempotent=True,
    errors=(400, 401, 403, 404, 415, 422),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    example={"to": 9, "reason": "the wrong card was played"},
    description=(
        "Appends a rewind event: the state after it equals the state at `to`. Nothing is deleted; "
        "the events it undid stay in the log, marked `rewound_by`. `to` must be a decision point, an event "
        "after which a player is asked to decide (see `GET /matches/{id}/timeline`); any other event is a "
        "422 (rule `judge.decision-point`) whose body names the nearest decision points, `earlier` and "
        "`later` (null where there is none). With an "
        "`Idempotency-Key` header, a retry gets the first answer again and records nothing."
    ),
)
def rewind(match_id: str, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    app, mid = judge_app(), match_uuid(match_id)
    events = app.rewind(mid, body["to"], body["reason"], idempotency(JUDGE))
    cast = match_cast(app, mid)
    views = [event_view(e, "judge", cast=cast) for e in events]
    out = {"version": events[-1].originator_version, "events": views}
    return out, {"Location": f"/matches/{mid}/events?after={events[0].originator_version - 1}"}
