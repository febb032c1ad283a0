"""Actions: one documented schema per action type, generated from the domain's own table of fields
(``domain.actions.ACTION_FIELDS``), and the bodies of the actions and rulings endpoints."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, validate

from app.application import KEY_PATTERN_TEXT, MAX_KEY_LENGTH
from app.schemas.base import ActionField, RequestSchema, ResponseSchema
from app.schemas.events import EventSchema, PredictedEventSchema
from domain.actions import (
    ACTION_FIELDS,
    ATTACK_ZONE_VALUES,
    PLAYER_VALUES,
    REQUIRED,
    SIGNI_ZONE_VALUES,
)

ADJUST_OPS = ("move", "power", "down", "up", "freeze", "draw", "shuffle")

ACTION_DESCRIPTIONS = {
    "mulligan": "Set-up: the cards to return and redraw (empty: keep the hand).",
    "ener_charge": "Ener phase: put a card from the hand (or a SIGNI from the field) into the ener zone.",
    "grow": "Grow phase: grow the center LRIG; without `pay` the service picks a valid payment.",
    "grow_assist": "Grow an assist LRIG at the card's use timing.",
    "play_signi": "Main phase: put a SIGNI from the hand into a SIGNI zone (under: the cards of the trash "
    "its Rise puts under it, for a Rise that takes them).",
    "remove_signi": "Main phase, once a turn: put SIGNI from the field into the trash.",
    "use_spell": "Use a spell.",
    "use_arts": "Use an ARTS.",
    "use_piece": "Use a PIECE.",
    "use_ability": "Use an [Action] ability: `ability` is its number, counted from 1 in the card's order of "
    "abilities (as the legal actions send it), or a gained ability's reference.",
    "attack": "Attack steps: attack with the SIGNI in a zone, or with the center LRIG (`lrig`).",
    "guard": "Guard decision: discard a card with Guard to stop the LRIG attack's damage; `pay` and "
    "`discard` pay what an effect adds to a Guard's cost, and without `card`, `discard` pays what an ability "
    "of the guarding player's lets them pay instead of a card with Guard.",
    "life_burst": "Life Burst decision: whether to use the crushed card's Life Burst.",
    "discard": "Discard cards (end phase hand size, or when an effect asks).",
    "choose": "Answer a `choose` or `trigger_order` decision.",
    "pass": "End the ener, grow or main phase or an attack step, or decline an optional decision.",
    "concede": "Concede the game (any time).",
    "adjust": "Judge only: resolve an ability the service does not enforce, as primitive steps.",
}


class AdjustStepSchema(RequestSchema):
    """One primitive step of a judge's adjustment; further fields depend on ``op``."""

    class Meta:
        unknown = "include"

    op = fields.String(
        required=True,
        validate=validate.OneOf(ADJUST_OPS),
        metadata={
            "description": "move a card, change a power until end of turn, down, up, freeze, draw, shuffle"
        },
    )
    player = fields.String(validate=validate.OneOf(PLAYER_VALUES))
    card = fields.String(metadata={"description": "an instance id"})
    to = fields.String(metadata={"description": "the zone a card moves to"})
    amount = fields.Integer(metadata={"description": "a power change or a number of cards"})
    public = fields.Boolean(
        metadata={"description": "whether the step is shown to every viewer (default true)"}
    )


def _field(kind: str, required: bool) -> fields.Field:
    card = {"description": "an instance id as shown in the state, or a catalogue id"}
    kw: dict[str, Any] = {"required": required}
    if kind == "card":
        return fields.String(validate=validate.Length(min=1), metadata=card, **kw)
    if kind == "cards":
        return fields.List(
            fields.String(validate=validate.Length(min=1)),
            metadata={"description": "card references (instance ids or catalogue ids)"},
            **kw,
        )
    if kind == "zone":
        return fields.String(validate=validate.OneOf(SIGNI_ZONE_VALUES), **kw)
    if kind == "zones":
        return fields.List(
            fields.String(validate=validate.OneOf(SIGNI_ZONE_VALUES)), metadata={"uniqueItems": True}, **kw
        )
    if kind == "attack_zone":
        return fields.String(validate=validate.OneOf(ATTACK_ZONE_VALUES), **kw)
    if kind == "position":
        return fields.String(validate=validate.OneOf(("left", "right")), **kw)
    if kind == "from":
        return fields.String(validate=validate.OneOf(("hand", "field")), **kw)
    if kind == "bool":
        return fields.Boolean(**kw)
    if kind == "str":
        return fields.String(**kw)
    if kind == "list":
        return fields.List(fields.Raw(), **kw)
    if kind == "steps":
        return fields.List(fields.Nested(AdjustStepSchema), validate=validate.Length(min=1), **kw)
    raise AssertionError(kind)


