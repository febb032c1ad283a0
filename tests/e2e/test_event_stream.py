"""GET /matches/{id}/events/stream: new events as Server-Sent Events, each as the caller may see it, to a
client of a served app while another client plays; `Last-Event-ID` resumes; keep-alive comments."""

from __future__ import annotations

import http.client
import json
import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from tests.conftest import JUDGE_TOKEN, make_app
from tests.loopback import call


@pytest.fixture
def served() -> Iterator[tuple[Flask, int]]:
    app = make_app(STREAM_POLL_SECONDS=0.05, STREAM_KEEPALIVE_SECONDS=0.3, STREAM_LIFETIME_SECONDS=300)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, server.server_port
    server.shutdown()
    thread.join(10)
    app.extensions["judge"].close()


class Stream:
    """Reads one event stream in a thread: the messages (``id``, ``event``, ``data``) and comments seen."""

    def __init__(
        self, port: int, path: str, token: str | None, headers: dict[str, str] | None = None
    ) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        sent = {"Accept": "text/event-stream", **(headers or {})}
        if token:
            sent["Authorization"] = f"Bearer {token}"
        self.conn.request("GET", path, headers=sent)
        self.response = self.conn.getresponse()
        self.messages: list[dict[str, Any]] = []
        self.comments: list[str] = []
        self.ended = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        fields: dict[str, str] = {}
        try:
            for raw in self.response:
                line = raw.decode("utf-8").rstrip("\n")
                if not line:
                    if "data" in fields:
                        self.messages.append({**fields, "data": json.loads(fields["data"])})
                    fields = {}
                elif line.startswith(":"):
                    self.comments.append(line)
                else:
                    key, _, value = line.partition(": ")
                    fields[key] = value
        finally:
            self.ended.set()

    def wait_for(self, n: int, seconds: float = 20) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.messages and int(self.messages[-1]["id"]) >= n:
                return
            time.sleep(0.02)
        raise AssertionError(f"no event {n} within {seconds} s; got {[m['id'] for m in self.messages]}")

    def close(self) -> None:
        self.conn.close()


def test_a_stream_sends_each_new_event_in_order_as_its_reader_may_see_it(served: tuple[Flask, int]) -> None:
    _, port = served
    status, created = call(
        port,
        "POST",
        "/matches",
        {
            "format": "diva",
            "seed": 4,
            "first_player": "p1",
            "players": {"p1": {"name": "Ann", "deck": "WXDi-D01"}, "p2": {"name": "Bo", "deck": "WXDi-D02"}},
        },
        token=JUDGE_TOKEN,
    )
    assert status == 201
    path, tokens = f"/matches/{created['id']}", created["tokens"]
    _, summary = call(port, "GET", path, token=JUDGE_TOKEN)
    start = summary["version"]
    stream = Stream(port, f"{path}/events/stream?timeout=60", tokens["p2"])
    try:
        assert stream.response.status == 200
        assert stream.response.getheader("Content-Type", "").startswith("text/event-stream")
        rng = random.Random(4)
        for _ in range(12):  # another client plays, as the judge
            _, legal = call(port, "GET", f"{path}/legal-actions", token=JUDGE_TOKEN)
            status, _ = call(
                port, "POST", f"{path}/actions", {"action": rng.choice(legal["actions"])}, token=JUDGE_TOKEN
            )
            assert status == 201
        _, summary = call(port, "GET", path, token=JUDGE_TOKEN)
        head = summary["version"]
        stream.wait_for(head)
        got = [m["data"] for m in stream.messages]
        assert [e["n"] for e in got] == list(range(start + 1, head + 1))  # each once, in order
        assert all(m["id"] == str(m["data"]["n"]) and m["event"] == "match-event" for m in stream.messages)
        _, page = call(port, "GET", f"{path}/events?after={start}", token=tokens["p2"])
        assert got == page["events"]  # as p2 sees them: redacted, with text
        drawn = [e for e in got if e["type"] == "CardsDrawn" and e["data"]["player"] == "p1"]
        assert drawn and all("cards" not in e["data"] and "Ann draws" in e["text"] for e in drawn)
        time.sleep(0.5)
        assert any("keep-alive" in c for c in stream.comments)
    finally:
        stream.close()

    # a reconnection with Last-Event-ID gets what came after it, and the stream ends after its timeout
    resumed = Stream(
        port, f"{path}/events/stream?timeout=0.3", tokens["p1"], {"Last-Event-ID": str(head - 3)}
    )
    try:
        assert resumed.ended.wait(10), "the stream did not end after its timeout"
        assert [int(m["id"]) for m in resumed.messages] == [head - 2, head - 1, head]
        _, mine = call(port, "GET", f"{path}/events?after={head - 3}", token=tokens["p1"])
        assert [m["data"] for m in resumed.messages] == mine["events"]
    finally:
        resumed.close()


def test_a_stream_refuses_a_bad_last_event_id_and_a_foreign_view(served: tuple[Flask, int]) -> None:
    _, port = served
    status, created = call(
        port,
        "POST",
        "/matches",
        {
            "format": "diva",
            "seed": 2,
            "players": {"p1": {"name": "Ann", "deck": "WXDi-D01"}, "p2": {"name": "Bo", "deck": "WXDi-D02"}},
        },
        token=JUDGE_TOKEN,
    )
    assert status == 201
    path = f"/matches/{created['id']}/events/stream"
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", f"{path}?timeout=0", headers={"Last-Event-ID": "x"})
    r = conn.getresponse()
    assert r.status == 400 and r.getheader("Content-Type") == "application/problem+json"
    r.read()
    conn.request(
        "GET", f"{path}?timeout=0&viewer=p1", headers={"Authorization": f"Bearer {created['tokens']['p2']}"}
    )
    r = conn.getresponse()
    assert r.status == 403
    r.read()
    conn.close()
