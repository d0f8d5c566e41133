"""The schemas' messages: each field error a request can get is a code from a
closed set and the values its English template is filled with, so that a
caller can act on the code and the service can write the sentence in the
caller's language (docs/errors.md).

A :class:`Message` is a ``str``, the English sentence, that also knows its
code and values: marshmallow carries it as it carries any message. The
service's own fields and schemas raise them (:meth:`Message.of`), and the
messages marshmallow writes itself (a missing field, a value out of range,
an unknown key) are coded where a field is bound to a request schema
(:func:`code_field`, from ``RequestSchema.on_bind_field``): each of the
field's and its validators' templates is replaced by the :class:`Message`
of the same English words (:data:`FIELD_TEMPLATES` holds marshmallow's own
templates, word for word), which marshmallow fills as it fills any template
(``str.format``). So marshmallow stays the one source of validation and
writes every message; a template of its that has no code stops the schema
from being made, and the app from starting.

The codes of the engine's problems (:class:`~service.baccarat.rulebook.errors.ProblemCode`)
are codes of field errors too, and a schema that checks what the engine
checks gives the engine's code: :data:`ERROR_TEMPLATES` is every code's
template, the set the contract declares as ``ErrorCode``.

>>> Message.of(FieldCode.TOO_MANY_ENTRIES, most=50)
'At most 50 entries.'
>>> message = Message.awaiting(FieldCode.LENGTH_OUT_OF_RANGE)
>>> filled = message.format(input=[1, 2, 3], min=1, max=2, equal=None)
>>> filled, str(filled.code), filled.values
('Length must be between 1 and 2.', 'length_out_of_range', {'min': 1, 'max': 2})
"""

from __future__ import annotations

import copy
import string
from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from marshmallow import fields, validate

from ...baccarat.rulebook.errors import N_, PROBLEM_TEMPLATES, ProblemCode, Sentence


class FieldCode(StrEnum):
    """What is wrong with a field of a request, as its schema finds it."""

    # marshmallow's own messages, for the fields and validators the schemas use
    REQUIRED = "required"
    NULL_NOT_ALLOWED = "null_not_allowed"
    INVALID_VALUE = "invalid_value"
    UNKNOWN_FIELD = "unknown_field"
    NOT_AN_OBJECT = "not_an_object"
    WRONG_TYPE = "wrong_type"
    NOT_A_STRING = "not_a_string"
    NOT_UTF8 = "not_utf8"
    NOT_AN_INTEGER = "not_an_integer"
    NUMBER_TOO_LARGE = "number_too_large"
    NOT_A_BOOLEAN = "not_a_boolean"
    NOT_A_LIST = "not_a_list"
    NOT_A_MAPPING = "not_a_mapping"
    TOO_SHORT = "too_short"
    TOO_LONG = "too_long"
    LENGTH_OUT_OF_RANGE = "length_out_of_range"
    WRONG_LENGTH = "wrong_length"
    UNDER_MINIMUM = "under_minimum"
    OVER_MAXIMUM = "over_maximum"
    OUT_OF_RANGE = "out_of_range"
    NOT_ONE_OF = "not_one_of"
    # the service's own
    TOO_MANY_KEYS = "too_many_keys"
    TOO_MANY_ENTRIES = "too_many_entries"
    ITEMS_NOT_CHECKED = "items_not_checked"
    MORE_ERRORS = "more_errors"
    GIVEN_TWICE = "given_twice"
    APPROVED_TABLES_ONLY = "approved_tables_only"
    LONE_SURROGATE = "lone_surrogate"
    CARD_NOT_A_STRING = "card_not_a_string"
    NOT_A_CARD = "not_a_card"
    NOT_A_DEALT_CARD = "not_a_dealt_card"
    AMOUNT_NOT_A_STRING = "amount_not_a_string"
    AMOUNT_WITH_EXPONENT = "amount_with_exponent"
    NOT_A_PLAIN_AMOUNT = "not_a_plain_amount"
    AMOUNT_NOT_POSITIVE = "amount_not_positive"
    NOT_A_COMMISSION = "not_a_commission"
    NOT_TRUE_OR_FALSE = "not_true_or_false"
    NOT_AN_OUTCOME = "not_an_outcome"
    NOT_A_RESULT = "not_a_result"
    MIN_OVER_MAX = "min_over_max"
    CARDS_AND_SEED = "cards_and_seed"
    SEED_AND_SERVER_SEED = "seed_and_server_seed"
    WITHOUT_SERVER_SEED = "without_server_seed"
    COMMITMENT_WITHOUT_SEED = "commitment_without_seed"
    NOT_A_SHA256 = "not_a_sha256"
    CUT_CARD_POSITION_WITHOUT_CARDS = "cut_card_position_without_cards"
    BETS_AND_BETS_BY_ROUND = "bets_and_bets_by_round"
    ROUND_TWICE = "round_twice"
    TOO_MANY_BETS = "too_many_bets"
    CHIP_NOT_ABOVE_PREVIOUS = "chip_not_above_previous"


