"""Multiplier baccarat (Lightning, Golden Wealth, Prosperity Tree): the rule as data.

After bets close, some cards of a virtual 52-card deck (each rank and suit
once) are drawn as *multiplier cards*, each with a multiplier (:mod:`.multipliers.cards`
draws them). A winning bet is paid its base pay times the product of the
multipliers of the cards that count for it, where a card of the round
matches a multiplier card by rank and suit, once for each time it counts.
A fee is charged on top of each stake (:mod:`.multipliers.settlement`
settles a round; :mod:`.multipliers.odds` works out the exact returns).

A :class:`MultiplierRule` states everything an operator chooses, validated
when it is made, with a canonical form and a stable ``id`` as table rules
have (:class:`.tables.rules.Rules`; :mod:`.multipliers.presets` holds Lightning's,
Golden Wealth's and Prosperity Tree's):

* ``cards``: how many multiplier cards are drawn, by weight (one count with
  any weight: always that many);
* ``multipliers``: each multiplier with its weight; each card's multiplier
  is drawn by weight, independently of the others;
* ``pays``: per bet, its base pay, which cards count (:class:`Counted`)
  and the share of the stake a win keeps (the Banker's 5%);
* ``fee``: its rate, the bets it is charged on, whether a push returns it;
* ``cap``: the most a slip wins on one round, or None.

Weights are relative: the canonical form divides them by their greatest
common divisor, so ``{2: 2, 3: 2}`` and ``{2: 1, 3: 1}`` are one rule.

Why one module of this length: every check of a rule is of one of its
fields, and its canonical form and id are made from all of them at once.

>>> rule = MultiplierRule(
...     cards={8: 1},
...     multipliers={2: 30, 3: 2},
...     pays={BetType.TIE: MultipliedPay(pays=Decimal(5), counted=Counted.ALL_CARDS)},
...     fee=Fee(rate=Decimal("0.20"), bets=(BetType.TIE,)),
... )
>>> rule.canonical["multipliers"], rule.canonical["fee"]["rate"]
({'2': 15, '3': 1}, '0.2')
>>> largest_multiplier(rule, (1, 1, 1, 1, 1, 1))  # six different cards, each lit x3
729
>>> MultiplierRule(cards={0: 1}, multipliers={1: 1}, pays={})
Traceback (most recent call last):
...
service.baccarat.multipliers.rule.MultiplierRulesError: \
The multiplier rule does not hold together: cards/0: \
0 is not a count of multiplier cards: 1 to 52; multipliers/1: 1 is not a multiplier: a whole number \
from 2 to 1000; pays: the rule pays no bet
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from ..bets.money import ZERO
from ..bets.types import BetType
from ..rulebook.errors import BetError, CardError, Path, RulesError

#: The bets a multiplier rule may pay, in :class:`BetType` order.
MULTIPLIED_BETS = (BetType.PLAYER, BetType.BANKER, BetType.TIE, BetType.PLAYER_PAIR, BetType.BANKER_PAIR)
#: Cards in the virtual deck the multiplier cards are drawn from.
VIRTUAL_DECK = 52
#: The largest multiplier and base pay a rule may state, so that the
#: largest win (a base pay times a multiplier to the sixth power) stays exact
#: in the settlement's decimal context.
MOST_MULTIPLIER = 1000
MOST_PAYS = Decimal(10000)
#: Weights are drawn from 32-bit words (:mod:`.multipliers.cards`): their total is at most 2**32.
MOST_WEIGHT = 2**32


class Counted(StrEnum):
    """Which of the round's cards count for a bet."""

    #: The cards of the hand the bet is on (a winning bet's hand is the winning hand): 2 or 3.
    WINNING_HAND = "winning_hand"
    #: Every card dealt in the round, both hands: 4 to 6.
    ALL_CARDS = "all_cards"
    #: The first two cards of the hand a pair bet is on: the paired cards when it wins.
    PAIRED_CARDS = "paired_cards"
    #: None: the bet is paid its base pay, never multiplied.
    NONE = "none"

    @property
    def most(self) -> int:
        """The most cards that can count."""
        return {"winning_hand": 3, "all_cards": 6, "paired_cards": 2, "none": 0}[self.value]


