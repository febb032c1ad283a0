"""Creating, listing and summarising matches; the judge's rewind, branch and audit."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from marshmallow import ValidationError, fields, validate

from app.schemas.base import OneOf, QuerySchema, RequestSchema, ResponseSchema, StrictBoolean
from app.schemas.events import EventSchema
from app.schemas.options import FormatOptionsMixin, options_field
from app.schemas.state import PLAYERS, STATUSES, STEPS, PendingSchema, ResultSchema
from app.schemas.takebacks import takebacks_field
from domain.setup import FORMATS

SEED_RANGE = validate.Range(min=-(2**63), max=2**63 - 1)
NAME = validate.Length(min=1, max=100)
CARD_ID = fields.String(validate=validate.Length(min=1, max=100))


class LrigChoiceSchema(RequestSchema):
    """The level 0 LRIGs to start with (catalogue ids): center, left and right in Diva Selection, the center
    only in the original format; default: chosen from the LRIG deck."""

    center = fields.String(required=True)
    left = fields.String()
    right = fields.String()


class PresetPlayerSchema(RequestSchema):
    """A player with a preset deck (see GET /decks)."""

    name = fields.String(required=True, validate=NAME)
    deck = fields.String(
        required=True,
        metadata={
            "description": "a preset deck id, e.g. WXDi-D01 (a starter deck) or SAMPLE-WHITE (a sample deck)"
        },
    )
    lrigs = fields.Nested(LrigChoiceSchema)


class CustomPlayerSchema(RequestSchema):
    """A player with a deck given card by card (catalogue ids; a card listed four times is four copies)."""

    name = fields.String(required=True, validate=NAME)
    lrig_deck = fields.List(CARD_ID, required=True, validate=validate.Length(max=100))
    main_deck = fields.List(CARD_ID, required=True, validate=validate.Length(max=200))
    lrigs = fields.Nested(LrigChoiceSchema)


def player_setup() -> OneOf:
    return OneOf([fields.Nested(PresetPlayerSchema), fields.Nested(CustomPlayerSchema)], required=True)


class PlayerSetupsSchema(RequestSchema):
    p1 = player_setup()
    p2 = player_setup()


class MatchCreateSchema(FormatOptionsMixin, RequestSchema):
    format = fields.String(required=True, validate=validate.OneOf(FORMATS))
    options = options_field()
    seed = fields.Integer(
        strict=True,
        validate=SEED_RANGE,
        metadata={"description": "the match's random seed (default: drawn by the service)"},
    )
    first_player = fields.String(
        allow_none=True,
        validate=validate.OneOf(PLAYERS),
        metadata={"description": "default: decided by a coin"},
    )
    players = fields.Nested(PlayerSetupsSchema, required=True)
    takebacks = takebacks_field()


class TokensSchema(ResponseSchema):
    p1 = fields.String(required=True)
    p2 = fields.String(required=True)


class MatchCreatedSchema(ResponseSchema):
    id = fields.UUID(required=True)
    version = fields.Integer(required=True)
    tokens = fields.Nested(
        TokensSchema, required=True, metadata={"description": "one bearer token per player"}
    )
    seed = fields.Integer(metadata={"description": "the match's seed (shown to the judge only)"})


class PositionCreatedSchema(MatchCreatedSchema):
    warnings = fields.List(
        fields.String(),
        required=True,
        metadata={
            "description": "what rule processing changed in the position as it was set, one sentence each "
            "(empty: the position stood as given)"
        },
    )


class RecordReportSchema(ResponseSchema):
    ok = fields.Boolean(required=True)
    lines = fields.Integer(required=True, metadata={"description": "the record's lines, header included"})
    events = fields.Integer(required=True)
    head_hash = fields.String(required=True)
    seeded = fields.Boolean(required=True, metadata={"description": "whether the record gives a seed"})
    hashes_checked = fields.Integer(required=True, metadata={"description": "lines whose hash was equal"})
    checked = fields.List(fields.String(), required=True, metadata={"description": "what the replay checked"})
    unchecked = fields.List(
        fields.String(), required=True, metadata={"description": "what it could not: never recorded"}
    )


class RecordImportedSchema(MatchCreatedSchema):
    report = fields.Nested(RecordReportSchema, required=True)


class BranchCreatedSchema(MatchCreatedSchema):
    parent = fields.UUID(required=True)
    branched_at = fields.Integer(required=True)


class NamesSchema(ResponseSchema):
    p1 = fields.String()
    p2 = fields.String()


class MatchListItemSchema(ResponseSchema):
    """A listed match. Everyone sees its id, players' names, status, version and winner; ``parent`` and
    ``branched_at`` (a judge's branches) are shown to the judge only."""

    id = fields.UUID(required=True)
    players = fields.Nested(NamesSchema, required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    version = fields.Integer(required=True)
    winner = fields.String(required=True, allow_none=True)
    parent = fields.String(
        allow_none=True, metadata={"description": "the match this one was branched from (judge only)"}
    )
    branched_at = fields.Integer(allow_none=True, metadata={"description": "judge only"})


MAX_LIST = 200
CURSOR_PREFIX = "after:"


def encode_cursor(seq: int) -> str:
    return base64.urlsafe_b64encode(f"{CURSOR_PREFIX}{seq}".encode()).decode().rstrip("=")


def decode_cursor(text: str) -> int:
    if len(text) > 100:
        text = ""
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raw = ""
    digits = raw[len(CURSOR_PREFIX) :]
    if not raw.startswith(CURSOR_PREFIX) or not (digits.isascii() and digits.isdigit()) or len(digits) > 18:
        raise ValidationError(
            "not a cursor this service gave: pass the `cursor` of the previous page as it is"
        )
    return int(digits)


class CursorField(fields.String):
    """An opaque cursor, loaded as the position it stands for."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        return decode_cursor(super()._deserialize(value, attr, data, **kwargs))


class MatchListQuerySchema(QuerySchema):
    limit = fields.Integer(
        load_default=50,
        validate=validate.Range(min=1),
        metadata={
            "description": f"at most this many matches (default 50; above {MAX_LIST} counts as {MAX_LIST})"
        },
    )
    cursor = CursorField(
        metadata={"description": "where to go on: the `cursor` of the previous page (opaque)"},
    )
    status = fields.String(
        validate=validate.OneOf(STATUSES), metadata={"description": "only matches in this status"}
    )
    player = fields.String(
        validate=validate.Length(min=1, max=100),
        metadata={"description": "only matches with a player whose name holds this text (case-insensitive)"},
    )


class MatchListSchema(ResponseSchema):
    matches = fields.List(fields.Nested(MatchListItemSchema), required=True)
    cursor = fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "pass it as `cursor` to get the next page; null when there is none. Matches are "
            "listed oldest first, and a cursor stays valid as new matches are created (they come last)"
        },
    )


class EnforcedSchema(ResponseSchema):
    enforced = fields.List(
        fields.String(),
        required=True,
        metadata={"description": "card ids whose abilities the service enforces"},
    )
    judge_resolved = fields.List(
        fields.String(), required=True, metadata={"description": "card ids whose abilities a judge resolves"}
    )


class PlayerNameSchema(ResponseSchema):
    name = fields.String(required=True)


class PlayerNamesSchema(ResponseSchema):
    p1 = fields.Nested(PlayerNameSchema, required=True)
    p2 = fields.Nested(PlayerNameSchema, required=True)


class MatchSummarySchema(ResponseSchema):
    id = fields.UUID(required=True)
    format = fields.String()
    version = fields.Integer(required=True)
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    turn = fields.Integer(required=True)
    turn_player = fields.String(required=True, allow_none=True)
    first_player = fields.String(allow_none=True)
    phase = fields.String(required=True)
    step = fields.String(required=True, allow_none=True)
    pending = fields.Nested(PendingSchema, required=True, allow_none=True)
    winner = fields.String(required=True, allow_none=True)
    result = fields.Nested(ResultSchema, required=True, allow_none=True)
    players = fields.Nested(PlayerNamesSchema, required=True)
    enforced = fields.Nested(
        EnforcedSchema,
        required=True,
        metadata={
            "description": "the cards of the match the caller may know of, by whether "
            "the service enforces their abilities"
        },
    )
    parent = fields.String(allow_none=True)
    branched_at = fields.Integer(allow_none=True)


class RewindSchema(RequestSchema):
    to = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1),
        metadata={"description": "the event whose state the match returns to"},
    )
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))


class BranchSchema(RequestSchema):
    at = fields.Integer(
        required=True,
        strict=True,
        validate=validate.Range(min=1),
        metadata={"description": "the new match's first events are the parent's first `at`"},
    )
    reason = fields.String(required=True, validate=validate.Length(min=1, max=2000))


class RewoundSchema(ResponseSchema):
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)


MAX_TIMELINE = 1000


class TimelineQuerySchema(QuerySchema):
    after = fields.Integer(
        load_default=0,
        validate=validate.Range(min=0),
        metadata={"description": "list the events after this number (default 0)"},
    )
    limit = fields.Integer(
        load_default=MAX_TIMELINE,
        metadata={"description": f"at most this many points: clamped to 0 to {MAX_TIMELINE}, never refused"},
    )


class TimelinePendingSchema(ResponseSchema):
    player = fields.String(required=True, validate=validate.OneOf(PLAYERS))
    kind = fields.String(required=True, metadata={"description": "what the player is asked to decide"})


class TimelinePointSchema(ResponseSchema):
    """The match after one event, as a scrubber shows it."""

    n = fields.Integer(required=True, metadata={"description": "the event number"})
    type = fields.String(required=True, metadata={"description": "the event's type"})
    decision_point = fields.Boolean(
        required=True,
        metadata={
            "description": "whether the game waits here for a player's answer: the only events a rewind "
            "or a branch may go to (judge.decision-point)"
        },
    )
    status = fields.String(required=True, validate=validate.OneOf(STATUSES))
    turn = fields.Integer(required=True)
    turn_player = fields.String(required=True, allow_none=True)
    phase = fields.String(required=True)
    step = fields.String(required=True, allow_none=True)
    pending = fields.Nested(
        TimelinePendingSchema,
        required=True,
        allow_none=True,
        metadata={"description": "the decision the state names after this event, if any"},
    )


class TimelineSchema(ResponseSchema):
    points = fields.List(fields.Nested(TimelinePointSchema), required=True)
    head = fields.Integer(required=True, metadata={"description": "the match's latest event number"})


class AuditProblemSchema(ResponseSchema):
    at = fields.Integer(required=True)
    rule = fields.String(required=True)
    message = fields.String(required=True)


HASH_PATTERN = r"^[0-9a-fA-F]{64}$"


class AuditSchema(ResponseSchema):
    ok = fields.Boolean(required=True)
    events = fields.Integer(required=True)
    head_hash = fields.String(
        required=True,
        metadata={"description": "the hash of the last event (of the last intact one when the chain breaks)"},
    )
    problems = fields.List(fields.Nested(AuditProblemSchema), required=True)
    engine = fields.String(
        required=True,
        metadata={
            "description": "the engine that wrote the match, as its first event records it "
            "(`unknown (before 0.2.0)` for a match written before engines were recorded)"
        },
    )
    audited_by = fields.String(
        required=True, metadata={"description": "the engine that replayed the log now"}
    )
    rule_changes = fields.List(
        fields.Nested(AuditProblemSchema),
        metadata={
            "description": "a log written by an earlier engine: the first point where today's rules decide "
            "differently (rule `audit.rules-changed`); the events after it are folded and hash-checked but "
            "not decided again. Always empty for a log written by today's engine, which must replay exactly"
        },
    )


class AnchorSchema(RequestSchema):
    head_hash = fields.String(
        required=True,
        validate=validate.Regexp(HASH_PATTERN, error="a head hash is 64 hexadecimal digits"),
        metadata={"description": "a head hash written down earlier (from `GET /matches/{id}/audit`)"},
    )
    at = fields.Integer(
        validate=validate.Range(min=1),
        metadata={"description": "the event number it was the hash of, if noted (`events` of that audit)"},
    )


class AnchorReportSchema(AuditSchema):
    extends = fields.Boolean(
        required=True,
        metadata={
            "description": "whether today's log still has an event with this hash: nothing up to it changed"
        },
    )
    at = fields.Integer(
        required=True, allow_none=True, metadata={"description": "the event whose hash it is today, if any"}
    )
    anchor = fields.String(required=True, metadata={"description": "the head hash asked about (lower case)"})
    explanation = fields.String(
        required=True, metadata={"description": "one sentence: why it does or does not"}
    )


# -- positions ------------------------------------------------------------------------------------

KEYWORDS = ("lancer", "double_crush", "assassin", "shadow")


def card_ref(**kwargs: Any) -> OneOf:
    return OneOf(
        [fields.String(validate=validate.Length(min=1, max=100)), fields.Nested(CardSpecSchema)],
        metadata={"description": "a catalogue id, or an object with `card` and its state"},
        **kwargs,
    )


class CardOnlySchema(RequestSchema):
    """A card with no state of its own (under another card, or in a pile zone)."""

    card = fields.String(required=True, validate=validate.Length(min=1, max=100))


class CardSpecSchema(RequestSchema):
    """A card in a position, with its state on the field (effects last until end of turn)."""

    card = fields.String(required=True, validate=validate.Length(min=1, max=100))
    downed = StrictBoolean()
    frozen = StrictBoolean()
    under = fields.List(
        OneOf([fields.String(validate=validate.Length(min=1, max=100)), fields.Nested(CardOnlySchema)]),
        validate=validate.Length(max=60),
        metadata={"description": "the cards under it"},
    )
    power_mod = fields.Integer(strict=True, validate=validate.Range(min=-(10**6), max=10**6))
    keywords = fields.List(fields.String(validate=validate.OneOf(KEYWORDS)))
    awakened = StrictBoolean(metadata={"description": "a SIGNI that has awakened (it stays so on the field)"})


class LrigPositionSchema(RequestSchema):
    center = card_ref(required=True)
    left = card_ref(allow_none=True)
    right = card_ref(allow_none=True)


class SigniPositionSchema(RequestSchema):
    left = card_ref(allow_none=True)
    center = card_ref(allow_none=True)
    right = card_ref(allow_none=True)


def pile(description: str) -> fields.List:
    return fields.List(card_ref(), validate=validate.Length(max=200), metadata={"description": description})


class PlayerPositionSchema(RequestSchema):
    name = fields.String(validate=NAME)
    lrig = fields.Nested(LrigPositionSchema, required=True)
    signi = fields.Nested(SigniPositionSchema, allow_none=True)
    hand = pile("the hand")
    deck = pile("the deck, top card first")
    life_cloth = pile("the Life Cloth, top card first")
    ener = pile("the ener zone")
    trash = pile("the trash")
    lrig_deck = pile("the LRIG deck")
    lrig_trash = pile("the LRIG trash")
    check = pile("the check zone")
    excluded = pile("cards excluded from the game")
    refreshes_this_turn = fields.Integer(strict=True, validate=validate.Range(min=0, max=1))
    coins = fields.Integer(
        strict=True, validate=validate.Range(min=0, max=5), metadata={"description": "coins held"}
    )
    markers = fields.Dict(
        keys=fields.String(validate=validate.OneOf(("left", "center", "right"))),
        values=fields.List(
            fields.String(validate=validate.Length(min=1, max=40)), validate=validate.Length(max=10)
        ),
        metadata={"description": "zone markers (a Virus ...) in the SIGNI zones: zone -> the markers there"},
    )
    face_down = fields.Dict(
        keys=fields.String(validate=validate.OneOf(("left", "center", "right"))),
        values=fields.List(fields.Raw(), validate=validate.Length(max=3)),
        metadata={
            "description": "face-down cards in the SIGNI zones (not SIGNI): zone -> the SIGNI turned face "
            "down there (a card, or {card, under})"
        },
    )


class PlayerPositionsSchema(RequestSchema):
    p1 = fields.Nested(PlayerPositionSchema, required=True)
    p2 = fields.Nested(PlayerPositionSchema, required=True)


class PositionSchema(FormatOptionsMixin, RequestSchema):
    """A board described by a judge; the match starts at the beginning of the given phase and step."""

    format = fields.String(validate=validate.OneOf(FORMATS))
    options = options_field()
    turn = fields.Integer(strict=True, validate=validate.Range(min=1, max=10**6))
    turn_player = fields.String(validate=validate.OneOf(PLAYERS))
    first_player = fields.String(
        allow_none=True,
        validate=validate.OneOf(PLAYERS),
        metadata={"description": "default: the turn player on odd turns, the other on even"},
    )
    phase = fields.String(validate=validate.OneOf(("up", "draw", "ener", "grow", "main", "attack", "end")))
    step = fields.String(
        allow_none=True, validate=validate.OneOf(STEPS), metadata={"description": "in the attack phase only"}
    )
    players = fields.Nested(PlayerPositionsSchema, required=True)
    seed = fields.Integer(
        strict=True,
        validate=SEED_RANGE,
        metadata={"description": "the match's random seed (default: drawn by the service)"},
    )
    takebacks = takebacks_field()
