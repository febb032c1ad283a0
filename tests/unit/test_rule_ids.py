"""Every rule id the engine cites, in an event or a refusal, is in the rules catalogue and explained."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from domain.rules import RULES, explain
from domain.simulation import pairings
from tests.unit.scenario_runner import load_all
from tests.unit.test_properties import play

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
RULE_ID = re.compile(r"^[a-z][a-z0-9-]*(\.[a-z0-9-]+)+$")
FAMILIES = {r.split(".")[0] for r in RULES}
NOT_RULES = {"data.json"}


def cited_in_source() -> set[str]:
    found: set[str] = set()
    for path in DOMAIN.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            family = node.value.split(".")[0]
            if RULE_ID.match(node.value) and family in FAMILIES and node.value not in NOT_RULES:
                found.add(node.value)
    return found


def test_every_rule_id_in_the_engine_is_in_the_catalogue() -> None:
    cited = cited_in_source()
    assert len(cited) > 60
    missing = sorted(cited - set(RULES))
    assert not missing, f"cited but not in domain/data/rules.json: {missing}"


def test_every_event_of_random_matches_cites_a_known_rule() -> None:
    for i, pair in enumerate(pairings()[::11]):
        for e in play(500 + i, pair, max_events=5000):
            assert e.rule in RULES, f"{e.type} cites an unknown rule {e.rule!r}"
            assert explain(e.rule)


def test_every_refusal_in_the_scenarios_cites_known_rules() -> None:
    for sc in load_all():
        for step in sc.get("steps", []):
            for rule in step.get("refused", []):
                assert rule in RULES, f"{sc['name']}: {rule}"
