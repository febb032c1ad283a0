"""POST /matches/{id}/branches: the judge starts a new match from a copy of the first events of another."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.api.matches import MATCH_EXAMPLE, MATCH_ID, created
from app.endpoint import JUDGE, endpoint, idempotency, judge_app, match_uuid
from app.schemas.matches import BranchCreatedSchema, BranchSchema

bp = Blueprint("branches", __name__)


@bp.post("/matches/<match_id>/branches")
@endpoint(
    "Branch a match",
    tag="judge",
    auth=JUDGE,
    body=BranchSchema,
    response=BranchCreatedSchema,
    status=201,
    idempotent=True,
    errors=(400, 401, 403, 404, 415, 422),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    example={"at": 9, "reason": "what if p1 had kept a different hand"},
    description=(
        "A new match whose first `at` events are the parent's; the parent is unchanged. The answer "
        "holds the new match's player tokens. `at` must be a decision point, an event after which a "
        "player is asked to decide (see `GET /matches/{id}/timeline`); any other event is a 422 (rule "
        "`judge.decision-point`) whose body names the nearest decision points, `earlier` and `later` "
        "(null where there is none). With an "
        "`Idempotency-Key` header, a retry gets the first answer again (the same new match) and creates "
        "nothing."
    ),
)
def branch(match_id: str, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    app, parent = judge_app(), match_uuid(match_id)
    new = app.branch(parent, body["at"], body["reason"], idempotency(JUDGE))
    out = created(new.id, new.version)
    out.update(parent=parent, branched_at=body["at"])
    return out, {"Location": f"/matches/{new.id}"}
