"""The rules catalogue: every rule id the engine cites, with a title, a summary in the project's own words,
and the seed text (and rulings) it follows.

The catalogue ships as data (``domain/data/rules.json``) and is loaded once, at import, through
``importlib.resources``; it never reads the project's source documents at run time.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from types import MappingProxyType
from typing import Any

__all__ = ["RULES", "Rule", "UnknownRule", "all_rules", "explain", "rule"]

_DATA_PACKAGE = "domain"
_DATA_FILE = "data/rules.json"


@dataclass(frozen=True, slots=True)
class Rule:
    """One entry of the rules catalogue."""

    id: str
    title: str
    summary: str
    seed: str
    section: str
    rulings: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "summary": self.summary,
            "source": {"seed": self.seed, "section": self.section, "rulings": list(self.rulings)},
        }


class UnknownRule(LookupError):
    """A rule id that is not in the catalogue."""

    def __init__(self, rule_id: str) -> None:
        self.rule_id = rule_id
        super().__init__(f"unknown rule id {rule_id!r}: it is not in the rules catalogue")


def _parse(entry: Any, position: int) -> Rule:
    if not isinstance(entry, dict):
        raise ValueError(f"rules catalogue entry {position} is not an object")
    try:
        source = entry["source"]
        found = Rule(
            id=entry["id"],
            title=entry["title"],
            summary=entry["summary"],
            seed=source["seed"],
            section=source["section"],
            rulings=tuple(source.get("rulings", ())),
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"rules catalogue entry {position} is malformed: missing {exc}") from exc
    for field in ("id", "title", "summary", "seed", "section"):
        value = getattr(found, field)
        if not isinstance(value, str) or not value.strip():
            raise ValueError(f"rules catalogue entry {position} has an empty or non-text {field!r}")
    if not all(isinstance(ruling, str) and ruling for ruling in found.rulings):
        raise ValueError(f"rule {found.id!r} lists a ruling id that is not text")
    return found


def _load() -> Mapping[str, Rule]:
    text = resources.files(_DATA_PACKAGE).joinpath(_DATA_FILE).read_text(encoding="utf-8")
    entries = json.loads(text)
    if not isinstance(entries, list):
        raise ValueError("the rules catalogue must be a JSON list")
    by_id: dict[str, Rule] = {}
    for position, entry in enumerate(entries):
        found = _parse(entry, position)
        if found.id in by_id:
            raise ValueError(f"rule id {found.id!r} appears twice in the rules catalogue")
        by_id[found.id] = found
    return MappingProxyType({rule_id: by_id[rule_id] for rule_id in sorted(by_id)})


RULES: Mapping[str, Rule] = _load()


def rule(rule_id: str) -> Rule:
    """The catalogue entry for ``rule_id``; raises :class:`UnknownRule` when there is none."""
    try:
        return RULES[rule_id]
    except (KeyError, TypeError):
        raise UnknownRule(rule_id) from None


def all_rules() -> list[Rule]:
    """Every rule, sorted by id."""
    return list(RULES.values())


def explain(rule_id: str) -> str:
    """A one-line explanation: ``"<title>: <summary>"``."""
    found = rule(rule_id)
    return f"{found.title}: {found.summary}"
