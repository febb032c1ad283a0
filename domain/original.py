"""The original single-LRIG format (seed 002): what it does where it differs from Diva Selection.

The format's data (one LRIG, its attack steps, its grow rule, its cited rules, its demo decks' ids) is
``domain.formats.ORIGINAL``; this module registers onto it, when imported, what the format does differently:
the one level 0 LRIG a player starts with, the deck construction of the era, and the attack phase's ARTS use
step (the turn player, then the other player, use [Attack Phase] ARTS and abilities; the answers to it are
``domain.answers``'s). The SIGNI attack, LRIG attack and guard steps are played as in Diva Selection (the
Diva format's ``attack_step``). ``domain.engine`` and ``domain.setup`` import this module, so the hooks are
there before an original match is set up or played. It imports no engine module itself.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from importlib import resources
from typing import TYPE_CHECKING, Any

from domain.cards import Card, CardType, Catalogue, load_catalogue
from domain.decks import Deck, Problem, kind_words, presets, validate_diva_deck
from domain.errors import IllegalAction
from domain.formats import DIVA, ORIGINAL
from domain.state import opponent

if TYPE_CHECKING:
    from domain.recorder import Recorder

# -- the era's cards --------------------------------------------------------------------------------

# The sets of the single-LRIG game's era (2014-2019): the WD01-WD23 starter decks, the WX01-WX22 boosters,
# the WXEX1-2 extra boosters, the SP01-SP37 special packs, and the promotional cards numbered PR-<n>. A card
# is of the era when one of the numbers it was printed under belongs to one of these (a later reprint of an
# era card is the same card). Diva Selection (WXDi, SPDi, PR-Di), Key Selection (WXK, WDK, SPK, PR-K, SP38)
# and the 2024 sets (WX24 ...) are not.
ERA_PRINT = re.compile(
    r"^(?:WD(?:0[1-9]|1\d|2[0-3])|WX(?:0[1-9]|1\d|2[0-2])|WXEX[12]|SP(?:0[1-9]|[12]\d|3[0-7]))-|^PR-\d+[A-Z]?$"
)
# card types the era's decks could hold (002: one LRIG, no assists; PIECEs need three LRIGs, 000 "PIECE")
ERA_TYPES = frozenset({CardType.LRIG, CardType.ARTS, CardType.SIGNI, CardType.SPELL, CardType.RESONA})
LIFE_BURSTS = 20  # exactly (WXR-051: Diva Selection made it "20 or fewer")
MAX_LRIG_DECK = 10  # 000 "LRIG Deck": ten cards that are not PIECEs; PIECEs need three level 0 LRIGs
# the deck rules that read the same in both formats (000 "Deck", "Main deck", "LRIG Deck"): kept as they are
SHARED_DECK_RULES = frozenset(
    {"deck.unknown-card", "deck.zone", "deck.main-size", "deck.copies", "deck.lrig-names"}
)


def of_era(card: Card) -> bool:
    """Whether the card was printed in a set of the original format's era."""
    return any(ERA_PRINT.match(n) for n in (card.id, *card.print_ids))


def _label(card: Card) -> str:
    return f"{card.name} ({card.id})"


def _era_problems(cards: Iterable[Card], era_only: bool = True) -> list[Problem]:
    out: list[Problem] = []
    for card in {c.id: c for c in cards}.values():
        if card.type not in ERA_TYPES:
            out.append(
                Problem(
                    "orig.deck.card-type",
                    f"{_label(card)} is {kind_words(card)}: the original format has no "
                    f"{kind_words(card).split(' ', 1)[1]} cards (one LRIG, no assists, no PIECEs).",
                    (card.id,),
                )
            )
        elif era_only and not of_era(card):
            out.append(
                Problem(
                    "orig.deck.era",
                    f"{_label(card)} was printed only in later sets (Diva Selection or after); the original "
                    "format plays the cards of its own era (WD01-WD23, WX01-WX22, WXEX, SP01-SP37, PR; "
                    "option card_pool: era).",
                    (card.id,),
                )
            )
    return out


