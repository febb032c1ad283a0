"""The answer of GET /health."""

from __future__ import annotations

from marshmallow import fields, validate

from app.schemas.base import ResponseSchema


class StoreHealthSchema(ResponseSchema):
    ok = fields.Boolean(required=True, metadata={"description": "whether the event store answered"})
    module = fields.String(
        required=True, metadata={"description": "the store's module, e.g. eventsourcing.postgres"}
    )
    error = fields.String(metadata={"description": "why the store did not answer (only when it did not)"})
    latency_ms = fields.Float(
        required=True, metadata={"description": "how long the store took to answer (or to fail)"}
    )


class HealthSchema(ResponseSchema):
    status = fields.String(
        required=True,
        validate=validate.OneOf(["ok", "degraded"]),
        metadata={"description": "`ok` when the store answers; `degraded` when it does not"},
    )
    store = fields.Nested(StoreHealthSchema, required=True)
