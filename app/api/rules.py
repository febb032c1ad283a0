"""GET /rules, GET /rules/{rule_id}: the rules catalogue."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.endpoint import endpoint
from app.problems import not_found
from app.schemas.catalogue import RuleListSchema, RuleSchema
from domain.rules import UnknownRule, all_rules, rule

bp = Blueprint("rules", __name__)


@bp.get("/rules")
@endpoint(
    "List the rules catalogue",
    tag="rules",
    response=RuleListSchema,
    description=(
        "Every rule id the service cites, with a title, a summary in the project's words and the "
        "source it follows."
    ),
)
def list_rules() -> dict[str, Any]:
    return {"rules": [r.to_dict() for r in all_rules()]}


@bp.get("/rules/<rule_id>")
@endpoint(
    "Show one rule",
    tag="rules",
    response=RuleSchema,
    errors=(404,),
    path_params={"rule_id": "a rule id, e.g. play.limit"},
    path_examples={"rule_id": "play.limit"},
)
def get_rule(rule_id: str) -> dict[str, Any]:
    try:
        return rule(rule_id).to_dict()
    except UnknownRule:
        raise not_found(f"There is no rule {rule_id!r}; GET /rules lists them.") from None
