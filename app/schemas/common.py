"""The problem document every error is (RFC 9457), and the service index."""

from __future__ import annotations

from marshmallow import fields

from app.schemas.base import ResponseSchema


class ProblemSchema(ResponseSchema):
    type = fields.String(required=True, metadata={"description": "a URN naming the kind of problem"})
    title = fields.String(required=True)
    status = fields.Integer(required=True)
    detail = fields.String(required=True, metadata={"description": "what went wrong, in a sentence"})
    rule_refs = fields.List(fields.String(), metadata={"description": "the rules that refuse the request"})
    errors = fields.Dict(
        metadata={"description": "field by field, for a request that does not match its schema"}
    )


class IndexSchema(ResponseSchema):
    name = fields.String(required=True)
    version = fields.String(required=True)
    docs = fields.String(required=True)
    openapi = fields.String(required=True)
