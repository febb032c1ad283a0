"""The OpenAPI document, built from the same declarations and schemas the views use (``app.endpoint``).

``build_spec(app)`` walks the app's routes; every view declared with ``@endpoint`` becomes an operation whose
parameters, request body and responses are the marshmallow schemas the view parses and dumps with.
``spec_yaml`` is what ``GET /openapi.yaml`` serves, what ``wixoss-judge openapi`` prints, and what the
committed ``openapi.yaml`` must equal (a test says so).
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from apispec_webframeworks.flask import FlaskPlugin
from flask import Flask
from marshmallow import fields

from app.application import KEY_PATTERN_TEXT, MAX_KEY_LENGTH
from app.endpoint import ANYONE, IDEMPOTENCY_HEADER, JUDGE, PARTICIPANT, Endpoint
from app.limits import LIMITED
from app.problems import PROBLEM_MIMETYPE, PROBLEM_TYPES, problem_type
from app.schemas.actions import ACTION_SCHEMAS
from app.schemas.base import ActionField, OneOf
from app.schemas.common import ProblemSchema

API_VERSION = "0.1.0"
TITLE = "WIXOSS Judge"
DESCRIPTION = """\
An event-sourced rules judge for the WIXOSS trading card game: matches whose rules the service enforces, \
rulings at any point of a match or in a position a judge sets up, and a tamper-evident log that can be \
replayed, rewound and branched.

Tokens travel as `Authorization: Bearer <token>`. The judge's token comes from the service's configuration \
(`JUDGE_TOKEN`); creating a match returns one token per player (`<match id>.<player>.<hmac>`; the bare \
`<hmac>` form of earlier versions is still accepted on its own match's paths). A player token acts only as \
that player and sees only what that player may see; without a token a caller is a spectator (public \
information, read-only), and a write without a token is 401. A malformed token, or one the service did not \
issue, is 401 with `WWW-Authenticate: Bearer` on every endpoint, reads included; a valid token without the \
right is 403 (a player token of another match on this match's paths included). The token is checked before \
the body is read.

Every error is `application/problem+json` (RFC 9457) with `type`, `title`, `status`, `detail` and, for rule \
violations, `rule_refs`.

