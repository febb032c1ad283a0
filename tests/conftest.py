"""Fixtures for the HTTP tests: ``app`` (in-memory store, a fixed judge token), ``client``, and ``judge``, a
small
helper that creates matches and posts actions through the API only."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app

JUDGE_TOKEN = "test-judge-token"
PRESETS = (
    "WXDi-D01",
    "WXDi-D02",
    "WXDi-D03",
    "WXDi-D04",
    "WXDi-D05",
    "WXDi-D06",
    "WXDi-D07",
    "WXDi-D08",
    "WXDi-D09-H",
    "WXDi-D09-P",
)


def make_app(**config: Any) -> Flask:
    settings: dict[str, Any] = {
        "TESTING": True,
        "JUDGE_TOKEN": JUDGE_TOKEN,
        "PERSISTENCE_MODULE": "eventsourcing.popo",
        "STREAM_LIFETIME_SECONDS": 0,  # a stream sends what it has and ends; a test following one sets it
    }
    settings.update(config)
    return create_app(settings)


def sqlite_app(path: Path, **config: Any) -> Flask:
    return make_app(PERSISTENCE_MODULE="eventsourcing.sqlite", SQLITE_DBNAME=str(path), **config)


@pytest.fixture
def app() -> Iterator[Flask]:
    application = make_app()
    yield application
    application.extensions["judge"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def bearer(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


@dataclass
class MatchRef:
    id: str
    tokens: dict[str, str]
    seed: int | None = None

    @property
    def path(self) -> str:
        return f"/matches/{self.id}"


class Judge:
    """Drives the API as the judge (or, with ``token=``, as anybody)."""

    def __init__(self, client: FlaskClient, token: str = JUDGE_TOKEN) -> None:
        self.client = client
        self.token = token

    def headers(self, token: str | None = "judge") -> dict[str, str]:
        return bearer(self.token if token == "judge" else token)

    def create_match(
        self,
        p1: str = "WXDi-D01",
        p2: str = "WXDi-D02",
        seed: int | None = 1,
        first_player: str | None = "p1",
        **extra: Any,
    ) -> MatchRef:
        body: dict[str, Any] = {
            "format": "diva",
            "players": {"p1": {"name": "Ann", "deck": p1}, "p2": {"name": "Bo", "deck": p2}},
        }
        if seed is not None:
            body["seed"] = seed
        if first_player is not None:
            body["first_player"] = first_player
        body.update(extra)
        r = self.client.post("/matches", json=body, headers=self.headers())
        assert r.status_code == 201, r.get_json()
        data = r.get_json()
        return MatchRef(data["id"], data["tokens"], data.get("seed"))

    def create_position(self, position: dict[str, Any]) -> MatchRef:
        r = self.client.post("/positions", json=position, headers=self.headers())
        assert r.status_code == 201, r.get_json()
        data = r.get_json()
        return MatchRef(data["id"], data["tokens"], data.get("seed"))

    def get(self, path: str, token: str | None = "judge", **params: Any) -> Any:
        r = self.client.get(path, query_string=params, headers=self.headers(token))
        assert r.status_code == 200, (path, r.status_code, r.get_json())
        return r.get_json()

    def state(self, m: MatchRef, token: str | None = "judge", **params: Any) -> dict[str, Any]:
        return self.get(f"{m.path}/state", token, **params)

    def events(self, m: MatchRef, token: str | None = "judge", **params: Any) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        after = int(params.pop("after", 0))
        while True:
            page = self.get(f"{m.path}/events", token, after=after, **params)["events"]
            out.extend(page)
            if len(page) < 1000:
                return out
            after = page[-1]["n"]

    def legal(self, m: MatchRef, token: str | None = "judge", **params: Any) -> list[dict[str, Any]]:
        return self.get(f"{m.path}/legal-actions", token, **params)["actions"]

    def act(
        self,
        m: MatchRef,
        action: dict[str, Any],
        expected_version: int | None = None,
        token: str | None = "judge",
    ) -> Any:
        body: dict[str, Any] = {"action": action}
        if expected_version is not None:
            body["expected_version"] = expected_version
        return self.client.post(f"{m.path}/actions", json=body, headers=self.headers(token))

    def ruling(
        self, m: MatchRef, action: dict[str, Any], at: int | None = None, token: str | None = "judge"
    ) -> Any:
        body: dict[str, Any] = {"action": action}
        if at is not None:
            body["at"] = at
        return self.client.post(f"{m.path}/rulings", json=body, headers=self.headers(token))

    def play(
        self, m: MatchRef, rng: random.Random, max_actions: int = 5000, stop_at: int | None = None
    ) -> int:
        """Plays on with a seeded random choice among the legal actions, each posted with
        ``expected_version``, until the match is finished (or its version reaches ``stop_at``)."""
        for count in range(max_actions):
            state = self.state(m)
            if state["status"] == "finished" or (stop_at is not None and state["version"] >= stop_at):
                return count
            actions = self.legal(m)
            assert actions, f"no legal action at {state['version']}: {state['pending']}"
            r = self.act(m, rng.choice(actions), expected_version=state["version"])
            assert r.status_code == 201, r.get_json()
        raise AssertionError(f"the match did not end within {max_actions} actions")


@pytest.fixture
def judge(client: FlaskClient) -> Judge:
    return Judge(client)
