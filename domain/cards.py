"""Cards and the catalogue: the printed facts of each card, in the project's own format.

The facts ship as data (``domain/data/cards.json``: the cards of the ten Diva starter decks;
``domain/data/cards_extended.json.gz``: every known card, for positions set up by a judge), written by
``tools/import_cards.py``. No card text is kept: abilities are encoded elsewhere, in the project's own words.
"""

from __future__ import annotations

import gzip
import json
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

COLORS = ("white", "red", "blue", "green", "black")  # colorless is not a colour
COLORLESS = "colorless"
TIMINGS = ("main", "attack", "spell_cut_in")
KEYWORDS = ("lancer", "double_crush", "assassin", "shadow")
# a SIGNI's printed infinite power (∞): greater than any number, and no plus or minus changes it (only an
# effect that sets its power does); the catalogue holds it as this number, which no other power reaches
INFINITE_POWER = 1_000_000_000


class CardType(StrEnum):
    LRIG = "lrig"
    ASSIST_LRIG = "assist_lrig"
    SIGNI = "signi"
    SPELL = "spell"
    ARTS = "arts"
    PIECE = "piece"
    RESONA = "resona"
    KEY = "key"
    SIGNI_CRAFT = "signi_craft"
    SPELL_CRAFT = "spell_craft"
    ARTS_CRAFT = "arts_craft"
    RESONA_CRAFT = "resona_craft"
    PIECE_CRAFT = "piece_craft"
    PIECE_RELAY = "piece_relay"
    TOKEN = "token"  # a token an effect hands out (LRIG Barrier, Limit Upper ...): in neither deck, never put
    # into a position (the engine has no zone for tokens); known so that its number answers


_LRIG_TYPES = frozenset({CardType.LRIG, CardType.ASSIST_LRIG})
# cards that stand in a SIGNI zone: Resonas are SIGNI on the field, Crafts are made during the game
_SIGNI_TYPES = frozenset({CardType.SIGNI, CardType.RESONA, CardType.SIGNI_CRAFT, CardType.RESONA_CRAFT})
_MAIN_DECK_TYPES = frozenset({CardType.SIGNI, CardType.SPELL})  # the black-backed cards
_LRIG_DECK_TYPES = frozenset(  # the white-backed cards; Crafts are in neither deck
    {
        CardType.LRIG,
        CardType.ASSIST_LRIG,
        CardType.ARTS,
        CardType.PIECE,
        CardType.PIECE_RELAY,
        CardType.RESONA,
        CardType.KEY,
    }
)
_PIECE_TYPES = frozenset({CardType.PIECE, CardType.PIECE_RELAY, CardType.PIECE_CRAFT})


@dataclass(frozen=True, slots=True)
class CostItem:
    """``n`` ener of one colour (``red``), of either of several (``red/green``), of any (``colorless``), or
    ``coin``."""

    color: str
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {"color": self.color, "n": self.n}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> CostItem:
        return cls(color=str(d["color"]), n=int(d["n"]))


def _costs(items: Iterable[Mapping[str, Any]] | None) -> tuple[CostItem, ...]:
    return tuple(CostItem.from_dict(i) for i in items or ())


def _opt_int(v: Any) -> int | None:
    return None if v is None else int(v)


