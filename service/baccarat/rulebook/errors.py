"""Domain errors raised by the rules engine.

The web layer turns each of them into one ``application/problem+json`` answer
(422): the engine never speaks HTTP. Every error carries the list of
offending inputs, each located by a path into the request document::

    BaccaratError
     +-- CardError           a card the shoe cannot hold (too many copies)
     +-- MissingCard         the sequence ended before a card the rules require
     +-- Misdeal             a card dealt to a hand that must not receive it, or after the round
     +-- SeedError           seed inputs that do not fit together
     +-- ShoeError           a shoe that cannot be dealt as asked (cut card, round number)
     +-- BetError            a bet slip that cannot be settled as sent
     +-- RulesError          rule overrides that do not fit together

Each offending input is a :class:`Problem`: a code from a closed set
(:class:`ProblemCode`) and the values its sentence is made from. The
sentences are English templates (:data:`PROBLEM_TEMPLATES`, and each error's
``title`` and detail), marked with :func:`N_` for the ``problems`` catalogue,
so that the service can write them in the caller's language
(docs/errors.md); the engine itself speaks English.

>>> problem = Problem.of(("bets", 0, "amount"), ProblemCode.AMOUNT_UNDER_MINIMUM,
...                      amount="0.50", minimum="1.00", type="tie")
>>> problem.detail
'0.50 is under the table minimum of 1.00 for tie bets'
>>> str(problem.code), problem.detail.values["minimum"]
('amount_under_minimum', '1.00')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

Path = tuple[str | int, ...]


def N_(template: str) -> str:
    """Marks an English sentence of a problem for translation (gettext's
    no-op marker: ``make translations`` extracts what it wraps)."""
    return template


def english(value: Any) -> Any:
    """How ``value`` is written in an English sentence: a hand or a card's
    place by its ``words`` (``"Player"``, ``"the Banker's third card"``),
    several values as a list (``"banker, player"``; rules' reasons, which
    have a ``code``, one after another: ``"...; ..."``), anything else as
    itself.

    >>> english(("banker", "player")), english(3)
    ('banker, player', 3)
    """
    words = getattr(value, "words", None)
    if isinstance(words, str):
        return words
    if isinstance(value, tuple):
        return joined(value, [str(item) for item in value])
    return value


def joined(items: tuple[Any, ...], written: list[str]) -> str:
    """``items``, each as ``written``, as a sentence lists them: rules'
    reasons (which have a ``code``) one after another, anything else as a list."""
    return ("; " if items and all(hasattr(item, "code") for item in items) else ", ").join(written)


class Sentence(str):
    """An English sentence that knows its template and the values it was
    filled with: it reads as the sentence wherever a str is wanted, and the
    service writes the template's translation with the same values.

    >>> sentence = Sentence.of(N_("The shoe holds {cards} card(s)"), cards=5)
    >>> sentence, sentence.template, sentence.values
    ('The shoe holds 5 card(s)', 'The shoe holds {cards} card(s)', {'cards': 5})
    """

    template: str
    values: Mapping[str, Any]

    @classmethod
    def of(cls, template: str, **values: Any) -> Sentence:
        sentence = cls(template.format(**{name: english(value) for name, value in values.items()}))
        sentence.template = template
        sentence.values = values
        return sentence


class ProblemCode(StrEnum):
    """What is wrong with one input, for a machine: a closed set, one code per
    sentence of :data:`PROBLEM_TEMPLATES`."""

    CARD_TOO_MANY_COPIES = "card_too_many_copies"
    RANK_COUNT_MISSING = "rank_count_missing"
    RANK_COUNT_OVER_SHOE = "rank_count_over_shoe"
    RANK_COUNT_NEGATIVE = "rank_count_negative"
    SHOE_TOO_SMALL = "shoe_too_small"
    SHOE_DESCRIBED_TWICE = "shoe_described_twice"
    MISSING_INITIAL_CARD = "missing_initial_card"
    MISSING_CARD = "missing_card"
    DEALT_AFTER_ROUND = "dealt_after_round"
    WRONG_HAND = "wrong_hand"
    BURNED_CARD_PLACED = "burned_card_placed"
    DEALT_AFTER_SHOE = "dealt_after_shoe"
    ROUND_NEEDS_SEED = "round_needs_seed"
    ROUND_WITH_CARDS = "round_with_cards"
    COMMITMENT_MISMATCH = "commitment_mismatch"
    CUT_CARD_OUT_OF_RANGE = "cut_card_out_of_range"
    CUT_CARD_POSITION_OUT_OF_RANGE = "cut_card_position_out_of_range"
    CUT_CARD_POSITION_NOT_SENT = "cut_card_position_not_sent"
    ROUND_PAST_SHOE = "round_past_shoe"
    TO_ROUND_BEFORE_FROM_ROUND = "to_round_before_from_round"
    ROUND_NOT_ANSWERED = "round_not_answered"
    BET_NOT_OFFERED = "bet_not_offered"
    AMOUNT_TOO_MANY_DECIMALS = "amount_too_many_decimals"
    AMOUNT_UNDER_MINIMUM = "amount_under_minimum"
    SLIP_OVER_MAXIMUM = "slip_over_maximum"
    PAY_TABLE_NOT_OF_BET = "pay_table_not_of_bet"
    PAY_TABLE_BY_SHORTHAND = "pay_table_by_shorthand"
    PAY_TABLE_BET_NOT_OFFERED = "pay_table_bet_not_offered"
    PAY_TABLE_CONTRADICTS_SETTING = "pay_table_contradicts_setting"
    NO_PAY_TABLE_FOR_SETTING = "no_pay_table_for_setting"
    LIMIT_FINER_THAN_MINOR_UNIT = "limit_finer_than_minor_unit"
    COMMISSION_WITH_VARIANT = "commission_with_variant"
    MULTIPLIER_CARDS_MISSING = "multiplier_cards_missing"
    MULTIPLIER_CARDS_WITHOUT_RULE = "multiplier_cards_without_rule"
    MULTIPLIERS_WITH_OTHER_PAYS = "multipliers_with_other_pays"
    ROUND_MULTIPLIER_CARDS_MISSING = "round_multiplier_cards_missing"
    MULTIPLIER_CARD_COUNT = "multiplier_card_count"
    MULTIPLIER_CARD_REPEATED = "multiplier_card_repeated"
    MULTIPLIER_NOT_OF_RULE = "multiplier_not_of_rule"
    FEE_FINER_THAN_MINOR_UNIT = "fee_finer_than_minor_unit"
    MULTIPLIER_WEIGHTS_MISSING = "multiplier_weights_missing"
    MULTIPLIER_CARD_COUNT_OUT_OF_RANGE = "multiplier_card_count_out_of_range"
    MULTIPLIER_OUT_OF_RANGE = "multiplier_out_of_range"
    MULTIPLIER_WEIGHT_NOT_WHOLE = "multiplier_weight_not_whole"
    MULTIPLIER_WEIGHTS_TOO_HEAVY = "multiplier_weights_too_heavy"
    MULTIPLIER_NO_BET_PAID = "multiplier_no_bet_paid"
    MULTIPLIER_BET_NOT_MULTIPLIED = "multiplier_bet_not_multiplied"
    MULTIPLIER_BASE_PAY_OUT_OF_RANGE = "multiplier_base_pay_out_of_range"
    MULTIPLIER_COUNTED_NOT_ALLOWED = "multiplier_counted_not_allowed"
    MULTIPLIER_STAKE_KEPT_OUT_OF_RANGE = "multiplier_stake_kept_out_of_range"
    MULTIPLIER_WIN_BELOW_NOTHING = "multiplier_win_below_nothing"
    MULTIPLIER_FEE_RATE_OUT_OF_RANGE = "multiplier_fee_rate_out_of_range"
    MULTIPLIER_FEE_ON_BET_NOT_PAID = "multiplier_fee_on_bet_not_paid"
    MULTIPLIER_CAP_NOT_POSITIVE = "multiplier_cap_not_positive"
    MULTIPLIER_CAP_FINER_THAN_MINOR_UNIT = "multiplier_cap_finer_than_minor_unit"
    PEEK_NEEDS_CARDS_OR_SEED = "peek_needs_cards_or_seed"
    PEEK_NEEDS_SHOWN = "peek_needs_shown"
    PEEK_FEE_NOT_WHOLE = "peek_fee_not_whole"
    PEEK_RAISE_NOT_ALLOWED = "peek_raise_not_allowed"
    PEEK_BET_NOT_ON_SLIP = "peek_bet_not_on_slip"
    PEEK_RAISE_OVER_MAXIMUM = "peek_raise_over_maximum"
    PEEK_PAYS_FIXED = "peek_pays_fixed"
    BET_CANNOT_WIN = "bet_cannot_win"
    DEALT_EACH_HAND = "dealt_each_hand"
    MINIMUM_WIN_PAID_NOTHING = "minimum_win_paid_nothing"


#: Each code's sentence; its placeholders are the problem's values.
PROBLEM_TEMPLATES: Mapping[ProblemCode, str] = MappingProxyType(
    {
        ProblemCode.CARD_TOO_MANY_COPIES: N_(
            "{card} appears more than {decks} time(s), but a {decks}-deck shoe holds only {decks}"
        ),
        ProblemCode.RANK_COUNT_MISSING: N_("missing: give every rank's count"),
        ProblemCode.RANK_COUNT_OVER_SHOE: N_(
            "{count} is more {rank}s than a {decks}-deck shoe holds ({most})"
        ),
        ProblemCode.RANK_COUNT_NEGATIVE: N_("{count} is not a count of cards (0 or more)"),
        ProblemCode.SHOE_TOO_SMALL: N_(
            "leaves {cards} card(s) in the shoe; at least {needed} are needed to finish any round "
            "(a round uses up to six cards)"
        ),
        ProblemCode.SHOE_DESCRIBED_TWICE: N_("send one of {given}, not several"),
        ProblemCode.MISSING_INITIAL_CARD: N_("missing: the initial deal needs {place}"),
        ProblemCode.MISSING_CARD: N_("missing: the {hand} draws a third card ({reason})"),
        ProblemCode.DEALT_AFTER_ROUND: N_("dealt after the round was over: {reasons}"),
        ProblemCode.WRONG_HAND: N_(
            "placed with the {placed}; it should have gone to the {hand} as {place}: {reason}"
        ),
        ProblemCode.BURNED_CARD_PLACED: N_("placed with the {hand}, but it is burned"),
        ProblemCode.DEALT_AFTER_SHOE: N_("dealt after the shoe's last round, round {round}"),
        ProblemCode.ROUND_NEEDS_SEED: N_("send seed inputs with a round number"),
        ProblemCode.ROUND_WITH_CARDS: N_("send seed inputs with a round number, not cards"),
        ProblemCode.COMMITMENT_MISMATCH: N_("SHA-256 of the server seed is {hash}, not {commitment}"),
        ProblemCode.CUT_CARD_OUT_OF_RANGE: N_(
            "must be {least} to {most} cards from the end for a {cards}-card shoe "
            "({least}-{max_cut}, and never more than half the shoe)"
        ),
        ProblemCode.CUT_CARD_POSITION_OUT_OF_RANGE: N_(
            "must be {earliest} to {latest} in a {cards}-card shoe: the cut card lies "
            "{min_cut} to {max_cut} cards from the end, never in the first half"
        ),
        ProblemCode.CUT_CARD_POSITION_NOT_SENT: N_(
            "the card behind the cut card, at position {position}, is not among the {sent} cards "
            "sent: send the cut card's position once it has come out"
        ),
        ProblemCode.ROUND_PAST_SHOE: N_("round {round} is past the shoe's last round, {rounds}"),
        ProblemCode.TO_ROUND_BEFORE_FROM_ROUND: N_("must not be less than from_round ({from_round})"),
        ProblemCode.ROUND_NOT_ANSWERED: N_("round {round} is not among the rounds answered ({answered})"),
        ProblemCode.BET_NOT_OFFERED: N_("this table does not offer '{type}' bets (it offers {offered})"),
        ProblemCode.AMOUNT_TOO_MANY_DECIMALS: N_(
            "{amount} has more than {places} decimal places; amounts are never rounded"
        ),
        ProblemCode.AMOUNT_UNDER_MINIMUM: N_(
            "{amount} is under the table minimum of {minimum} for {type} bets"
        ),
        ProblemCode.SLIP_OVER_MAXIMUM: N_(
            "{type} bets on this slip total {total}, over the table maximum of {maximum}"
        ),
        ProblemCode.PAY_TABLE_NOT_OF_BET: N_(
            "{table} is not a pay table of the {bet} bet: choose one of {tables}"
        ),
        ProblemCode.PAY_TABLE_BY_SHORTHAND: N_("the {bet} bet's pay table is chosen by `{setting}`"),
        ProblemCode.PAY_TABLE_BET_NOT_OFFERED: N_(
            "the table does not offer {bet}: give it limits to offer it"
        ),
        ProblemCode.PAY_TABLE_CONTRADICTS_SETTING: N_(
            "{table} is {setting} {value}, but the rules also say {setting} {asked}"
        ),
        ProblemCode.NO_PAY_TABLE_FOR_SETTING: N_("no pay table of the {bet} bet has this {setting}"),
        ProblemCode.LIMIT_FINER_THAN_MINOR_UNIT: N_(
            "the {bet} {end} {amount} has more decimals than the currency's {minor_unit}"
        ),
        ProblemCode.COMMISSION_WITH_VARIANT: N_(
            "commission {commission} applies only to the standard variant: "
            "send commission 0 with variant {variant}"
        ),
        ProblemCode.MULTIPLIERS_WITH_OTHER_PAYS: N_(
            "a multiplier rule pays {multiplied} by its own base pays, so it is played only where "
            "they are paid as at the standard table: these rules pay them by {pay_tables}"
        ),
        ProblemCode.MULTIPLIER_CARDS_MISSING: N_(
            "missing: a multiplier table's round dealt from cards sent needs its multiplier cards"
        ),
        ProblemCode.MULTIPLIER_CARDS_WITHOUT_RULE: N_(
            "multiplier cards are sent only with cards, at a table whose rules have multipliers"
        ),
        ProblemCode.ROUND_MULTIPLIER_CARDS_MISSING: N_(
            "missing: round {round} was dealt at a multiplier table and needs its multiplier cards"
        ),
        ProblemCode.MULTIPLIER_CARD_COUNT: N_("the rule draws {counts} multiplier card(s), not {count}"),
        ProblemCode.MULTIPLIER_CARD_REPEATED: N_(
            "{card} is already multiplier card {first}: the virtual deck holds each card once"
        ),
        ProblemCode.MULTIPLIER_NOT_OF_RULE: N_(
            "{multiplier} is not a multiplier of the rule ({multipliers})"
        ),
        ProblemCode.FEE_FINER_THAN_MINOR_UNIT: N_(
            "the fee on {amount} is {fee}, finer than the currency's {places} decimal places: "
            "stake a multiple of {step}"
        ),
        ProblemCode.MULTIPLIER_WEIGHTS_MISSING: N_("give at least one, with its weight"),
        ProblemCode.MULTIPLIER_CARD_COUNT_OUT_OF_RANGE: N_(
            "{count} is not a count of multiplier cards: 1 to {most}"
        ),
        ProblemCode.MULTIPLIER_OUT_OF_RANGE: N_(
            "{multiplier} is not a multiplier: a whole number from 2 to {most}"
        ),
        ProblemCode.MULTIPLIER_WEIGHT_NOT_WHOLE: N_("{weight} is not a weight: a whole number, 1 or more"),
        ProblemCode.MULTIPLIER_WEIGHTS_TOO_HEAVY: N_("the weights total {total}, more than {most}"),
        ProblemCode.MULTIPLIER_NO_BET_PAID: N_("the rule pays no bet"),
        ProblemCode.MULTIPLIER_BET_NOT_MULTIPLIED: N_("a multiplier rule pays only {paid}, not {bet}"),
        ProblemCode.MULTIPLIER_BASE_PAY_OUT_OF_RANGE: N_(
            "{pays} is not a base pay: more than 0 and at most {most}"
        ),
        ProblemCode.MULTIPLIER_COUNTED_NOT_ALLOWED: N_("what counts for a {bet} bet is one of {allowed}"),
        ProblemCode.MULTIPLIER_STAKE_KEPT_OUT_OF_RANGE: N_(
            "{kept} is not a share of the stake a win keeps: 0 or more, less than 1"
        ),
        ProblemCode.MULTIPLIER_WIN_BELOW_NOTHING: N_(
            "a {bet} win keeps {kept} of the stake but its base pay is {pays}: "
            "a win would pay less than nothing"
        ),
        ProblemCode.MULTIPLIER_FEE_RATE_OUT_OF_RANGE: N_(
            "{rate} is not a fee rate: 0 to 1 (0.2 is a fifth of the stake)"
        ),
        ProblemCode.MULTIPLIER_FEE_ON_BET_NOT_PAID: N_("{bet} is not a bet the rule pays"),
        ProblemCode.MULTIPLIER_CAP_NOT_POSITIVE: N_("{cap} is not a cap: an amount more than 0, or none"),
        ProblemCode.MULTIPLIER_CAP_FINER_THAN_MINOR_UNIT: N_(
            "the cap {cap} has more decimals than the currency's {places}"
        ),
        ProblemCode.PEEK_NEEDS_CARDS_OR_SEED: N_(
            "send the cards, or seed inputs, with both calls of a peek round"
        ),
        ProblemCode.PEEK_NEEDS_SHOWN: N_("with cards, send the positions shown (1 to 4 of the first four)"),
        ProblemCode.PEEK_FEE_NOT_WHOLE: N_(
            "the fee on {amount} is {fee}: a stake's fee must be a whole number of minor units"
        ),
        ProblemCode.PEEK_RAISE_NOT_ALLOWED: N_("only the Player and Banker bets may be raised, not {type}"),
        ProblemCode.PEEK_BET_NOT_ON_SLIP: N_("the slip holds no {type} bet to {choice}"),
        ProblemCode.PEEK_RAISE_OVER_MAXIMUM: N_(
            "to {choice} the {type} bet of {staked} is to stake {raised}, over the table maximum of {maximum}"
        ),
        ProblemCode.PEEK_PAYS_FIXED: N_(
            "Peek Baccarat's fee and returns are those of the standard table's Player and Banker pays: "
            "`{setting}` cannot be changed at its table"
        ),
        ProblemCode.DEALT_EACH_HAND: N_(
            "the table reshuffles the cards after each hand: it deals no whole shoe and no round of one "
            "(rules.dealing `shoe` deals them)"
        ),
        ProblemCode.MINIMUM_WIN_PAID_NOTHING: N_(
            "a {bet} win on the minimum stake of {amount} pays {pays}, which is nothing in the currency's "
            "{minor_unit} decimal places: make the minimum at least {minimum}"
        ),
        ProblemCode.BET_CANNOT_WIN: N_(
            "no round of a {decks}-deck shoe wins the {bet} bet: it cannot be offered"
        ),
    }
)


@dataclass(frozen=True, slots=True)
class Problem:
    """One offending input: where it is in the request, what is wrong (its
    code), and the values that say how (its sentence's placeholders)."""

    path: Path
    code: ProblemCode
    values: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, path: Path, code: ProblemCode, **values: Any) -> Problem:
        return cls(path, code, values)

    @property
    def detail(self) -> Sentence:
        """What is wrong, in English."""
        return Sentence.of(PROBLEM_TEMPLATES[self.code], **self.values)

    def within(self, *prefix: str | int) -> Problem:
        """The same problem, located under ``prefix``."""
        return Problem((*prefix, *self.path), self.code, self.values)


