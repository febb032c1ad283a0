"""The encoded abilities of cards, their vocabulary, and their description in the project's own words.

A card's entry is a list of abilities. An ability is an object:

- ``kind``: ``enter`` | ``auto`` | ``constant`` | ``action`` | ``life_burst`` | ``spell`` | ``piece``
- ``team``: true for a Team ability (valid only while the player's three LRIGs are of the card's team)
- ``once``: ``turn`` | ``game`` (1/Turn, 1/Game)
- ``timing``: for ``action``, ``piece`` and ``spell``: the use timings (``main``, ``attack``)
- ``trigger``: for ``auto``: ``{"on": ..., "during": condition}`` (see ``TRIGGERS``); ``during`` is checked
  when the event happens: the ability triggers only if it holds then
- ``condition``: a condition (see ``targets.CONDITIONS``) the ability needs to be used, or, for a constant, to
  apply; ``use_condition`` for a PIECE
- ``cost``: ``{"ener": [{"color", "n"}], "down": true, "discard": n | {"n", "filter"}, "down_lrig": {"n",
  "filter"}, "trash_ener": {"n", "filter", "distinct"}}``; for an ``enter`` ability the cost is optional: the
  player may pay it or not
- ``effect``: a list of steps (see ``effects.OPS``); ``{"op": "then"}`` splits it where targets of what
  follows are chosen only when it is reached

An ability can give a card another ability until end of turn (``grant_ability``): the gained ability is
written inside that step, and named ``<card id>#<ability index>.<n>`` (the n-th such step of that ability).

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
TRIGGERS = (
    "attack",  # this SIGNI or LRIG attacks
    "vanished",  # this SIGNI is vanished
    "attack_phase_start",  # the start of your attack phase
    "leaves_field",  # this SIGNI leaves the field (however it goes)
    "other_leaves_field",  # another SIGNI on your field leaves the field
    "milled",  # one or more cards are put from a deck into the trash by your effect
)
COST_KEYS = ("ener", "down", "discard", "down_lrig", "trash_ener")
ABILITY_KEYS = (
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
)


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


def granted_in(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The abilities that ``grant_ability`` steps among ``steps`` give, in printed order."""
    out: list[dict[str, Any]] = []
    for st in steps:
        if st.get("op") == "grant_ability":
            out.append(st["ability"])
        for key in ("then", "else"):
            if isinstance(st.get(key), list):
                out.extend(granted_in(st[key]))
        for mode in st.get("modes", []):
            out.extend(granted_in(mode))
    return out


def granted_ref(card_id: str, index: int, ability: dict[str, Any]) -> str:
    """The name of an ability that the ability ``index`` of ``card_id`` gives."""
    for n, ab in enumerate(granted_in(abilities_of(card_id)[index].get("effect", []))):
        if ab is ability or ab == ability:
            return f"{card_id}#{index}.{n}"
    raise ValueError(f"{card_id} ability {index} gives no such ability")


def ability_at(card_id: str, ref: int | str) -> dict[str, Any]:
    """A card's own ability (by index), or an ability some card gives (by ``granted_ref`` name)."""
    if isinstance(ref, int):
        return abilities_of(card_id)[ref]
    source, _, path = ref.partition("#")
    index, _, n = path.partition(".")
    return granted_in(abilities_of(source)[int(index)].get("effect", []))[int(n)]


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
        cond = f" while {_condition_text(ab['condition'])}" if ab.get("condition") else ""
        team = " (team)" if ab.get("team") else ""
        return f"Always{team}{cond}: " + "; ".join(_constant_text(st) for st in ab.get("effect", [])) + "."
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


def _constant_text(st: dict[str, Any]) -> str:
    from domain.abilities.targets import target_text

    op = st["op"]
    if op == "power":
        spec = st["target"]
        who = "this SIGNI" if spec.get("self") else target_text({**spec, "all": True})
        return f"{who} gets {int(st.get('amount', 0)):+d} power"
    if op == "immune":
        by = "the opponent's" if st.get("by", "opponent") == "opponent" else "any"
        return f"this SIGNI cannot be {st.get('from', 'vanish')}ed by {by} effects"
    if op == "spell_cost":
        whose = "the opponent's" if st.get("whose", "opponent") == "opponent" else "your"
        add = ", ".join(f"{c['n']} {c['color']}" for c in st.get("add", []))
        return f"{whose} spells cost {add} more"
    if op == "vanished_to_trash":
        return "a SIGNI this SIGNI vanishes in battle goes to the trash instead of the ener zone"
    return op


def _trigger_text(trigger: dict[str, Any]) -> str:
    head = {
        "attack": "When it attacks",
        "vanished": "When it is vanished",
        "attack_phase_start": "At the start of your attack phase",
        "leaves_field": "When it leaves the field",
        "other_leaves_field": "When another SIGNI on your field leaves the field",
        "milled": "When your effect puts cards from a deck into the trash",
    }.get(trigger.get("on", ""), "When triggered")
    if trigger.get("during"):
        head += f" while {_condition_text(trigger['during'])}"
    return head


def _cost_text(cost: dict[str, Any]) -> str:
    from domain.abilities.targets import filter_text

    out = []
    for item in cost.get("ener", []):
        out.append(f"{item['n']} {item['color']} ener")
    if cost.get("down"):
        out.append("downing it")
    discard = cost.get("discard")
    if isinstance(discard, dict):
        out.append(f"discarding {discard.get('n', 1)} {filter_text(discard.get('filter', {}))}".rstrip())
    elif discard:
        out.append(f"discarding {discard}")
    if cost.get("down_lrig"):
        d = cost["down_lrig"]
        out.append(f"downing {d.get('n', 1)} upped LRIG {filter_text(d.get('filter', {}))}".rstrip())
    if cost.get("trash_ener"):
        t = cost["trash_ener"]
        distinct = " of different classes" if t.get("distinct") else ""
        out.append(
            f"putting {t.get('n', 1)} {filter_text(t.get('filter', {}))}{distinct} from ener into the trash"
        )
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

    out: list[str] = []
    for i, ab in enumerate(abilities):
        out.extend(ability_problems(f"{card_id} ability {i + 1}", ab))
    return out


def ability_problems(where: str, ab: dict[str, Any]) -> list[str]:
    from domain.abilities.constants import CONSTANT_OPS
    from domain.abilities.effects import step_problems
    from domain.abilities.targets import condition_problems

    out: list[str] = []
    if ab.get("kind") not in KINDS:
        return [f"{where}: unknown kind {ab.get('kind')!r}"]
    unknown = set(ab) - set(ABILITY_KEYS)
    if unknown:
        out.append(f"{where}: unknown field(s) {sorted(unknown)}")
    if ab["kind"] == "auto" and ab.get("trigger", {}).get("on") not in TRIGGERS:
        out.append(f"{where}: an auto ability needs a trigger from {TRIGGERS}")
    if ab["kind"] == "auto" and "during" in ab.get("trigger", {}):
        out.extend(f"{where}: {p}" for p in condition_problems(ab["trigger"]["during"]))
    for key in ("condition", "use_condition"):
        if key in ab:
            out.extend(f"{where}: {p}" for p in condition_problems(ab[key]))
    for k in ab.get("cost", {}):
        if k not in COST_KEYS:
            out.append(f"{where}: unknown cost {k!r}")
    for step in ab.get("effect", []):
        if ab["kind"] == "constant":
            if step.get("op") not in CONSTANT_OPS:
                out.append(f"{where}: a constant ability's step must be one of {CONSTANT_OPS}")
            continue
        out.extend(f"{where}: {p}" for p in step_problems(step))
    return out
