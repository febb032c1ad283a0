"""GET /cards, GET /cards/{card_id}: the card catalogue."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from app.endpoint import endpoint
from app.problems import not_found
from app.schemas.catalogue import MAX_CARDS, CardListSchema, CardSchema, CardsQuerySchema
from domain.abilities.card_view import ability_view
from domain.abilities.catalogue import abilities_of
from domain.cards import Card, UnknownCard, load_catalogue
from projections.views import enforced

bp = Blueprint("cards", __name__)


def card_data(card: Card, printed_as: str | None = None) -> dict[str, Any]:
    """A card as the catalogue shows it: ``reprints`` lists every number it was printed under (at least its
    own id); ``printed_as``, when the card was asked for by another of its numbers, is that number."""
    data = card.to_dict()
    data["reprints"] = list(card.reprints or (card.id,))
    if printed_as is not None and printed_as != card.id:
        data["printed_as"] = printed_as
    data["enforced"] = enforced(card.id)
    return data


@bp.get("/cards")
@endpoint(
    "List the card catalogue",
    tag="cards",
    response=CardListSchema,
    query=CardsQuerySchema,
    description=(
        "The cards of the ten Diva starter decks (with `all=true`, every known card), filtered by "
        "`q`, `type` and `color`, by id."
    ),
)
def list_cards(query: dict[str, Any]) -> dict[str, Any]:
    found = load_catalogue(extended=query["all"]).search(
        query.get("q"), query.get("type"), query.get("color")
    )
    offset, limit = query["offset"], max(0, min(query["limit"], MAX_CARDS))
    return {"cards": [card_data(c) for c in found[offset : offset + limit]], "total": len(found)}


@bp.get("/cards/<card_id>")
@endpoint(
    "Show one card",
    tag="cards",
    response=CardSchema,
    errors=(404,),
    path_params={"card_id": "a catalogue id or any number the card was printed under, e.g. WXDi-D01-013"},
    path_examples={"card_id": "WXDi-D01-013"},
    description="The card's printed facts, and, for a card whose abilities the service enforces, "
    "`abilities`: each encoded ability in printed order, with its kind, a sentence in the project's own "
    "words and the vocabulary words its encoding uses (`[]` for a card with none). A card the service does "
    "not enforce has `enforced: false` and `abilities: null`: a judge resolves what it does.",
)
def get_card(card_id: str) -> dict[str, Any]:
    try:
        card = load_catalogue(extended=True).get(card_id)
    except UnknownCard:
        raise not_found(f"There is no card {card_id!r} in the catalogue.") from None
    data = card_data(card, printed_as=card_id)
    data["abilities"] = (
        [ability_view(ab, card.type.value) for ab in abilities_of(card.id)] if data["enforced"] else None
    )
    return data
