"""Limits: how large a request body may be, and how many matches a token may create (quotas).

Settings (each from ``create_app``'s config or the environment variable of the same name):
- ``MAX_BODY_BYTES``: the largest request body accepted anywhere (default 1 MiB); larger is 413.
- ``DECK_VALIDATE_MAX_BYTES``: the same for the unauthenticated ``POST /decks/validate`` (default 64 KiB;
  a deck is about 60 catalogue ids).
- ``MATCHES_PER_HOUR`` (default 100) and ``MATCHES_IN_ALL`` (default 10,000): matches one token may create
  with ``POST /matches``, ``/positions``, ``/records`` and ``/matches/{id}/branches`` together, in an hour and
  in all; beyond is 429 with ``Retry-After``. Only answers 201 count, and a retry with the
  ``Idempotency-Key`` of a creation already made creates nothing: it neither counts nor is refused.
- ``DECK_VALIDATE_RATE_LIMIT`` (default ``60 per minute``, per client address) and ``RULINGS_RATE_LIMIT``
  (default ``300 per minute``, per token): the heavy endpoints anyone may call.
- ``RATELIMIT_ENABLED``: quotas on or off (default on; off under ``TESTING``). ``RATELIMIT_STORAGE_URI``:
  where the counters live (flask-limiter's setting; default ``memory://``, one count per process).

A body sent with ``Content-Length`` over the limit is refused before any of it is parsed; a chunked body
(``Transfer-Encoding: chunked``, no length) is read up to the limit and refused at the first byte past it.
The rest of a refused body, up to ``DRAIN_BYTES`` and ``DRAIN_SECONDS``, is then read and thrown away before
the 413 is sent, so that a client still sending sees the answer rather than a connection reset (servers such
as gunicorn close the connection without reading on); anything larger or slower is cut off.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable, Mapping
from functools import cached_property
from typing import IO, Any

from eventsourcing.persistence import PersistenceError
from flask import Flask, Request, Response, current_app, request
from flask_limiter import Limiter, RequestLimit
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import RequestEntityTooLarge
from werkzeug.wsgi import LimitedStream, get_input_stream

from app.application import MAX_KEY_LENGTH, IdempotentRequest
from app.auth import JUDGE, bearer_token, current_caller
from app.endpoint import IDEMPOTENCY_HEADER, KEY_PATTERN, judge_app
from app.problems import ApiProblem, problem_response

DEFAULTS: dict[str, Any] = {
    "MAX_BODY_BYTES": 1024 * 1024,
    "DECK_VALIDATE_MAX_BYTES": 64 * 1024,
    "MATCHES_PER_HOUR": 100,
    "MATCHES_IN_ALL": 10_000,
    "DECK_VALIDATE_RATE_LIMIT": "60 per minute",
    "RULINGS_RATE_LIMIT": "300 per minute",
    "RATELIMIT_STORAGE_URI": "memory://",
}
INTEGER_SETTINGS = ("MAX_BODY_BYTES", "DECK_VALIDATE_MAX_BYTES", "MATCHES_PER_HOUR", "MATCHES_IN_ALL")
SETTINGS = (*DEFAULTS, "RATELIMIT_ENABLED")

# the views that create a match, and the other limited views (the OpenAPI document lists 429 for them)
CREATING = ("matches.create_match", "positions.create_position", "branches.branch", "records.import_record")
SMALL_BODY = ("decks.validate",)
LIMITED = (*CREATING, "decks.validate", "rulings.ask_ruling")
# "in all": a window longer than any service runs
IN_ALL_WINDOW = "100 years"
DRAIN_BYTES = 16 * 1024 * 1024
DRAIN_SECONDS = 2.0


def settings_from(environ: Mapping[str, str]) -> dict[str, str]:
    """The limit settings given as environment variables."""
    return {k: environ[k] for k in SETTINGS if environ.get(k)}


def apply_defaults(app: Flask) -> None:
    """Fills in the limit settings left out, checks the numbers, and sets Flask's ``MAX_CONTENT_LENGTH``."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    for key in INTEGER_SETTINGS:
        try:
            number = int(app.config[key])
        except (TypeError, ValueError):
            raise ValueError(f"{key} must be a whole number, not {app.config[key]!r}") from None
        if number < 1:
            raise ValueError(f"{key} must be at least 1, not {number}")
        app.config[key] = number
    enabled = app.config.get("RATELIMIT_ENABLED")
    if enabled is None or enabled == "":
        app.config["RATELIMIT_ENABLED"] = not app.testing
    elif not isinstance(enabled, bool):
        app.config["RATELIMIT_ENABLED"] = str(enabled).strip().lower() not in ("n", "no", "0", "false", "off")
    app.config["MAX_CONTENT_LENGTH"] = app.config["MAX_BODY_BYTES"]


