"""GET /matches/{id}/record and POST /records: a match as a portable record, and a record replayed into a
new match (``projections.records``; docs/RECORDS.md)."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, request

from app.api.matches import MATCH_EXAMPLE, MATCH_ID, created
from app.endpoint import JUDGE, endpoint, idempotency, judge_app, load_json_body, lone_surrogate, match_uuid
from app.problems import ApiProblem
from app.schemas.matches import RecordImportedSchema
from projections.records import Divergence
from projections.views import state_view

bp = Blueprint("records", __name__)

NDJSON = "application/x-ndjson"


@bp.get("/matches/<match_id>/record")
@endpoint(
    "A match's record",
    tag="judge",
    auth=JUDGE,
    response=None,
    content_type=NDJSON,
    errors=(401, 403, 404),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    description=(
        "The match as JSON Lines (docs/RECORDS.md, docs/record.schema.json): a header (format, engine "
        "version, seed, first player, players and decks, or the position), then one line per action in "
        "order (rewinds and judge adjustments included) with the number of its last event, the head hash "
        "after it and its events' times. `POST /records` replays it into a new match with every hash equal."
    ),
)
def record(match_id: str) -> Response:
    text = judge_app().record(match_uuid(match_id))
    return Response(text, mimetype=NDJSON)


def divergence_problem(exc: Divergence) -> ApiProblem:
    out = exc.to_dict(lambda s: state_view(s, "judge"))
    detail = f"line {exc.line}: {exc.detail}"
    return ApiProblem(
        422,
        "record-diverges",
        detail,
        rule_refs=out["rule_refs"],
        line=exc.line,
        reason=exc.reason,
        state=out.get("state"),
    )


def _no_lone_surrogate(text: str) -> str:
    """``text``, refused (400) when a line spells a lone surrogate (``\\ud800``): no text encoding carries
    one further, into the store or a hash. A line that is not JSON is left to the replay to name."""
    for number, line in enumerate(text.splitlines(), start=1):
        if "\\u" not in line:
            continue
        try:
            where = lone_surrogate(json.loads(line))
        except (ValueError, RecursionError):
            continue
        if where is not None:
            raise ApiProblem(
                400,
                "malformed-request",
                f"Line {number} of the record holds a lone surrogate (an escape such as \\ud800 that is no "
                f"character) at {where.replace('the body', 'the line')}; every string must be Unicode text.",
                line=number,
            )
    return text


def _record_text() -> str:
    mimetype = request.mimetype
    if mimetype == NDJSON:
        try:
            return _no_lone_surrogate(request.get_data(cache=True).decode("utf-8"))
        except UnicodeDecodeError:
            raise ApiProblem(400, "malformed-request", "The record is not UTF-8 text.") from None
    if request.is_json:
        body = load_json_body()
        if not isinstance(body, dict) or not isinstance(body.get("record"), str) or set(body) != {"record"}:
            raise ApiProblem(
                422,
                "invalid-request",
                "Send the record as JSON Lines (Content-Type: application/x-ndjson), or as JSON "
                '{"record": "<the JSON Lines text>"} and nothing else.',
            )
        return _no_lone_surrogate(body["record"])
    raise ApiProblem(
        415,
        "unsupported-media-type",
        'Send the record as application/x-ndjson, or as application/json {"record": "..."}.',
    )


@bp.post("/records")
@endpoint(
    "Import a record",
    tag="judge",
    auth=JUDGE,
    response=RecordImportedSchema,
    status=201,
    idempotent=True,
    errors=(400, 401, 403, 413, 415, 422),
    description=(
        "Replays a record (docs/RECORDS.md) through the rules into a new match: 201 with the match's id "
        "and tokens, as `POST /matches`, and a report of what was checked and what could not be (a record "
        "without a seed: the cards it does not name). The body is the record as `application/x-ndjson`, "
        'or JSON `{"record": "..."}`. Where the record and the rules part ways (an illegal action, a '
        "hash or an event count that differs, a card that could not be where the record says), nothing is "
        "saved and the answer is 422 with `line`, `reason` (`malformed`, `illegal-action`, "
        "`card-not-there`, `events-differ`, `hash-differs`), `rule_refs` and `state`, the judge's view of "
        "the state before that line. With an `Idempotency-Key` header, a retry gets the first answer again "
        "(the same match) and creates nothing; the same key with another record is 422."
    ),
)
def import_record() -> tuple[dict[str, Any], dict[str, str]]:
    text = _record_text()
    try:
        replay = judge_app().import_record(text, idempotency(JUDGE, text=text))
    except Divergence as exc:
        raise divergence_problem(exc) from None
    match = replay.match
    out = created(match.id, match.version, match.state.seed)
    out["report"] = replay.report()
    return out, {"Location": f"/matches/{match.id}"}
