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
(:func:`.money.rounder`; down by default, in the house's favour), the gross
``s * p * M`` likewise, and the commission is their difference, as
:mod:`.settlement` settles the bets of a plain table. The fee is never
rounded: a stake whose fee is not a whole number of minor units is refused
(at 20%, stakes are multiples of 0.05).

The cap: a slip's wins on one round sum to at most the rule's cap; what is
over comes off the largest win first (then the next, in slip order for equal
wins), and each bet says how much of its win the cap took (``capped``).

>>> from service.baccarat.cards import parse_card
>>> from service.baccarat.coup import deal
>>> from service.baccarat.multiplier_cards import studio_multiplier_cards
>>> from service.baccarat.multiplier_presets import PRESETS
>>> rule = PRESETS["lightning"].rule
>>> coup = deal([parse_card(code) for code in "2S 8H 5D KC".split()])  # Banker 8 beats Player 7
>>> lit = studio_multiplier_cards(rule, [(parse_card("8H"), 8)])
>>> slip = settle_multiplier_slip([Bet(type=BetType.BANKER, amount=Decimal("1.00"))], coup, lit, rule)
>>> bet = slip.bets[0]
>>> bet.multiplier, bet.win, bet.commission, bet.returned, bet.fee, slip.net
(8, Decimal('7.95'), Decimal('0.05'), Decimal('8.95'), Decimal('0.20'), Decimal('7.75'))
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal, localcontext
from fractions import Fraction

from .bets import BetType
from .cards import Card
from .catalogue import standard
from .coup import Coup
from .money import ZERO, Rounding, decimal_places, rounder
from .multiplier_cards import MultiplierCard, MultiplierCards, counted_cards
from .multipliers import Fault, FaultCode, MultiplierBetError, MultiplierRule, MultiplierRulesError
from .paytable import PayLine, Result
from .settlement import Bet

#: Digits the settlement computes with: the largest win a rule allows (a
#: pay of 10,000 times a multiplier of 1000 to the sixth power, 10**22) on
#: a stake of 10**12 still has room for its decimals.
PRECISION = 60


@dataclass(frozen=True, slots=True, kw_only=True)
class MultipliedBet:
    """A bet settled on a multiplier round; every amount with exactly the minor unit's digits."""

    bet: Bet
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
        return self.staked + self.fees

    @property
    def net(self) -> Decimal:
        """What the player is up (or down) on the round, fees included."""
        return self.returned - self.cost


def settling_line(bet: BetType, coup: Coup) -> PayLine:
    """The line that settles ``bet`` on ``coup``: the line of the bet's
    standard pay table that holds (a win, or a Player or Banker bet's push
    on a tie), else :data:`.paytable.NO_LINE`, a loss. A multiplier rule
    changes what a win pays, never when a bet wins, so a multiplied bet
    names the same line, code and sentence as the plain table's bet.

    >>> from service.baccarat.cards import parse_card
    >>> from service.baccarat.coup import deal
    >>> tie = deal([parse_card(code) for code in "9S 9D KH KC".split()])  # 9 and 9
    >>> settling_line(BetType.BANKER, tie).code, settling_line(BetType.TIE, tie).code
    ('a_tie', 'the_totals_are_equal')
    """
    return standard(bet).line(coup)


def slip_faults(bets: Sequence[Bet], rule: MultiplierRule, *, minor_unit: int = 2) -> list[Fault]:
    """Every reason the slip cannot be settled under ``rule``, at the
    offending bet: a bet the rule does not pay, a stake that is not more
    than 0 or has more decimals than the minor unit, or whose fee does."""
    faults = []
    unit = Decimal(1).scaleb(-minor_unit)
    for index, bet in enumerate(bets):
        at = ("bets", index)
        amount = bet.amount
        if bet.type not in rule.pays:
            paid = ", ".join(rule.bet_types)
            faults.append(Fault.of((*at, "type"), FaultCode.BET_NOT_PAID, type=str(bet.type), paid=paid))
        elif not amount.is_finite() or amount <= 0:
            faults.append(Fault.of((*at, "amount"), FaultCode.STAKE_NOT_POSITIVE, amount=amount))
        elif decimal_places(amount) > minor_unit:
            many = FaultCode.STAKE_TOO_MANY_DECIMALS
            faults.append(Fault.of((*at, "amount"), many, amount=amount, places=minor_unit))
        else:
            rate = rule.fee.rate_on(bet.type)
            fee = amount * rate
            if fee != fee.quantize(unit):
                step = unit * Fraction(rate).denominator
                finer = FaultCode.FEE_FINER_THAN_MINOR_UNIT
                faults.append(
                    Fault.of(
                        (*at, "amount"),
                        finer,
                        amount=amount,
                        fee=f"{fee.normalize():f}",
                        places=minor_unit,
                        step=step,
                    )
                )
    return faults


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
    unit = Decimal(1).scaleb(-minor_unit)
    if rule.cap is not None and rule.cap != rule.cap.quantize(unit):
        finer = Fault.of(("cap",), FaultCode.CAP_FINER_THAN_MINOR_UNIT, cap=rule.cap, places=minor_unit)
        raise MultiplierRulesError("The multiplier rule does not fit the table", [finer])
    round_ = rounder(minor_unit, rounding)
    with localcontext() as context:
        context.prec = PRECISION
        zero = round_(ZERO)
        settled = []
        for bet in bets:
            pay = rule.pays[bet.type]
            stake = round_(bet.amount)  # exact: the slip was checked
            counted = counted_cards(coup, bet.type, pay.counted)
            lit = cards.lit(counted)
            multiplier = cards.multiplier(counted)
            line = settling_line(bet.type, coup)
            result = line.payout.result
            fee = round_(stake * rule.fee.rate_on(bet.type))  # exact: the slip was checked
            fee_kept = zero if result is Result.PUSH and rule.fee.returned_on_push else fee
            win = commission = zero
            if result is Result.WIN:
                win = round_(stake * (pay.pays * multiplier - pay.stake_kept))
                commission = round_(stake * pay.pays * multiplier) - win
            settled.append(
                MultipliedBet(
                    bet=bet,
                    result=result,
                    stake=stake,
                    fee=fee,
                    counted=counted,
                    lit=lit,
                    multiplier=multiplier,
                    win=win,
                    commission=commission,
                    capped=zero,
                    fee_kept=fee_kept,
                    returned=_returned(result, stake, win, fee - fee_kept, zero),
                    line=line,
                )
            )
        if rule.cap is not None:
            settled = _capped(settled, rule.cap, zero)
        return MultipliedSlip(
            bets=tuple(settled),
            staked=sum((bet.stake for bet in settled), zero),
            fees=sum((bet.fee for bet in settled), zero),
            returned=sum((bet.returned for bet in settled), zero),
            capped=sum((bet.capped for bet in settled), zero),
            id=id,
        )


def _returned(result: Result, stake: Decimal, win: Decimal, fee_back: Decimal, zero: Decimal) -> Decimal:
    if result is Result.WIN:
        return stake + win
    return stake + fee_back if result is Result.PUSH else zero


def _capped(settled: list[MultipliedBet], cap: Decimal, zero: Decimal) -> list[MultipliedBet]:
    """``settled`` with its wins cut to sum to at most ``cap``, the largest win first."""
    over = sum((bet.win for bet in settled), zero) - cap
    if over <= 0:
        return settled
    capped = list(settled)
    for index in sorted(range(len(capped)), key=lambda index: (-capped[index].win, index)):
        bet = capped[index]
        taken = min(over, bet.win)
        if taken <= 0:
            break
        win = bet.win - taken
        capped[index] = replace(bet, win=win, capped=taken, returned=bet.stake + win)
        over -= taken
    return capped
