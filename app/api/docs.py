"""GET /, GET /openapi.yaml, GET /docs: the service's own description, readable offline."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, redirect, request

from app.docs_page import render_docs
from app.endpoint import endpoint
from app.openapi import API_VERSION, TITLE, cached_spec
from app.schemas.common import IndexSchema

bp = Blueprint("docs", __name__)


CONSOLE = "/console/"


@bp.get("/")
@endpoint(
    "Where to start",
    tag="docs",
    response=IndexSchema,
    description="Where the documentation is. A browser (a request whose `Accept` header prefers "
    f"`text/html` to `application/json`) is sent to the judge console, `{CONSOLE}`, with 303 See Other.",
)
def index() -> tuple[dict[str, Any], dict[str, str]] | Response:
    if _prefers_html():
        response = redirect(CONSOLE, code=303)
        response.headers["Vary"] = "Accept"
        return response
    return {"name": TITLE, "version": API_VERSION, "docs": "/docs", "openapi": "/openapi.yaml"}, {
        "Vary": "Accept"
    }


def _prefers_html() -> bool:
    accept = request.accept_mimetypes
    if not accept.provided:
        return False
    best = accept.best_match(("application/json", "text/html"), default="application/json")
    return best == "text/html" and accept["text/html"] > accept["application/json"]


@bp.get("/openapi.yaml")
@endpoint("The OpenAPI document", tag="docs", response=None, content_type="application/yaml")
def openapi_yaml() -> Response:
    _, text = cached_spec(current_app._get_current_object())  # type: ignore[attr-defined]
    return Response(text, mimetype="application/yaml")


@bp.get("/docs")
@endpoint("The API documentation as a web page", tag="docs", response=None, content_type="text/html")
def docs_page() -> Response:
    spec, _ = cached_spec(current_app._get_current_object())  # type: ignore[attr-defined]
    return Response(render_docs(spec), mimetype="text/html")
