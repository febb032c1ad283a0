"""GET /matches/{id}/events: the log, as the caller may see it; GET /matches/{id}/events/stream: the same,
live, as Server-Sent Events."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from eventsourcing.persistence import PersistenceError
from flask import Blueprint, Response, current_app, request

from app.api.matches import MATCH_EXAMPLE, MATCH_ID
from app.application import JudgeApplication, MatchNotFound
from app.auth import current_caller, resolve_viewer
from app.endpoint import endpoint, judge_app, match_uuid
from app.problems import ApiProblem
from app.schemas.events import (
    MAX_EVENTS,
    EventListSchema,
    EventsQuerySchema,
    EventStreamMessageSchema,
    EventStreamQuerySchema,
)
from projections.sentences import Cast
from projections.views import event_view

bp = Blueprint("events", __name__)

STREAM_POLL_SECONDS = 0.5  # how often a stream asks the store for its match's head
STREAM_KEEPALIVE_SECONDS = 15.0  # a comment line this often, so that proxies keep the connection
STREAM_LIFETIME_SECONDS = 300.0  # then the stream ends; a browser's EventSource reconnects by itself
STREAM_RETRY_MS = 1000  # how long a browser waits before it reconnects


def match_cast(app: JudgeApplication, mid: UUID) -> Cast:
    """The names a match's sentences use: its players' names and its cards (fixed when it was made)."""
    return Cast.of(app.state_at(mid, 1))


def views_of(
    app: JudgeApplication, mid: UUID, events: list[Any], viewer: str, after: int, cast: Cast
) -> list[dict[str, Any]]:
    """Stored events as ``viewer`` may see them, with ``rewound_by`` and ``decision_point``."""
    marks = app.rewound_marks(mid) if events else {}
    views = [event_view(e, viewer, rewound_by=marks.get(e.originator_version), cast=cast) for e in events]
    if events:
        last = events[-1].originator_version
        for view, (_, _, flag) in zip(views, app.decision_points(mid, after, last, events), strict=True):
            view["decision_point"] = flag
    return views


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
    "event (the only events a rewind or a branch may go to). Each event's `text` says what happened in "
    "one sentence, made from what the caller may see of it.",
)
def list_events(match_id: str, query: dict[str, Any]) -> dict[str, Any]:
    mid = match_uuid(match_id)
    viewer = resolve_viewer(current_caller(mid), query.get("viewer"))
    app = judge_app()
    head = app.head(mid)
    after = min(query["after"], head)
    limit = max(0, min(query["limit"], MAX_EVENTS))
    events = app.stored_events(mid, after, limit) if limit and after < head else []
    views = views_of(app, mid, events, viewer, after, match_cast(app, mid)) if events else []
    return {"events": views, "head": head}


@bp.get("/matches/<match_id>/events/stream")
@endpoint(
    "Follow the log live",
    tag="history",
    response=EventStreamMessageSchema,
    query=EventStreamQuerySchema,
    content_type="text/event-stream",
    errors=(400, 403, 404, 422),
    path_params=MATCH_ID,
    path_examples=MATCH_EXAMPLE,
    description="Server-Sent Events: each event appended to the match after `after` (default: the head "
    "when the stream opens), as the caller may see it (the same JSON as one item of `GET "
    "/matches/{id}/events`, `text` included), one SSE message each: `event: match-event`, `id:` the event "
    "number, `data:` the event. A `Last-Event-ID` header (sent by a browser's EventSource when it "
    "reconnects) resumes after that event and wins over `after`. A comment line is sent every "
    f"{int(STREAM_KEEPALIVE_SECONDS)} s; the stream ends after `timeout` seconds (at most and by default "
    f"{int(STREAM_LIFETIME_SECONDS)}), and the browser reconnects by itself. The store is asked for the "
    "head twice a second, so events appended by any worker arrive.",
)
def stream_events(match_id: str, query: dict[str, Any]) -> Response:
    mid = match_uuid(match_id)
    viewer = resolve_viewer(current_caller(mid), query.get("viewer"))
    app = judge_app()
    head = app.head(mid)
    after = _last_event_id()
    if after is None:
        after = query.get("after", head)
    after = min(after, head)
    longest = float(current_app.config.get("STREAM_LIFETIME_SECONDS", STREAM_LIFETIME_SECONDS))
    lifetime = min(query.get("timeout", longest), longest)
    poll = float(current_app.config.get("STREAM_POLL_SECONDS", STREAM_POLL_SECONDS))
    keepalive = float(current_app.config.get("STREAM_KEEPALIVE_SECONDS", STREAM_KEEPALIVE_SECONDS))
    cast = match_cast(app, mid)
    stream = _stream(app, mid, viewer, after, cast, lifetime, poll, keepalive, current_app.logger)
    return Response(  # the stream needs no request context: everything it uses is given to it here
        stream,
        mimetype="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID")
    if raw is None or not raw.strip():
        return None
    try:
        n = int(raw.strip())
    except ValueError:
        n = -1
    if n < 0:
        raise ApiProblem(
            400, "malformed-request", f"Last-Event-ID must be an event number (0 or more), not {raw[:40]!r}."
        )
    return n


def _message(view: dict[str, Any]) -> str:
    data = json.dumps(view, separators=(",", ":"), ensure_ascii=False)
    return f"id: {view['n']}\nevent: match-event\ndata: {data}\n\n"


def _stream(
    app: JudgeApplication,
    mid: UUID,
    viewer: str,
    after: int,
    cast: Cast,
    lifetime: float,
    poll: float,
    keepalive: float,
    logger: logging.Logger,
) -> Iterator[str]:
    started = last_sent = time.monotonic()
    yield f"retry: {STREAM_RETRY_MS}\n: following match {mid} after event {after}\n\n"
    while True:
        try:
            head = app.head(mid)
            while after < head:
                events = app.stored_events(mid, after, min(head - after, MAX_EVENTS))
                if not events:
                    break
                for view in views_of(app, mid, events, viewer, after, cast):
                    yield _message(view)
                after = events[-1].originator_version
                last_sent = time.monotonic()
        except (PersistenceError, MatchNotFound) as exc:  # the store went away: the client reconnects later
            logger.warning("event stream of %s ends: %s", mid, exc)
            yield f": the store is not answering; reconnect after event {after}\n\n"
            return
        now = time.monotonic()
        if now - started >= lifetime:
            yield f": the stream ends after {int(lifetime)} s; reconnect with Last-Event-ID {after}\n\n"
            return
        if now - last_sent >= keepalive:
            yield ": keep-alive\n\n"
            last_sent = now
        time.sleep(min(poll, max(0.0, lifetime - (now - started))))
