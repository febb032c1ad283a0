"""The console plays the original one-LRIG format (issue 16) as it plays Diva Selection: a judge picks the
format on the new-match form, which then offers that format's demo decks (``GET /decks?format=original``),
plays the match to its end by clicking legal-action buttons only, the board shows one LRIG per player (no
assist zones: orig.setup.face-down) and the ARTS use step of the attack phase (orig.attack.arts-step); the
position editor posts an original-format position and names the assist LRIG it would refuse."""

from __future__ import annotations

import re
import time
from typing import Any
from urllib.parse import urlparse

import pytest

from tests.browser.test_console import click_one_action, ready
from tests.conftest import JUDGE_TOKEN
from tests.loopback import call
from tools.browser import DESKTOP, open_page, sign_in


def pick(page: Any, card: str) -> None:
    """Searches the catalogue for ``card`` and puts it into the zone the editor's target names."""
    page.fill("#card-search", card)
    page.wait_for_selector(f"ul.results[data-query='{card}'] button.pick[data-card='{card}']", timeout=10000)
    page.locator(f"ul.results button.pick[data-card='{card}']").click()


@pytest.mark.slow
def test_a_judge_creates_and_plays_an_original_format_match_by_clicking(
    chromium_browser: Any, base: str
) -> None:
    port = int(urlparse(base).port or 0)
    context, page, traffic = open_page(chromium_browser, base, DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        sign_in(page, base, JUDGE_TOKEN)
        diva_decks = page.locator("select[name='p1 deck'] option").all_inner_texts()
        assert diva_decks and all(d.startswith(("WXDi-", "SAMPLE-")) for d in diva_decks)
        page.select_option("#format", "original")
        page.wait_for_function(
            "document.querySelector(\"select[name='p1 deck'] option\")?.value.startsWith('DEMO-WD')"
        )
        _, listed = call(port, "GET", "/decks?format=original", token=JUDGE_TOKEN)
        demo = [d["id"] for d in listed["decks"]]
        assert page.locator("select[name='p1 deck'] option").all_inner_texts() == demo
        page.select_option("select[name='p2 deck']", demo[2])
        page.fill("#seed", "3")
        page.select_option("#first-player", "p1")
        page.click("#create")
        page.wait_for_url(re.compile(r"/console/matches/[0-9a-f-]{36}"))
        ready(page)
        mid = urlparse(page.url).path.rsplit("/", 1)[1]
        _, state = call(port, "GET", f"/matches/{mid}/state", token=JUDGE_TOKEN)
        assert state["format"] == "original"

        assert page.locator(".board .slot.lrig.unused").count() == 4, "no assist zones for either player"
        assert "none in this format" in page.inner_text(".board .slot.lrig.left")
        assert "original format" in page.inner_text(".board .phase")

        steps_seen: set[str] = set()
        started = time.monotonic()
        clicks = 0
        while page.get_attribute("main", "data-status") != "finished":
            steps_seen.add(page.inner_text(".board .phase"))
            click_one_action(page)
            clicks += 1
            assert clicks < 500 and time.monotonic() - started < 200, (
                f"the match did not end ({clicks} clicks)"
            )
        assert "Finished" in page.inner_text(".board .phase")
        assert any("arts use" in s for s in steps_seen), "the ARTS use step was shown"
        assert not any("pre attack" in s or "defense" in s for s in steps_seen), "no Diva attack steps"
        _, final = call(port, "GET", f"/matches/{mid}", token=JUDGE_TOKEN)
        assert final["status"] == "finished"
        _, audit = call(port, "GET", f"/matches/{mid}/audit", token=JUDGE_TOKEN)
        assert audit["ok"] is True
        assert traffic.blocked == [] and not errors, (traffic.blocked, errors)
    finally:
        context.close()


def test_the_position_editor_posts_an_original_format_position(chromium_browser: Any, base: str) -> None:
    context, page, traffic = open_page(chromium_browser, base, DESKTOP)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        sign_in(page, base, JUDGE_TOKEN)
        page.goto(f"{base}/console/positions/new")
        page.wait_for_selector("#position-format")
        page.select_option("#position-format", "original")
        steps = [o.get_attribute("value") for o in page.locator("#step option").all()]
        assert steps == ["", "arts_use", "signi_attack", "lrig_attack", "guard"]
        for player in ("p1", "p2"):
            page.select_option("#target", f"{player} lrig center")
            pick(page, "WD01-005" if player == "p1" else "WD02-005")
        page.select_option("#target", "p1 lrig left")
        pick(page, "WD03-005")
        assert "original format plays one LRIG" in page.inner_text(".problems")
        page.click('button[aria-label="Empty p1\'s left lrig zone"]')
        assert "original format plays one LRIG" not in page.inner_text(".problems")
        page.click("#post-position")
        page.wait_for_url(re.compile(r"/console/matches/[0-9a-f-]{36}"))
        ready(page)
        assert "original format" in page.inner_text(".board .phase")
        assert page.locator(".board .slot.lrig.unused").count() == 4
        assert traffic.blocked == [] and not errors, (traffic.blocked, errors)
    finally:
        context.close()
