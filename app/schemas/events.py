"""Events as the log shows them, and the query of the events endpoint."""

from __future__ import annotations

from marshmallow import fields, validate

from app.schemas.base import QuerySchema, ResponseSchema

VIEWERS = ("judge", "p1", "p2", "spectator")
MAX_EVENTS = 1000


class PredictedEventSchema(ResponseSchema):
    """An event a ruling predicts: not stored, so no time and no hash."""

    n = fields.Integer(required=True, metadata={"description": "the event number it would have"})
    type = fields.String(required=True, metadata={"description": "the event type, in the past tense"})
    actor = fields.String(required=True, validate=validate.OneOf(("p1", "p2", "judge", "rules")))
    rule = fields.String(required=True, metadata={"description": "the rule id that says why"})
    caused_by = fields.Integer(required=True, allow_none=True)
    by = fields.String(metadata={"description": "`judge` when a judge answered a player's decision"})
    data = fields.Dict(required=True, metadata={"description": "the event's data, as the viewer may see it"})


class EventSchema(PredictedEventSchema):
    """A stored event, as the caller may see it."""

    n = fields.Integer(
        required=True, metadata={"description": "the event number (the match's version after it)"}
    )
    time = fields.String(required=True, metadata={"description": "when it was recorded (UTC, ISO 8601)"})
    hash = fields.String(metadata={"description": "SHA-256 chain hash (judge only)"})
    action = fields.Dict(
        metadata={
            "description": "on a batch's first event: the action that produced it "
            "(shown to its actor and the judge)"
        }
    )
    engine = fields.String(
        metadata={
            "description": "on a match's first event and on `Branched`: the engine that wrote it "
            "(left out on matches written before engines were recorded)"
        }
    )
    idempotency = fields.Dict(
        metadata={
            "description": "on the first event of a batch a request with an `Idempotency-Key` produced: "
            "`key`, `caller` and `request` (a SHA-256 digest of the request); covered by the hash "
            "(judge only)"
        }
    )
    rewound_by = fields.Integer(
        metadata={"description": "the rewind event that undid this one (a mark of the view, not hashed)"}
    )
    decision_point = fields.Boolean(
        metadata={
            "description": "whether a player is asked to decide after this event: the only events a "
            "rewind or a branch may go to (judge.decision-point)"
        }
    )


class EventsQuerySchema(QuerySchema):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0),
        metadata={"description": "list the events after this number (default 0)"},
    )
    limit = fields.Integer(
        load_default=MAX_EVENTS,
        metadata={"description": f"at most this many events: clamped to 0 to {MAX_EVENTS}, never refused"},
    )
    viewer = fields.String(
        validate=validate.OneOf(VIEWERS), metadata={"description": "judge only: whose view of the log"}
    )


class EventListSchema(ResponseSchema):
    events = fields.List(fields.Nested(EventSchema), required=True)
    head = fields.Integer(required=True, metadata={"description": "the match's latest event number"})
