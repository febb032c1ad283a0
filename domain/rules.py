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
            "source": {
                "seed": self.seed,
                "document": DOCUMENTS.get(self.seed, self.seed),
                "section": self.section,
                "rulings": [{"id": r, **RULINGS.get(r, {})} for r in self.rulings],
            },
        }


# The rules texts a rule's ``seed`` names: the file a reader looks the section up in, and what it holds
DOCUMENTS = {
    "000": "000_a94526d0cd2f8f0d.txt, the glossary of the current game (Diva Selection), A to Z",
    "001": "001_cfcb6ba66001167e.txt, the game set-up and the turn of the current game (Diva Selection)",
    "002": "002_852c34a962b7bc1a.txt, the set-up and the turn of the earlier single-LRIG game",
    "004": "004_9d605cc408e12c37.txt, rule processing: its nine kinds and the additional rulings",
    "none": "no rules text: the service's own procedure for judges",
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


def _load_rulings() -> Mapping[str, dict[str, str]]:
    """What each cited ruling is and where a reader finds it (``domain/data/rulings.json``: its
    authority, the page or card it is on, its topic; never its text)."""
    text = resources.files(_DATA_PACKAGE).joinpath("data/rulings.json").read_text(encoding="utf-8")
    return MappingProxyType(json.loads(text))


RULINGS: Mapping[str, dict[str, str]] = _load_rulings()
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
