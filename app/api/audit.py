"""GET /matches/{id}/audit: is the stored log intact, and is it what the rules would have produced?"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.api.matches import MATCH_EXAMPLE, MATCH_ID
from app.endpoint import JUDGE, endpoint, judge_app, match_uuid
from app.schemas.matches import AuditSchema

bp = Blueprint("audit", __name__)


@bp.get("/matches/<match_id>/audit")
@endpoint(
    "Audit a match",
    tag="judge",
    auth=JUDGE,
    response=AuditSchema,
    errors=(401, 403, 404),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    description=(
        "Recomputes the hash chain (an edited or deleted event is found) and replays the log "
        "through the rules; `problems` names the first event where either fails."
    ),
)
def audit(match_id: str) -> dict[str, Any]:
    return judge_app().audit(match_uuid(match_id)).to_dict()
