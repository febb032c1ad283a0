"""Takebacks: the match's policy (given when it is created, or by the judge), a player's request, and the
answers (see ``domain.takebacks``)."""

from __future__ import annotations

from typing import Any

from marshmallow import fields, validate

from app.schemas.base import OneOf, RequestSchema, ResponseSchema, StrictBoolean
from app.schemas.events import EventSchema
from app.schemas.state import PLAYERS
from domain.takebacks import DEFAULT_POLICY, MAX_LIMIT, POLICIES

REASON = validate.Length(min=1, max=2000)
LIMIT = validate.Range(min=0, max=MAX_LIMIT)


class TakebackPolicySchema(RequestSchema):
    """A match's takeback policy; the fields left out take their default."""

    policy = fields.String(
        required=True,
        validate=validate.OneOf(POLICIES),
        metadata={
            "description": "`never`; `with-consent`: the opponent (or the judge) answers; `judge-only`: "
            "players may ask, only the judge answers (default `with-consent`)"
        },
    )
    max_back_decisions = fields.Integer(
        strict=True,
        allow_none=True,
        validate=LIMIT,
        metadata={"description": "how many answered decisions one takeback may undo (null: any; default)"},
    )
    per_player = fields.Integer(
        strict=True,
        allow_none=True,
        validate=LIMIT,
        metadata={"description": "how many accepted takebacks each player may have (null: any; default)"},
    )
    refuse_after_reveal = StrictBoolean(
        metadata={
            "description": "refuse a takeback whose undone play showed its player a card they could not see "
            "before: a draw, a look at the deck, a crushed Life Cloth, the opponent's hand (default true)"
        }
    )


def takebacks_field() -> fields.Field:
    """The ``takebacks`` of a match's creation: a policy's name, or the whole policy."""
    return OneOf(
        [fields.String(validate=validate.OneOf(POLICIES)), fields.Nested(TakebackPolicySchema)],
        metadata={
            "description": "the match's takeback policy: `never`, `with-consent` or `judge-only`, or an "
            f"object with limits (default: {DEFAULT_POLICY['policy']}, refusing takebacks after a reveal)"
        },
    )


class TakebackPolicySetSchema(TakebackPolicySchema):
    reason = fields.String(required=True, validate=REASON)


class TakebackRequestSchema(RequestSchema):
    player = fields.String(
        validate=validate.OneOf(PLAYERS),
        metadata={"description": "who asks (default: the token's player; the judge must name one)"},
    )
    to = fields.Integer(
        strict=True,
        allow_none=True,
        validate=validate.Range(min=1),
        metadata={
            "description": "the decision point to go back to (default: the player's last answered decision)"
        },
    )
    reason = fields.String(required=True, validate=REASON)


class TakebackAnswerSchema(RequestSchema):
    reason = fields.String(validate=validate.Length(max=2000), metadata={"description": "optional"})


class TakebackResultSchema(ResponseSchema):
    version = fields.Integer(required=True)
    takeback = fields.Integer(required=True, metadata={"description": "the request's id: its event number"})
    events = fields.List(fields.Nested(EventSchema), required=True)


class TakebackRecordSchema(ResponseSchema):
    id = fields.Integer(required=True)
    player = fields.String(required=True)
    to = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(("open", "accepted", "declined")))
    request = fields.Nested(EventSchema, required=True)
    answer = fields.Nested(EventSchema, allow_none=True)


class TakebacksSchema(ResponseSchema):
    policy = fields.Dict(required=True)
    used = fields.Dict(required=True, metadata={"description": "accepted takebacks per player"})
    open = fields.Integer(required=True, allow_none=True, metadata={"description": "the request waiting"})
    takebacks = fields.List(fields.Nested(TakebackRecordSchema), required=True)


def policy_body(body: dict[str, Any]) -> dict[str, Any]:
    """The policy fields of a body that holds a policy and more."""
    return {k: v for k, v in body.items() if k in DEFAULT_POLICY}
