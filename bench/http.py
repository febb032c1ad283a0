"""The HTTP layer in process: ``create_app`` from ``app`` and Flask's test client, as the judge."""

from __future__ import annotations

import random
from contextlib import contextmanager
from typing import Any

from bench.common import JUDGE_TOKEN, create_body, judge_headers


def import_create_app() -> Any:
    try:
        from app import create_app
    except ImportError as exc:  # the HTTP layer is not there yet
        raise SystemExit(f"the HTTP layer is not available (from app import create_app: {exc})") from None
    return create_app


@contextmanager
def flask_app(store: dict[str, str]) -> Any:
    """A Flask app on ``store`` (the library's settings); its JudgeApplication is closed at the end."""
    # as in production, the heap is frozen after start-up (TESTING alone would leave it not frozen)
    app = import_create_app()({"TESTING": True, "FREEZE_HEAP": True, "JUDGE_TOKEN": JUDGE_TOKEN, **store})
    try:
        yield app
    finally:
        app.extensions["judge"].close()


def judge_of(app: Any) -> Any:
    """The JudgeApplication behind a Flask app."""
    return app.extensions["judge"]


class Client:
    """Flask's test client, speaking as the judge, failing loudly on any unexpected answer."""

    def __init__(self, app: Any) -> None:
        self.http = app.test_client()
        self.headers = judge_headers()

    def create(self, seed: int, decks: tuple[str, str]) -> tuple[str, int]:
        r = self.http.post("/matches", json=create_body(seed, decks), headers=self.headers)
        assert r.status_code == 201, (r.status_code, r.get_json())
        body = r.get_json()
        return body["id"], body["version"]

    def act(self, mid: str, action: dict[str, Any], expected: int | None) -> Any:
        body: dict[str, Any] = {"action": action}
        if expected is not None:
            body["expected_version"] = expected
        return self.http.post(f"/matches/{mid}/actions", json=body, headers=self.headers)

    def legal(self, mid: str) -> tuple[list[dict[str, Any]], int]:
        r = self.http.get(f"/matches/{mid}/legal-actions", headers=self.headers)
        assert r.status_code == 200, (r.status_code, r.get_json())
        body = r.get_json()
        return body["actions"], body["at"]

    def state(self, mid: str, at: int | None = None) -> Any:
        query = "" if at is None else f"?at={at}"
        return self.http.get(f"/matches/{mid}/state{query}", headers=self.headers)

    def rewind(self, mid: str, to: int, reason: str) -> int:
        """Rewind to ``to``, or to the nearest decision point before it, which the refusal names when ``to``
        is not one (time travel goes only to decision points)."""
        r = self.http.post(f"/matches/{mid}/rewind", json={"to": to, "reason": reason}, headers=self.headers)
        if r.status_code == 422 and (r.get_json() or {}).get("earlier"):
            to = r.get_json()["earlier"]
            r = self.http.post(
                f"/matches/{mid}/rewind", json={"to": to, "reason": reason}, headers=self.headers
            )
        assert r.status_code == 201, (r.status_code, r.get_json())
        return int(r.get_json()["version"])

    def audit(self, mid: str) -> dict[str, Any]:
        r = self.http.get(f"/matches/{mid}/audit", headers=self.headers)
        assert r.status_code == 200, (r.status_code, r.get_json())
        return dict(r.get_json())


def long_match(client: Client, events: int, seed: int = 7, segment: int = 300) -> tuple[str, int, int]:
    """A match of at least ``events`` events, played through the API with random legal actions; when a game
    ends (or after ``segment`` actions), the judge rewinds it to an earlier event and play goes on, as when a
    judge scrubs back after a dispute. Returns (id, head, rewinds)."""
    chooser = random.Random(f"long:{seed}")
    mid, head = client.create(seed, ("WXDi-D01", "WXDi-D02"))
    rewinds = actions = 0
    while head < events:
        legal, at = client.legal(mid)
        if not legal or actions >= segment:
            head = client.rewind(
                mid, chooser.randint(max(10, head // 4), max(11, head // 2)), "bench: scrub back"
            )
            rewinds += 1
            actions = 0
            continue
        r = client.act(mid, chooser.choice(legal), at)
        assert r.status_code == 201, (r.status_code, r.get_json())
        head = int(r.get_json()["version"])
        actions += 1
    return mid, head, rewinds
