"""The judge console: a web page over the API, for judges and players at the table.

The pages are static and public: one HTML shell (the console decides what to show from the address), ES
modules and a style sheet under ``app/static/console``. They hold no data; everything the page shows comes
from the API with the token the user pasted into the tab, so what a page may see is what that token may see.
Nothing is fetched from elsewhere: the console works offline.
"""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, Response, abort

from app.endpoint import endpoint

bp = Blueprint("console", __name__)

FILES = Path(__file__).parent / "static" / "console"
SHELL = "index.html"
PAGE = "The judge console: a page of HTML whose scripts read the API with the token given in the tab"


TYPES = {".js": "text/javascript", ".css": "text/css", ".html": "text/html", ".svg": "image/svg+xml"}


def _file(name: str) -> bytes:
    """A file of the console, read whole (they are small): nothing is left open when a browser hangs up."""
    return (FILES / name).read_bytes()


def _shell() -> Response:
    response = Response(_file(SHELL), mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Content-Security-Policy"] = (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.get("/console/")
@endpoint(
    "The console: sign in and the list of matches", tag="console", response=None, content_type="text/html"
)
def console_matches() -> Response:
    return _shell()


@bp.get("/console/matches/<match>")
@endpoint(
    "The console: a match (board, timeline, log, actions, rulings)",
    tag="console",
    response=None,
    content_type="text/html",
    path_params={"match": "the match's id; the query `at=N&viewer=V` says which moment and whose view"},
    path_examples={"match": "0f8e4a52-5a43-4c1b-9a59-2f4e3e1d6c7b"},
    description=PAGE + ". The address is the page's state: `?at=N&viewer=V` opens the board after event N "
    "as V sees it (judge, p1, p2 or spectator; the viewer is the judge's to choose).",
)
def console_match(match: str) -> Response:
    return _shell()


@bp.get("/console/positions/new")
@endpoint("The console: the position editor", tag="console", response=None, content_type="text/html")
def console_position_editor() -> Response:
    return _shell()


@bp.get("/console/files/<name>")
@endpoint(
    "A file of the console (an ES module, the style sheet or an image)",
    tag="console",
    response=None,
    content_type="text/javascript",
    errors=(404,),
    path_params={"name": "the file's name, e.g. `main.js`"},
    path_examples={"name": "main.js"},
)
def console_file(name: str) -> Response:
    path = (FILES / name).resolve()
    if name == SHELL or path.parent != FILES.resolve() or not path.is_file() or path.suffix not in TYPES:
        abort(404)
    response = Response(_file(path.name), mimetype=TYPES[path.suffix])
    response.headers["Cache-Control"] = "public, max-age=300"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response