#: Each code's English template. marshmallow's are its own words, which
#: tests/contract/schemas/test_messages.py holds equal to the library's.
FIELD_TEMPLATES: Mapping[FieldCode, str] = MappingProxyType(
    {
        FieldCode.REQUIRED: N_("Missing data for required field."),
        FieldCode.NULL_NOT_ALLOWED: N_("Field may not be null."),
        FieldCode.INVALID_VALUE: N_("Invalid value."),
        FieldCode.UNKNOWN_FIELD: N_("Unknown field."),
        FieldCode.NOT_AN_OBJECT: N_("Invalid input type."),
        FieldCode.WRONG_TYPE: N_("Invalid type."),
        FieldCode.NOT_A_STRING: N_("Not a valid string."),
        FieldCode.NOT_UTF8: N_("Not a valid utf-8 string."),
        FieldCode.NOT_AN_INTEGER: N_("Not a valid integer."),
        FieldCode.NUMBER_TOO_LARGE: N_("Number too large."),
        FieldCode.NOT_A_BOOLEAN: N_("Not a valid boolean."),
        FieldCode.NOT_A_LIST: N_("Not a valid list."),
        FieldCode.NOT_A_MAPPING: N_("Not a valid mapping type."),
        FieldCode.TOO_SHORT: N_("Shorter than minimum length {min}."),
        FieldCode.TOO_LONG: N_("Longer than maximum length {max}."),
        FieldCode.LENGTH_OUT_OF_RANGE: N_("Length must be between {min} and {max}."),
        FieldCode.WRONG_LENGTH: N_("Length must be {equal}."),
        FieldCode.UNDER_MINIMUM: N_("Must be greater than or equal to {min}."),
        FieldCode.OVER_MAXIMUM: N_("Must be less than or equal to {max}."),
        FieldCode.OUT_OF_RANGE: N_("Must be greater than or equal to {min} and less than or equal to {max}."),
        FieldCode.NOT_ONE_OF: N_("Must be one of: {choices}."),
        FieldCode.TOO_MANY_KEYS: N_("An object of {keys} keys: this one has at most {most}."),
        FieldCode.TOO_MANY_ENTRIES: N_("At most {most} entries."),
        FieldCode.ITEMS_NOT_CHECKED: N_("Items after {index} were not checked: fix these first."),
        FieldCode.MORE_ERRORS: N_("{count} more error(s) not listed"),
        FieldCode.GIVEN_TWICE: N_("Given {times} times: give it once."),
        FieldCode.APPROVED_TABLES_ONLY: N_(
            "Only approved tables are played here: name one, and send nothing that changes it."
        ),
        FieldCode.LONE_SURROGATE: N_("The text holds a lone surrogate, which UTF-8 cannot encode."),
        FieldCode.CARD_NOT_A_STRING: N_("A card code is a string such as 'KH' or '10s'."),
        FieldCode.NOT_A_CARD: N_(
            "'{card}' is not a card code: use a rank A, 2-9, T (or 10), J, Q, K followed by a suit "
            "S, H, D or C, e.g. 'KH' or '10s'"
        ),
        FieldCode.NOT_A_DEALT_CARD: N_("A card is a card code such as '9S', or an object {{card, hand}}."),
        FieldCode.AMOUNT_NOT_A_STRING: N_("An amount is a decimal string such as '25.00'."),
        FieldCode.AMOUNT_WITH_EXPONENT: N_("An amount is written without an exponent, such as '25.00'."),
        FieldCode.NOT_A_PLAIN_AMOUNT: N_(
            "'{amount}' is not a plain decimal amount: digits, an optional point and decimals; "
            "no sign, exponent, NaN or Infinity."
        ),
        FieldCode.AMOUNT_NOT_POSITIVE: N_("An amount must be greater than zero."),
        FieldCode.NOT_A_COMMISSION: N_("A commission is a decimal string from '0' to '0.25', e.g. '0.05'."),
        FieldCode.NOT_TRUE_OR_FALSE: N_("Not a boolean: send true or false."),
        FieldCode.NOT_AN_OUTCOME: N_("A result is one of {outcomes}, not '{result}'."),
        FieldCode.NOT_A_RESULT: N_("A result is 'banker', 'player', 'tie' or an object with an 'outcome'."),
        FieldCode.MIN_OVER_MAX: N_("min must not be greater than max"),
        FieldCode.CARDS_AND_SEED: N_("send either cards or {source}, not both"),
        FieldCode.SEED_AND_SERVER_SEED: N_("send either seed or server_seed, not both"),
        FieldCode.WITHOUT_SERVER_SEED: N_("{name} goes with server_seed (a plain seed has none)"),
        FieldCode.COMMITMENT_WITHOUT_SEED: N_(
            "a commitment goes with the server_seed (or seed) it commits to"
        ),
        FieldCode.NOT_A_SHA256: N_("A SHA-256 commitment is 64 hex digits."),
        FieldCode.CUT_CARD_POSITION_WITHOUT_CARDS: N_(
            "a cut card position goes with a physical shoe's cards; a seeded shoe's cut card "
            "is the table's `rules.cut_card`"
        ),
        FieldCode.BETS_AND_BETS_BY_ROUND: N_("send bets (every round) or bets_by_round, not both"),
        FieldCode.ROUND_TWICE: N_("round {round} twice"),
        FieldCode.TOO_MANY_BETS: N_("{bets:,} bets in all: at most {most:,} per request"),
        FieldCode.CHIP_NOT_ABOVE_PREVIOUS: N_(
            "the chips are listed once each, smallest first: this one is not more than {previous}"
        ),
    }
)

