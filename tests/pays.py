"""Pays as prose writes them and as pay tables pay them, to hold the one to
the other: a pay written by hand that no pay table pays fails a test."""

from __future__ import annotations

import re
from decimal import Decimal

from service.baccarat.bets.paytable import PayLine, Result
from service.baccarat.multipliers.odds import largest_pays
from service.baccarat.multipliers.rule import MultiplierRule


def written_pays(text: str) -> set[Decimal]:
    """Every pay ``text`` writes, as profit per unit: ``a:b`` ratios, and the
    choices in parentheses after a pay a setting names (`tie_pays`:1 (8 or 9))."""
    ratios = {(Decimal(a) / Decimal(b)).normalize() for a, b in re.findall(r"(\d+(?:\.\d+)?):(\d+)", text)}
    for choices in re.findall(r"`\w+_pays`:1 \(([^)]*)\)", text):
        ratios |= {Decimal(n).normalize() for n in re.findall(r"\d+", choices)}
    return ratios


def line_pays(line: PayLine) -> set[Decimal]:
    """What a winning line pays per unit, with and without its commission (a
    text may write 0.95:1, or 1:1 less the commission)."""
    if line.payout.result is not Result.WIN:
        return set()
    odds = line.payout.odds
    return {odds.normalize(), (odds * (1 - line.payout.commission)).normalize()}


def multiplied(pay: Decimal, rule: MultiplierRule) -> bool:
    """Whether a multiplier game (``rule``) pays ``pay`` per unit on some
    win: a bet's base pay times a whole multiplier its cards can make (1 when
    none is lit) on a round of a full 8-deck shoe, or the Banker's win less
    the stake it keeps."""
    largest = largest_pays(rule)
    for bet, paid in rule.pays.items():
        if pay == (paid.pays * (1 - paid.stake_kept)).normalize():
            return True
        times = pay / paid.pays
        if times == times.to_integral_value() and times >= 1 and pay - paid.stake_kept <= largest[bet]:
            return True
    return False
