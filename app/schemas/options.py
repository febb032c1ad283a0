"""The ``options`` of a match, a position or a deck check: the points of a format no rules text settles
(``domain.formats.FormatOption``, docs/FORMATS.md). Checked against the request's format: an option the format
does not have, or a value it does not take, is refused, named under ``errors.options``."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validates_schema

from domain.formats import FORMATS


def _option_words() -> str:
    parts = []
    for fmt in FORMATS.values():
        if not fmt.options:
            parts.append(f"`{fmt.name}` has none")
            continue
        each = []
        for o in fmt.options:
            values = "|".join(o.values) if o.values else f"{o.minimum}-{o.maximum}"
            each.append(f"`{o.name}` ({values}, default `{o.default}`)")
        parts.append(f"`{fmt.name}`: {', '.join(each)}")
    return "; ".join(parts)


def options_field() -> fields.Field:
    return fields.Dict(
        keys=fields.String(),
        load_default=dict,
        metadata={
            "description": "the format's options, the points no rules text settles (docs/FORMATS.md); an "
            f"option left out takes its default (today's behaviour). {_option_words()}"
        },
    )


class FormatOptionsMixin(Schema):
    """Checks ``options`` against the format named in the same request (``format``, default ``diva``)."""

    @validates_schema
    def _check_options(self, data: dict[str, Any], **_: Any) -> None:
        fmt = FORMATS.get(data.get("format", "diva"))
        if fmt is None:  # an unknown format is refused on its own
            return
        problems = fmt.option_problems(data.get("options") or {})
        if problems:
            raise ValidationError({"options": {name: [why] for name, why in problems.items()}})
