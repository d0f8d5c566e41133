"""The two kinds of schema: request bodies, which refuse unknown keys, and
answers, which may leave out optional parts that are null."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from marshmallow import Schema, ValidationError, fields, post_dump, pre_load

from ..problems import MAX_FIELD_ERRORS
from .messages import FieldCode, Message, code_field


class RequestSchema(Schema):
    """A request body or a part of one. Unknown keys are refused (each is an
    error), but an object with far more keys than the schema knows is
    refused as a whole, so that a body of a million keys costs one error.

    Every message it gives has a code (:mod:`.messages`): marshmallow's own
    are coded as each field is bound."""

    # marshmallow's own class attribute, as it declares it (read when a schema is made).
    error_messages: dict[str, str] = {  # noqa: RUF012
        "unknown": Message.awaiting(FieldCode.UNKNOWN_FIELD),
        "type": Message.awaiting(FieldCode.NOT_AN_OBJECT),
    }

    def on_bind_field(self, field_name: str, field_obj: fields.Field[Any]) -> None:
        code_field(field_obj)

    @pre_load
    def not_too_many_keys(self, data: Any, **kwargs: Any) -> Any:
        known = len(self.load_fields)
        if isinstance(data, Mapping) and len(data) > known + MAX_FIELD_ERRORS:
            raise ValidationError(Message.of(FieldCode.TOO_MANY_KEYS, keys=len(data), most=known))
        return data


class PlainFirst(RequestSchema):
    """A request schema whose common, plainly valid body is read by
    :meth:`plain` (a plain function giving exactly what ``Schema.load``
    gives, or None); anything else is loaded, and explained, by marshmallow.
    A table sends such a request for every round it deals
    (docs/adr/0003-plain-paths-for-hot-requests-and-answers.md)."""

    @staticmethod
    def plain(value: Any) -> Any:
        """What ``Schema.load(value)`` gives when ``value`` is plainly valid, else None."""
        return None

    def load(
        self,
        data: Any,
        *,
        many: bool | None = None,
        partial: Any = None,
        unknown: Any = None,
    ) -> Any:
        if many is None and partial is None and unknown is None:
            request = self.plain(data)
            if request is not None:
                return request
        return super().load(data, many=many, partial=partial, unknown=unknown)


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


class PlainDump(AnswerSchema):
    """An answer schema whose dump of one object is :meth:`plain`, a plain
    function writing exactly what marshmallow would (a table's answers carry
    thousands of settled bets: docs/adr/0003-plain-paths-for-hot-requests-and-answers.md).
    So ``@blp.response`` runs it, and the schema stays the one way out.
    :meth:`marshmallow_dump` is marshmallow's own, which the tests hold it equal to."""

    #: The plain writer (a ``staticmethod``): what ``marshmallow_dump(obj)`` gives.
    plain: ClassVar[Callable[..., dict[str, Any]]]

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        if many is None:
            return type(self).plain(obj)
        return super().dump(obj, many=many)

    def marshmallow_dump(self, obj: Any) -> dict[str, Any]:
        """The answer as marshmallow writes it from the fields."""
        dumped: dict[str, Any] = super().dump(obj, many=False)
        return dumped
