"""One declaration per view: how it parses, what it answers, and what the OpenAPI document says about it.

``@endpoint(...)`` wraps a view so that the caller is authorized first (``auth``: who may call it, see
``app.auth``; a bad token is 401 and a token without the right 403 before the query or the body is looked at),
then the request body and the query string are loaded with the given
marshmallow schemas (a body with unknown fields is refused) and the view's return value is dumped with the
response schema. A view declared ``shaped=True`` returns its answer already in the response schema's shape
(plain JSON values, the schema's field names): it is encoded as it is, without a second pass through
marshmallow; a test checks, over random matches, that dumping such answers with their schema changes
nothing. The same declaration, kept on the view as ``__endpoint__``, is what ``app.openapi`` reads, so the
document cannot drift from what the views do.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from flask import Response, current_app, request
from marshmallow import Schema

from app.application import KEY_PATTERN_TEXT, MAX_KEY_LENGTH, IdempotentRequest, JudgeApplication
from app.auth import ANYONE, JUDGE, PARTICIPANT, authorize
from app.problems import ApiProblem
from app.store import LazyApplication

IDEMPOTENCY_HEADER = "Idempotency-Key"
KEY_PATTERN = re.compile(KEY_PATTERN_TEXT)

__all__ = [
    "ANYONE",
    "IDEMPOTENCY_HEADER",
    "JUDGE",
    "PARTICIPANT",
    "Endpoint",
    "endpoint",
    "judge_app",
    "load_json_body",
    "lone_surrogate",
    "match_uuid",
]


@dataclass(frozen=True)
class Endpoint:
    summary: str
    tag: str
    response: Schema | None
    status: int = 200
    body: Schema | None = None
    query: Schema | None = None
    auth: str = ANYONE
    errors: tuple[int, ...] = ()
    description: str = ""
    content_type: str = "application/json"
    path_params: dict[str, str] = field(default_factory=dict)  # name -> description
    example: Any = None  # an example request body
    path_examples: dict[str, str] = field(default_factory=dict)
    shaped: bool = False  # the view's answer is already in the response schema's shape: not dumped again
    idempotent: bool = False  # takes an Idempotency-Key header: a retry gets the first answer
    optional_body: bool = False  # no body at all reads as ``{}``


def _instance(schema: Schema | type[Schema] | None) -> Schema | None:
    if schema is None or isinstance(schema, Schema):
        return schema
    return schema()


def load_json_body() -> Any:
    """The request body as JSON: 415 when it is not sent as JSON, 400 when it does not parse, is not UTF-8
    or holds a lone surrogate anywhere."""
    if not request.is_json:
        raise ApiProblem(
            415,
            "unsupported-media-type",
            "The request body must be JSON, sent with Content-Type: application/json.",
        )
    raw = request.get_data(cache=True)
    if not raw.strip():
        raise ApiProblem(400, "malformed-request", "The request body is empty; send a JSON object.")
    try:
        data = json.loads(raw.decode("utf-8"), parse_constant=_not_json)
    except UnicodeDecodeError:
        raise ApiProblem(400, "malformed-request", "The request body is not UTF-8 text.") from None
    except json.JSONDecodeError as exc:
        raise ApiProblem(
            400,
            "malformed-request",
            f"The request body is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.",
        ) from None
    except RecursionError:
        raise ApiProblem(400, "malformed-request", "The request body is nested too deeply.") from None
    except ValueError:  # a number too long to read, or NaN and Infinity, which JSON has not
        raise ApiProblem(
            400,
            "malformed-request",
            "The request body is not valid JSON: it holds NaN or Infinity, or a number too long to read.",
        ) from None
    where = lone_surrogate(data)
    if where is not None:
        raise ApiProblem(
            400,
            "malformed-request",
            f"The request body holds a lone surrogate (an escape such as \\ud800 that is no character) "
            f"at {where}; every string must be Unicode text.",
        )
    return data


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not a JSON value")  # Python's json reads NaN and Infinity; JSON has not


_SURROGATE = re.compile("[\ud800-\udfff]")


def lone_surrogate(data: Any) -> str | None:
    """Where the first string (a key or a value) holding a lone surrogate is, as a path, or None. JSON's
    ``\\uXXXX`` escapes can spell half a surrogate pair, which Python keeps as is but no text encoding
    can carry further (into the store, a log, a response)."""
    stack: list[tuple[str, Any]] = [("the body", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                return path
        elif isinstance(value, dict):
            for key, item in value.items():
                if _SURROGATE.search(key):
                    return f"a key of {path}"
                stack.append((f"{path}.{key}" if path != "the body" else key, item))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", item) for i, item in enumerate(value))
    return None


def implied_errors(auth: str, has_body: bool) -> set[int]:
    """The statuses every endpoint of its kind may answer: 401 for a bad token (any endpoint), 403 for a token
    without the right (where not anyone may call), 400 for a body that is not JSON text."""
    out = {401}
    if auth != ANYONE:
        out.add(403)
    if has_body:
        out.add(400)
    return out


def endpoint(
    summary: str,
    *,
    tag: str,
    response: Schema | type[Schema] | None,
    status: int = 200,
    body: Schema | type[Schema] | None = None,
    query: Schema | type[Schema] | None = None,
    auth: str = ANYONE,
    errors: Sequence[int] = (),
    description: str = "",
    content_type: str = "application/json",
    path_params: dict[str, str] | None = None,
    example: Any = None,
    path_examples: dict[str, str] | None = None,
    shaped: bool = False,
    idempotent: bool = False,
    optional_body: bool = False,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    spec = Endpoint(
        summary=summary,
        tag=tag,
        response=_instance(response),
        status=status,
        body=_instance(body),
        query=_instance(query),
        auth=auth,
        errors=tuple(sorted(set(errors) | implied_errors(auth, body is not None))),
        description=description,
        content_type=content_type,
        path_params=dict(path_params or {}),
        example=example,
        path_examples=dict(path_examples or {}),
        shaped=shaped,
        idempotent=idempotent,
        optional_body=optional_body,
    )

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def view(**path: Any) -> Any:
            authorize(spec.auth, path.get("match_id"))  # before the query and the body are read
            kwargs: dict[str, Any] = dict(path)
            if spec.query is not None:
                kwargs["query"] = spec.query.load(request.args.to_dict(flat=True))
            if spec.body is not None:
                empty = spec.optional_body and not request.get_data(cache=True)
                kwargs["body"] = spec.body.load({} if empty else load_json_body())
            result = fn(**kwargs)
            if isinstance(result, Response):
                return result
            headers: dict[str, str] = {}
            if isinstance(result, tuple):
                result, headers = result
            dump = spec.response is not None and not spec.shaped
            data = spec.response.dump(result) if dump else result
            response = current_app.json.response(data)
            response.status_code = spec.status
            response.headers.update(headers)
            return response

        view.__endpoint__ = spec  # type: ignore[attr-defined]
        return view

    return wrap


def judge_app() -> JudgeApplication:
    """The application on the store, made on first use (a store error here is a 503, as anywhere)."""
    judge = current_app.extensions["judge"]
    return judge.get() if isinstance(judge, LazyApplication) else judge


def match_uuid(match_id: str) -> UUID:
    """A match id from the path; anything that is not a UUID names no match (404)."""
    try:
        return UUID(match_id)
    except ValueError:
        raise ApiProblem(
            404,
            "match-not-found",
            f"There is no match {match_id!r}: a match id is a UUID, as POST /matches returns.",
        ) from None


def idempotency(caller: str, body_key: Any = None, *, text: str | None = None) -> IdempotentRequest | None:
    """The request's idempotency key, if it was sent one: the ``Idempotency-Key`` header or ``body_key`` (an
    action's ``action_id``), scoped to ``caller`` (``judge``, ``p1``, ``p2``), with a digest of the request
    (who asks, which operation on which match, and the body in canonical JSON). A key that is empty, longer
    than ``MAX_KEY_LENGTH`` or not printable ASCII is 400, as are two keys that differ. ``text``: the body's
    content, where the view reads one that is not JSON (it is digested in place of the body)."""
    sent = request.headers.getlist(IDEMPOTENCY_HEADER)
    if len(sent) > 1:
        raise ApiProblem(
            400, "invalid-idempotency-key", f"Send one {IDEMPOTENCY_HEADER} header, not {len(sent)}."
        )
    key = sent[0] if sent else None
    if body_key is not None:
        if key is not None and key != body_key:
            raise ApiProblem(
                400,
                "invalid-idempotency-key",
                f"The {IDEMPOTENCY_HEADER} header and `action_id` differ; they name the same thing, so send "
                "one of them, or the same value in both.",
            )
        key = body_key
    if key is None:
        return None
    if not isinstance(key, str) or len(key) > MAX_KEY_LENGTH or not KEY_PATTERN.match(key):
        raise ApiProblem(
            400,
            "invalid-idempotency-key",
            f"An {IDEMPOTENCY_HEADER} is 1 to {MAX_KEY_LENGTH} printable ASCII characters (not only "
            "spaces); a random UUID is a good one.",
        )
    path = {name: _normal(value) for name, value in (request.view_args or {}).items()}
    if text is not None:  # a body that is not JSON (a record): what it says, however it was sent
        body: Any = {"text": text}
    else:
        body = load_json_body() if request.get_data(cache=True) else {}  # no body: a view that reads none
    what = {"caller": caller, "operation": request.endpoint, "path": path, "body": body}
    text = json.dumps(what, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return IdempotentRequest(key, caller, hashlib.sha256(text.encode()).hexdigest())


def _normal(value: Any) -> str:
    """A path parameter as one spelling: a UUID in its canonical form."""
    try:
        return str(UUID(str(value)))
    except ValueError:
        return str(value)
