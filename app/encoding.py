"""JSON out of the HTTP layer, encoded with orjson: the same JSON as Flask's default provider (keys sorted,
compact), about ten times faster on a match state, which is most of what a state request costs. Non-ASCII
text is sent as UTF-8 rather than escaped (the same JSON), and a date as ISO 8601 (``2026-11-22``)."""

from __future__ import annotations

from typing import Any

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider

OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS


class OrjsonProvider(DefaultJSONProvider):
    """Flask's JSON provider with orjson for encoding. What orjson does not know (a Decimal) goes through
    Flask's own ``default``; what it refuses (an integer beyond 64 bits) is encoded by the standard
    library as before. Decoding stays with the standard library, whose errors the request parsing reports."""

    def _encode(self, obj: Any, option: int = 0) -> bytes | None:
        try:
            return orjson.dumps(obj, default=self.default, option=OPTIONS | option)
        except orjson.JSONEncodeError:
            return None

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        if not kwargs:
            encoded = self._encode(obj)
            if encoded is not None:
                return encoded.decode("utf-8")
        return super().dumps(obj, **kwargs)

    def response(self, *args: Any, **kwargs: Any) -> Response:
        obj = self._prepare_response_obj(args, kwargs)
        pretty = (self.compact is None and self._app.debug) or self.compact is False
        body = None if pretty else self._encode(obj, orjson.OPT_APPEND_NEWLINE)
        if body is None:
            return super().response(obj)
        return self._app.response_class(body, mimetype=self.mimetype)