Retries are safe with an `Idempotency-Key` header on every `POST` that records something (creating a match \
or a position, an action, a rewind, a branch): a retry with the same key gets the first answer again, same \
status and body, and records nothing; the same key with another request is 422. Keys are kept in the log, \
so they hold across restarts and workers."""

TAGS = {
    "docs": "this service's own description",
    "cards": "the card catalogue",
    "decks": "preset decks and deck-construction rules",
    "rules": "the rules catalogue",
    "matches": "creating, listing and summarising matches",
    "positions": "matches that start from a position a judge describes",
    "play": "actions, legal actions and rulings",
    "history": "the log and the state at any event",
    "judge": "the judge's tools: rewind, branch, audit",
    "console": "the judge console: static web pages over this API (no data in them)",
    "takebacks": "a player asks to take back their play; the opponent or the judge answers",
}

STATUS_TEXT = {
    200: "OK",
    201: "Created",
    400: "The request body is not valid JSON, not UTF-8, or holds a lone surrogate",
    401: "No token was sent where one is needed, or the token is malformed or unknown",
    403: "The token is valid but may not do this (another player, another match, not the judge)",
    404: "No such match, event, card, deck, rule or path",
    405: "Method not allowed",
    409: "`expected_version` is not the match's latest version",
    415: "The request body is not JSON",
    413: "The request body is larger than the service accepts",
    422: "The request is not valid, or the rules refuse it (`rule_refs`)",
    429: "A quota is used up; `Retry-After` says when to try again",
}


IDEMPOTENCY_PARAMETER = {
    "name": IDEMPOTENCY_HEADER,
    "required": False,
    "description": (
        f"Makes a retry safe: 1 to {MAX_KEY_LENGTH} printable ASCII characters the client chooses, new for "
        "each request (a random UUID). A request sent again with the same key gets the first answer again "
        "(same status and body) and records nothing, even from another worker or after a restart; the same "
        "key with another body is 422 (`idempotency-key-reused`); a key that is empty, too long or not "
        "printable ASCII is 400. Keys are the caller's own: the judge's keys and each player's are apart. "
        "Only requests that recorded something are remembered: a refused one may be sent again."
    ),
    "schema": {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH, "pattern": KEY_PATTERN_TEXT},
    "example": "5f0c2a8e-2d5b-4f5e-9a57-0d2c8f1b6e43",
}


def _one_of_property(self: Any, field: fields.Field, **kwargs: Any) -> dict[str, Any]:
    """apispec attribute function: ``OneOf`` and ``ActionField`` as ``oneOf``."""
    if isinstance(field, OneOf):
        return {"oneOf": [self.field2property(alt) for alt in field.alternatives]}
    if isinstance(field, ActionField):
        refs = {atype: self.resolve_nested_schema(cls) for atype, cls in ACTION_SCHEMAS.items()}
        return {
            "oneOf": list(refs.values()),
            "discriminator": {"propertyName": "type", "mapping": {t: r["$ref"] for t, r in refs.items()}},
        }
    return {}


def _path_parameter(name: str, meta: Endpoint) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string"}
    if name == "match_id":
        schema["format"] = "uuid"
    out = {
        "name": name,
        "in": "path",
        "required": True,
        "description": meta.path_params.get(name, name),
        "schema": schema,
    }
    if name in meta.path_examples:
        out["example"] = meta.path_examples[name]
    return out


def _problem_response(status: int | str) -> dict[str, Any]:
    text = STATUS_TEXT.get(status, "An error") if isinstance(status, int) else "Any other error"
    return {"description": text, "content": {PROBLEM_MIMETYPE: {"schema": ProblemSchema}}}


WHO = {
    ANYONE: "Anyone: no token is needed; a token that is sent must be valid (401 otherwise).",
    PARTICIPANT: "A player of this match, for its own player only, or the judge; no token is 401.",
    JUDGE: "Judge only; no token is 401, a player token 403.",
}
ON_A_MATCH = " A player token of another match gives no rights on this match's paths: 403."


def _operation(name: str, meta: Endpoint, on_a_match: bool, limited: bool = False) -> dict[str, Any]:
    op: dict[str, Any] = {"operationId": name, "summary": meta.summary, "tags": [meta.tag]}
    who = WHO[meta.auth] + (ON_A_MATCH if on_a_match and meta.auth != JUDGE else "")
    description = " ".join(x for x in (meta.description, who) if x)
    if description:
        op["description"] = description
    op["security"] = [{}, {"bearer": []}] if meta.auth == ANYONE else [{"bearer": []}]
    if meta.query is not None:
        op["parameters"] = [{"in": "query", "schema": meta.query}]
    if meta.idempotent:
        op.setdefault("parameters", []).append("IdempotencyKey")
    if meta.body is not None:
        media: dict[str, Any] = {"schema": meta.body}
        if meta.example is not None:
            media["example"] = meta.example
        op["requestBody"] = {"required": not meta.optional_body, "content": {"application/json": media}}
    if meta.response is not None:
        content = {meta.content_type: {"schema": meta.response}}
    else:
        content = {meta.content_type: {"schema": {"type": "string"}}}
    responses: dict[str, Any] = {
        str(meta.status): {"description": STATUS_TEXT.get(meta.status, "OK"), "content": content}
    }
    if meta.status == 201:
        responses["201"]["headers"] = {
            "Location": {"description": "the new resource", "schema": {"type": "string"}}
        }
    responses["401"] = _problem_response(401)
    responses["401"]["headers"] = {
        "WWW-Authenticate": {
            "description": 'the bearer challenge, with `error="invalid_token"` for a bad token',
            "schema": {"type": "string"},
        }
    }
    if on_a_match:
        responses.setdefault("403", _problem_response(403))
    for status in meta.errors:
        responses.setdefault(str(status), _problem_response(status))
    if meta.body is not None:
        responses.setdefault("413", _problem_response(413))
    if limited:
        responses["429"] = _problem_response(429)
        responses["429"]["headers"] = {
            "Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}
        }
    responses["default"] = _problem_response("default")
    op["responses"] = responses
    return op


def build_spec(app: Flask) -> dict[str, Any]:
    ma = MarshmallowPlugin()
    spec = APISpec(
        title=TITLE,
        version=API_VERSION,
        openapi_version="3.0.3",
        plugins=[FlaskPlugin(), ma],
        info={"description": DESCRIPTION},
    )
    assert ma.converter is not None
    ma.converter.add_attribute_function(_one_of_property)
    spec.components.security_scheme(
        "bearer", {"type": "http", "scheme": "bearer", "description": "the judge's token or a player token"}
    )
    spec.components.schema("Problem", schema=ProblemSchema)
    spec.components.parameter("IdempotencyKey", "header", IDEMPOTENCY_PARAMETER)
    for cls in ACTION_SCHEMAS.values():
        ma.converter.resolve_nested_schema(cls)
    seen: set[str] = set()
    tags: dict[str, None] = {}
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: (r.rule, sorted(r.methods or ()))):
        view = app.view_functions[rule.endpoint]
        meta: Endpoint | None = getattr(view, "__endpoint__", None)
        if meta is None:
            continue
        name = view.__name__
        if name in seen:
            raise ValueError(f"two views are named {name}: operation ids must be unique")
        seen.add(name)
        tags[meta.tag] = None
        methods = sorted(m for m in (rule.methods or ()) if m not in ("HEAD", "OPTIONS"))
        params = [_path_parameter(n, meta) for n in re.findall(r"<(?:[^:<>]+:)?([^<>]+)>", rule.rule)]
        spec.path(
            view=view,
            app=app,
            operations={
                m.lower(): _operation(name, meta, "<match_id>" in rule.rule, rule.endpoint in LIMITED)
                for m in methods
            },
            parameters=params,
        )
    raw = spec.to_dict()
    out: dict[str, Any] = {
        "openapi": raw.pop("openapi"),
        "info": raw.pop("info"),
        "tags": [{"name": t, "description": TAGS.get(t, "")} for t in tags],
    }
    out.update(raw)
    out["x-problem-types"] = {problem_type(slug): title for slug, title in PROBLEM_TYPES.items()}
    return out


def spec_yaml(spec: dict[str, Any]) -> str:
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=120)


def cached_spec(app: Flask) -> tuple[dict[str, Any], str]:
    """The app's document and its YAML text, built once per app."""
    cached = app.extensions.get("openapi")
    if cached is None:
        spec = build_spec(app)
        cached = app.extensions["openapi"] = (spec, spec_yaml(spec))
    return cached
