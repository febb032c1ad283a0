"""How a card's encoded abilities read in the catalogue: the words one ability uses, and its sentence.

``VOCABULARY`` is every word an encoding may use where the vocabulary names a thing to do or to check: the
ability kinds, the triggers, the costs, the effect steps (the control words among them), the constant
steps and the conditions. ``ability_words`` lists those an ability uses, in the order they appear, once
each: what a judge checks an encoding by, beside its sentence (``catalogue.describe_ability``).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from domain.abilities.catalogue import COST_KEYS, EXTRA_COST_KEYS, KINDS, TRIGGERS, describe_ability

# The kinds the card view names (the contract's list); a Rise is a constant ability of its SIGNI, a Harmony
# an auto ability.
SHOWN_KINDS = ("auto", "enter", "constant", "action", "life_burst", "arts", "spell", "piece")


@cache
def vocabulary() -> frozenset[str]:
    from domain.abilities.constants import CONSTANT_OPS
    from domain.abilities.targets import CONDITIONS
    from domain.abilities.vocabulary import ALIASES, WORDS

    return frozenset(
        (*KINDS, *TRIGGERS, *COST_KEYS, *EXTRA_COST_KEYS, *WORDS, *ALIASES, *CONSTANT_OPS, *CONDITIONS)
    )


def _conditions(cond: Any) -> Iterator[str]:
    if isinstance(cond, dict):
        yield from cond


def _steps(steps: Any) -> Iterator[str]:
    if not isinstance(steps, list):
        return
    for st in steps:
        if not isinstance(st, dict):
            continue
        if st.get("op"):
            yield st["op"]
        if isinstance(st.get("condition"), dict):
            yield from _conditions(st["condition"])
        if isinstance(st.get("cost"), dict):
            yield from st["cost"]
        for key in ("then", "else"):
            yield from _steps(st.get(key))
        for mode in st.get("modes", []) if isinstance(st.get("modes"), list) else []:
            yield from _steps(mode)
        if isinstance(st.get("ability"), dict):
            yield from _ability(st["ability"])


def _ability(ab: dict[str, Any]) -> Iterator[str]:
    yield ab["kind"]
    trigger = ab.get("trigger") or {}
    if trigger.get("on"):
        yield trigger["on"]
    yield from _conditions(trigger.get("during"))
    for key in ("condition", "use_condition"):
        yield from _conditions(ab.get(key))
    for key in ("cost", "extra_cost"):
        if isinstance(ab.get(key), dict):
            yield from ab[key]
    yield from _steps(ab.get("effect"))


def ability_words(ab: dict[str, Any]) -> list[str]:
    """The vocabulary words ``ab`` uses, in order of appearance, each once."""
    return list(dict.fromkeys(w for w in _ability(ab) if w in vocabulary()))


def shown_kind(ab: dict[str, Any], card_type: str) -> str:
    """The ability's kind as the card view names it: a spell's effect on an ARTS card is ``arts``; a Rise is
    a constant ability."""
    kind = str(ab["kind"])
    if kind == "rise":
        return "constant"
    if kind == "harmony":  # a keyword that triggers as its SIGNI enters the field
        return "auto"
    if kind == "spell" and card_type == "arts":
        return "arts"
    return kind


def ability_view(ab: dict[str, Any], card_type: str) -> dict[str, Any]:
    """One encoded ability as the card view shows it: its kind, its sentence and its words."""
    return {"kind": shown_kind(ab, card_type), "text": describe_ability(ab), "words": ability_words(ab)}
