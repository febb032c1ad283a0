"""Takebacks: a player asks to take back their play, the opponent (or the judge) accepts or declines, and
the judge sets the match's policy. The rules of it are ``domain.takebacks``."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask import Blueprint

from app.api.matches import MATCH_EXAMPLE, MATCH_ID
from app.auth import check_acts_for, current_caller
from app.endpoint import ANYONE, JUDGE, PARTICIPANT, endpoint, idempotency, judge_app, match_uuid
from app.problems import ApiProblem
from app.schemas.takebacks import (
    TakebackAnswerSchema,
    TakebackPolicySetSchema,
    TakebackRequestSchema,
    TakebackResultSchema,
    TakebacksSchema,
    policy_body,
)
from domain.takebacks import policy_of
from projections.views import event_view

bp = Blueprint("takebacks", __name__)

TAKEBACK_ID = {
    **MATCH_ID,
    "takeback_id": "the request's id (its event number, as the request's answer gives it)",
}
TAKEBACK_EXAMPLE = {**MATCH_EXAMPLE, "takeback_id": "57"}
ANSWER_ERRORS = (400, 403, 404, 409, 415, 422)
WAITING = (
    " While a request waits for its answer the match waits too: any other action is refused with 409 "
    "(`takeback.open`), a concession aside."
)


def _result(
    mid: UUID, events: list[Any], viewer: str, takeback: int
) -> tuple[dict[str, Any], dict[str, str]]:
    out = {
        "version": events[-1].originator_version,
        "takeback": takeback,
        "events": [event_view(e, viewer) for e in events],
    }
    return out, {"Location": f"/matches/{mid}/events?after={events[0].originator_version - 1}"}


def _takeback_id(raw: str) -> int:
    if not raw.isdigit() or len(raw) > 18:
        raise ApiProblem(404, "not-found", f"There is no takeback {raw!r}: a takeback's id is a number.")
    return int(raw)


@bp.post("/matches/<match_id>/takebacks")
@endpoint(
    "Ask for a takeback",
    tag="takebacks",
    auth=PARTICIPANT,
    body=TakebackRequestSchema,
    response=TakebackResultSchema,
    status=201,
    idempotent=True,
    errors=(400, 403, 404, 409, 415, 422),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    example={"reason": "I meant to charge the other card"},
    description=(
        "A player asks to take back their play to `to`, a decision point (default: the last decision they "
        "answered). The match's takeback policy decides: `never` (409, `takeback.policy`), limits (409, "
        "`takeback.limit`), and by default a takeback whose undone play showed the player a card they could "
        "not see before is refused (409, `takeback.reveal`); where it is allowed, the request lists what was "
        "revealed, with the cards named to the opponent and the judge only. The judge may ask for a player "
        "(naming `player`)." + WAITING + " With an `Idempotency-Key` header, a retry gets the first answer."
    ),
)
def request_takeback(match_id: str, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    mid = match_uuid(match_id)
    caller = current_caller(mid)
    player = body.get("player", caller.player)
    if player is None:
        raise ApiProblem(422, "invalid-request", "The judge asks for a takeback for a player: name `player`.")
    check_acts_for(caller, player, "asking for a takeback")
    by = "judge" if caller.is_judge else None
    events = judge_app().request_takeback(
        mid, player, body.get("to"), body["reason"], by, idempotency(caller.viewer)
    )
    return _result(mid, events, caller.viewer, events[0].originator_version)


def _answer(match_id: str, takeback_id: str, body: dict[str, Any], accept: bool) -> Any:
    mid, tid = match_uuid(match_id), _takeback_id(takeback_id)
    caller = current_caller(mid)
    answerer = "judge" if caller.is_judge else str(caller.player)
    app, request, reason = judge_app(), idempotency(caller.viewer), body.get("reason", "")
    if accept:
        events = app.accept_takeback(mid, tid, answerer, reason, request)
    else:
        events = app.decline_takeback(mid, tid, answerer, reason, request)
    return _result(mid, events, caller.viewer, tid)


ANSWERING = (
    "The requester's opponent answers, or the judge; the requester is 403 (`takeback.not-opponent`), and "
    "under a `judge-only` policy so is the opponent (`takeback.judge-only`). A takeback that does not wait "
    "for an answer is 409 (`takeback.not-open`). The body may be empty or `{}`, or give a `reason`. With an "
    "`Idempotency-Key` header, a retry gets the first answer."
)


@bp.post("/matches/<match_id>/takebacks/<takeback_id>/accept")
@endpoint(
    "Accept a takeback",
    tag="takebacks",
    auth=PARTICIPANT,
    body=TakebackAnswerSchema,
    optional_body=True,
    response=TakebackResultSchema,
    status=201,
    idempotent=True,
    errors=ANSWER_ERRORS,
    path_params=TAKEBACK_ID,
    path_examples=TAKEBACK_EXAMPLE,
    example={"reason": "fine by me"},
    description=(
        "Appends `TakebackAccepted` and a rewind to the point asked for: the state after it equals the state "
        "at that point, and the undone events stay in the log, marked `rewound_by`. Shuffles are not drawn "
        "again: the same actions after the rewind shuffle as they did. " + ANSWERING
    ),
)
def accept_takeback(
    match_id: str, takeback_id: str, body: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, str]]:
    return _answer(match_id, takeback_id, body, accept=True)


@bp.post("/matches/<match_id>/takebacks/<takeback_id>/decline")
@endpoint(
    "Decline a takeback",
    tag="takebacks",
    auth=PARTICIPANT,
    body=TakebackAnswerSchema,
    optional_body=True,
    response=TakebackResultSchema,
    status=201,
    idempotent=True,
    errors=ANSWER_ERRORS,
    path_params=TAKEBACK_ID,
    path_examples=TAKEBACK_EXAMPLE,
    example={"reason": "you saw the card"},
    description="Appends `TakebackDeclined`; nothing else changes and the match goes on. " + ANSWERING,
)
def decline_takeback(
    match_id: str, takeback_id: str, body: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, str]]:
    return _answer(match_id, takeback_id, body, accept=False)


@bp.post("/matches/<match_id>/takebacks/policy")
@endpoint(
    "Set the match's takeback policy",
    tag="takebacks",
    auth=JUDGE,
    body=TakebackPolicySetSchema,
    response=TakebackResultSchema,
    status=201,
    idempotent=True,
    errors=(400, 401, 403, 404, 415, 422),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    example={"policy": "with-consent", "per_player": 2, "reason": "the event's rules"},
    description=(
        "Appends `TakebackPolicySet`: the policy holds from then on (a request already waiting is still "
        "answered). Fields left out take their default. `takeback` in the answer is 0: no request is made."
    ),
)
def set_takeback_policy(match_id: str, body: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    mid = match_uuid(match_id)
    events = judge_app().set_takeback_policy(mid, policy_body(body), body["reason"], idempotency(JUDGE))
    return _result(mid, events, "judge", 0)


@bp.get("/matches/<match_id>/takebacks")
@endpoint(
    "List a match's takebacks",
    tag="takebacks",
    auth=ANYONE,
    response=TakebacksSchema,
    errors=(403, 404),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    description=(
        "The match's policy, the accepted takebacks per player, the request waiting (if any), and every "
        "request with its answer, as the caller may see them: a request's warning names its cards to the "
        "requester's opponent and the judge only."
    ),
)
def list_takebacks(match_id: str) -> dict[str, Any]:
    mid = match_uuid(match_id)
    viewer = current_caller(mid).viewer
    app = judge_app()
    state = app.state_at(mid)
    records: dict[int, dict[str, Any]] = {}
    for e in app.stored_events(mid):
        if e.type == "TakebackRequested":
            records[e.originator_version] = {
                "id": e.originator_version,
                "player": e.data["player"],
                "to": e.data["to"],
                "status": "open",
                "request": event_view(e, viewer),
                "answer": None,
            }
        elif e.type in ("TakebackAccepted", "TakebackDeclined") and e.data.get("takeback") in records:
            record = records[e.data["takeback"]]
            record["status"] = "accepted" if e.type == "TakebackAccepted" else "declined"
            record["answer"] = event_view(e, viewer)
    waiting = state.takebacks.get("open")
    return {
        "policy": policy_of(state),
        "used": dict(state.takebacks.get("used") or {}),
        "open": waiting["id"] if waiting else None,
        "takebacks": list(records.values()),
    }
