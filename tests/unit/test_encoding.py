"""The HTTP layer's JSON encoder gives the same JSON as the standard library's, faster, and falls back to it
for what orjson refuses."""

from __future__ import annotations

import json
import uuid
from datetime import date

from flask import Flask

from app.encoding import OrjsonProvider


def provider() -> OrjsonProvider:
    return OrjsonProvider(Flask(__name__))


def test_the_same_json_as_the_standard_library() -> None:
    value = {"b": [1, 2.5, None, True], "a": {"z": "名前", "y": -3}, "c": ""}
    text = provider().dumps(value)
    assert json.loads(text) == value
    assert text == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_other_types_and_big_integers() -> None:
    p = provider()
    u = uuid.UUID(int=7)
    assert json.loads(p.dumps({"id": u, "day": date(2026, 11, 22)})) == {"id": str(u), "day": "2026-11-22"}
    big = 2**70
    assert json.loads(p.dumps({"n": big})) == {"n": big}


def test_a_response_is_compact_json_with_a_newline() -> None:
    app = Flask(__name__)
    app.json = OrjsonProvider(app)
    with app.app_context():
        r = app.json.response({"k": [1, 2], "a": 2**70})
    assert r.mimetype == "application/json"
    assert r.get_data(as_text=True) == f'{{"a":{2**70},"k":[1,2]}}\n'