class BaccaratError(Exception):
    """Base of every rule the input breaks; ``slug`` names the kind.

    ``detail`` is an English template (marked with :func:`N_`) filled with
    ``values``: what is wrong with the request as a whole."""

    slug = "invalid-input"
    title = N_("The request breaks the rules of the game")

    def __init__(self, detail: str, problems: Sequence[Problem] = (), **values: Any) -> None:
        sentence = Sentence.of(detail, **values)
        super().__init__(sentence)
        self.detail = sentence
        self.problems = tuple(problems)

    def within(self, *prefix: str | int) -> BaccaratError:
        """The same error with every problem located under ``prefix``."""
        detail = self.detail
        return type(self)(detail.template, [p.within(*prefix) for p in self.problems], **detail.values)


class CardError(BaccaratError):
    slug = "invalid-cards"
    title = N_("The cards cannot come from this shoe")


class MissingCard(BaccaratError):
    slug = "missing-card"
    title = N_("Too few cards for the draws the rules require")


class Misdeal(BaccaratError):
    slug = "misdeal"
    title = N_("A card was dealt where the rules do not put it")


class SeedError(BaccaratError):
    slug = "invalid-seed"
    title = N_("The seed inputs do not fit together")


class ShoeError(BaccaratError):
    slug = "invalid-shoe"
    title = N_("The shoe cannot be dealt as asked")


class BetError(BaccaratError):
    slug = "invalid-bets"
    title = N_("The bet slip cannot be settled as sent")


class RulesError(BaccaratError):
    slug = "invalid-rules"
    title = N_("The rules asked for do not fit together")
