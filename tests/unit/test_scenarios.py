"""Runs every ruling scenario in tests/scenarios (see scenario_runner for the format)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.scenario_runner import load_all, run

ALL = load_all()


def test_there_are_many_scenarios_and_each_names_its_rule_text() -> None:
    assert len(ALL) >= 30
    for sc in ALL:
        assert sc.get("follows"), f"{sc['name']} does not say which rules text it follows"


@pytest.mark.parametrize("scenario", ALL, ids=[f"{s['file']}:{s['name']}" for s in ALL])
def test_scenario(scenario: dict[str, Any]) -> None:
    run(scenario)
