"""GET /health: whether the service and its event store answer."""

from __future__ import annotations

import time
from typing import Any

from eventsourcing.persistence import PersistenceError
from flask import Blueprint, Response, current_app

from app.endpoint import endpoint, judge_app
from app.problems import RETRY_AFTER_SECONDS
from app.schemas.health import HealthSchema
from app.store import StoreHasNoTables

bp = Blueprint("health", __name__)


@bp.get("/health")
@endpoint(
    "Whether the service and its event store answer",
    tag="docs",
    response=HealthSchema,
    description=(
        "Anyone may ask. 200 with `status: ok` when the event store answers (one read of its log's last "
        "notification id); 503 with `status: degraded`, the same JSON document (not a problem) and a "
        "`Retry-After` header when it does not, e.g. when PostgreSQL is down or has no tables. The "
        "endpoints that need no store (`/cards`, `/decks`, `/rules`, `/docs`) answer either way."
    ),
)
def health() -> Any:
    started = time.perf_counter()
    store: dict[str, Any] = {"ok": True, "module": current_app.config.get("STORE_MODULE", "")}
    try:
        app = judge_app()
        store["module"] = type(app.factory).__module__
        app.recorder.max_notification_id()
    except StoreHasNoTables as exc:
        store.update(ok=False, error=f"{exc}")
    except PersistenceError as exc:
        store.update(ok=False, error=f"the store does not answer: {_first_line(exc)}")
    store["latency_ms"] = round((time.perf_counter() - started) * 1000, 2)
    body = {"status": "ok" if store["ok"] else "degraded", "store": store}
    if store["ok"]:
        return body
    response: Response = current_app.json.response(HealthSchema().dump(body))
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
