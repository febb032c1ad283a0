"""Every error as ``application/problem+json`` (RFC 9457), shaped by one handler.

A problem has ``type`` (a URN naming the kind of problem), ``title`` (the same for every problem of that
type), ``status``, ``detail`` (a sentence about this occurrence) and, for rule violations, ``rule_refs``.
Views raise ``ApiProblem`` or let the domain's and the application's errors through; ``handle_error`` turns
whatever arrives into a problem, including Flask's own 404/405/415 and anything unexpected (a 500 that says
nothing about the cause; the cause is logged).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from eventsourcing.persistence import IntegrityError, PersistenceError
from flask import Flask, Response, current_app, request
from marshmallow import ValidationError
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from app.application import KeyReused, MatchNotFound, OutOfRange, VersionConflict
from app.store import StoreHasNoTables
from domain.errors import (
    IllegalAction,
    InvalidAction,
    InvalidPosition,
    JudgeError,
    NotYourTakeback,
    TakebackRefused,
)

PROBLEM_MIMETYPE = "application/problem+json"
RETRY_AFTER_SECONDS = 2  # what a 503 about the store asks a client to wait before trying again
TYPE_PREFIX = "urn:wixoss-judge:problem:"

# slug -> title: the kinds of problem the service reports (the docs page lists them)
PROBLEM_TYPES: dict[str, str] = {
    "malformed-request": "The request body is not valid JSON",
    "invalid-request": "The request does not match its schema",
    "invalid-action": "The action is not well formed",
    "rule-violation": "The rules refuse this",
    "invalid-position": "The position cannot exist",
    "record-diverges": "The record and the rules part ways",
    "unauthorized": "A token is needed",
    "invalid-token": "The token is not valid",
    "forbidden": "This token may not do that",
    "not-found": "Not found",
    "match-not-found": "No such match",
    "out-of-range": "No such event in this match",
    "method-not-allowed": "Method not allowed",
    "unsupported-media-type": "The request body must be JSON",
    "version-conflict": "The match has moved on",
    "takeback-refused": "The match does not allow this takeback now",
    "invalid-idempotency-key": "The idempotency key is not valid",
    "idempotency-key-reused": "The idempotency key was sent with another request",
    "too-large": "The request body is too large",
    "store-unavailable": "The event store does not answer",
    "store-not-initialised": "The event store has no tables",
    "too-many-requests": "A quota is used up",
    "http-error": "HTTP error",
    "internal-error": "Internal error",
}


def problem_type(slug: str) -> str:
    return TYPE_PREFIX + slug


class ApiProblem(Exception):
    """An error a view raises on purpose, with its status and a sentence."""

    def __init__(
        self,
        status: int,
        slug: str,
        detail: str,
        *,
        rule_refs: tuple[str, ...] | list[str] | None = None,
        headers: Mapping[str, str] | None = None,
        **extra: Any,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.slug = slug
        self.detail = detail
        self.rule_refs = None if rule_refs is None else list(rule_refs)
        self.headers = dict(headers or {})
        self.extra = extra


REALM = "wixoss-judge"


def unauthorized(detail: str) -> ApiProblem:
    """401 for a request that sent no token where one is needed (RFC 6750: no error code then)."""
    return ApiProblem(401, "unauthorized", detail, headers={"WWW-Authenticate": f'Bearer realm="{REALM}"'})


def invalid_token(detail: str) -> ApiProblem:
    """401 for a token that is malformed or that the service did not issue (RFC 6750 ``invalid_token``)."""
    challenge = f'Bearer realm="{REALM}", error="invalid_token", error_description="{detail}"'
    return ApiProblem(401, "invalid-token", detail, headers={"WWW-Authenticate": challenge})


def forbidden(detail: str) -> ApiProblem:
    return ApiProblem(403, "forbidden", detail)


def not_found(detail: str) -> ApiProblem:
    return ApiProblem(404, "not-found", detail)


def problem_response(problem: ApiProblem) -> Response:
    body: dict[str, Any] = {
        "type": problem_type(problem.slug),
        "title": PROBLEM_TYPES.get(problem.slug, "Error"),
        "status": problem.status,
        "detail": problem.detail,
    }
    if problem.rule_refs is not None:
        body["rule_refs"] = problem.rule_refs
    body.update(problem.extra)
    response = Response(
        json.dumps(body, ensure_ascii=False), status=problem.status, mimetype=PROBLEM_MIMETYPE
    )
    for name, value in problem.headers.items():
        response.headers[name] = value
    return response


def _messages_text(messages: Any, prefix: str = "") -> list[str]:
    """Marshmallow's nested error messages as ``field.sub: message`` lines."""
    if isinstance(messages, Mapping):
        out: list[str] = []
        for key, value in messages.items():
            where = str(key) if key != "_schema" else ""
            path = f"{prefix}.{where}" if prefix and where else (prefix or where)
            out.extend(_messages_text(value, path))
        return out
    if isinstance(messages, list | tuple):
        out = []
        for m in messages:
            out.extend(_messages_text(m, prefix))
        return out
    text = str(messages)
    return [f"{prefix}: {text}" if prefix else text]


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