#: What may count for each bet: a tie has no winning hand, a pair bet's cards are its pair.
ALLOWED_COUNTED: Mapping[BetType, tuple[Counted, ...]] = MappingProxyType(
    {
        BetType.PLAYER: (Counted.WINNING_HAND, Counted.ALL_CARDS, Counted.NONE),
        BetType.BANKER: (Counted.WINNING_HAND, Counted.ALL_CARDS, Counted.NONE),
        BetType.TIE: (Counted.ALL_CARDS, Counted.NONE),
        BetType.PLAYER_PAIR: (Counted.PAIRED_CARDS, Counted.NONE),
        BetType.BANKER_PAIR: (Counted.PAIRED_CARDS, Counted.NONE),
    }
)


class FaultCode(StrEnum):
    """What is wrong with one input of a multiplier rule or round, for a
    machine: a closed set, one code per sentence of :data:`FAULT_TEMPLATES`.
    A request's rule is answered with the :class:`.rulebook.errors.ProblemCode` each
    maps to (:mod:`.multipliers.problems`), in the caller's language."""

    WEIGHTS_MISSING = "weights_missing"
    CARD_COUNT_OUT_OF_RANGE = "card_count_out_of_range"
    MULTIPLIER_OUT_OF_RANGE = "multiplier_out_of_range"
    WEIGHT_NOT_WHOLE = "weight_not_whole"
    WEIGHTS_TOO_HEAVY = "weights_too_heavy"
    NO_BET_PAID = "no_bet_paid"
    BET_NOT_MULTIPLIED = "bet_not_multiplied"
    PAY_NOT_GIVEN = "pay_not_given"
    BASE_PAY_OUT_OF_RANGE = "base_pay_out_of_range"
    COUNTED_NOT_ALLOWED = "counted_not_allowed"
    STAKE_KEPT_OUT_OF_RANGE = "stake_kept_out_of_range"
    WIN_BELOW_NOTHING = "win_below_nothing"
    FEE_RATE_OUT_OF_RANGE = "fee_rate_out_of_range"
    FEE_ON_BET_NOT_PAID = "fee_on_bet_not_paid"
    CAP_NOT_POSITIVE = "cap_not_positive"
    CAP_FINER_THAN_MINOR_UNIT = "cap_finer_than_minor_unit"
    MULTIPLIER_CARD_COUNT = "multiplier_card_count"
    MULTIPLIER_CARD_REPEATED = "multiplier_card_repeated"
    MULTIPLIER_NOT_OF_RULE = "multiplier_not_of_rule"
    BET_NOT_PAID = "bet_not_paid"
    STAKE_NOT_POSITIVE = "stake_not_positive"
    STAKE_TOO_MANY_DECIMALS = "stake_too_many_decimals"
    FEE_FINER_THAN_MINOR_UNIT = "fee_finer_than_minor_unit"


#: Each code's sentence; its placeholders are the fault's values.
FAULT_TEMPLATES: Mapping[FaultCode, str] = MappingProxyType(
    {
        FaultCode.WEIGHTS_MISSING: "give at least one, with its weight",
        FaultCode.CARD_COUNT_OUT_OF_RANGE: "{count} is not a count of multiplier cards: 1 to {most}",
        FaultCode.MULTIPLIER_OUT_OF_RANGE: (
            "{multiplier} is not a multiplier: a whole number from 2 to {most}"
        ),
        FaultCode.WEIGHT_NOT_WHOLE: "{weight} is not a weight: a whole number, 1 or more",
        FaultCode.WEIGHTS_TOO_HEAVY: "the weights total {total}, more than {most}",
        FaultCode.NO_BET_PAID: "the rule pays no bet",
        FaultCode.BET_NOT_MULTIPLIED: "a multiplier rule pays only {bets}, not {bet}",
        FaultCode.PAY_NOT_GIVEN: "give the {bet} bet's base pay, the cards that count and the stake kept",
        FaultCode.BASE_PAY_OUT_OF_RANGE: "{pays} is not a base pay: more than 0 and at most {most}",
        FaultCode.COUNTED_NOT_ALLOWED: "what counts for a {bet} bet is one of {allowed}",
        FaultCode.STAKE_KEPT_OUT_OF_RANGE: (
            "{kept} is not a share of the stake a win keeps: 0 or more, less than 1"
        ),
        FaultCode.WIN_BELOW_NOTHING: (
            "a {bet} win keeps {kept} of the stake but its base pay is {pays}: "
            "a win would pay less than nothing"
        ),
        FaultCode.FEE_RATE_OUT_OF_RANGE: "{rate} is not a fee rate: 0 to 1 (0.2 is 20% of the stake)",
        FaultCode.FEE_ON_BET_NOT_PAID: "{bet} is not a bet the rule pays",
        FaultCode.CAP_NOT_POSITIVE: "{cap} is not a cap: an amount more than 0, or none",
        FaultCode.CAP_FINER_THAN_MINOR_UNIT: "the cap {cap} has more decimals than the currency's {places}",
        FaultCode.MULTIPLIER_CARD_COUNT: "the rule draws {counts} multiplier card(s), not {count}",
        FaultCode.MULTIPLIER_CARD_REPEATED: (
            "{card} is already multiplier card {first}: the virtual deck holds each card once"
        ),
        FaultCode.MULTIPLIER_NOT_OF_RULE: "{multiplier} is not a multiplier of the rule ({multipliers})",
        FaultCode.BET_NOT_PAID: "the rule pays no {type} bets (it pays {paid})",
        FaultCode.STAKE_NOT_POSITIVE: "{amount} is not a stake: a stake is more than 0",
        FaultCode.STAKE_TOO_MANY_DECIMALS: (
            "{amount} has more than {places} decimal places; amounts are never rounded"
        ),
        FaultCode.FEE_FINER_THAN_MINOR_UNIT: (
            "the fee on {amount} is {fee}, finer than the currency's {places} decimal places: "
            "stake a multiple of {step}"
        ),
    }
)