@ORIGINAL.registers("validate_deck")
def validate_original_deck(
    deck: Deck, cat: Catalogue, options: Mapping[str, Any] | None = None
) -> list[Problem]:
    """Every problem of ``deck`` under the original format's deck construction (docs/FORMATS.md), with the
    match's options (``ORIGINAL.options``: the card pool, the Life Burst count, the LRIG deck's size, its
    level 0 LRIGs; the defaults where absent)."""
    opt = ORIGINAL.settings(options)
    problems = [p for p in validate_diva_deck(deck, cat) if p.rule in SHARED_DECK_RULES]
    main = [cat.get(i) for i in deck.main_deck if i in cat]
    lrig = [cat.get(i) for i in deck.lrig_deck if i in cat]
    problems += _era_problems([*lrig, *main], opt["card_pool"] == "era")
    bursts = [c for c in main if c.life_burst]
    exactly = opt["life_bursts"] == "exactly_20"
    if len(bursts) > LIFE_BURSTS or (exactly and len(bursts) != LIFE_BURSTS):
        problems.append(
            Problem(
                "orig.deck.life-burst",
                f"The main deck has {len(bursts)} cards with a Life Burst; the original format needs "
                f"{'exactly' if exactly else 'at most'} {LIFE_BURSTS} (option life_bursts: "
                f"{opt['life_bursts']}).",
                tuple(sorted({c.id for c in bursts})),
            )
        )
    most = int(opt["lrig_deck_size"])
    if len(deck.lrig_deck) > most:
        problems.append(
            Problem(
                "orig.deck.lrig-size",
                f"The LRIG deck has {len(deck.lrig_deck)} cards; the original format allows at most {most}"
                f"{'' if most == MAX_LRIG_DECK else ' (option lrig_deck_size)'}.",
            )
        )
    zeros = [c for c in lrig if c.type is CardType.LRIG and c.level == 0]
    if not zeros:
        problems.append(
            Problem(
                "orig.deck.lrig-level0",
                "The LRIG deck has no level 0 LRIG; the original format starts with one.",
            )
        )
    elif len(zeros) > 1 and opt["level0_lrigs"] == "exactly_one":
        problems.append(
            Problem(
                "orig.deck.lrig-level0",
                f"The LRIG deck has {len(zeros)} level 0 LRIGs; with the option level0_lrigs: exactly_one it "
                "holds one.",
                tuple(sorted({c.id for c in zeros})),
            )
        )
    return problems


# -- set-up and grow --------------------------------------------------------------------------------


@ORIGINAL.registers("default_lrigs")
def default_lrig(deck: Deck) -> dict[str, str]:
    """The level 0 LRIG a player starts with (002 "To begin the game"): the one whose LRIG type the deck's
    other LRIGs share, else the first in deck order."""
    cat = load_catalogue(extended=True)  # the engine's catalogue (domain.facts.catalogue)
    cards = [cat.get(c) for c in deck.lrig_deck if c in cat]
    zeros = [c for c in cards if c.type is CardType.LRIG and c.level == 0]
    grow_types = {t for c in cards if c.type is CardType.LRIG and (c.level or 0) > 0 for t in c.lrig_types}
    center = next((z for z in zeros if set(z.lrig_types) & grow_types), zeros[0] if zeros else None)
    if center is None:
        raise IllegalAction("orig.deck.lrig-level0", "the LRIG deck has no level 0 LRIG to start with")
    return {"center": center.id}


# -- the attack phase: the ARTS use step ------------------------------------------------------------

ARTS_STEP = "orig.attack.arts-step"


@ORIGINAL.registers("attack_step")
def attack_step(rec: Recorder, tp: str) -> None:
    """002 "Attack Phase": the ARTS use step (the turn player, then the other player), then the SIGNI attack,
    LRIG attack and guard steps as in Diva Selection (the Diva format's own step). The answers to the ARTS use
    step's decision are ``domain.answers``'s (``arts_use``)."""
    s = rec.state
    if s.step is None:
        rec.emit("StepBegan", "rules", ARTS_STEP, {"step": "arts_use"})
    elif s.step != "arts_use":
        DIVA.attack_step(rec, tp)
    elif s.stage == "begin":
        rec.ask(tp, "arts_use", ARTS_STEP)
    elif s.stage == "other":
        rec.ask(opponent(tp), "arts_use", ARTS_STEP)
    else:
        rec.emit("StepBegan", "rules", "attack.signi", {"step": "signi_attack"})


# -- demo decks -------------------------------------------------------------------------------------

DEMO_DECK_IDS: tuple[str, ...] = ORIGINAL.preset_ids  # their lists: domain/data/decks_original.json


def demo_note(deck_id: str) -> str:
    """What a demo deck is, in words (its ``note`` in ``domain/data/decks_original.json``)."""
    raw = resources.files("domain").joinpath("data", ORIGINAL.preset_file).read_text(encoding="utf-8")
    return str(json.loads(raw)[deck_id]["note"])


def demo_decks() -> dict[str, Deck]:
    """The project's own demo decks of the original format, built from the cards of the WD01 ... WD05
    starter sets (the boxed lists are not in the data)."""
    return presets(ORIGINAL.name)
