"""The formats a match is played in, and what each decides: the engine asks the match's format.

Two formats: ``DIVA`` (Diva Selection: seeds 000, 001 and 004; three LRIGs) and ``ORIGINAL`` (the earlier
single-LRIG game of seed 002). The Diva format is the engine's own behaviour; the original format says where
it differs: one LRIG at set-up and no assists, a grow to an equal or lower level as well, an attack phase of
four steps opening with the ARTS use step, and the deck construction of its era. Where both formats play
alike but the original format has its own text (seed 002), the original format cites its own rule instead of
the Diva rule: ``Format.cite`` maps one rule id to the other, for events and refusals alike.

This module imports nothing of the engine at load time (the engine imports it): what a format does lives in
the modules it names (``domain.procedure`` for Diva, ``domain.original`` for the original format).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

from domain.errors import IllegalAction

if TYPE_CHECKING:
    from domain.cards import Card, Catalogue
    from domain.decks import Deck, Problem
    from domain.engine import Recorder
    from domain.state import GameState

__all__ = ["DIVA", "FORMATS", "FORMAT_NAMES", "ORIGINAL", "Format", "format_named", "format_of"]


class Format:
    """A format: the Diva Selection behaviour, which another format overrides where its rules differ."""

    name = "diva"
    title = "Diva Selection"
    lrig_positions: tuple[str, ...] = ("center", "left", "right")
    attack_steps: tuple[str, ...] = ("pre_attack", "defense", "signi_attack", "lrig_attack", "guard")
    first_turn_draw = 1  # 001 "Draw Phase": the first player's first turn
    phase_draw = 2
    hand_limit = 6  # 001 "End Phase"
    # the rule this format cites where the engine would cite a Diva rule: none for Diva itself
    citations: Mapping[str, str] = MappingProxyType({})

    def cite(self, rule: str) -> str:
        """The rule id this format cites for what the engine calls ``rule``."""
        return self.citations.get(rule, rule)

    def cite_all(self, error: IllegalAction) -> IllegalAction:
        """The same refusal, citing this format's rules (itself when nothing changes)."""
        refs = tuple(self.cite(r) for r in error.rule_refs)
        if refs == error.rule_refs:
            return error
        return type(error)(refs, error.message)

    def grow_level_refusal(self, old: Card, new: Card) -> str | None:
        """Why ``new`` cannot be grown onto ``old`` by level (a sentence), or None. 001 "Grow Phase": a
        center LRIG grows exactly one level up."""
        if (new.level or 0) != (old.level or 0) + 1:
            return (
                f"{new.name} is level {new.level}: {old.name} (level {old.level}) grows exactly one level up"
            )
        return None

    def default_lrigs(self, deck: Deck) -> dict[str, str]:
        from domain.setup import default_lrigs

        return default_lrigs(deck)

    def validate_deck(self, deck: Deck, catalogue: Catalogue) -> list[Problem]:
        from domain.decks import validate_diva_deck

        return validate_diva_deck(deck, catalogue)

    def attack_step(self, rec: Recorder, tp: str) -> None:
        """The next piece of the attack phase."""
        from domain.procedure import attack_step

        attack_step(rec, tp)

    def preset_ids(self) -> tuple[str, ...]:
        from domain.decks import PRESET_IDS

        return PRESET_IDS


class _Original(Format):
    """The earlier single-LRIG game (seed 002); what it does lives in ``domain.original``."""

    name = "original"
    title = "the original single-LRIG format"
    lrig_positions = ("center",)
    attack_steps = ("arts_use", "signi_attack", "lrig_attack", "guard")
    citations = MappingProxyType(
        {
            "setup.lrigs": "orig.setup.face-down",
            "setup.mulligan": "orig.setup.mulligan",
            "setup.reveal": "orig.setup.reveal",
            "draw.first-turn": "orig.draw.first-turn",
            "grow.level": "orig.grow.level",
            "grow.phase": "orig.grow.phase",
            "main.remove": "orig.main.remove",
            "remove.once": "orig.main.remove",
            "remove.resona": "orig.main.remove-resona",
            "attack.first-turn": "orig.attack.first-turn",
            "attack.phase": "orig.attack.phase",
            "attack.signi": "orig.attack.signi",
            "attack.lrig": "orig.attack.lrig",
            "guard.step": "orig.attack.guard",
            "end.hand-size": "orig.end.hand-size",
        }
    )

    def grow_level_refusal(self, old: Card, new: Card) -> str | None:
        from domain.original import grow_level_refusal

        return grow_level_refusal(old, new)

    def default_lrigs(self, deck: Deck) -> dict[str, str]:
        from domain.original import default_lrig

        return default_lrig(deck)

    def validate_deck(self, deck: Deck, catalogue: Catalogue) -> list[Problem]:
        from domain.original import validate_original_deck

        return validate_original_deck(deck, catalogue)

    def attack_step(self, rec: Recorder, tp: str) -> None:
        from domain.original import attack_step

        attack_step(rec, tp)

    def preset_ids(self) -> tuple[str, ...]:
        from domain.original import DEMO_DECK_IDS

        return DEMO_DECK_IDS


DIVA = Format()
ORIGINAL = _Original()
FORMATS: Mapping[str, Format] = MappingProxyType({f.name: f for f in (DIVA, ORIGINAL)})
FORMAT_NAMES: tuple[str, ...] = tuple(FORMATS)


def format_named(name: str) -> Format:
    """The format called ``name``; ``IllegalAction`` (``format.unsupported``) for any other name."""
    found = FORMATS.get(name) if isinstance(name, str) else None
    if found is None:
        raise IllegalAction(
            "format.unsupported", f"format {name!r} is not supported; supported: {', '.join(FORMAT_NAMES)}"
        )
    return found


def format_of(state: GameState) -> Format:
    """The format of the match ``state`` belongs to (Diva for a state that names none it knows)."""
    return FORMATS.get(state.format, DIVA)
