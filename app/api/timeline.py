"""GET /matches/{id}/timeline: for every event, whether a rewind or a branch may go there, and where the game
stood after it (what a scrubber shows)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.api.matches import MATCH_EXAMPLE, MATCH_ID
from app.auth import current_caller
from app.endpoint import endpoint, judge_app, match_uuid
from app.schemas.matches import MAX_TIMELINE, TimelineQuerySchema, TimelineSchema
from domain.state import GameState

bp = Blueprint("timeline", __name__)


def point(n: int, event_type: str, state: GameState, decision_point: bool) -> dict[str, Any]:
    """The match after event ``n``: only what every viewer may know (who is asked what, not the options)."""
    pending = state.pending
    return {
        "n": n,
        "type": event_type,
        "decision_point": decision_point,
        "status": state.status,
        "turn": state.turn,
        "turn_player": state.turn_player,
        "phase": state.phase,
        "step": state.step,
        "pending": None if pending is None else {"player": pending["player"], "kind": pending["kind"]},
    }


@bp.get("/matches/<match_id>/timeline")
@endpoint(
    "Show the timeline",
    tag="history",
    response=TimelineSchema,
    shaped=True,
    query=TimelineQuerySchema,
    errors=(403, 404, 422),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    description=(
        f"One point per event after `after`, at most `limit` of them (clamped to {MAX_TIMELINE}): whether it "
        "is a decision point (an event after which a player is asked to decide: the only events a rewind "
        "or a branch may go to, rule `judge.decision-point`), and the turn, phase, step and pending "
        "decision (player and kind) after it. Anyone who may read the log may read it."
    ),
)
def timeline(match_id: str, query: dict[str, Any]) -> dict[str, Any]:
    mid = match_uuid(match_id)
    current_caller(mid)  # the caller is checked as for the log: whoever may read it may read this
    app = judge_app()
    head = app.head(mid)
    after = min(query["after"], head)
    upto = min(head, after + max(0, min(query["limit"], MAX_TIMELINE)))
    events = app.stored_events(mid, after, upto - after) if upto > after else []
    points = app.decision_points(mid, after, upto, events) if events else ()
    return {
        "points": [point(n, e.type, state, flag) for e, (n, state, flag) in zip(events, points, strict=True)],
        "head": head,
    }
