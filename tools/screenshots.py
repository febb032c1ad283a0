"""Screenshots of the console for the README: a match page (desktop 1280x800 and phone 390x844) and the
position editor, taken in Debian's chromium from the app served with an in-memory store.

    python -m tools.screenshots docs/screenshots      (or: wixoss-judge screenshots docs/screenshots)
"""

from __future__ import annotations

import argparse
import secrets
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from app import create_app
from tests.loopback import call
from tools.browser import DESKTOP, PHONE, chromium, ensure_chromium, open_page, serve, sign_in

PREFERENCE = ("attack", "life_burst", "grow", "play_signi", "use_arts", "ener_charge", "discard", "choose")


def _play(port: int, token: str, mid: str, steps: int) -> None:
    for _ in range(steps):
        _, body = call(port, "GET", f"/matches/{mid}/legal-actions", token=token)
        actions = sorted(
            body["actions"], key=lambda a: PREFERENCE.index(a["type"]) if a["type"] in PREFERENCE else 99
        )
        if not actions:
            return
        call(port, "POST", f"/matches/{mid}/actions", {"action": actions[0]}, token=token)


def _ready(page: Any) -> None:
    page.wait_for_selector("main[data-ready='yes']", timeout=20000)
    page.wait_for_timeout(700)  # the plots


def take(folder: Path) -> list[Path]:
    """Takes the screenshots into ``folder``; returns the files written."""
    reason = ensure_chromium()
    if reason is not None:
        raise SystemExit(f"screenshots need chromium: {reason}")
    folder.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(16)
    app = create_app({"TESTING": True, "JUDGE_TOKEN": token, "PERSISTENCE_MODULE": "eventsourcing.popo"})
    written = []
    with serve(app) as base, chromium() as browser:
        port = int(urlparse(base).port or 0)
        body = {
            "format": "diva",
            "seed": 5,
            "first_player": "p1",
            "players": {"p1": {"name": "Ann", "deck": "WXDi-D01"}, "p2": {"name": "Bo", "deck": "WXDi-D02"}},
        }
        _, made = call(port, "POST", "/matches", body, token=token)
        mid = made["id"]
        _play(port, token, mid, 75)
        _, timeline = call(port, "GET", f"/matches/{mid}/timeline", token=token)
        point = [p["n"] for p in timeline["points"] if p["decision_point"] and p["phase"] == "main"][-1]
        for name, viewport in (("match-desktop.png", DESKTOP), ("match-phone.png", PHONE)):
            context, page, _ = open_page(browser, base, viewport)
            sign_in(page, base, token)
            page.goto(f"{base}/console/matches/{mid}?at={point}&viewer=judge")
            _ready(page)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(folder / name))
            written.append(folder / name)
            context.close()
        context, page, _ = open_page(browser, base, DESKTOP)
        sign_in(page, base, token)
        page.goto(f"{base}/console/positions/new")
        page.wait_for_selector("#card-search")
        for target, query in (
            ("p1 lrig center", "At =Tre="),
            ("p1 lrig left", "Tawil =Rainbow="),
            ("p1 signi left", "Sen no Rikyu"),
            ("p1 pile hand", "Polygenesis"),
            ("p2 signi center", "Code 2434"),
        ):
            page.select_option("#target", target)
            page.fill("#card-search", query)
            page.wait_for_selector(f"ul.results[data-query='{query}'] button.pick", timeout=10000)
            page.locator("ul.results button.pick").first.click()
        page.fill("#card-search", "Code 2434")
        page.wait_for_selector("ul.results[data-query='Code 2434'] button.pick")
        page.screenshot(path=str(folder / "position-editor.png"))
        written.append(folder / "position-editor.png")
        context.close()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path, help="where to write the PNG files")
    args = parser.parse_args(argv)
    for path in take(args.folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
