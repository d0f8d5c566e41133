"""The schemas' messages: each a code with marshmallow's own words or the
service's, filled as marshmallow fills a template, and every message a
request schema can give coded when its fields are bound."""

from __future__ import annotations

from typing import Any

import pytest
from marshmallow import Schema, ValidationError, fields, validate
from webargs.core import Parser

from service.baccarat.rulebook.errors import PROBLEM_TEMPLATES, ProblemCode
from service.contract.schemas.base import RequestSchema
from service.contract.schemas.messages import (
    ERROR_TEMPLATES,
    FIELD_TEMPLATES,
    FieldCode,
    Message,
    code_field,
    coded,
    placeholders,
)

#: marshmallow's (and webargs') own words for each code that takes them.
LIBRARY_WORDS = {
    FieldCode.REQUIRED: fields.Field.default_error_messages["required"],
    FieldCode.NULL_NOT_ALLOWED: fields.Field.default_error_messages["null"],
    FieldCode.INVALID_VALUE: fields.Field.default_error_messages["validator_failed"],
    FieldCode.UNKNOWN_FIELD: Schema._default_error_messages["unknown"],
    FieldCode.NOT_AN_OBJECT: Schema._default_error_messages["type"],
    FieldCode.WRONG_TYPE: fields.Nested.default_error_messages["type"],
    FieldCode.NOT_A_STRING: fields.String.default_error_messages["invalid"],
    FieldCode.NOT_UTF8: fields.String.default_error_messages["invalid_utf8"],
    FieldCode.NOT_AN_INTEGER: fields.Integer.default_error_messages["invalid"],
    FieldCode.NUMBER_TOO_LARGE: fields.Number.default_error_messages["too_large"],
    FieldCode.NOT_A_BOOLEAN: fields.Boolean.default_error_messages["invalid"],
    FieldCode.NOT_A_LIST: fields.List.default_error_messages["invalid"],
    FieldCode.NOT_A_MAPPING: fields.Mapping.default_error_messages["invalid"],
    FieldCode.TOO_SHORT: validate.Length.message_min,
    FieldCode.TOO_LONG: validate.Length.message_max,
    FieldCode.LENGTH_OUT_OF_RANGE: validate.Length.message_all,
    FieldCode.WRONG_LENGTH: validate.Length.message_equal,
    FieldCode.UNDER_MINIMUM: validate.Range(min=0).message_min,
    FieldCode.OVER_MAXIMUM: validate.Range(max=0).message_max,
    FieldCode.OUT_OF_RANGE: validate.Range(0, 1).message_all,
    FieldCode.NOT_ONE_OF: validate.OneOf(()).error,
}


@pytest.mark.parametrize(("code", "words"), LIBRARY_WORDS.items())
def test_marshmallow_s_messages_keep_marshmallow_s_words(code, words):
    assert FIELD_TEMPLATES[code] == words


def test_webargs_says_what_marshmallow_says_of_a_refused_value():
    assert FIELD_TEMPLATES[FieldCode.INVALID_VALUE] == Parser.DEFAULT_VALIDATION_MESSAGE


def test_every_code_has_one_template_and_the_schemas_codes_are_not_the_engine_s():
    assert set(FIELD_TEMPLATES) == set(FieldCode)
    assert not {str(code) for code in FieldCode} & {str(code) for code in ProblemCode}
    assert dict(ERROR_TEMPLATES) == {**PROBLEM_TEMPLATES, **FIELD_TEMPLATES}
    assert len(set(ERROR_TEMPLATES.values())) == len(ERROR_TEMPLATES)


def test_a_message_is_its_sentence_with_its_code_and_values():
    message = Message.of(FieldCode.GIVEN_TWICE, times=3)
    assert message == "Given 3 times: give it once."
    assert (message.code, message.values) == (FieldCode.GIVEN_TWICE, {"times": 3})
    assert Message.of(FieldCode.TOO_MANY_BETS, bets=30_001, most=30_000) == (
        "30,001 bets in all: at most 30,000 per request"
    )


