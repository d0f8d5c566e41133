"""The two kinds of schema: request bodies, which refuse unknown keys, and
answers, which may leave out optional parts that are null."""

from __future__ import annotations

from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, post_dump, pre_load

from ..problems import MAX_FIELD_ERRORS


class RequestSchema(Schema):
    """A request body or a part of one. Unknown keys are refused (each is an
    error), but an object with far more keys than the schema knows is
    refused as a whole, so that a body of a million keys costs one error."""

    @pre_load
    def not_too_many_keys(self, data: Any, **kwargs: Any) -> Any:
        known = len(self.load_fields)
        if isinstance(data, dict) and len(data) > known + MAX_FIELD_ERRORS:
            raise ValidationError(f"An object of {len(data)} keys: this one has at most {known}.")
        return data


class AnswerSchema(Schema):
    """An answer. Keys named in :attr:`OMIT_IF_NONE` are left out when null
    (a round without bets has no ``settlement`` key rather than ``null``)."""

    OMIT_IF_NONE: ClassVar[frozenset[str]] = frozenset()

    @post_dump
    def omit_none(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        for key in self.OMIT_IF_NONE:
            if key in data and data[key] is None:
                del data[key]
        return data