@dataclass(frozen=True, slots=True)
class Fault:
    """One offending input: where it is (a path from the rule, or from the
    round's inputs), what is wrong (its code), and the values that say how.

    >>> fault = Fault.of(("cards", "0"), FaultCode.CARD_COUNT_OUT_OF_RANGE, count=0, most=52)
    >>> str(fault)
    'cards/0: 0 is not a count of multiplier cards: 1 to 52'
    """

    path: Path
    code: FaultCode
    values: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, path: Path, code: FaultCode, **values: Any) -> Fault:
        return cls(path, code, values)

    @property
    def detail(self) -> str:
        """What is wrong, in English."""
        return FAULT_TEMPLATES[self.code].format(**self.values)

    def within(self, *prefix: str | int) -> Fault:
        """The same fault, located under ``prefix``."""
        return Fault((*prefix, *self.path), self.code, self.values)

    def __str__(self) -> str:
        return f"{'/'.join(str(step) for step in self.path)}: {self.detail}"


def _listed(lead: str, faults: Sequence[Fault]) -> str:
    """The error's detail: the lead and every fault (braces doubled, as the
    detail is a template the error fills with no values)."""
    listed = f"{lead}: {'; '.join(str(fault) for fault in faults)}"
    return listed.replace("{", "{{").replace("}", "}}")


class MultiplierRulesError(RulesError):
    """A multiplier rule that does not hold together; ``faults`` names each
    offending field (the web layer answers it as any :class:`.RulesError`)."""

    def __init__(self, lead: str, faults: Sequence[Fault]) -> None:
        self.lead, self.faults = lead, tuple(faults)
        super().__init__(_listed(lead, self.faults))

    def within(self, *prefix: str | int) -> MultiplierRulesError:
        return MultiplierRulesError(self.lead, [fault.within(*prefix) for fault in self.faults])


class MultiplierCardError(CardError):
    """Multiplier cards given by a studio that the rule cannot have drawn."""

    def __init__(self, lead: str, faults: Sequence[Fault]) -> None:
        self.lead, self.faults = lead, tuple(faults)
        super().__init__(_listed(lead, self.faults))

    def within(self, *prefix: str | int) -> MultiplierCardError:
        return MultiplierCardError(self.lead, [fault.within(*prefix) for fault in self.faults])


class MultiplierBetError(BetError):
    """A slip a multiplier round cannot settle as sent."""

    def __init__(self, lead: str, faults: Sequence[Fault]) -> None:
        self.lead, self.faults = lead, tuple(faults)
        super().__init__(_listed(lead, self.faults))

    def within(self, *prefix: str | int) -> MultiplierBetError:
        return MultiplierBetError(self.lead, [fault.within(*prefix) for fault in self.faults])


@dataclass(frozen=True, slots=True, kw_only=True)
class MultipliedPay:
    """What a winning bet is paid, per unit staked: ``pays`` times the
    multiplier its counted cards form, on top of the stake less
    ``stake_kept`` (the Banker's 0.05: 95% of the stake comes back)."""

    pays: Decimal
    counted: Counted
    stake_kept: Decimal = ZERO


@dataclass(frozen=True, slots=True, kw_only=True)
class Fee:
    """A fee of ``rate`` times the stake, charged on top of it on ``bets``;
    kept whatever happens, but for a push when ``returned_on_push``."""

    rate: Decimal
    bets: tuple[BetType, ...]
    returned_on_push: bool = False

    def rate_on(self, bet: BetType) -> Decimal:
        """The fee per unit staked on ``bet``: ``rate``, or 0 on a bet it is not charged on."""
        return self.rate if bet in self.bets else ZERO