#: The code of a field error: the schema's, or the engine's for what both check.
ErrorCode = FieldCode | ProblemCode
#: Every code a field error (an ``errors`` entry) may carry, with its template.
ERROR_TEMPLATES: Mapping[ErrorCode, str] = MappingProxyType(
    {
        code: template
        for templates in (PROBLEM_TEMPLATES, FIELD_TEMPLATES)
        for code, template in templates.items()
    }
)
#: The code of each template marshmallow may write itself, by its English words.
_BY_WORDS = {template: code for code, template in FIELD_TEMPLATES.items()}


def placeholders(template: str) -> tuple[str, ...]:
    """The names a template is filled with.

    >>> placeholders("Length must be between {min} and {max}.")
    ('min', 'max')
    """
    return tuple(name for _, name, _, _ in string.Formatter().parse(template) if name)


class Message(str):
    """A field error: its English sentence, its code and its values."""

    code: ErrorCode
    values: Mapping[str, Any]

    @classmethod
    def of(cls, code: ErrorCode, **values: Any) -> Message:
        """The message of ``code`` filled with ``values``."""
        message = cls(Sentence.of(ERROR_TEMPLATES[code], **values))
        message.code, message.values = code, values
        return message

    @classmethod
    def awaiting(cls, code: ErrorCode) -> Message:
        """The template of ``code``, for marshmallow to fill (:meth:`format`)."""
        message = cls(ERROR_TEMPLATES[code])
        message.code, message.values = code, {}
        return message

    def format(self, *args: object, **kwargs: Any) -> Message:
        """The message filled as marshmallow fills a template, keeping only
        the values it names (a validator also passes the whole ``input``)."""
        names = placeholders(ERROR_TEMPLATES[self.code])
        return Message.of(self.code, **{name: kwargs[name] for name in names})


def coded(message: Any) -> Message:
    """``message`` as a :class:`Message`: one already, or one of
    marshmallow's templates, by its words; LookupError for any other."""
    if isinstance(message, Message):
        return message
    code = _BY_WORDS.get(message) if isinstance(message, str) else None
    if code is None:
        raise LookupError(f"the message {message!r} has no code: give it one in FieldCode (docs/errors.md)")
    return Message.awaiting(code)


#: The templates each kind of validator the schemas use writes from.
_VALIDATOR_MESSAGES: Mapping[type[validate.Validator], tuple[str, ...]] = MappingProxyType(
    {
        validate.Length: ("message_min", "message_max", "message_all", "message_equal"),
        validate.Range: ("message_min", "message_max", "message_all"),
        validate.OneOf: (),
        validate.Regexp: (),
    }
)


def _coded_validator(validator: Any) -> Any:
    """A copy of ``validator`` writing coded messages (a plain function raises its own)."""
    if not isinstance(validator, validate.Validator):
        return validator
    names = _VALIDATOR_MESSAGES.get(type(validator))
    if names is None:
        raise LookupError(f"{type(validator).__name__} writes messages that have no code (docs/errors.md)")
    copied = copy.copy(validator)
    for name in names:
        setattr(copied, name, coded(getattr(validator, name)))
    error = getattr(validator, "error", None)
    if error is not None:
        copied.error = coded(error)
    return copied


def code_field(field: fields.Field[Any]) -> None:
    """Give ``field``, just bound to a request schema, coded messages: its
    own, its validators' and those of the fields inside it (a list's items, a
    map's keys and values; a nested schema codes its own)."""
    field.error_messages = {key: coded(message) for key, message in field.error_messages.items()}
    field.validators = [_coded_validator(validator) for validator in field.validators]
    inner: list[fields.Field[Any] | None] = []
    if isinstance(field, fields.List):
        inner.append(field.inner)
    elif isinstance(field, fields.Tuple):
        inner.extend(field.tuple_fields)
    elif isinstance(field, fields.Mapping):
        inner.extend((field.key_field, field.value_field))
    for each in inner:
        if each is not None:
            code_field(each)