@dataclass(frozen=True, slots=True)
class Card:
    """The printed facts of one card."""

    id: str
    name: str  # English where known, else Japanese
    name_ja: str  # the printed Japanese name, shared by reprints: deck rules count copies by it
    type: CardType
    colors: tuple[str, ...]  # from COLORS, or ("colorless",)
    level: int | None
    limit: int | None
    power: int | None
    grow_cost: tuple[CostItem, ...]
    cost: tuple[CostItem, ...]
    lrig_types: tuple[str, ...]  # upper-case English (TAMA, AT, ...), one vocabulary with `limiting`
    limiting: tuple[str, ...]  # the LRIG types one of which the center LRIG must have
    classes: tuple[str, ...]
    team: str | None
    guard: bool
    life_burst: bool
    multi_ener: bool
    timings: tuple[str, ...]  # from TIMINGS
    keywords: tuple[str, ...]  # printed, unconditional keyword abilities, from KEYWORDS
    has_abilities: bool = True  # the card has abilities (text or a Life Burst) the rules must apply
    aliases: tuple[str, ...] = ()  # other print numbers of the same card (the English prints of WXDi-D02)
    # every number the card was printed under (first printing first, then its reprints, by id) when it was
    # printed more than once; empty when it has one number
    reprints: tuple[str, ...] = ()
    dissona: bool = False  # printed with the Dissona icon
    coin: int = 0  # coins printed on an LRIG: gained as it is turned face up or grown into
    # off the field, what an effect of its owner may treat the card as ("you may treat it as a level one
    # SIGNI"): it fits a filter when it fits as printed or as this (``domain.abilities.filters.card_fits``)
    also: Card | None = None

    @property
    def is_lrig(self) -> bool:
        """An LRIG or an assist LRIG."""
        return self.type in _LRIG_TYPES

    @property
    def is_signi(self) -> bool:
        """A card that stands in a SIGNI zone: a SIGNI, a Resona, or a Craft of either."""
        return self.type in _SIGNI_TYPES

    @property
    def is_main_deck_card(self) -> bool:
        """A SIGNI or a spell: the cards of the main deck."""
        return self.type in _MAIN_DECK_TYPES

    @property
    def is_lrig_deck_card(self) -> bool:
        """A card of the LRIG deck: LRIG, assist LRIG, PIECE (relay included), ARTS, Resona, Key."""
        return self.type in _LRIG_DECK_TYPES

    @property
    def is_piece(self) -> bool:
        return self.type in _PIECE_TYPES

    @property
    def is_token(self) -> bool:
        return self.type == CardType.TOKEN

    @property
    def print_ids(self) -> tuple[str, ...]:
        """Every number the card is known by: its reprint group (first printing first), else its own id;
        then the other print numbers (``aliases``)."""
        return (*(self.reprints or (self.id,)), *self.aliases)

    @property
    def is_colorless(self) -> bool:
        """No colour at all, or only colorless."""
        return not any(c in COLORS for c in self.colors)

    @property
    def name_key(self) -> str:
        """The printed name as deck rules compare it: NFKC-normalised, spaces ignored (sources spell one
        name with full-width or half-width letters and signs, and with or without spaces)."""
        return "".join(unicodedata.normalize("NFKC", self.name_ja or self.name).split())

    @property
    def real_colors(self) -> tuple[str, ...]:
        """The card's colours other than colorless."""
        return tuple(c for c in self.colors if c in COLORS)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "name_ja": self.name_ja,
            "type": self.type.value,
            "colors": list(self.colors),
            "level": self.level,
            "limit": self.limit,
            "power": self.power,
            "grow_cost": [c.to_dict() for c in self.grow_cost],
            "cost": [c.to_dict() for c in self.cost],
            "lrig_types": list(self.lrig_types),
            "limiting": list(self.limiting),
            "classes": list(self.classes),
            "team": self.team,
            "guard": self.guard,
            "life_burst": self.life_burst,
            "multi_ener": self.multi_ener,
            "timings": list(self.timings),
            "keywords": list(self.keywords),
            "has_abilities": self.has_abilities,
            "aliases": list(self.aliases),
            "reprints": list(self.reprints),
            "dissona": self.dissona,
            "coin": self.coin,
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Card:
        return cls(
            id=str(d["id"]),
            name=str(d["name"]),
            name_ja=str(d["name_ja"] if d.get("name_ja") is not None else d["name"]),
            type=CardType(d["type"]),
            colors=tuple(d.get("colors") or ()),
            level=_opt_int(d.get("level")),
            limit=_opt_int(d.get("limit")),
            power=_opt_int(d.get("power")),
            grow_cost=_costs(d.get("grow_cost")),
            cost=_costs(d.get("cost")),
            lrig_types=tuple(d.get("lrig_types") or ()),
            limiting=tuple(d.get("limiting") or ()),
            classes=tuple(d.get("classes") or ()),
            team=d.get("team"),
            guard=bool(d.get("guard", False)),
            life_burst=bool(d.get("life_burst", False)),
            multi_ener=bool(d.get("multi_ener", False)),
            timings=tuple(d.get("timings") or ()),
            keywords=tuple(d.get("keywords") or ()),
            has_abilities=bool(d.get("has_abilities", True)),
            aliases=tuple(d.get("aliases") or ()),
            reprints=tuple(d.get("reprints") or ()),
            dissona=bool(d.get("dissona", False)),
            coin=int(d.get("coin") or 0),
        )