# -- the body limit ---------------------------------------------------------------------------------------


class CappedStream(LimitedStream):
    """A body of unknown length (chunked), readable up to ``cap`` bytes: the first byte past it raises 413.

    Werkzeug's own stream for this case stops quietly at the limit, so that a body over it would be parsed
    cut short (and refused as malformed JSON); this one reads one byte more to tell the two apart."""

    def __init__(self, stream: IO[bytes], cap: int) -> None:
        super().__init__(stream, cap + 1, is_max=True)
        self.cap = cap

    def readinto(self, b: Any) -> int | None:  # type: ignore[override]
        size = super().readinto(b)
        if self.tell() > self.cap:
            raise RequestEntityTooLarge()
        return size


class BodyLimitedRequest(Request):
    """Flask's request, with a chunked body held to ``max_content_length`` like one with a length."""

    @cached_property
    def stream(self) -> IO[bytes]:  # type: ignore[override]
        limit = self.max_content_length
        if limit is not None and self.content_length is None and "wsgi.input_terminated" in self.environ:
            return CappedStream(self.environ["wsgi.input"], limit)
        return get_input_stream(self.environ, max_content_length=limit)


def too_large(limit: int) -> ApiProblem:
    return ApiProblem(
        413,
        "too-large",
        f"The request body is larger than this endpoint accepts ({limit:,} bytes at most).",
        max_bytes=limit,
    )


def check_body_size() -> None:
    """Before anything else: this endpoint's body limit; a declared length over it is refused at once."""
    limit = current_app.config["MAX_CONTENT_LENGTH"]
    if request.endpoint in SMALL_BODY:
        limit = min(limit, current_app.config["DECK_VALIDATE_MAX_BYTES"])
    request.max_content_length = limit
    length = request.content_length
    if length is not None and length > limit:
        raise too_large(limit)


def drain_refused_body(response: Response) -> Response:
    """After a 413: read what is left of the body (within bounds) and close the connection."""
    if response.status_code != 413:
        return response
    response.headers["Connection"] = "close"
    environ = request.environ
    length = request.content_length
    if length is None and "wsgi.input_terminated" not in environ:
        return response
    budget = DRAIN_BYTES if length is None else length
    if budget > DRAIN_BYTES:
        return response
    stream = environ["wsgi.input"]
    deadline = time.monotonic() + DRAIN_SECONDS
    try:
        while budget > 0 and time.monotonic() < deadline:
            data = stream.read(min(budget, 64 * 1024))
            if not data:
                break
            budget -= len(data)
    except (OSError, ValueError):
        pass
    return response


# -- quotas -----------------------------------------------------------------------------------------------


def caller_key() -> str:
    """Whom a quota counts for: the bearer token sent (as a digest; the token itself is never kept), or the
    client's address when there is none."""
    token = bearer_token()
    if token is None:
        return "address:" + get_remote_address()
    return "token:" + hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def address_key() -> str:
    return "address:" + get_remote_address()


def created(response: Response) -> bool:
    return response.status_code == 201