NO_FEE = Fee(rate=ZERO, bets=())


def _number(value: Decimal) -> str:
    """A rate or amount as its value is written: 0.20 and 0.2 are one."""
    return format(value.normalize(), "f")


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_finite(value: object) -> bool:
    return isinstance(value, Decimal) and value.is_finite()


@dataclass(frozen=True, kw_only=True)
class MultiplierRule:
    """How a multiplier game draws its multiplier cards and pays its bets.

    Made valid or not at all: a :class:`MultiplierRulesError` names each
    field that does not hold (its path from the rule).
    """

    #: How many multiplier cards are drawn, each count with its weight.
    cards: Mapping[int, int]
    #: Each multiplier with its weight.
    multipliers: Mapping[int, int]
    #: Each bet the rule pays, with how.
    pays: Mapping[BetType, MultipliedPay]
    fee: Fee = NO_FEE
    #: The most one slip wins on one round (its wins summed), or None.
    cap: Decimal | None = None

    #: The counts and multipliers with their weights divided by their
    #: greatest common divisor, in increasing order: what is drawn from.
    card_weights: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    multiplier_weights: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    #: The canonical JSON-ready form, and the first 16 hex digits of its SHA-256.
    canonical: dict[str, Any] = field(init=False, repr=False, compare=False)
    id: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        faults = _faults(self)
        if faults:
            raise MultiplierRulesError("The multiplier rule does not hold together", faults)
        pays = MappingProxyType({bet: self.pays[bet] for bet in MULTIPLIED_BETS if bet in self.pays})
        fee = Fee(
            rate=self.fee.rate,
            bets=tuple(bet for bet in MULTIPLIED_BETS if bet in self.fee.bets),
            returned_on_push=self.fee.returned_on_push,
        )
        card_weights, multiplier_weights = _reduced(self.cards), _reduced(self.multipliers)
        canonical = {
            "cards": {str(count): weight for count, weight in card_weights},
            "multipliers": {str(value): weight for value, weight in multiplier_weights},
            "pays": {
                str(bet): {
                    "pays": _number(pay.pays),
                    "counted": str(pay.counted),
                    "stake_kept": _number(pay.stake_kept),
                }
                for bet, pay in pays.items()
            },
            "fee": {
                "rate": _number(fee.rate),
                "bets": [str(bet) for bet in fee.bets],
                "returned_on_push": fee.returned_on_push,
            },
            "cap": None if self.cap is None else _number(self.cap),
        }
        text = json.dumps(canonical, sort_keys=True, separators=(",", ":"))
        # A frozen dataclass sets what it derives this way (as tables.Rules does).
        object.__setattr__(self, "pays", pays)
        object.__setattr__(self, "fee", fee)
        object.__setattr__(self, "cards", MappingProxyType(dict(self.cards)))
        object.__setattr__(self, "multipliers", MappingProxyType(dict(self.multipliers)))
        object.__setattr__(self, "card_weights", card_weights)
        object.__setattr__(self, "multiplier_weights", multiplier_weights)
        object.__setattr__(self, "canonical", canonical)
        object.__setattr__(self, "id", hashlib.sha256(text.encode()).hexdigest()[:16])

    @property
    def bet_types(self) -> tuple[BetType, ...]:
        """The bets the rule pays, in :class:`BetType` order."""
        return tuple(self.pays)


