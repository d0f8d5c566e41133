"""Hypothesis strategies for the game's values, in one place."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import strategies as st

from service.baccarat.cards import DECK, Card
from service.baccarat.settlement import Bet
from service.baccarat.tables import BetType

card = st.sampled_from(DECK)


@st.composite
def shoe_sequence(draw: st.DrawFn, min_size: int = 6, max_size: int = 12) -> list[Card]:
    """Cards as they could come out of an 8-deck shoe (no card more than 8 times)."""
    return draw(st.lists(card, min_size=min_size, max_size=max_size))


amount = st.integers(min_value=100, max_value=2000).map(lambda cents: Decimal(cents).scaleb(-2))


@st.composite
def bet(draw: st.DrawFn) -> Bet:
    bet_type = draw(st.sampled_from(list(BetType)))
    value = draw(amount)
    if bet_type is BetType.TIE:
        value = min(value, Decimal("20.00"))
    return Bet(type=bet_type, amount=value, id=draw(st.none() | st.text("abc123", min_size=1, max_size=5)))


# One bet per type keeps every slip within the standard table's limits.
bets = st.lists(bet(), min_size=0, max_size=3, unique_by=lambda b: b.type)