def test_marshmallow_fills_a_message_keeping_only_the_values_its_template_names():
    error = validate.Length(1, 3, error=Message.awaiting(FieldCode.LENGTH_OUT_OF_RANGE))
    with pytest.raises(ValidationError) as caught:
        error([1, 2, 3, 4])
    (message,) = caught.value.messages
    assert isinstance(message, Message)
    assert message == "Length must be between 1 and 3."
    assert message.values == {"min": 1, "max": 3}


def test_a_message_of_words_no_code_has_is_refused():
    assert coded("Unknown field.").code is FieldCode.UNKNOWN_FIELD
    with pytest.raises(LookupError, match="has no code"):
        coded("Something else went wrong.")


def test_a_field_bound_to_a_request_schema_writes_only_coded_messages():
    field = fields.List(fields.Integer(validate=validate.Range(1, 8)), validate=validate.Length(max=2))
    code_field(field)
    assert all(isinstance(message, Message) for message in field.error_messages.values())
    assert all(isinstance(message, Message) for message in field.inner.error_messages.values())
    (length,) = field.validators
    assert isinstance(length.message_max, Message)
    assert not isinstance(validate.Length.message_max, Message)  # the library's own is untouched


# (Fields, not schemas: a request schema made here would stay among
# RequestSchema's subclasses, which other tests go over.)
def test_a_field_with_a_message_no_code_has_cannot_be_bound():
    with pytest.raises(LookupError, match="has no code"):
        code_field(fields.Integer(validate=validate.Range(1, 8, error="one to eight")))
    with pytest.raises(LookupError, match="has no code"):
        code_field(fields.Integer(error_messages={"invalid": "Not a number, is it?"}))


def test_a_validator_of_a_kind_the_schemas_do_not_use_cannot_be_bound():
    with pytest.raises(LookupError, match="Email"):
        code_field(fields.String(validate=validate.Email()))


def test_a_request_schema_codes_its_fields_as_it_binds_them():
    assert RequestSchema.on_bind_field is not Schema.on_bind_field
    schema = request_schemas()[0]()
    assert all(isinstance(message, Message) for message in schema.error_messages.values())


def request_schemas() -> list[type[RequestSchema]]:
    """Every request schema of the contract (the modules import them all)."""
    import service.app  # noqa: F401  (every schema module, through the views)

    found: list[type[RequestSchema]] = []
    pending: list[type[Any]] = [RequestSchema]
    while pending:
        kind = pending.pop()
        for sub in kind.__subclasses__():
            pending.append(sub)
            if sub.__module__.startswith("service."):
                found.append(sub)
    return found


def bound_fields(schema: Schema) -> list[fields.Field[Any]]:
    """The fields of ``schema`` and those inside them, nested schemas' too."""
    found, pending = [], list(schema.fields.values())
    while pending:
        field = pending.pop()
        found.append(field)
        if isinstance(field, fields.List):
            pending.append(field.inner)
        elif isinstance(field, fields.Mapping):
            pending.extend(each for each in (field.key_field, field.value_field) if each is not None)
        elif isinstance(field, fields.Nested) and isinstance(field.schema, Schema):
            pending.extend(field.schema.fields.values())
    return found


def written_codes() -> set[str]:
    """The codes of every message the request schemas' fields and validators can write."""
    codes: set[str] = {str(message.code) for message in RequestSchema.error_messages.values()}
    for kind in request_schemas():
        for field in bound_fields(kind()):
            for message in field.error_messages.values():
                assert isinstance(message, Message), (kind, field, message)
                codes.add(str(message.code))
            for validator in field.validators:
                for name in ("error", "message_min", "message_max", "message_all", "message_equal"):
                    message = getattr(validator, name, None)
                    if message is not None:
                        assert isinstance(message, Message), (kind, field, name)
                        codes.add(str(message.code))
    return codes


def test_every_message_a_request_schema_can_write_is_coded():
    assert {str(code) for code in LIBRARY_WORDS} <= written_codes()


def test_placeholders_are_the_names_a_template_is_filled_with():
    assert placeholders("{bets:,} bets in all: at most {most:,} per request") == ("bets", "most")
    assert placeholders("an object {{card, hand}}") == ()
