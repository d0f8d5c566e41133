"""Settling a multiplier round exactly, in ``Decimal``.

For a bet of stake ``s`` whose pay (:class:`.MultipliedPay`) is ``p`` with
``k`` of the stake kept on a win, whose counted cards form the multiplier
``M`` (the product of the multipliers of its lit cards, 1 when none is lit),
under a fee rate ``f`` on that bet:

* the fee is ``s * f``, charged on top of the stake: the bet costs ``s + s * f``;
* a win pays ``win = s * (p * M - k)`` on top of the stake, so ``s + win =
  s * (1 - k) + s * p * M`` comes back (Banker at x8: 0.95 + 8 = 8.95 on 1.00);
  ``commission = s * p * M - win`` is the stake kept;
* a push (a Player or Banker bet on a tie) returns the stake, and the fee
  only when the rule returns it on a push;
* a loss returns nothing; the fee is kept whatever happens but a push.

Each win is rounded once, to the minor unit by the table's payout rounding
(:func:`.bets.money.rounder`; down by default, in the house's favour), the gross
``s * p * M`` likewise, and the commission is their difference, as
:mod:`.tables.settlement` settles the bets of a plain table. The fee is never
rounded: a stake whose fee is not a whole number of minor units is refused
(at 20%, stakes are multiples of 0.05).

The cap: a slip's wins on one round sum to at most the rule's cap; what is
over comes off the largest win first (then the next, in slip order for equal
wins), and each bet says how much of its win the cap took (``capped``).

>>> from service.baccarat.rulebook.cards import parse_card
>>> from service.baccarat.rulebook.coup import deal
>>> from service.baccarat.multipliers.cards import studio_multiplier_cards
>>> from service.baccarat.multipliers.presets import PRESETS
>>> rule = PRESETS["lightning"].rule
>>> coup = deal([parse_card(code) for code in "2S 8H 5D KC".split()])  # Banker 8 beats Player 7
>>> lit = studio_multiplier_cards(rule, [(parse_card("8H"), 8)])
>>> slip = settle_multiplier_slip([Bet(type=BetType.BANKER, amount=Decimal("1.00"))], coup, lit, rule)
>>> terms = slip.bets[0].terms
>>> terms.multiplier, terms.win, terms.commission, terms.returned, terms.fee, slip.net
(8, Decimal('7.95'), Decimal('0.05'), Decimal('8.95'), Decimal('0.20'), Decimal('7.75'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, localcontext
from fractions import Fraction

from ..bets.catalogue import standard
from ..bets.money import MONEY_DIGITS, ZERO, Rounding, decimal_places, difference, rounder, total
from ..bets.paytable import PayLine, Result
from ..bets.types import Bet, BetType
from ..rulebook.cards import Card
from ..rulebook.coup import Coup
from .cards import MultiplierCard, MultiplierCards, counted_cards
from .rule import Fault, FaultCode, MultiplierBetError, MultiplierRule, MultiplierRulesError

#: Digits the settlement computes with: the largest win a rule allows (a
#: pay of 10,000 times a multiplier of 1000 to the sixth power, 10**22) on
#: a stake of 10**12 still has room for its decimals.
PRECISION = MONEY_DIGITS


@dataclass(frozen=True, slots=True, kw_only=True)
class MultipliedTerms:
    """What a bet of one type and stake gets on a multiplier round; every
    amount with exactly the minor unit's digits. The bets of one type and
    stake on a round share their terms, but for one the cap cut."""

    result: Result
    stake: Decimal
    #: Charged on top of the stake.
    fee: Decimal
    #: The cards that count for the bet on this round (:func:`.counted_cards`).
    counted: tuple[Card, ...]
    #: The counted cards that match a multiplier card, once for each time they count.
    lit: tuple[MultiplierCard, ...]
    #: The product of the lit cards' multipliers (1 when none is lit): what a
    #: win is multiplied by; a bet that does not win is paid nothing whatever it forms.
    multiplier: int
    #: The profit on a win, after the cap; 0 otherwise.
    win: Decimal
    #: The share of the stake a win keeps (the Banker's 5%).
    commission: Decimal
    #: What the cap took off the win.
    capped: Decimal
    #: The part of the fee the house keeps (all of it, but on a push when the rule returns it).
    fee_kept: Decimal
    #: What goes back to the player: stake + win, the stake (and maybe the fee) on a push, 0 on a loss.
    returned: Decimal
    #: The line that settled it (:func:`settling_line`): its code and sentence.
    line: PayLine

    @property
    def cost(self) -> Decimal:
        """What the bet cost the player: its stake and its fee."""
        return self.stake + self.fee


@dataclass(frozen=True, slots=True)
class MultipliedBet:
    """A bet settled on a multiplier round: the bet, and the terms its
    stake got (read through, as :class:`.tables.settlement.SettledBet`'s are)."""

    bet: Bet
    terms: MultipliedTerms

    @property
    def result(self) -> Result:
        return self.terms.result

    @property
    def stake(self) -> Decimal:
        return self.terms.stake

    @property
    def fee(self) -> Decimal:
        return self.terms.fee

    @property
    def counted(self) -> tuple[Card, ...]:
        return self.terms.counted

    @property
    def lit(self) -> tuple[MultiplierCard, ...]:
        return self.terms.lit

    @property
    def multiplier(self) -> int:
        return self.terms.multiplier

    @property
    def win(self) -> Decimal:
        return self.terms.win

    @property
    def commission(self) -> Decimal:
        return self.terms.commission

    @property
    def capped(self) -> Decimal:
        return self.terms.capped

    @property
    def fee_kept(self) -> Decimal:
        return self.terms.fee_kept

    @property
    def returned(self) -> Decimal:
        return self.terms.returned

    @property
    def line(self) -> PayLine:
        return self.terms.line

    @property
    def cost(self) -> Decimal:
        return self.terms.cost


@dataclass(frozen=True, slots=True, kw_only=True)
class MultipliedSlip:
    """A slip settled on a multiplier round."""

    bets: tuple[MultipliedBet, ...]
    staked: Decimal
    fees: Decimal
    returned: Decimal
    #: What the cap took off the slip's wins (0 when under it).
    capped: Decimal
    id: str | None = None

    @property
    def cost(self) -> Decimal:
        """Stakes and fees: what the slip cost."""
        return total((self.staked, self.fees))

    @property
    def net(self) -> Decimal:
        """What the player is up (or down) on the round, fees included."""
        return difference(self.returned, self.cost)


def settling_line(bet: BetType, coup: Coup) -> PayLine:
    """The line that settles ``bet`` on ``coup``: the line of the bet's
    standard pay table that holds (a win, or a Player or Banker bet's push
    on a tie), else :data:`.bets.paytable.NO_LINE`, a loss. A multiplier rule
    changes what a win pays, never when a bet wins, so a multiplied bet
    names the same line, code and sentence as the plain table's bet.

    >>> from service.baccarat.rulebook.cards import parse_card
    >>> from service.baccarat.rulebook.coup import deal
    >>> tie = deal([parse_card(code) for code in "9S 9D KH KC".split()])  # 9 and 9
    >>> settling_line(BetType.BANKER, tie).code, settling_line(BetType.TIE, tie).code
    ('a_tie', 'the_totals_are_equal')
    """
    return standard(bet).line(coup)


def slip_faults(bets: Sequence[Bet], rule: MultiplierRule, *, minor_unit: int = 2) -> list[Fault]:
    """Every reason the slip cannot be settled under ``rule``, at the
    offending bet: a bet the rule does not pay, a stake that is not more
    than 0 or has more decimals than the minor unit, or whose fee does."""
    return SlipFaults(rule, minor_unit=minor_unit).of(bets)


class SlipFaults:
    """Checks the slips of one request against one multiplier rule.

    As :class:`.tables.settlement.SlipCheck` does, it works out what is wrong with
    each (bet type, stake as written) once per request: its slips repeat
    the same few stakes.
    """

    def __init__(self, rule: MultiplierRule, *, minor_unit: int = 2) -> None:
        self.rule, self.minor_unit = rule, minor_unit
        self._own_faults: dict[tuple[BetType, str], Fault | None] = {}

    def of(self, bets: Sequence[Bet]) -> list[Fault]:
        """:func:`slip_faults` of ``bets``."""
        faults = []
        own_faults = self._own_faults
        for index, bet in enumerate(bets):
            key = (bet.type, str(bet.amount))
            if key not in own_faults:
                own_faults[key] = _bet_fault(bet, self.rule, self.minor_unit)
            fault = own_faults[key]
            if fault is not None:
                faults.append(fault.within("bets", index))
        return faults


def _bet_fault(bet: Bet, rule: MultiplierRule, minor_unit: int) -> Fault | None:
    """What is wrong with one bet under ``rule``, located within the bet."""
    amount = bet.amount
    if bet.type not in rule.pays:
        paid = ", ".join(rule.bet_types)
        return Fault.of(("type",), FaultCode.BET_NOT_PAID, type=str(bet.type), paid=paid)
    if not amount.is_finite() or amount <= 0:
        return Fault.of(("amount",), FaultCode.STAKE_NOT_POSITIVE, amount=amount)
    if decimal_places(amount) > minor_unit:
        return Fault.of(("amount",), FaultCode.STAKE_TOO_MANY_DECIMALS, amount=amount, places=minor_unit)
    unit = Decimal(1).scaleb(-minor_unit)
    rate = rule.fee.rate_on(bet.type)
    fee = amount * rate
    if fee != fee.quantize(unit):
        step = unit * Fraction(rate).denominator
        finer = FaultCode.FEE_FINER_THAN_MINOR_UNIT
        return Fault.of(
            ("amount",), finer, amount=amount, fee=f"{fee.normalize():f}", places=minor_unit, step=step
        )
    return None


def settle_multiplier_slip(
    bets: Sequence[Bet],
    coup: Coup,
    cards: MultiplierCards,
    rule: MultiplierRule,
    *,
    minor_unit: int = 2,
    rounding: Rounding = Rounding.DOWN,
    id: str | None = None,
) -> MultipliedSlip:
    """Check and settle one slip on ``coup`` with its multiplier cards
    ``cards``, paid by ``rule``; amounts to ``minor_unit`` decimals, wins
    rounded by ``rounding``. A :class:`.MultiplierBetError` names each bet
    that cannot be settled; a cap finer than the minor unit is a
    :class:`.MultiplierRulesError`."""
    faults = slip_faults(bets, rule, minor_unit=minor_unit)
    if faults:
        raise MultiplierBetError("Some bets cannot be settled on this multiplier round", faults)
    return MultiplierSettler(coup, cards, rule, minor_unit=minor_unit, rounding=rounding).slip(bets, id)


class MultiplierSettler:
    """Settles slips on one multiplier round under one rule.

    As :class:`.tables.settlement.Settler` does for a plain table, it works out
    what counts for each bet type (its counted and lit cards, multiplier and
    pay line), and the terms of each (bet type, stake), once, and keeps them
    for as long as it lives: one round. A cap finer than the minor unit is a
    :class:`.MultiplierRulesError`.
    """

    def __init__(
        self,
        coup: Coup,
        cards: MultiplierCards,
        rule: MultiplierRule,
        *,
        minor_unit: int = 2,
        rounding: Rounding = Rounding.DOWN,
    ) -> None:
        unit = Decimal(1).scaleb(-minor_unit)
        if rule.cap is not None and rule.cap != rule.cap.quantize(unit):
            finer = Fault.of(("cap",), FaultCode.CAP_FINER_THAN_MINOR_UNIT, cap=rule.cap, places=minor_unit)
            raise MultiplierRulesError("The multiplier rule does not fit the table", [finer])
        self.coup, self.cards, self.rule = coup, cards, rule
        self._round = rounder(minor_unit, rounding)
        self.zero = self._round(ZERO)
        self._by_type: dict[BetType, MultipliedTerms] = {}
        # Equal stakes (``25`` and ``25.00``) share their terms, as the plain
        # settler's do: a stake is rounded to the minor unit before anything else.
        self._terms: dict[tuple[BetType, Decimal], MultipliedTerms] = {}

    def _of_type(self, bet_type: BetType) -> MultipliedTerms:
        """What a bet of ``bet_type`` gets whatever its stake: its counted and
        lit cards, multiplier and line (the amounts are left at 0)."""
        kept = self._by_type.get(bet_type)
        if kept is None:
            counted = counted_cards(self.coup, bet_type, self.rule.pays[bet_type].counted)
            line = settling_line(bet_type, self.coup)
            zero = self.zero
            kept = self._by_type[bet_type] = MultipliedTerms(
                result=line.payout.result,
                stake=zero,
                fee=zero,
                counted=counted,
                lit=self.cards.lit(counted),
                multiplier=self.cards.multiplier(counted),
                win=zero,
                commission=zero,
                capped=zero,
                fee_kept=zero,
                returned=zero,
                line=line,
            )
        return kept

    def _work_out(self, bet: Bet) -> MultipliedTerms:
        """What ``bet`` (already checked) gets on this round, kept for the stakes equal to it."""
        rule, round_, zero = self.rule, self._round, self.zero
        of_type = self._of_type(bet.type)
        pay, result, multiplier = rule.pays[bet.type], of_type.result, of_type.multiplier
        with localcontext() as context:
            context.prec = PRECISION
            stake = round_(bet.amount)  # exact: the slip was checked
            fee = round_(stake * rule.fee.rate_on(bet.type))  # exact: the slip was checked
            fee_kept = zero if result is Result.PUSH and rule.fee.returned_on_push else fee
            win = commission = zero
            if result is Result.WIN:
                win = round_(stake * (pay.pays * multiplier - pay.stake_kept))
                commission = round_(stake * pay.pays * multiplier) - win
            returned = _returned(result, stake, win, fee - fee_kept, zero)
        terms = self._terms[bet.type, bet.amount] = replace(
            of_type,
            stake=stake,
            fee=fee,
            win=win,
            commission=commission,
            fee_kept=fee_kept,
            returned=returned,
        )
        return terms

    def slip(self, bets: Sequence[Bet], id: str | None = None) -> MultipliedSlip:
        """Settle a slip already checked by :func:`slip_faults`, its wins cut to the rule's cap."""
        terms, work_out = self._terms, self._work_out
        settled = [MultipliedBet(bet, terms.get((bet.type, bet.amount)) or work_out(bet)) for bet in bets]
        zero = self.zero
        with localcontext() as context:
            context.prec = PRECISION
            if self.rule.cap is not None:
                settled = _capped(settled, self.rule.cap, zero)
            return MultipliedSlip(
                bets=tuple(settled),
                staked=sum((bet.terms.stake for bet in settled), zero),
                fees=sum((bet.terms.fee for bet in settled), zero),
                returned=sum((bet.terms.returned for bet in settled), zero),
                capped=sum((bet.terms.capped for bet in settled), zero),
                id=id,
            )


def _returned(result: Result, stake: Decimal, win: Decimal, fee_back: Decimal, zero: Decimal) -> Decimal:
    if result is Result.WIN:
        return stake + win
    return stake + fee_back if result is Result.PUSH else zero


def _capped(settled: list[MultipliedBet], cap: Decimal, zero: Decimal) -> list[MultipliedBet]:
    """``settled`` with its wins cut to sum to at most ``cap``, the largest
    win first; a bet the cap cuts gets terms of its own."""
    over = sum((bet.terms.win for bet in settled), zero) - cap
    if over <= 0:
        return settled
    capped = list(settled)
    for index in sorted(range(len(capped)), key=lambda index: (-capped[index].terms.win, index)):
        bet = capped[index]
        terms = bet.terms
        taken = min(over, terms.win)
        if taken <= 0:
            break
        win = terms.win - taken
        cut = replace(terms, win=win, capped=taken, returned=terms.stake + win)
        capped[index] = MultipliedBet(bet.bet, cut)
        over -= taken
    return capped
