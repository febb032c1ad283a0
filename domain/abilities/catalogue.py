"""The encoded abilities of cards, their vocabulary, and their description in the project's own words.

A card's entry is a list of abilities. An ability is an object:

- ``kind``: ``enter`` | ``auto`` | ``constant`` | ``action`` | ``life_burst`` | ``spell`` | ``piece``
- ``team``: true for a Team ability (valid only while the player's three LRIGs are of the card's team)
- ``once``: ``turn`` | ``game`` (1/Turn, 1/Game)
- ``timing``: for ``action``, ``piece`` and ``spell``: the use timings (``main``, ``attack``)
- ``trigger``: for ``auto``: ``{"on": "attack" | "vanished" | "attack_phase_start"}``
- ``condition``: a condition (see ``targets.CONDITIONS``) the ability needs to be used, or, for a constant, to
  apply; ``use_condition`` for a PIECE
- ``cost``: ``{"ener": [{"color", "n"}], "down": true, "discard": n}``; for an ``enter`` ability the cost is
  optional: the player may pay it or not
- ``effect``: a list of steps (see ``effects.OPS``); ``{"op": "then"}`` splits it where targets of what
  follows are chosen only when it is reached

Cards with abilities that are not encoded are still played with their printed facts; their abilities are
resolved by a judge, and every view says so (``enforced: false``).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from domain.facts import catalogue

KINDS = ("enter", "auto", "constant", "action", "life_burst", "spell", "piece")
TRIGGERS = ("attack", "vanished", "attack_phase_start")
COST_KEYS = ("ener", "down", "discard")


@cache
def _data() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    root = resources.files("domain") / "data" / "abilities"
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".json"):
            continue
        for card_id, abilities in json.loads(entry.read_text(encoding="utf-8")).items():
            if card_id in out:
                raise ValueError(f"abilities of {card_id} are encoded twice")
            out[card_id] = abilities
    return out


def abilities_of(card_id: str) -> list[dict[str, Any]]:
    """The encoded abilities of a card (an empty list when it has none, or none are encoded)."""
    return _data().get(card_id, [])


def encoded_cards() -> frozenset[str]:
    return frozenset(_data())


@cache
def is_enforced(card_id: str) -> bool:
    """Whether the service enforces everything the card does: it has no abilities, or all are encoded."""
    card = catalogue().get(card_id)
    return not card.has_abilities or card.id in _data()


# -- description ----------------------------------------------------------------------------------


def describe(card_id: str) -> list[str]:
    """Each encoded ability of a card, described in the project's own words."""
    return [describe_ability(a) for a in abilities_of(card_id)]


def describe_ability(ab: dict[str, Any]) -> str:
    if ab["kind"] == "constant":
        from domain.abilities.targets import target_text

        cond = f" while {_condition_text(ab['condition'])}" if ab.get("condition") else ""
        team = " (team)" if ab.get("team") else ""
        bits = []
        for st in ab.get("effect", []):
            who = (
                "this SIGNI"
                if st["target"].get("self")
                else target_text(st["target"]).replace("1 target ", "every ")
            )
            bits.append(f"{who} gets {int(st.get('amount', 0)):+d} power")
        return f"Always{team}{cond}: " + "; ".join(bits) + "."
    head = {
        "enter": "When it enters the field",
        "auto": _trigger_text(ab.get("trigger", {})),
        "constant": "Always",
        "action": "Action",
        "life_burst": "Life Burst",
        "spell": "Spell",
        "piece": "PIECE",
    }[ab["kind"]]
    parts = [head]
    if ab.get("team"):
        parts.append("(team)")
    if ab.get("once"):
        parts.append(f"(once per {ab['once']})")
    if ab.get("condition"):
        parts.append(f"if {_condition_text(ab['condition'])}")
    if ab.get("cost"):
        parts.append(f"paying {_cost_text(ab['cost'])}" + (" (optional)" if ab["kind"] == "enter" else ""))
    return " ".join(parts) + ": " + "; ".join(_step_text(s) for s in ab.get("effect", [])) + "."


def _trigger_text(trigger: dict[str, Any]) -> str:
    return {
        "attack": "When it attacks",
        "vanished": "When it is vanished",
        "attack_phase_start": "At the start of your attack phase",
    }.get(trigger.get("on", ""), "When triggered")


def _cost_text(cost: dict[str, Any]) -> str:
    out = []
    for item in cost.get("ener", []):
        out.append(f"{item['n']} {item['color']} ener")
    if cost.get("down"):
        out.append("downing it")
    if cost.get("discard"):
        out.append(f"discarding {cost['discard']}")
    return ", ".join(out) or "nothing"


def _condition_text(c: dict[str, Any]) -> str:
    from domain.abilities.targets import condition_text

    return condition_text(c)


def _step_text(step: dict[str, Any]) -> str:
    from domain.abilities.effects import step_text

    return step_text(step)


# -- validation -----------------------------------------------------------------------------------


def problems(card_id: str, abilities: list[dict[str, Any]]) -> list[str]:
    """Everything in an encoding that is outside the vocabulary."""
    from domain.abilities.effects import step_problems
    from domain.abilities.targets import condition_problems

    out: list[str] = []
    for i, ab in enumerate(abilities):
        where = f"{card_id} ability {i + 1}"
        if ab.get("kind") not in KINDS:
            out.append(f"{where}: unknown kind {ab.get('kind')!r}")
            continue
        unknown = set(ab) - {
            "kind",
            "team",
            "once",
            "timing",
            "trigger",
            "condition",
            "use_condition",
            "cost",
            "effect",
            "note",
        }
        if unknown:
            out.append(f"{where}: unknown field(s) {sorted(unknown)}")
        if ab["kind"] == "auto" and ab.get("trigger", {}).get("on") not in TRIGGERS:
            out.append(f"{where}: an auto ability needs a trigger from {TRIGGERS}")
        for key in ("condition", "use_condition"):
            if key in ab:
                out.extend(f"{where}: {p}" for p in condition_problems(ab[key]))
        for k in ab.get("cost", {}):
            if k not in COST_KEYS:
                out.append(f"{where}: unknown cost {k!r}")
        for step in ab.get("effect", []):
            out.extend(f"{where}: {p}" for p in step_problems(step))
    return out