def _reduced(weights: Mapping[int, int]) -> tuple[tuple[int, int], ...]:
    divisor = math.gcd(*weights.values())
    return tuple((key, weights[key] // divisor) for key in sorted(weights))


def _weight_faults(name: str, weights: Mapping[int, int], least: int, most: int) -> list[Fault]:
    if not isinstance(weights, Mapping) or not weights:
        return [Fault.of((name,), FaultCode.WEIGHTS_MISSING)]
    faults = []
    out_of_range, key_name = _RANGES[name]
    for key, weight in weights.items():
        if not _is_whole(key) or not least <= key <= most:
            faults.append(Fault.of((name, str(key)), out_of_range, **{key_name: key, "most": most}))
        elif not _is_whole(weight) or weight < 1:
            faults.append(Fault.of((name, str(key)), FaultCode.WEIGHT_NOT_WHOLE, weight=weight))
    total = sum(weights.values()) if not faults else 0
    if total > MOST_WEIGHT:
        faults.append(Fault.of((name,), FaultCode.WEIGHTS_TOO_HEAVY, total=total, most=MOST_WEIGHT))
    return faults


_RANGES = {
    "cards": (FaultCode.CARD_COUNT_OUT_OF_RANGE, "count"),
    "multipliers": (FaultCode.MULTIPLIER_OUT_OF_RANGE, "multiplier"),
}


def _pay_faults(bet: object, pay: object) -> list[Fault]:
    at: Path = ("pays", str(bet))
    if bet not in MULTIPLIED_BETS:
        return [Fault.of(at, FaultCode.BET_NOT_MULTIPLIED, bets=", ".join(MULTIPLIED_BETS), bet=str(bet))]
    assert isinstance(bet, BetType)
    if not isinstance(pay, MultipliedPay):
        return [Fault.of(at, FaultCode.PAY_NOT_GIVEN, bet=str(bet))]
    faults = []
    if not _is_finite(pay.pays) or not ZERO < pay.pays <= MOST_PAYS:
        faults.append(Fault.of((*at, "pays"), FaultCode.BASE_PAY_OUT_OF_RANGE, pays=pay.pays, most=MOST_PAYS))
    if pay.counted not in ALLOWED_COUNTED[bet]:
        allowed = ", ".join(ALLOWED_COUNTED[bet])
        faults.append(
            Fault.of((*at, "counted"), FaultCode.COUNTED_NOT_ALLOWED, bet=str(bet), allowed=allowed)
        )
    if not _is_finite(pay.stake_kept) or not ZERO <= pay.stake_kept < 1:
        faults.append(Fault.of((*at, "stake_kept"), FaultCode.STAKE_KEPT_OUT_OF_RANGE, kept=pay.stake_kept))
    elif not faults and pay.pays < pay.stake_kept:
        # A win with nothing lit is paid the base pay less the stake kept; lit, more.
        faults.append(
            Fault.of(
                (*at, "stake_kept"),
                FaultCode.WIN_BELOW_NOTHING,
                bet=str(bet),
                kept=pay.stake_kept,
                pays=pay.pays,
            )
        )
    return faults


def _faults(rule: MultiplierRule) -> list[Fault]:
    """Every field of ``rule`` that does not hold, in the order of the fields."""
    faults = _weight_faults("cards", rule.cards, 1, VIRTUAL_DECK)
    faults += _weight_faults("multipliers", rule.multipliers, 2, MOST_MULTIPLIER)
    if not isinstance(rule.pays, Mapping) or not rule.pays:
        faults.append(Fault.of(("pays",), FaultCode.NO_BET_PAID))
    else:
        for bet, pay in rule.pays.items():
            faults += _pay_faults(bet, pay)
    fee = rule.fee
    if not _is_finite(fee.rate) or not ZERO <= fee.rate <= 1:
        faults.append(Fault.of(("fee", "rate"), FaultCode.FEE_RATE_OUT_OF_RANGE, rate=fee.rate))
    for index, bet in enumerate(fee.bets):
        if not isinstance(rule.pays, Mapping) or bet not in rule.pays:
            faults.append(Fault.of(("fee", "bets", index), FaultCode.FEE_ON_BET_NOT_PAID, bet=str(bet)))
    if rule.cap is not None and (not _is_finite(rule.cap) or rule.cap <= 0):
        faults.append(Fault.of(("cap",), FaultCode.CAP_NOT_POSITIVE, cap=rule.cap))
    return faults


def largest_multiplier(rule: MultiplierRule, pattern: Sequence[int]) -> int:
    """The largest multiplier counted cards of ``pattern`` can form under
    ``rule``: each of the most multiplier cards it draws lights one of the
    distinct counted cards, those counted most first, each by its largest
    multiplier, once for each time the card counts. Which patterns a round
    can deal depends on the shoe (:func:`.multipliers.odds.largest_pays`):
    from one deck a tie's six cards are six different cards, and Lightning
    lights at most five of them.

    >>> from service.baccarat.multipliers.presets import PRESETS
    >>> lightning = PRESETS["lightning"].rule
    >>> largest_multiplier(lightning, (6,)), largest_multiplier(lightning, (1, 1, 1, 1, 1, 1))
    (262144, 32768)
    >>> largest_multiplier(lightning, (2, 1))  # a hand holding one card twice: 8 ** 3
    512
    """
    lit = sorted(pattern, reverse=True)[: max(rule.cards)]
    most: int = max(rule.multipliers) ** sum(lit)
    return most
