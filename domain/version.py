"""Which engine wrote a match: recorded in the match's first event and in every ``Branched`` event.

A release that changes what the engine decides raises ``ENGINE_VERSION`` (and the package version in
``pyproject.toml`` with it), so that a judge reading an old log knows which rules wrote it. A match written
before engine versions were recorded reads as ``ENGINE_UNKNOWN``.
"""

from __future__ import annotations

ENGINE_NAME = "wixoss-judge"
ENGINE_VERSION = "0.4.0"
ENGINE = f"{ENGINE_NAME} {ENGINE_VERSION}"
ENGINE_UNKNOWN = "unknown (before 0.2.0)"