def _http_problem(exc: HTTPException) -> ApiProblem:
    code = exc.code or 500
    if code == 404:
        return ApiProblem(
            404, "not-found", f"There is nothing at {request.path}; GET /docs lists every path."
        )
    if isinstance(exc, MethodNotAllowed):
        allowed = sorted(m for m in (exc.valid_methods or []) if m not in ("HEAD", "OPTIONS"))
        return ApiProblem(
            405,
            "method-not-allowed",
            f"{request.method} is not allowed on {request.path}; allowed: {', '.join(allowed) or 'none'}.",
            headers={"Allow": ", ".join(exc.valid_methods or [])},
        )
    if code == 415:
        return ApiProblem(
            415,
            "unsupported-media-type",
            "The request body must be JSON, sent with Content-Type: application/json.",
        )
    if code == 413:
        limit = request.max_content_length
        if limit is None:
            return ApiProblem(413, "too-large", "The request body is larger than the service accepts.")
        return ApiProblem(
            413,
            "too-large",
            f"The request body is larger than this endpoint accepts ({limit:,} bytes at most).",
            max_bytes=limit,
        )
    if code == 400:
        return ApiProblem(400, "malformed-request", _sentence(exc.description or "The request is malformed"))
    return ApiProblem(code, "http-error", _sentence(exc.description or exc.name))


def to_problem(exc: BaseException) -> ApiProblem:
    """The problem an exception stands for."""
    if isinstance(exc, ApiProblem):
        return exc
    if isinstance(exc, ValidationError):
        lines = [line.rstrip(".") for line in _messages_text(exc.messages)]
        detail = "The request is not valid: " + "; ".join(lines) if lines else "The request is not valid."
        return ApiProblem(422, "invalid-request", _sentence(detail), errors=exc.messages)
    if isinstance(exc, InvalidAction):
        return ApiProblem(422, "invalid-action", _sentence(str(exc)))
    if isinstance(exc, TakebackRefused):  # the match's policy, or its moment, does not allow it
        return ApiProblem(409, "takeback-refused", _sentence(exc.message), rule_refs=exc.rule_refs)
    if isinstance(exc, NotYourTakeback):
        return ApiProblem(403, "forbidden", _sentence(exc.message), rule_refs=exc.rule_refs)
    if isinstance(exc, IllegalAction):
        # a refusal may name more than its sentence (time travel: the nearest decision points)
        extra = dict(getattr(exc, "fields", None) or {})
        return ApiProblem(422, "rule-violation", _sentence(exc.message), rule_refs=exc.rule_refs, **extra)
    if isinstance(exc, InvalidPosition):
        return ApiProblem(422, "invalid-position", _sentence(exc.message), rule_refs=exc.rule_refs)
    if isinstance(exc, JudgeError):
        return ApiProblem(422, "rule-violation", _sentence(str(exc)), rule_refs=[])
    if isinstance(exc, MatchNotFound):
        return ApiProblem(404, "match-not-found", f"There is no match {exc.match_id}.")
    if isinstance(exc, OutOfRange):
        return ApiProblem(404, "out-of-range", _sentence(str(exc)))
    if isinstance(exc, VersionConflict):
        return ApiProblem(
            409,
            "version-conflict",
            _sentence(str(exc)),
            expected_version=exc.expected,
            current_version=exc.actual,
        )
    if isinstance(exc, KeyReused):
        return ApiProblem(422, "idempotency-key-reused", _sentence(str(exc)), idempotency_key=exc.key)
    if isinstance(exc, IntegrityError):
        return ApiProblem(
            409,
            "version-conflict",
            "Another request changed the match at the same time; reload it and try again.",
        )
    if isinstance(exc, StoreHasNoTables):
        return ApiProblem(
            503,
            "store-not-initialised",
            "The event store answers but has no tables; create them with `wixoss-judge init-db`.",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    if isinstance(exc, PersistenceError):  # down, unreachable, timed out (a conflict is handled above)
        return ApiProblem(
            503,
            "store-unavailable",
            "The event store does not answer at the moment; try again shortly.",
            headers={"Retry-After": str(RETRY_AFTER_SECONDS)},
        )
    if isinstance(exc, HTTPException):
        return _http_problem(exc)
    return ApiProblem(500, "internal-error", "The service failed unexpectedly; the error has been logged.")


def handle_error(exc: Exception) -> Response:
    if isinstance(exc, HTTPException) and exc.code == 429 and exc.response is not None:
        return exc.response  # a quota's own problem, with Retry-After (app.limits)
    problem = to_problem(exc)
    if problem.status == 503:
        current_app.logger.warning("store unavailable on %s %s: %s", request.method, request.path, exc)
    elif problem.status >= 500:
        current_app.logger.exception("unexpected error on %s %s", request.method, request.path, exc_info=exc)
    return problem_response(problem)


def register_error_handler(app: Flask) -> None:
    """The one handler: every exception, Flask's HTTP errors included, becomes a problem."""
    app.register_error_handler(Exception, handle_error)
