"""The OpenAPI document: valid, generated from the views' own schemas, committed up to date, and readable."""

from __future__ import annotations

from pathlib import Path

import yaml
from flask import Flask
from flask.testing import FlaskClient
from openapi_spec_validator import validate

from app.cli import generated_openapi
from app.openapi import build_spec

COMMITTED = Path(__file__).resolve().parents[2] / "openapi.yaml"
REGENERATE = "`wixoss-judge openapi --output openapi.yaml` (or `make openapi`) at the repository root"


def test_the_document_is_valid_openapi(app: Flask) -> None:
    spec = build_spec(app)
    validate(spec)
    assert spec["openapi"].startswith("3.")


def test_the_committed_openapi_yaml_is_up_to_date() -> None:
    assert COMMITTED.exists(), f"openapi.yaml is missing: run {REGENERATE}"
    assert COMMITTED.read_text(encoding="utf-8") == generated_openapi(), (
        f"openapi.yaml is stale: it differs from what the schemas generate; run {REGENERATE} and commit it"
    )


def test_every_route_is_documented(app: Flask) -> None:
    spec = build_spec(app)
    documented = {
        (path, method) for path, item in spec["paths"].items() for method in item if method != "parameters"
    }
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = rule.rule.replace("<", "{").replace(">", "}")
        for method in rule.methods or ():
            if method not in ("HEAD", "OPTIONS"):
                assert (path, method.lower()) in documented, (path, method)
    for contract in (
        "/cards",
        "/cards/{card_id}",
        "/decks",
        "/decks/{deck_id}",
        "/decks/validate",
        "/rules",
        "/rules/{rule_id}",
        "/matches",
        "/positions",
        "/matches/{match_id}",
        "/matches/{match_id}/actions",
        "/matches/{match_id}/events",
        "/matches/{match_id}/state",
        "/matches/{match_id}/legal-actions",
        "/matches/{match_id}/rulings",
        "/matches/{match_id}/rewind",
        "/matches/{match_id}/branches",
        "/matches/{match_id}/audit",
    ):
        assert contract in spec["paths"], contract


def test_the_document_is_served_and_equals_the_generated_one(app: Flask, client: FlaskClient) -> None:
    r = client.get("/openapi.yaml")
    assert r.status_code == 200 and r.mimetype == "application/yaml"
    assert yaml.safe_load(r.get_data(as_text=True)) == build_spec(app)


def test_the_docs_page_lists_every_path_and_schema_and_needs_nothing_from_elsewhere(
    app: Flask, client: FlaskClient
) -> None:
    r = client.get("/docs")
    assert r.status_code == 200 and r.mimetype == "text/html"
    page = r.get_data(as_text=True)
    spec = build_spec(app)
    for path, item in spec["paths"].items():
        assert path in page, path
        for method in item:
            if method != "parameters":
                assert f'id="op-{item[method]["operationId"]}"' in page
    for name in spec["components"]["schemas"]:
        assert f'id="schema-{name}"' in page, name
    for word in ("expected_version", "rule_refs", "application/problem+json", "limit", "viewer"):
        assert word in page
    assert "<script" not in page and "http://" not in page and "https://" not in page
    assert "<link" not in page


def test_action_bodies_are_documented_one_schema_per_type(app: Flask) -> None:
    from domain.actions import ACTION_TYPES

    spec = build_spec(app)
    schemas = spec["components"]["schemas"]
    action = schemas["ActionRequest"]["properties"]["action"]
    assert set(action["discriminator"]["mapping"]) == set(ACTION_TYPES)
    assert set(schemas["PlaySigniAction"]["required"]) == {"type", "player", "card", "zone"}
    assert schemas["PlaySigniAction"]["additionalProperties"] is False
    assert schemas["MatchCreate"]["additionalProperties"] is False
    assert schemas["StateView"]["additionalProperties"] is True  # responses may carry extra fields
