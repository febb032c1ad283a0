"""GET /matches/{id}/audit: is the stored log intact, and is it what the rules would have produced?
POST /matches/{id}/audit: does today's log still extend a head hash a judge wrote down earlier?"""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.api.matches import MATCH_EXAMPLE, MATCH_ID
from app.endpoint import JUDGE, endpoint, judge_app, match_uuid
from app.schemas.matches import AnchorReportSchema, AnchorSchema, AuditSchema

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
        "through the rules; `problems` names the first event where either fails. `head_hash` is worth "
        "writing down outside the service: `POST` it back later to prove that nothing before it changed. "
        "`docs/AUDIT.md` says exactly which bytes are hashed."
    ),
)
def audit(match_id: str) -> dict[str, Any]:
    return judge_app().audit(match_uuid(match_id)).to_dict()


@bp.post("/matches/<match_id>/audit")
@endpoint(
    "Check a head hash written down earlier",
    tag="judge",
    auth=JUDGE,
    body=AnchorSchema,
    response=AnchorReportSchema,
    errors=(400, 401, 403, 404, 415, 422),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    example={"head_hash": "0" * 64, "at": 1},
    description=(
        "Whether today's log still extends a head hash written down earlier (from `GET .../audit`, or the "
        "`hash` of an event): `extends` is true when an event's hash, recomputed from today's contents, is "
        "that hash, which proves that no event up to it changed since. `at` (optional) is the event "
        "number it was noted at. The answer also carries today's audit (`ok`, `head_hash`, `problems`). "
        "A hash that appears nowhere is `extends: false` with the reason; a malformed one is 422."
    ),
)
def check_anchor(match_id: str, body: dict[str, Any]) -> dict[str, Any]:
    return judge_app().anchor(match_uuid(match_id), body["head_hash"], body.get("at")).to_dict()
