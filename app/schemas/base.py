"""Base schemas and the fields the API needs beyond marshmallow's own.

- ``RequestSchema``: a request body; unknown fields are refused (``RAISE``).
- ``QuerySchema``: a query string; parameters the service does not know are ignored.
- ``ResponseSchema``: a response; fields the schema does not name are passed through unchanged, so that a
  field the domain adds is not lost (the contract welcomes extra fields), and the document says so.
- ``OneOf``: a value that is one of several shapes (a card given as an id or as an object).
- ``ActionField``: an action, checked by the domain's own ``parse_action`` and documented as one schema per
  action type.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from marshmallow import EXCLUDE, INCLUDE, RAISE, Schema, ValidationError, fields, post_dump

from domain.actions import parse_action
from domain.errors import InvalidAction


class RequestSchema(Schema):
    class Meta:
        unknown = RAISE


class QuerySchema(Schema):
    class Meta:
        unknown = EXCLUDE


class ResponseSchema(Schema):
    class Meta:
        unknown = INCLUDE

    @post_dump(pass_original=True)
    def _keep_extra_fields(self, data: dict[str, Any], original: Any, **_: Any) -> dict[str, Any]:
        if isinstance(original, Mapping):
            for key, value in original.items():
                if key not in self.fields:
                    data.setdefault(key, value)
        return data


class OneOf(fields.Field):
    """The first of ``alternatives`` that loads the value; dumped as it is."""

    def __init__(self, alternatives: Sequence[fields.Field], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.alternatives = list(alternatives)

    def _bind_to_schema(self, field_name: str, parent: Any) -> None:
        super()._bind_to_schema(field_name, parent)
        for alt in self.alternatives:
            alt._bind_to_schema(field_name, parent)

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> Any:
        errors: list[Any] = []
        for alt in self.alternatives:
            try:
                return alt.deserialize(value, attr, data, **kwargs)
            except ValidationError as exc:
                errors.append(exc.messages)
        raise ValidationError(self.error_messages.get("one_of", _one_of_message(errors)))

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


def _one_of_message(errors: list[Any]) -> str:
    parts = []
    for e in errors:
        if isinstance(e, Mapping):
            parts.append(
                ", ".join(f"{k}: {' '.join(map(str, v)) if isinstance(v, list) else v}" for k, v in e.items())
            )
        elif isinstance(e, list):
            parts.append(" ".join(map(str, e)))
        else:
            parts.append(str(e))
    return "matches none of the allowed shapes (" + "; or ".join(parts) + ")"


class ActionField(fields.Field):
    """An action object (``{"player": "p1", "type": "pass"}``), checked for shape by ``parse_action``."""

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> Any:
        try:
            parse_action(value)
        except InvalidAction as exc:
            raise ValidationError(str(exc)) from None
        return value

    def _serialize(self, value: Any, attr: str | None, obj: Any, **kwargs: Any) -> Any:
        return value


class StrictBoolean(fields.Boolean):
    """``true`` or ``false`` in JSON, nothing else (not 1, not "yes")."""

    def _deserialize(
        self, value: Any, attr: str | None, data: Mapping[str, Any] | None, **kwargs: Any
    ) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value
