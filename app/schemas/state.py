"""The state of a match as a viewer may see it (``projections.views.state_view``), and match summaries."""

from __future__ import annotations

from marshmallow import fields, validate

from app.schemas.base import ActionField, QuerySchema, ResponseSchema
from app.schemas.events import VIEWERS

STATUSES = ("setup", "active", "finished")
PHASES = ("setup", "up", "draw", "ener", "grow", "main", "attack", "end")
STEPS = ("pre_attack", "defense", "signi_attack", "lrig_attack", "guard")
KINDS = (
    "mulligan",
    "ener",
    "grow",
    "main",
    "pre_attack",
    "defense",
    "signi_attack",
    "lrig_attack",
    "guard",
    "life_burst",
    "discard",
    "choose",
    "trigger_order",
)
PLAYERS = ("p1", "p2")


class CardViewSchema(ResponseSchema):
    """A card instance. On the field it always has `downed` and `frozen`; a face-down LRIG shows only
    `face_down`, `downed` and `frozen`."""

    iid = fields.String(metadata={"description": "the instance id (opaque)"})
    card = fields.String(metadata={"description": "the catalogue id"})
    name = fields.String()
    type = fields.String()
    level = fields.Integer(metadata={"description": "the level now, effects included"})
    printed_level = fields.Integer(
        metadata={"description": "the printed level, shown only while an effect has changed the level"}
    )
    power = fields.Integer(metadata={"description": "the power now, effects included"})
    enforced = fields.Boolean(metadata={"description": "whether the service enforces the card's abilities"})
    downed = fields.Boolean()
    frozen = fields.Boolean()
    power_mod = fields.Integer(metadata={"description": "power change until end of turn"})
    keywords = fields.List(fields.String())
    under = fields.List(fields.Nested(lambda: CardViewSchema()))
    face_down = fields.Boolean()
    awakened = fields.Boolean(metadata={"description": "present (true) once the SIGNI has awakened"})


class ZoneViewSchema(ResponseSchema):
    count = fields.Integer(required=True)
    cards = fields.List(
        fields.Nested(CardViewSchema),
        metadata={"description": "left out where the viewer may not see the zone"},
    )


class LrigZonesSchema(ResponseSchema):
    center = fields.Nested(CardViewSchema, allow_none=True)
    left = fields.Nested(CardViewSchema, allow_none=True)
    right = fields.Nested(CardViewSchema, allow_none=True)


class SigniZonesSchema(LrigZonesSchema):
    pass


class PlayerViewSchema(ResponseSchema):
    name = fields.String()
    lrig = fields.Nested(LrigZonesSchema, required=True)
    signi = fields.Nested(SigniZonesSchema, required=True)
    hand = fields.Nested(ZoneViewSchema, required=True)
    deck = fields.Nested(ZoneViewSchema, required=True)
    life_cloth = fields.Nested(ZoneViewSchema, required=True)
    ener = fields.Nested(ZoneViewSchema, required=True)
    trash = fields.Nested(ZoneViewSchema, required=True)
    lrig_deck = fields.Nested(ZoneViewSchema, required=True)
    lrig_trash = fields.Nested(ZoneViewSchema, required=True)
    check = fields.Nested(ZoneViewSchema, required=True)
    excluded = fields.Nested(ZoneViewSchema, required=True)
    refreshes_this_turn = fields.Integer(required=True)
    coins = fields.Integer(required=True, metadata={"description": "the coins the player has"})
    coins = fields.Integer(metadata={"description": "coins held (at most five)"})
    markers = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.String()),
        metadata={"description": "zone markers (a Virus ...) in the SIGNI zones, shown while there are any"},
    )
    erased = fields.List(
        fields.String(),
        metadata={"description": "the SIGNI zones erased until end of turn, while there are any"},
    )
    face_down = fields.Dict(
        keys=fields.String(),
        values=fields.List(fields.Dict()),
        metadata={
            "description": "face-down cards in the SIGNI zones (not SIGNI), shown while there are any: zone "
            "-> the cards there (face_down; the card only to a viewer who may see its front; under)"
        },
    )


class PlayersViewSchema(ResponseSchema):
    p1 = fields.Nested(PlayerViewSchema, required=True)
    p2 = fields.Nested(PlayerViewSchema, required=True)


class PendingSchema(ResponseSchema):
    """The one decision the game waits for. `options` (every legal answer) is shown only to the deciding
    player and the judge; the other fields depend on `kind`."""

    player = fields.String(required=True, validate=validate.OneOf(PLAYERS))
    kind = fields.String(required=True, validate=validate.OneOf(KINDS))
    description = fields.String()
    options = fields.List(ActionField())
    prompt = fields.String()
    min = fields.Integer()
    max = fields.Integer()
    count = fields.Integer()
    card = fields.String()
    card_id = fields.String()
    attacker = fields.String()
    cards = fields.List(
        fields.String(), metadata={"description": "Life Bursts waiting together: the one answered goes first"}
    )
    choices = fields.List(fields.Raw())
    zones = fields.List(fields.String(), metadata={"description": "a choice of SIGNI zone"})
    labels = fields.List(fields.String(), metadata={"description": "a choice between these options"})
    looked = fields.List(fields.Raw(), metadata={"description": "the cards just looked at (decider only)"})
    order = fields.Boolean(metadata={"description": "answer with `order`: every choice, in order"})


class ResultSchema(ResponseSchema):
    winner = fields.String(allow_none=True)
    reason = fields.String()
    rule = fields.String()


class StateViewSchema(ResponseSchema):
    version = fields.Integer(required=True, metadata={"description": "the event this state follows"})
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    winner = fields.String(required=True, allow_none=True)
    result = fields.Nested(ResultSchema, required=True, allow_none=True)
    turn = fields.Integer(required=True)
    turn_player = fields.String(required=True, allow_none=True)
    first_player = fields.String(required=True, allow_none=True)
    phase = fields.String(required=True, validate=validate.OneOf(PHASES))
    step = fields.String(required=True, allow_none=True)
    pending = fields.Nested(PendingSchema, required=True, allow_none=True)
    players = fields.Nested(PlayersViewSchema, required=True)
    format = fields.String()
    options = fields.Dict(
        metadata={
            "description": "the format's options, every one with its value, the default where the match set "
            "none (docs/FORMATS.md; none in Diva Selection)"
        }
    )
    attack = fields.Dict(allow_none=True, metadata={"description": "the attack being resolved"})
    seed = fields.Integer(metadata={"description": "judge only"})
    digest = fields.String(metadata={"description": "judge only: SHA-256 of the canonical full state"})


class StateQuerySchema(QuerySchema):
    at = fields.Integer(
        validate=validate.Range(min=1),
        metadata={"description": "the event after which to show the state (default: latest)"},
    )
    viewer = fields.String(
        validate=validate.OneOf(VIEWERS), metadata={"description": "judge only: whose view"}
    )


class ViewerQuerySchema(QuerySchema):
    viewer = fields.String(
        validate=validate.OneOf(VIEWERS), metadata={"description": "judge only: whose view"}
    )
