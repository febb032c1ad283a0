"""GET /matches/{id}/events: the log, as the caller may see it."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.api.matches import MATCH_EXAMPLE, MATCH_ID
from app.auth import current_caller, resolve_viewer
from app.endpoint import endpoint, judge_app, match_uuid
from app.schemas.events import MAX_EVENTS, EventListSchema, EventsQuerySchema
from projections.views import event_view

bp = Blueprint("events", __name__)


@bp.get("/matches/<match_id>/events")
@endpoint(
    "Read the log",
    tag="history",
    response=EventListSchema,
    shaped=True,
    query=EventsQuerySchema,
    errors=(403, 404, 422),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    description=f"The events after `after`, at most `limit` of them (clamped to {MAX_EVENTS}). Hidden fields "
    "are left out for players and spectators; hashes are shown to the judge only; events undone by "
    "a rewind carry `rewound_by`; `decision_point` says whether a player is asked to decide after the "
    "event (the only events a rewind or a branch may go to).",
)
def list_events(match_id: str, query: dict[str, Any]) -> dict[str, Any]:
    mid = match_uuid(match_id)
    viewer = resolve_viewer(current_caller(mid), query.get("viewer"))
    app = judge_app()
    head = app.head(mid)
    after = min(query["after"], head)
    limit = max(0, min(query["limit"], MAX_EVENTS))
    events = app.stored_events(mid, after, limit) if limit and after < head else []
    marks = app.rewound_marks(mid) if events else {}
    views = [event_view(e, viewer, rewound_by=marks.get(e.originator_version)) for e in events]
    if events:
        last = events[-1].originator_version
        for view, (_, _, flag) in zip(views, app.decision_points(mid, after, last, events), strict=True):
            view["decision_point"] = flag
    return {"events": views, "head": head}
