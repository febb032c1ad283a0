"""The card catalogue, the preset decks and deck validation, and the rules catalogue."""

from __future__ import annotations

from marshmallow import fields, validate

from app.schemas.base import QuerySchema, RequestSchema, ResponseSchema
from app.schemas.options import FormatOptionsMixin, options_field
from domain.formats import FORMAT_NAMES

MAX_CARDS = 1000


class CostItemSchema(ResponseSchema):
    color = fields.String(
        required=True, metadata={"description": "a colour, `a/b` for either, `colorless`, or `coin`"}
    )
    n = fields.Integer(required=True)


class AbilitySchema(ResponseSchema):
    kind = fields.String(
        required=True,
        validate=validate.OneOf(
            ("auto", "enter", "constant", "action", "life_burst", "arts", "spell", "piece")
        ),
    )
    text = fields.String(required=True, metadata={"description": "what it does, in the project's own words"})
    words = fields.List(
        fields.String(), required=True, metadata={"description": "the vocabulary words its encoding uses"}
    )


class CardSchema(ResponseSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    name_ja = fields.String(metadata={"description": "the printed Japanese name"})
    type = fields.String(required=True)
    colors = fields.List(fields.String(), required=True)
    level = fields.Integer(allow_none=True)
    limit = fields.Integer(allow_none=True)
    power = fields.Integer(allow_none=True)
    grow_cost = fields.List(fields.Nested(CostItemSchema))
    cost = fields.List(fields.Nested(CostItemSchema))
    lrig_types = fields.List(fields.String())
    limiting = fields.List(fields.String())
    classes = fields.List(fields.String())
    team = fields.String(allow_none=True)
    guard = fields.Boolean()
    life_burst = fields.Boolean()
    multi_ener = fields.Boolean()
    timings = fields.List(fields.String())
    keywords = fields.List(fields.String())
    enforced = fields.Boolean(metadata={"description": "whether the service enforces the card's abilities"})
    abilities = fields.List(
        fields.Nested(AbilitySchema),
        allow_none=True,
        metadata={
            "description": "GET /cards/{card_id} only: the encoded abilities in printed order; null when the "
            "service does not enforce the card"
        },
    )
    reprints = fields.List(
        fields.String(),
        metadata={
            "description": "every number the card was printed under: the first printing first, then its "
            "reprints (only its own id when it was printed once); each of them answers `GET /cards/{card_id}`"
        },
    )
    printed_as = fields.String(
        metadata={
            "description": "the number asked for, when it is another print of this card (a reprint): `id` is "
            "the number the service plays the card under"
        }
    )


class CardsQuerySchema(QuerySchema):
    q = fields.String(
        metadata={
            "description": "a case-insensitive part of the id (or of any number the card was printed under), "
            "the name or the Japanese name"
        }
    )
    type = fields.String(
        metadata={"description": "a card type: lrig, assist_lrig, signi, spell, arts, piece, ..."}
    )
    color = fields.String(metadata={"description": "white, red, blue, green, black or colorless"})
    all = fields.Boolean(
        load_default=False,
        metadata={"description": "every known card, not only the starter decks' (default false)"},
    )
    offset = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0),
        metadata={"description": "skip this many matching cards"},
    )
    limit = fields.Integer(
        load_default=MAX_CARDS,
        metadata={"description": f"at most this many cards: clamped to 0 to {MAX_CARDS}, never refused"},
    )


class CardListSchema(ResponseSchema):
    cards = fields.List(fields.Nested(CardSchema), required=True)
    total = fields.Integer(required=True, metadata={"description": "how many cards match the filters"})


class DeckSchema(ResponseSchema):
    id = fields.String(required=True)
    name = fields.String(allow_none=True)
    format = fields.String(metadata={"description": "the format the deck is for: diva or original"})
    note = fields.String(metadata={"description": "what the deck is, where it is not a boxed product's list"})
    lrig_deck = fields.List(fields.String(), required=True)
    main_deck = fields.List(fields.String(), required=True)


class DeckListSchema(ResponseSchema):
    decks = fields.List(fields.Nested(DeckSchema), required=True)


class DecksQuerySchema(QuerySchema):
    format = fields.String(
        load_default="diva",
        validate=validate.OneOf(FORMAT_NAMES),
        metadata={"description": "the format whose preset decks to list (default diva)"},
    )


class DeckValidateSchema(FormatOptionsMixin, RequestSchema):
    format = fields.String(load_default="diva", metadata={"description": "the format (default diva)"})
    options = options_field()
    lrig_deck = fields.List(fields.String(), required=True, validate=validate.Length(max=1000))
    main_deck = fields.List(fields.String(), required=True, validate=validate.Length(max=1000))


class DeckProblemSchema(ResponseSchema):
    rule = fields.String(required=True)
    message = fields.String(required=True)
    cards = fields.List(fields.String(), required=True)


class DeckValidationSchema(ResponseSchema):
    valid = fields.Boolean(required=True)
    problems = fields.List(fields.Nested(DeckProblemSchema), required=True)


class RulingSourceSchema(ResponseSchema):
    id = fields.String(required=True, metadata={"description": "the project's id for the ruling"})
    authority = fields.String(metadata={"description": "who gave it: an official FAQ, a rules page ..."})
    where = fields.String(metadata={"description": "where it is published: a card's page, a site's page"})
    topic = fields.String()


class RuleSourceSchema(ResponseSchema):
    seed = fields.String(required=True, metadata={"description": "000, 001, 002, 004, or none"})
    document = fields.String(
        required=True, metadata={"description": "the rules text file the section is in, and what it holds"}
    )
    section = fields.String(required=True, metadata={"description": "the section or paragraph in it"})
    rulings = fields.List(fields.Nested(RulingSourceSchema), required=True)


class RuleSchema(ResponseSchema):
    id = fields.String(required=True)
    title = fields.String(required=True)
    summary = fields.String(required=True)
    source = fields.Nested(RuleSourceSchema, required=True)


class RuleListSchema(ResponseSchema):
    rules = fields.List(fields.Nested(RuleSchema), required=True)
