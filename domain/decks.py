"""Decks: the preset starter decks, the project's own sample decks, and the deck-construction rules (Diva
Selection).

A deck is two lists of catalogue ids: the LRIG deck and the main deck (a card listed four times is four
copies). ``validate_deck`` reports every construction problem at once, each with its rule id, so a client can
show them all; it never raises for a bad deck.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from domain.cards import COLORS, Card, CardType, Catalogue, load_catalogue
from domain.formats import DIVA, FORMAT_NAMES, FORMATS, Format, format_named

PRESET_IDS: tuple[str, ...] = DIVA.preset_ids
# the project's own sample decks (domain/data/decks_sample.json), built from the WXDi-P00 ... P08 booster
# cards the service enforces: presets a match may name, listed after the starter decks; not tournament lists
SAMPLE_IDS: tuple[str, ...] = DIVA.sample_ids
# the deck pools a simulation plays: the starter decks (``preset_ids``) or the sample decks (``sample_ids``)
DECK_POOLS: tuple[str, ...] = ("starter", "sample")
SUPPORTED_FORMATS: tuple[str, ...] = FORMAT_NAMES

MAIN_DECK_SIZE = 40
MAX_COPIES = 4
MAX_LIFE_BURST = 20
MAX_LRIG_DECK_NON_PIECE = 10
MAX_PIECES = 2
LEVEL0_LRIGS = 3


@dataclass(frozen=True, slots=True)
class Deck:
    lrig_deck: tuple[str, ...]
    main_deck: tuple[str, ...]
    name: str | None = None

    def __post_init__(self) -> None:
        # accept lists (from JSON) but keep the value immutable
        object.__setattr__(self, "lrig_deck", tuple(self.lrig_deck))
        object.__setattr__(self, "main_deck", tuple(self.main_deck))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "lrig_deck": list(self.lrig_deck), "main_deck": list(self.main_deck)}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Deck:
        return cls(
            lrig_deck=tuple(str(i) for i in d.get("lrig_deck") or ()),
            main_deck=tuple(str(i) for i in d.get("main_deck") or ()),
            name=d.get("name"),
        )


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a deck: the rule it breaks, a sentence saying what, and the cards concerned."""

    rule: str
    message: str
    cards: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "message": self.message, "cards": list(self.cards)}


class UnknownDeck(KeyError):
    """A preset deck id that does not exist."""

    def __init__(self, deck_id: str) -> None:
        self.deck_id = deck_id
        super().__init__(f"unknown deck {deck_id!r}: the preset decks are {', '.join(all_preset_ids())}")

    def __str__(self) -> str:
        return str(self.args[0])


