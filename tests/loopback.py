"""Small helpers for tests that talk to a real server process on the loopback address."""

from __future__ import annotations

import http.client
import json
import socket
from typing import Any


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def call(
    port: int, method: str, path: str, body: Any = None, *, token: str, timeout: float = 30
) -> tuple[int, Any]:
    """One JSON request to 127.0.0.1:port with a bearer token: (status, decoded body or None)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        headers = {"Authorization": f"Bearer {token}"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=payload, headers=headers)
        r = conn.getresponse()
        data = r.read()
        return r.status, (json.loads(data) if data else None)
    finally:
        conn.close()