def not_a_creator() -> bool:
    """Only a token that may create matches has a creation quota: any other request is refused by the
    view's own check (401 or 403), which comes first. A retry of a keyed creation that was made already is
    no creation either: it gets the first answer (or 422 for another body) and makes nothing."""
    return not current_caller().is_judge or _made_already()


def _made_already() -> bool:
    """Whether this request's ``Idempotency-Key`` (the judge's) already made its match: the match a keyed
    creation makes has an id derived from the caller and the key (``IdempotentRequest.match_id``)."""
    sent = request.headers.getlist(IDEMPOTENCY_HEADER)
    if len(sent) != 1 or not KEY_PATTERN.match(sent[0]) or len(sent[0]) > MAX_KEY_LENGTH:
        return False  # no key, or one the view refuses (400)
    try:
        return judge_app().exists(IdempotentRequest(sent[0], JUDGE, "").match_id())
    except PersistenceError:  # the store does not answer: the view's own request says so (503)
        return False


def retry_after(limit: RequestLimit) -> int:
    return max(1, math.ceil(limit.window.reset_time - time.time()))


def refusal(detail: Callable[[], str]) -> Callable[[RequestLimit], Response]:
    """The 429 answer for one quota: a problem saying which, with ``Retry-After`` in seconds."""

    def refuse(limit: RequestLimit) -> Response:
        seconds = retry_after(limit)
        problem = ApiProblem(
            429,
            "too-many-requests",
            f"{detail()}; try again in {seconds} seconds.",
            headers={"Retry-After": str(seconds)},
            limit=str(limit.limit),
            retry_after=seconds,
        )
        return problem_response(problem)

    return refuse


def _setting(name: str, template: str = "{}") -> Callable[[], str]:
    return lambda: template.format(current_app.config[name])


def install_limits(app: Flask) -> Limiter:
    """The body-size check and the quotas, on an app whose blueprints are registered. One limiter per app, so
    that two apps in one process (tests) keep their own counters and settings."""
    app.before_request(check_body_size)
    app.after_request(drain_refused_body)
    limiter = Limiter(
        key_func=caller_key,
        app=app,
        storage_uri=app.config["RATELIMIT_STORAGE_URI"],
        headers_enabled=False,
    )
    app.extensions["judge_limiter"] = limiter
    per_hour = limiter.shared_limit(
        _setting("MATCHES_PER_HOUR", "{} per hour"),
        scope="matches-per-hour",
        deduct_when=created,
        exempt_when=not_a_creator,
        on_breach=refusal(
            lambda: (
                f"This token has created {current_app.config['MATCHES_PER_HOUR']} matches within the "
                "hour, as many as the service allows"
            )
        ),
    )
    in_all = limiter.shared_limit(
        _setting("MATCHES_IN_ALL", "{} per " + IN_ALL_WINDOW),
        scope="matches-in-all",
        deduct_when=created,
        exempt_when=not_a_creator,
        on_breach=refusal(
            lambda: (
                f"This token has created {current_app.config['MATCHES_IN_ALL']} matches, as many as the "
                "service allows one token"
            )
        ),
    )
    for name in CREATING:
        app.view_functions[name] = in_all(per_hour(app.view_functions[name]))
    validate = limiter.limit(
        _setting("DECK_VALIDATE_RATE_LIMIT"),
        key_func=address_key,
        on_breach=refusal(
            lambda: (
                f"More than {current_app.config['DECK_VALIDATE_RATE_LIMIT']} deck checks from this address"
            )
        ),
    )
    app.view_functions["decks.validate"] = validate(app.view_functions["decks.validate"])
    rulings = limiter.limit(
        _setting("RULINGS_RATE_LIMIT"),
        on_breach=refusal(
            lambda: f"More than {current_app.config['RULINGS_RATE_LIMIT']} rulings asked with this token"
        ),
    )
    app.view_functions["rulings.ask_ruling"] = rulings(app.view_functions["rulings.ask_ruling"])
    return limiter