def _data_file(name: str) -> dict[str, Any]:
    raw = resources.files("domain").joinpath("data").joinpath(name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(raw)
    return data


@cache
def _load_presets(fmt: Format) -> tuple[tuple[str, Deck], ...]:
    """The preset decks of ``fmt``, in the order of its ``preset_ids``, from its file in ``domain/data``."""
    data = _data_file(fmt.preset_file)
    return tuple((deck_id, Deck.from_dict(data[deck_id])) for deck_id in fmt.preset_ids)


@cache
def _load_samples(fmt: Format) -> tuple[tuple[str, Deck, str], ...]:
    """The sample decks of ``fmt`` with their notes, in the order of its ``sample_ids``."""
    if fmt.sample_file is None:
        return ()
    data = _data_file(fmt.sample_file)
    return tuple((i, Deck.from_dict(data[i]), str(data[i]["note"])) for i in fmt.sample_ids)


def presets(format: str = "diva") -> dict[str, Deck]:
    """The preset decks of a format, by id: the ten Diva starter decks, in the order of ``PRESET_IDS``, or
    the original format's demo decks (``domain.formats.ORIGINAL.preset_ids``)."""
    return dict(_load_presets(format_named(format)))


def samples(format: str = "diva") -> dict[str, Deck]:
    """The project's own sample decks of a format, by id, in the order of its ``sample_ids`` (none for the
    original format): labelled "(sample)", each with a note (``sample_note``) saying what it is."""
    return {deck_id: deck for deck_id, deck, _note in _load_samples(format_named(format))}


def sample_note(deck_id: str) -> str | None:
    """What a sample deck is, in words (its ``note``); None for a deck that is not a sample deck."""
    for fmt in FORMATS.values():
        for known, _deck, note in _load_samples(fmt):
            if known == deck_id:
                return note
    return None


def pool_ids(format: str = "diva", pool: str = "starter") -> tuple[str, ...]:
    """The deck ids of a pool (``DECK_POOLS``): the format's preset (starter or demo) decks, or its sample
    decks."""
    fmt = format_named(format)
    if pool == "starter":
        return fmt.preset_ids
    if pool == "sample" and fmt.sample_ids:
        return fmt.sample_ids
    raise ValueError(
        f"the {fmt.name} format has no {pool!r} decks; its pools are: "
        + ", ".join(p for p in DECK_POOLS if p == "starter" or fmt.sample_ids)
    )


def all_preset_ids() -> tuple[str, ...]:
    """Every preset deck id, of every format: the starter (or demo) decks, then the sample decks."""
    return tuple(deck_id for fmt in FORMATS.values() for deck_id in (*fmt.preset_ids, *fmt.sample_ids))


def preset(deck_id: str) -> Deck:
    """A preset deck by id: a starter (or demo) deck, or a sample deck."""
    for fmt in FORMATS.values():
        for known, deck in _load_presets(fmt):
            if known == deck_id:
                return deck
        for known, deck, _note in _load_samples(fmt):
            if known == deck_id:
                return deck
    raise UnknownDeck(deck_id)


# ------------------------------------------------------------------------------------------ validation


def validate_diva_deck(deck: Deck, catalogue: Catalogue) -> list[Problem]:
    """Every problem of ``deck`` under the Diva Selection deck-construction rules."""
    return validate_deck(deck, catalogue, "diva")


_TYPE_WORDS = {
    CardType.LRIG: "an LRIG",
    CardType.ASSIST_LRIG: "an assist LRIG",
    CardType.SIGNI: "a SIGNI",
    CardType.SPELL: "a spell",
    CardType.ARTS: "an ARTS",
    CardType.PIECE: "a PIECE",
    CardType.PIECE_RELAY: "a relay PIECE",
    CardType.RESONA: "a Resona",
    CardType.KEY: "a Key",
    CardType.TOKEN: "a token",
}


def _label(card: Card) -> str:
    return f"{card.name} ({card.id})"


def _kind(card: Card) -> str:
    return kind_words(card)


def kind_words(card: Card) -> str:
    """What a card is, in words with its article: "an assist LRIG", "a SIGNI", "a Resona craft card"."""
    return _TYPE_WORDS.get(card.type, f"a {card.type.value.replace('_', ' ')} card")


def _words(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _distinct(cards: Iterable[Card]) -> list[Card]:
    seen: dict[str, Card] = {}
    for c in cards:
        seen.setdefault(c.id, c)
    return list(seen.values())


def _ids(cards: Iterable[Card]) -> tuple[str, ...]:
    return tuple(sorted({c.id for c in cards}))


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def validate_deck(
    deck: Deck,
    catalogue: Catalogue | None = None,
    format: str = "diva",
    options: Mapping[str, Any] | None = None,
) -> list[Problem]:
    """Every problem of ``deck`` under the deck-construction rules of ``format`` (``domain.formats``), with
    the format's ``options`` (a match's, docs/FORMATS.md; the defaults where absent; a bad one is a problem).

    The catalogue defaults to every known card (``load_catalogue(extended=True)``): a real card outside the
    starter decks is a legal deck card. Cards counted by name are counted by their printed Japanese name
    (``Card.name_key``), which reprints share: a reprint's number counts as the same card.
    """
    if format not in SUPPORTED_FORMATS:
        return [
            Problem(
                "format.unsupported",
                f"The format {format!r} is not supported; the supported formats are: "
                f"{', '.join(SUPPORTED_FORMATS)}.",
            )
        ]
    fmt = format_named(format)
    bad = fmt.option_problems({} if options is None else options)
    if bad:
        text = "; ".join(f"{name} {why}" for name, why in bad.items())
        return [Problem("format.options", f"The {format} format's options: {text}.")]
    cat = catalogue if catalogue is not None else load_catalogue(extended=True)
    return fmt.validate_deck(deck, cat, options)


@DIVA.registers("validate_deck")
def _validate_diva(deck: Deck, cat: Catalogue, options: Mapping[str, Any] | None = None) -> list[Problem]:
    """Every problem of ``deck`` under the Diva Selection deck-construction rules (000 glossary); Diva
    Selection has no options."""
    problems: list[Problem] = []

    # 000 glossary "Deck": a deck is made of catalogue cards; an id nobody knows is reported, not raised.
    for card_id in sorted({i for i in (*deck.lrig_deck, *deck.main_deck) if i not in cat}):
        problems.append(
            Problem("deck.unknown-card", f"The card id {card_id!r} is not in the catalogue.", (card_id,))
        )
    main = [cat.get(i) for i in deck.main_deck if i in cat]
    lrig = [cat.get(i) for i in deck.lrig_deck if i in cat]
    # the numbers the deck lists for each card: a reprint's number is the same card (Catalogue.get), and a
    # problem names the cards by the numbers the deck used
    listed: dict[str, set[str]] = {}
    for i in (*deck.lrig_deck, *deck.main_deck):
        if i in cat:
            listed.setdefault(cat.get(i).id, set()).add(i)

    def numbers(cards: Iterable[Card]) -> tuple[str, ...]:
        return tuple(sorted({n for c in cards for n in listed[c.id]}))

    # 000 glossary "Main deck" (SIGNI and spells, black backs) and "LRIG Deck" (white backs).
    for card in _distinct(main):
        if not card.is_main_deck_card:
            where = "the LRIG deck" if card.is_lrig_deck_card else "neither deck"
            problems.append(
                Problem(
                    "deck.zone",
                    f"{_label(card)} is {_kind(card)} and cannot be in the main deck: it belongs in {where}.",
                    (card.id,),
                )
            )
    for card in _distinct(lrig):
        if not card.is_lrig_deck_card:
            where = "the main deck" if card.is_main_deck_card else "neither deck"
            problems.append(
                Problem(
                    "deck.zone",
                    f"{_label(card)} is {_kind(card)} and cannot be in the LRIG deck: it belongs in {where}.",
                    (card.id,),
                )
            )

    # 000 glossary "Main deck": exactly 40 cards.
    if len(deck.main_deck) != MAIN_DECK_SIZE:
        problems.append(
            Problem(
                "deck.main-size",
                f"The main deck has {_plural(len(deck.main_deck), 'card')}; it must have exactly "
                f"{MAIN_DECK_SIZE}.",
            )
        )

    # 000 glossary "Deck" / "Main deck": up to four cards of the same name.
    by_name: dict[str, list[Card]] = {}
    for card in main:
        by_name.setdefault(card.name_key, []).append(card)
    for cards in by_name.values():
        if len(cards) > MAX_COPIES:
            problems.append(
                Problem(
                    "deck.copies",
                    f"The main deck has {len(cards)} cards named {cards[0].name!r}; at most {MAX_COPIES} "
                    "cards of one name are allowed.",
                    numbers(cards),
                )
            )

    # 000 glossary "Main deck" / "Life Burst": up to 20 cards with Life Burst (WXR-051: 20 or fewer).
    bursts = [c for c in main if c.life_burst]
    if len(bursts) > MAX_LIFE_BURST:
        problems.append(
            Problem(
                "deck.life-burst",
                f"The main deck has {len(bursts)} cards with a Life Burst; at most {MAX_LIFE_BURST} are "
                "allowed.",
                _ids(bursts),
            )
        )

    # 000 glossary "LRIG Deck": up to ten non-PIECE cards (and up to two PIECEs, below).
    non_pieces = [c for c in lrig if not c.is_piece]
    if len(non_pieces) > MAX_LRIG_DECK_NON_PIECE:
        problems.append(
            Problem(
                "deck.lrig-size",
                f"The LRIG deck has {len(non_pieces)} cards that are not PIECEs; at most "
                f"{MAX_LRIG_DECK_NON_PIECE} are allowed.",
                _ids(non_pieces),
            )
        )

    # 000 glossary "LRIG Deck" / "Deck": no two cards of the same name in the LRIG deck.
    lrig_names: dict[str, list[Card]] = {}
    for card in lrig:
        lrig_names.setdefault(card.name_key, []).append(card)
    for cards in lrig_names.values():
        if len(cards) > 1:
            problems.append(
                Problem(
                    "deck.lrig-names",
                    f"The LRIG deck has {len(cards)} cards named {cards[0].name!r}; it may not hold two "
                    "cards of one name.",
                    numbers(cards),
                )
            )

    # 000 glossary "LRIG Zone" and WXR-050: Diva Selection starts with exactly three level 0 LRIGs.
    level0 = [c for c in lrig if c.type is CardType.LRIG and c.level == 0]
    if len(level0) != LEVEL0_LRIGS:
        problems.append(
            Problem(
                "deck.lrig-level0",
                f"The LRIG deck has {_plural(len(level0), 'level 0 LRIG')}; Diva Selection needs exactly "
                f"{LEVEL0_LRIGS}.",
                _ids(level0),
            )
        )

    # 000 glossary "PIECE": up to two PIECEs, and only with three (or more) level 0 LRIGs in the LRIG deck.
    pieces = [c for c in lrig if c.is_piece]
    if len(pieces) > MAX_PIECES:
        problems.append(
            Problem(
                "deck.piece",
                f"The LRIG deck has {len(pieces)} PIECEs; at most {MAX_PIECES} are allowed.",
                _ids(pieces),
            )
        )
    if pieces and len(level0) < LEVEL0_LRIGS:
        problems.append(
            Problem(
                "deck.piece",
                f"The LRIG deck has {_plural(len(pieces), 'PIECE')} but only "
                f"{_plural(len(level0), 'level 0 LRIG')}; PIECEs are allowed only with three level 0 LRIGs.",
                _ids(pieces),
            )
        )

    # RULES-NOTES "Diva Selection deck building" and WXR-048: colours other than colorless must be among the
    # colours of the level 0 LRIGs (checked when there is at least one; their number is reported above).
    if level0:
        allowed = {c for card in level0 for c in card.real_colors}
        allowed_words = _words([c for c in COLORS if c in allowed])
        for card in _distinct(lrig + main):
            bad = [c for c in card.real_colors if c not in allowed]
            if bad:
                problems.append(
                    Problem(
                        "deck.colors",
                        f"{_label(card)} is {_words(list(card.real_colors))}, but {_words(bad)} is not among "
                        f"the colours of the level 0 LRIGs ({allowed_words}).",
                        (card.id,),
                    )
                )
    return problems