class UnknownCard(LookupError):
    """A card id that is not in the catalogue."""

    def __init__(self, card_id: str) -> None:
        self.card_id = card_id
        super().__init__(f"unknown card id {card_id!r}: not in the catalogue")

    def __str__(self) -> str:
        return str(self.args[0])


def _type_key(value: str) -> str:
    return value.strip().lower().replace(" ", "_").replace("-", "_")


class Catalogue:
    """The cards known to the service, by id.

    A card printed under several numbers (reprints) is one card: its entry is the first printing, and every
    other number of its ``reprints`` answers with that entry (``get``). A reprint that is an entry of its own
    (the starter decks' reprints, kept as the cards their decks list) stays itself. With only some entries
    loaded (the starter catalogue), a number whose first printing is not loaded answers with the group's
    first loaded entry.
    """

    def __init__(self, cards: Iterable[Card]) -> None:
        by_id: dict[str, Card] = {}
        for card in cards:
            by_id[card.id] = card
        self._cards = {k: by_id[k] for k in sorted(by_id)}
        aliases: dict[str, str] = {}
        for c in self._cards.values():
            first = c.reprints[0] if c.reprints and c.reprints[0] in self._cards else c.id
            for a in c.reprints:
                if a not in self._cards:
                    aliases.setdefault(a, first)
            for a in c.aliases:
                if a not in self._cards:
                    aliases.setdefault(a, c.id)
        self._aliases = aliases

    def get(self, card_id: str) -> Card:
        """The card with this id, or with this other print number (a reprint or an alias)."""
        try:
            return self._cards[card_id]
        except KeyError:
            pass
        try:
            return self._cards[self._aliases[card_id]]
        except (KeyError, TypeError):
            raise UnknownCard(card_id) from None

    def canonical(self, card_id: str) -> str:
        """The id of the entry a number answers with (itself for an entry)."""
        return self.get(card_id).id

    def ids(self) -> Iterator[str]:
        """Every number that answers: the entries' ids, then the other print numbers."""
        yield from self._cards
        yield from self._aliases

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._cards or card_id in self._aliases

    def __iter__(self) -> Iterator[Card]:
        return iter(self._cards.values())

    def __len__(self) -> int:
        return len(self._cards)

    def search(self, q: str | None = None, type: str | None = None, color: str | None = None) -> list[Card]:
        """Cards matching every filter given, by id: ``q`` is a case-insensitive substring of the id, of
        another number the card is printed under (``Card.print_ids``), of the name or the Japanese name;
        ``type`` a card type (``signi``, ``assist_lrig``; ``Assist LRIG`` works too); ``color`` one of the
        card's colours (``colorless`` finds colorless cards). An unknown type or colour matches nothing."""
        needle = q.strip().casefold() if q and q.strip() else None
        want_type = _type_key(type) if type else None
        want_color = color.strip().lower() if color else None
        out = []
        for card in self._cards.values():
            if want_type is not None and card.type.value != want_type:
                continue
            if want_color is not None:
                if want_color == COLORLESS:
                    if not card.is_colorless:
                        continue
                elif want_color not in card.colors:
                    continue
            if needle is not None and not any(
                needle in s.casefold() for s in (card.id, *card.print_ids, card.name, card.name_ja)
            ):
                continue
            out.append(card)
        return out


def _read_data(name: str) -> bytes:
    return resources.files("domain").joinpath("data").joinpath(name).read_bytes()


def _parse(raw: bytes) -> list[Card]:
    data = json.loads(raw.decode("utf-8"))
    if not isinstance(data, list):
        raise ValueError("a card data file must hold a JSON list")
    return [Card.from_dict(d) for d in data]


@cache
def load_catalogue(extended: bool = False) -> Catalogue:
    """The starter cards (the ten Diva starter decks); with ``extended``, every known card as well (the
    starter file wins where both hold an id)."""
    starter = _parse(_read_data("cards.json"))
    if not extended:
        return Catalogue(starter)
    more = _parse(gzip.decompress(_read_data("cards_extended.json.gz")))
    starter_ids = {c.id for c in starter}
    return Catalogue([c for c in more if c.id not in starter_ids] + starter)
