"""GET /decks, GET /decks/{deck_id}, POST /decks/validate: the preset decks (the starter decks, then the
project's own sample decks) and deck-construction rules."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.endpoint import endpoint
from app.problems import not_found
from app.schemas.catalogue import (
    DeckListSchema,
    DeckSchema,
    DecksQuerySchema,
    DeckValidateSchema,
    DeckValidationSchema,
)
from domain.decks import Deck, UnknownDeck, preset, presets, sample_note, samples, validate_deck
from domain.original import DEMO_DECK_IDS, demo_note

bp = Blueprint("decks", __name__)


def deck_data(deck_id: str, deck: Deck) -> dict[str, Any]:
    if deck_id in DEMO_DECK_IDS:
        return {"id": deck_id, **deck.to_dict(), "format": "original", "note": demo_note(deck_id)}
    note = sample_note(deck_id)
    if note is not None:
        return {"id": deck_id, **deck.to_dict(), "format": "diva", "note": note}
    return {"id": deck_id, **deck.to_dict(), "format": "diva"}


@bp.get("/decks")
@endpoint(
    "List the preset decks",
    tag="decks",
    response=DeckListSchema,
    query=DecksQuerySchema,
    description="The preset decks of a format: the ten Diva starter decks (`format=diva`, the default) "
    "followed by six sample decks of the project's own (`SAMPLE-WHITE` ... `SAMPLE-BLACK`, one per "
    "colour, and `SAMPLE-TRICOLOR`, white, blue and black; built from the WXDi-P00 ... P08 booster cards "
    'the service enforces; each named "... (sample)" and with a `note`; not tournament lists), or the '
    "original format's demo decks (`format=original`), the project's own, built from the cards of the "
    "WD01 ... WD05 starter sets.",
)
def list_decks(query: dict[str, Any]) -> dict[str, Any]:
    decks = {**presets(query["format"]), **samples(query["format"])}
    return {"decks": [deck_data(i, d) for i, d in decks.items()]}


@bp.get("/decks/<deck_id>")
@endpoint(
    "Show one preset deck",
    tag="decks",
    response=DeckSchema,
    errors=(404,),
    path_params={"deck_id": "a preset deck id, e.g. WXDi-D01"},
    path_examples={"deck_id": "WXDi-D01"},
)
def get_deck(deck_id: str) -> dict[str, Any]:
    try:
        return deck_data(deck_id, preset(deck_id))
    except UnknownDeck as exc:
        raise not_found(
            f"There is no preset deck {deck_id!r}; the preset decks are listed at GET /decks."
        ) from exc


@bp.post("/decks/validate")
@endpoint(
    "Check a deck against the deck-construction rules",
    tag="decks",
    body=DeckValidateSchema,
    response=DeckValidationSchema,
    errors=(400, 415, 422),
    example={
        "format": "diva",
        "lrig_deck": list(preset("WXDi-D01").lrig_deck),
        "main_deck": list(preset("WXDi-D01").main_deck),
    },
    description="Every problem at once, each with its rule id; a deck with none is valid.",
)
def validate(body: dict[str, Any]) -> dict[str, Any]:
    deck = Deck(tuple(body["lrig_deck"]), tuple(body["main_deck"]))
    problems = validate_deck(deck, None, body["format"], body.get("options"))
    return {"valid": not problems, "problems": [p.to_dict() for p in problems]}
