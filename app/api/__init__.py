"""The HTTP API: one blueprint per resource."""

from __future__ import annotations

from flask import Flask

from app import console
from app.api import (
    actions,
    audit,
    branches,
    cards,
    decks,
    docs,
    events,
    health,
    legal_actions,
    matches,
    positions,
    records,
    rewind,
    rules,
    rulings,
    state,
    takebacks,
    timeline,
)

BLUEPRINTS = (
    docs,
    health,
    cards,
    decks,
    rules,
    matches,
    positions,
    actions,
    events,
    timeline,
    state,
    legal_actions,
    rulings,
    rewind,
    branches,
    takebacks,
    audit,
    console,
    records,
)


def register_blueprints(app: Flask) -> None:
    for module in BLUEPRINTS:
        app.register_blueprint(module.bp)
