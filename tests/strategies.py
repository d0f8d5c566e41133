"""Hypothesis strategies for the game's values, in one place."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from decimal import Decimal

from hypothesis import strategies as st

from service.baccarat.bets.money import Rounding
from service.baccarat.bets.types import Bet, BetType, Variant
from service.baccarat.multipliers.rule import (
    ALLOWED_COUNTED,
    MULTIPLIED_BETS,
    NO_FEE,
    Fee,
    MultipliedPay,
    MultiplierRule,
)
from service.baccarat.rulebook.cards import DECK, Card, shoe
from service.baccarat.rulebook.coup import Outcome
from service.baccarat.shoes.deal import MAX_CUT_CARD, MIN_CUT_CARD
from service.baccarat.shoes.roads import Result
from service.baccarat.tables.rules import TABLES, Rules

card = st.sampled_from(DECK)


@st.composite
def shoe_sequence(draw: st.DrawFn, min_size: int = 6, max_size: int = 12) -> list[Card]:
    """Cards as they could come out of an 8-deck shoe (no card more than 8 times)."""
    cards = st.lists(card, min_size=min_size, max_size=max_size)
    return draw(cards.filter(lambda drawn: max(Counter(drawn).values(), default=0) <= 8))


amount = st.integers(min_value=100, max_value=2000).map(lambda cents: Decimal(cents).scaleb(-2))


@st.composite
def bet(draw: st.DrawFn) -> Bet:
    """A main bet (player, banker or tie) within the standard table's limits."""
    bet_type = draw(st.sampled_from([BetType.PLAYER, BetType.BANKER, BetType.TIE]))
    value = draw(amount)
    if bet_type is BetType.TIE:
        value = min(value, Decimal("20.00"))
    return Bet(type=bet_type, amount=value, id=draw(st.none() | st.text("abc123", min_size=1, max_size=5)))


# One bet per type keeps every slip within the standard table's limits.
bets = st.lists(bet(), min_size=0, max_size=3, unique_by=lambda b: b.type)


@st.composite
def table_slip(draw: st.DrawFn, rules: Rules) -> list[Bet]:
    """A slip of up to one bet per type that ``rules`` offer (side bets too), within their limits."""
    types = draw(st.lists(st.sampled_from(rules.bet_types), unique=True, max_size=len(rules.bet_types)))
    slip = []
    for bet_type in types:
        limits = rules.limits[bet_type]
        cents = draw(st.integers(int(limits.min * 100), int(limits.max * 100)))
        slip.append(Bet(type=bet_type, amount=Decimal(cents).scaleb(-2)))
    return slip


@st.composite
def road_results(draw: st.DrawFn, max_runs: int = 30) -> list[Result]:
    """A sequence of results in runs of up to 9 (long enough for dragon tails), with ties and markers."""
    runs = draw(st.lists(st.tuples(st.sampled_from(list(Outcome)), st.integers(1, 9)), max_size=max_runs))
    flags = st.tuples(st.booleans(), st.booleans(), st.booleans())
    return [Result(outcome, *draw(flags)) for outcome, length in runs for _ in range(length)]


@st.composite
def whole_shoe(draw: st.DrawFn) -> tuple[list[Card], int]:
    """A whole shoe of 1-8 decks in any order, with a cut card allowed for it."""
    decks = draw(st.integers(1, 8))
    cut_card = draw(st.integers(MIN_CUT_CARD, min(MAX_CUT_CARD, 26 * decks)))
    return draw(st.permutations(shoe(decks))), cut_card


@st.composite
def table_rules(draw: st.DrawFn) -> Rules:
    """A preset's rules, with any payout rounding and a banker commission of 0-10%
    where its variant takes one."""
    rules = draw(st.sampled_from([table.rules for table in TABLES.values()]))
    rounding = draw(st.sampled_from(list(Rounding)))
    if rules.variant is not Variant.STANDARD:
        return replace(rules, payout_rounding=rounding)
    commission = draw(st.integers(0, 10).map(lambda percent: Decimal(percent).scaleb(-2)))
    return replace(rules, payout_rounding=rounding, commission=commission)


@st.composite
def multiplier_rule(draw: st.DrawFn) -> MultiplierRule:
    """A multiplier rule an operator may send: any counts of multiplier cards
    (few most often), multipliers, and for each bet it pays, its base pay and
    what counts; a fee or none."""
    counts = draw(
        st.dictionaries(
            st.one_of(st.integers(1, 6), st.integers(1, 52)), st.integers(1, 5), min_size=1, max_size=3
        )
    )
    multipliers = draw(st.dictionaries(st.integers(2, 1000), st.integers(1, 5), min_size=1, max_size=3))
    bets = draw(st.lists(st.sampled_from(MULTIPLIED_BETS), min_size=1, max_size=5, unique=True))
    pays = {}
    for bet in bets:
        counted = draw(st.sampled_from(ALLOWED_COUNTED[bet]))
        kept = draw(st.sampled_from([Decimal(0), Decimal("0.05")])) if bet is BetType.BANKER else Decimal(0)
        pays[bet] = MultipliedPay(pays=Decimal(draw(st.integers(1, 50))), counted=counted, stake_kept=kept)
    rate = draw(st.sampled_from([Decimal(0), Decimal("0.1"), Decimal("0.2")]))
    fee = Fee(rate=rate, bets=tuple(bets), returned_on_push=draw(st.booleans())) if rate else NO_FEE
    return MultiplierRule(cards=counts, multipliers=multipliers, pays=pays, fee=fee)
