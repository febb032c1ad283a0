"""Browser tests of the console: Debian's chromium driven by Playwright's Python package.

The set-up installs what is missing: chromium with apt-get (as root), or the tests are skipped saying why;
Playwright's Python package is a dev dependency (``pyproject.toml``). The app is served by werkzeug on a free
loopback port (in-memory store, ``TESTING``), and every request a page makes to anything else is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from tests.conftest import make_app
from tools.browser import chromium, ensure_chromium, serve


@pytest.fixture(scope="session")
def chromium_browser() -> Iterator[Any]:
    pytest.importorskip(
        "playwright.sync_api", reason="Playwright's Python package is missing: pip install playwright"
    )
    reason = ensure_chromium()
    if reason is not None:
        pytest.skip(f"no chromium for the browser tests: {reason}")
    with chromium() as browser:
        yield browser


@pytest.fixture(scope="session")
def console_app() -> Iterator[Flask]:
    application = make_app()
    yield application
    application.extensions["judge"].close()


@pytest.fixture(scope="session")
def base(console_app: Flask) -> Iterator[str]:
    with serve(console_app) as url:
        yield url
