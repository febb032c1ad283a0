"""The interpreter of effects: steps run in printed order, asking for targets and choices as decisions.

An effect in progress is a *frame*: the card and player it belongs to, the steps still to do (``queue``) and
the current segment (the steps up to the next ``then``, whose targets are all chosen before any of them
resolves); a typed ``domain.abilities.frames.Frame``. When a choice is needed the frame travels in the
``Asked`` event (``resume``, as ``frames.dump`` writes it, versioned), so the effect can go on from exactly
there when the answer comes (``frames.load`` reads it back, upcasting an older shape); the state between two
events is always serialisable. Nothing else happens in the middle of an effect: rule processing and triggered
abilities wait until it has finished.

A frame keeps notes (``notes``; ``vars`` of a version 1 frame) that later steps may look at: the cards the
last move put somewhere (``moved``), cards the player looked at and sees in the next question (``looked``),
and, for an effect that waited for the end of an attack, whether that attack dealt damage
(``attack_damaged``); the ener cards an optional cost was paid with (``paid``), and the zone a vanished SIGNI
was in, noted by its trigger (``was_in``); how many cards the last discard took (``discarded``: a draw may
count it), how many cards the step just before moved (``done``: "if you do"), and the card last revealed
(``revealed``).

Steps (``op``): draw, ener_charge, discard, mill, vanish, down, up, freeze, bounce, trash, to_hand, to_field,
to_deck, power, grant, grant_ability, lose_abilities, look, look_top, reveal_top, shuffle, life_add,
life_to_deck, gather_under, damage, ener_to_trash, search, crush, life_to_trash, negate_attack, return_lrig,
set_base, move_to_attacker_front, swap_with_ener, modes, if, may_pay, unless, delay, then; arrange_top (look
at the top cards, put any on the bottom and the rest back, both in a chosen order), gain_coins, pay_coins,
exceed, declare (a number, noted as ``declared``: a filter value ``"declared"`` names it), look_hand (look at,
or reveal, a hand), ban_spells, forbid_attack_zone, awaken; may (a player, you or the opponent, may do what
follows), exclude (remove from the game), attach_soul (a card from under this LRIG becomes a SIGNI's [Soul]),
prevent_damage (the next damage this turn is not taken), attack_limit (this LRIG attacks fewer times),
to_hand_or_field (the target to the hand or onto the field, as its player chooses), to_life_cloth (the target
to the top of your Life Cloth).

The package holds the interpreter by what it does: ``running`` (the frame goes on, asks, resumes; the step
registry ``OPS``), ``targeting``, ``moving`` (between zones), ``field`` (onto and on the field), ``changing``
(cards on the field), ``looking`` (hidden cards), ``paying`` (costs inside effects), ``control`` (steps that
steer the effect) and ``game``. Every step registers itself in ``OPS`` by its name; the vocabulary
(``domain.abilities.words``) gives each its parameters, text and checks.
"""

from __future__ import annotations

from typing import Any

from domain.abilities.effects import changing, control, facedown, field, game, looking, moving, paying
from domain.abilities.effects.field import legal_zones
from domain.abilities.effects.paying import (
    cost_steps,
    describe_cost,
    ener_payment,
    exceed_cards,
    reads_payment,
    under_lrigs,
)
from domain.abilities.effects.running import OPS, Op, ask_in_step, count, negation_step, resume, run, start
from domain.abilities.vocabulary import step_problems, step_text, targets

__all__ = [
    "OPS",
    "Op",
    "ask_in_step",
    "changing",
    "control",
    "cost_steps",
    "count",
    "describe_cost",
    "ener_payment",
    "exceed_cards",
    "facedown",
    "field",
    "game",
    "legal_zones",
    "looking",
    "moving",
    "negation_step",
    "paying",
    "reads_payment",
    "resume",
    "run",
    "start",
    "step_problems",
    "step_text",
    "under_lrigs",
]


def __getattr__(name: str) -> Any:
    if name == "TARGETED":  # the step names that need a target, as the registry says
        return tuple(n for n in OPS if targets(n))
    raise AttributeError(name)
