"""A real browser over the served app, for the console's tests and screenshots.

Debian's ``chromium`` driven by Playwright's Python package (never Playwright's own browser download):
``ensure_chromium`` installs the package with apt when it is missing and the process may; ``serve`` runs the
app with werkzeug on a free loopback port in a thread; ``open_page`` gives a page whose requests to anything
but the service are refused (and counted), which is how a test shows the console needs no CDN.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from flask import Flask
from werkzeug.serving import WSGIRequestHandler, make_server

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def ensure_chromium() -> str | None:
    """Installs Debian's chromium with apt-get when it is missing: None when it is there, else why not."""
    if os.path.exists(CHROMIUM):
        return None
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return f"{CHROMIUM} is missing and apt-get cannot run here (install the `chromium` package)"
    for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "chromium"]):
        done = subprocess.run(
            cmd, capture_output=True, text=True, env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        )
        if done.returncode != 0:
            return f"{' '.join(cmd)} failed: {done.stderr.strip()[-400:]}"
    return None if os.path.exists(CHROMIUM) else f"apt-get installed no {CHROMIUM}"


class QuietHandler(WSGIRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


@contextmanager
def serve(app: Flask) -> Iterator[str]:
    """Serves ``app`` on 127.0.0.1 on a free port in a thread; yields its base URL and stops it after."""
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, name="console-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@contextmanager
def chromium() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            yield browser
        finally:
            browser.close()


@dataclass
class Traffic:
    """What a page asked for: the requests refused (not to the service) and the service's responses."""

    blocked: list[str] = field(default_factory=list)
    responses: list[Any] = field(default_factory=list)
    # JSON: (url, request body, text; None when the page navigated away before it could be read)
    bodies: list[tuple[str, str | None, str | None]] = field(default_factory=list)

    def record(self, response: Any) -> None:
        """Keeps every response, and the text of each JSON one (read now: a page that navigates away
        takes its bodies with it). A stream of Server-Sent Events never ends, so it is not read."""
        self.responses.append(response)
        if "json" in (response.headers.get("content-type") or ""):
            try:
                text: str | None = response.text()
            except Exception:  # the body went with the page that asked for it
                text = None
            self.bodies.append((response.url, response.request.post_data, text))


def open_page(browser: Any, base: str, viewport: dict[str, int] = DESKTOP) -> tuple[Any, Any, Traffic]:
    """A new context and page that may reach ``base`` only; every other request is aborted and recorded."""
    # the console's pages forbid eval (Content-Security-Policy); the test driver's waits need it
    context = browser.new_context(viewport=viewport, service_workers="block", bypass_csp=True)
    traffic = Traffic()

    def gate(route: Any) -> None:
        url = route.request.url
        if url.startswith(base + "/") or url == base:
            route.continue_()
        else:
            traffic.blocked.append(url)
            route.abort()

    context.route("**/*", gate)
    page = context.new_page()
    page.on("response", traffic.record)
    page.set_default_timeout(15000)
    return context, page, traffic


def sign_in(page: Any, base: str, token: str | None) -> None:
    """Opens the console and signs in with ``token`` (None: as a spectator)."""
    page.goto(f"{base}/console/")
    if token is None:
        page.click("#spectate")
    else:
        page.fill("#token", token)
        page.click("form.signin button[type=submit]")
    page.wait_for_selector("#signout")