def _schema_name(atype: str) -> str:
    return "".join(part.capitalize() for part in atype.split("_")) + "Action"


def _action_schema(atype: str) -> type[Schema]:
    attrs: dict[str, Any] = {
        "type": fields.String(required=True, validate=validate.OneOf((atype,))),
        "player": fields.String(
            required=atype != "adjust",
            validate=validate.OneOf(PLAYER_VALUES),
            metadata={"description": "the player whose decision this answers"},
        ),
    }
    for name, kind in ACTION_FIELDS[atype].items():
        attrs[name] = _field(kind, name in REQUIRED.get(atype, ()))
    attrs["Meta"] = type("Meta", (), {"register": False})
    cls = type(_schema_name(atype), (RequestSchema,), attrs)
    cls.__doc__ = ACTION_DESCRIPTIONS.get(atype, f"A {atype} action.")
    return cls


ACTION_SCHEMAS: dict[str, type[Schema]] = {atype: _action_schema(atype) for atype in ACTION_FIELDS}


def action_field(**kwargs: Any) -> ActionField:
    return ActionField(
        metadata={"description": "an action: `player`, `type` and the type's fields"}, **kwargs
    )


class ActionRequestSchema(RequestSchema):
    action = action_field(required=True)
    expected_version = fields.Integer(
        strict=True,
        allow_none=True,
        validate=validate.Range(min=0),
        metadata={"description": "the version the caller last saw; 409 when the match has moved on"},
    )
    action_id = fields.String(
        validate=[validate.Length(min=1, max=MAX_KEY_LENGTH), validate.Regexp(KEY_PATTERN_TEXT)],
        metadata={
            "description": "the client's id for this action (1 to 200 printable ASCII characters): an "
            "idempotency key, as the `Idempotency-Key` header; a retry with the same id gets the first "
            "answer and records nothing"
        },
    )


class ActionResultSchema(ResponseSchema):
    version = fields.Integer(required=True, metadata={"description": "the match's version after the action"})
    events = fields.List(fields.Nested(EventSchema), required=True)
    notes = fields.List(
        fields.String(),
        metadata={
            "description": "what the service chose for the action, one sentence each: the ener cards "
            "that paid a cost when the action gave no `pay` (the event records the cards paid; the "
            "action it records has no `pay`)"
        },
    )


class RulingRequestSchema(RequestSchema):
    at = fields.Integer(
        strict=True,
        validate=validate.Range(min=1),
        metadata={"description": "the event after which to rule (default: the latest)"},
    )
    action = action_field(required=True)


class RulingSchema(ResponseSchema):
    legal = fields.Boolean(required=True)
    rule_refs = fields.List(fields.String(), required=True)
    explanation = fields.String(required=True)
    events = fields.List(
        fields.Nested(PredictedEventSchema),
        required=True,
        metadata={"description": "what would happen, as the caller would see it"},
    )
    complete = fields.Boolean(
        required=True,
        metadata={
            "description": "false when the prediction stops early: what follows its last event depends on "
            "a card the caller cannot see yet (the judge always gets every event)"
        },
    )
    at = fields.Integer(required=True)


class LegalActionsQuerySchema(Schema):
    class Meta:
        unknown = "exclude"

    at = fields.Integer(
        validate=validate.Range(min=1), metadata={"description": "event number (default: latest)"}
    )
    player = fields.String(
        validate=validate.OneOf(PLAYER_VALUES),
        metadata={
            "description": "whose answers (a player token: its own; default: the caller's "
            "player, or for the judge whoever must decide)"
        },
    )


class LegalActionsSchema(ResponseSchema):
    actions = fields.List(action_field(), required=True)
    at = fields.Integer(required=True)
