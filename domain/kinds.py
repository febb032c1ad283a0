"""The game's fixed vocabularies as ``StrEnum``s: zones, phases, attack steps, decision kinds.

Each member *is* its string (``Zone.HAND == "hand"``), so states, events and stored logs keep the plain JSON
strings they always held: the canonical JSON of a state and the digests of events do not change. Code names a
member instead of spelling the string, so that a typo is an ``AttributeError`` and ``mypy`` knows the values.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class Zone(StrEnum):
    """A pile of cards a player owns (index 0 of the deck and the Life Cloth is the top)."""

    HAND = "hand"
    DECK = "deck"
    LIFE_CLOTH = "life_cloth"
    ENER = "ener"
    TRASH = "trash"
    LRIG_DECK = "lrig_deck"
    LRIG_TRASH = "lrig_trash"
    CHECK = "check"
    EXCLUDED = "excluded"


class FieldZone(StrEnum):
    """A SIGNI zone, or an LRIG's position (the same three words)."""

    LEFT = "left"
    CENTER = "center"
    RIGHT = "right"


class Phase(StrEnum):
    SETUP = "setup"
    UP = "up"
    DRAW = "draw"
    ENER = "ener"
    GROW = "grow"
    MAIN = "main"
    ATTACK = "attack"
    END = "end"


class Step(StrEnum):
    """A step of the attack phase."""

    PRE_ATTACK = "pre_attack"
    DEFENSE = "defense"
    SIGNI_ATTACK = "signi_attack"
    LRIG_ATTACK = "lrig_attack"
    GUARD = "guard"


class DecisionKind(StrEnum):
    """What a pending decision (the ``kind`` of an ``Asked`` event) asks a player."""

    MULLIGAN = "mulligan"
    ENER = "ener"
    GROW = "grow"
    MAIN = "main"
    PRE_ATTACK = "pre_attack"
    ARTS_USE = "arts_use"
    DEFENSE = "defense"
    SIGNI_ATTACK = "signi_attack"
    LRIG_ATTACK = "lrig_attack"
    GUARD = "guard"
    LIFE_BURST = "life_burst"
    DISCARD = "discard"
    CHOOSE = "choose"
    TRIGGER_ORDER = "trigger_order"
    SPELL_CUT_IN = "spell_cut_in"
    EFFECT_SPELL = "effect_spell"


DECISION_NAMES: dict[str, str] = {
    DecisionKind.MULLIGAN: "whether to mulligan",
    DecisionKind.ENER: "the ener phase",
    DecisionKind.GROW: "the grow phase",
    DecisionKind.MAIN: "the main phase",
    DecisionKind.PRE_ATTACK: "the pre-attack step",
    DecisionKind.ARTS_USE: "the ARTS use step",
    DecisionKind.DEFENSE: "the defense step",
    DecisionKind.SIGNI_ATTACK: "the SIGNI attack step",
    DecisionKind.LRIG_ATTACK: "the LRIG attack step",
    DecisionKind.GUARD: "whether to guard",
    DecisionKind.LIFE_BURST: "whether to activate a Life Burst",
    DecisionKind.DISCARD: "which cards to discard",
    DecisionKind.TRIGGER_ORDER: "the order of triggered abilities",
    DecisionKind.SPELL_CUT_IN: "whether to cut in on the spell being used, or pass",
    DecisionKind.EFFECT_SPELL: "whether to use the spell an effect lets them use now, or pass",
}


def describe_pending(pending: dict[str, Any]) -> str:
    """The pending decision in words: whose it is and what it asks."""
    kind = pending["kind"]
    if kind == DecisionKind.CHOOSE:
        name = pending.get("prompt", "a choice")
    else:
        name = DECISION_NAMES.get(kind, kind.replace("_", " "))
    return f"{pending['player']}: {name}"


__all__ = ["DecisionKind", "FieldZone", "Phase", "Step", "Zone", "describe_pending"]
