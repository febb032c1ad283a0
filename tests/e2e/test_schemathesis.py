"""Property-based testing of the whole API from its own OpenAPI document (schemathesis, in-process WSGI).

Every operation gets the document's examples, schema-valid requests and deliberately invalid ones, sent with
the judge's token so that they reach the deep code paths; then, fewer of them, with no token, with a player
token (of the match the request names, of either player), with a player token of another match and with a
token the service never issued, so that every way of being refused is exercised too. A request about a match
names, most of the time, one of a few real matches (new, in the middle of play, finished, built from a
position) instead of a random UUID. Every response must be no server error, and must conform to the
document: status code, content type, headers and body.
"""

from __future__ import annotations

import random
import time
from typing import Any
from uuid import UUID

import hypothesis.strategies as st
import pytest
import schemathesis
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from domain.legal import legal_actions
from tests.conftest import JUDGE_TOKEN, Judge, make_app

POSITIVE_EXAMPLES = 80
NEGATIVE_EXAMPLES = 25
EXAMPLE_RUNS = 5
# the other callers: (positive, negative) examples per operation; an unknown token is refused before anything
CALLERS = {"no token": (10, 5), "player": (20, 6), "other match": (6, 3), "unknown": (6, 3)}
MIN_REQUESTS = 1000
UNKNOWN_TOKEN = "an-unknown-token-" + "0" * 24
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


def _real_matches(app: Flask) -> list[str]:
    judge = Judge(app.test_client())
    rng = random.Random(2026)
    fresh = judge.create_match("WXDi-D01", "WXDi-D02", seed=1)
    middle = judge.create_match("WXDi-D03", "WXDi-D04", seed=2)
    judge.play(middle, rng, stop_at=200)
    finished = judge.create_match("WXDi-D05", "WXDi-D06", seed=3)
    judge.play(finished, rng)
    position = judge.create_position(
        {
            "turn": 4,
            "turn_player": "p2",
            "phase": "attack",
            "step": "signi_attack",
            "seed": 4,
            "players": {
                "p1": {
                    "lrig": {"center": "WXDi-D01-004"},
                    "life_cloth": ["WXDi-D01-012"] * 2,
                    "deck": ["WXDi-D01-013"] * 5,
                    "hand": ["WXDi-D01-017"],
                },
                "p2": {
                    "lrig": {"center": "WXDi-D02-004"},
                    "signi": {"left": "WXDi-D02-013"},
                    "deck": ["WXDi-D02-013"] * 5,
                    "life_cloth": ["WXDi-D02-013"] * 2,
                },
            },
        }
    )
    return [m.id for m in (fresh, middle, finished, position)]


def _legal_action(app: Flask, match_id: str, choice: int) -> dict[str, Any] | None:
    actions = list(legal_actions(app.extensions["judge"].state_at(UUID(match_id))))
    return actions[choice % len(actions)] if actions else None


def _headers(app: Flask, caller: str, match_ids: list[str], pick: int, player: str) -> dict[str, str]:
    """The Authorization header of ``caller`` for a request about ``match_ids[pick]`` (or a made-up match)."""
    tokens = app.extensions["judge_tokens"]
    own = UUID(match_ids[pick % len(match_ids)])
    token = {
        "judge": JUDGE_TOKEN,
        "no token": None,
        "player": tokens.player_token(own, player),
        "other match": tokens.player_token(UUID(match_ids[(pick + 1) % len(match_ids)]), player),
        "unknown": UNKNOWN_TOKEN,
    }[caller]
    return {"Authorization": f"Bearer {token}"} if token else {}


def _run_operation(
    app: Flask,
    operation: Any,
    strategy: Any,
    examples: int,
    match_ids: list[str],
    counter: dict[str, int],
    *,
    positive: bool = True,
    caller: str = "judge",
) -> None:
    uses_match = "{match_id}" in operation.path
    takes_action = operation.path.endswith(("/actions", "/rulings"))

    # which real match, and which of its legal actions: drawn only where the operation is about a match
    picks = st.integers(0, len(match_ids)) if uses_match and positive else st.just(len(match_ids))
    choices = st.integers(0, 10**6) if takes_action and positive else st.just(0)

    players = st.sampled_from(("p1", "p2")) if caller in ("player", "other match") else st.just("p1")

    @given(case=strategy, pick=picks, choice=choices, player=players)
    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    def check(case: Any, pick: int, choice: int, player: str) -> None:
        if uses_match and pick < len(match_ids) and positive:
            case.path_parameters["match_id"] = match_ids[pick]
            # half the actions and rulings on a real match are one of its legal actions: play goes on
            if takes_action and choice % 2 and isinstance(case.body, dict):
                action = _legal_action(app, match_ids[pick], choice // 2)
                if action is not None:
                    case.body = {"action": action}
        counter["requests"] += 1
        counter[caller] = counter.get(caller, 0) + 1
        response = case.call_and_validate(
            headers=_headers(app, caller, match_ids, pick, player), checks=CHECKS
        )
        if caller == "unknown":
            assert response.status_code == 401, (operation.path, response.status_code)

    try:
        check()
    except Unsatisfiable:
        if positive:
            raise  # only an operation without parameters or body has no invalid request to send


def test_the_api_conforms_to_its_document_under_generated_requests() -> None:
    app = make_app()
    match_ids = _real_matches(app)
    schema = schemathesis.openapi.from_wsgi("/openapi.yaml", app)
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 20
    counter = {"requests": 0}
    started = time.monotonic()
    for operation in operations:
        for strategy in schema.get_strategies_from_examples(operation):
            _run_operation(app, operation, strategy, EXAMPLE_RUNS, match_ids, counter)
        _run_operation(
            app,
            operation,
            operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
            POSITIVE_EXAMPLES,
            match_ids,
            counter,
        )
        _run_operation(
            app,
            operation,
            operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
            NEGATIVE_EXAMPLES,
            match_ids,
            counter,
            positive=False,
        )
        for caller, (positive_examples, negative_examples) in CALLERS.items():
            for mode, count in (
                (GenerationMode.POSITIVE, positive_examples),
                (GenerationMode.NEGATIVE, negative_examples),
            ):
                _run_operation(
                    app,
                    operation,
                    operation.as_strategy(generation_mode=mode),
                    count,
                    match_ids,
                    counter,
                    positive=mode == GenerationMode.POSITIVE,
                    caller=caller,
                )
    elapsed = time.monotonic() - started
    print(f"schemathesis: {counter} requests over {len(operations)} operations in {elapsed:.1f}s")
    assert counter["requests"] >= MIN_REQUESTS
    assert all(counter[caller] >= len(operations) for caller in CALLERS), counter
    app.extensions["judge"].close()


@pytest.fixture(autouse=True)
def _quiet_logs(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("CRITICAL")
