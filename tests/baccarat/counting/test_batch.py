"""Many shoes at once: the same shoes as the seeded shuffle, and round for
round what the scalar engine deals and settles on them."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.baccarat.bets.paytable import PayTable, Result
from service.baccarat.bets.types import Bet
from service.baccarat.counting import batch
from service.baccarat.counting.round_counts import SIGNATURES, Signature
from service.baccarat.odds.exact import settling_lines
from service.baccarat.rulebook.cards import DECK
from service.baccarat.rulebook.coup import Coup, Outcome
from service.baccarat.shoes.deal import MAX_CUT_CARD, MIN_CUT_CARD, deal_shoe
from service.baccarat.shoes.shuffle import SeedInputs, shuffled_shoe
from service.baccarat.tables.payouts import pay_table
from service.baccarat.tables.rules import TABLES
from service.baccarat.tables.settlement import Settler

STAKE = Decimal(100)  # every pay of the catalogue is a whole number of cents at 100


def cards(row: np.ndarray) -> list:
    return [DECK[index] for index in row]


@pytest.mark.parametrize(("seed", "first", "decks"), [("batch", 0, 8), ("table-7", 37, 6), ("x", 5, 1)])
def test_seeded_shoes_are_the_seeded_shuffle_s_shoes(seed, first, decks):
    shoes = batch.seeded_shoes(seed, first, 4, decks)
    for offset, row in enumerate(shoes):
        assert cards(row) == shuffled_shoe(decks, SeedInputs(seed, "", first + offset))


def test_a_shoe_whose_stream_refuses_a_word_is_the_seeded_shuffle_s_shoe():
    """The golden vector ``rejection-66886`` (docs/fairness.md) discards one word at i = 353."""
    inputs = SeedInputs("rejection-66886", "rej", 0)
    bounds = np.arange(416, 1, -1)
    assert not (batch._words(inputs, bounds.size) < 2**32 - 2**32 % bounds).all()
    assert cards(batch.shuffled_shoes([inputs], 8)[0]) == shuffled_shoe(8, inputs)


def test_read_word_by_word_the_draws_are_the_same():
    """The path taken when rejection sampling refuses a word gives the fast path's draws."""
    inputs = SeedInputs("batch", "", 3)
    assert batch._draws_word_by_word(inputs, 416).tolist() == batch._draws(inputs, 416).tolist()


def test_numpy_shoes_hold_each_card_once_per_deck():
    shoes = batch.numpy_shoes(np.random.default_rng(7), 3, 8)
    assert shoes.shape == (3, 416)
    assert all((np.bincount(row, minlength=52) == 8).all() for row in shoes)


def assert_dealt_as_the_engine_deals(shoes: np.ndarray, cut_card: int) -> None:
    dealt = batch.deal(shoes, cut_card=cut_card)
    for row, shoe in enumerate(shoes):
        rounds = deal_shoe(cards(shoe), cut_card=cut_card).rounds
        assert dealt.rounds[row] == len(rounds)
        assert (dealt.signatures[row, len(rounds) :] == -1).all()
        for column, played in enumerate(rounds):
            assert dealt.signatures[row, column] == Signature.of(played.coup).index
            assert dealt.starts[row, column] == played.start
            assert dealt.cards_used[row, column] == played.coup.cards_used


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(104)), st.integers(MIN_CUT_CARD, 52))
def test_any_shoe_is_dealt_round_for_round_as_the_engine_deals_it(order, cut_card):
    shoe = np.array(order) % 52
    assert_dealt_as_the_engine_deals(shoe[None, :], cut_card)


def test_seeded_eight_deck_shoes_are_dealt_as_the_engine_deals_them():
    assert_dealt_as_the_engine_deals(batch.seeded_shoes("engine", 0, 12, 8), 16)
    assert_dealt_as_the_engine_deals(batch.seeded_shoes("engine", 12, 3, 8), MAX_CUT_CARD)


#: Each signature index's outcome, from its totals (index = ((p·10 + b)·4 + draws)·9 + pairings).
OUTCOMES = [
    Outcome.TIE if p == b else Outcome.PLAYER if p > b else Outcome.BANKER
    for p in range(10)
    for b in range(10)
    for _ in range(4 * 9)
]


def line_settling(table: PayTable, coup: Coup) -> int:
    """The scalar engine's line: the first that applies, else ``len(lines)`` (a loss)."""
    return next((at for at, line in enumerate(table.lines) if line.applies(coup)), len(table.lines))


@pytest.mark.parametrize("table", list(TABLES))
def test_every_bet_settles_on_each_round_as_the_engine_settles_it(table):
    """Round for round on the same shoes (burn and cut card as served):
    the outcome and the cards used, and for every offered bet the line of its
    pay table, the result and what the stake nets, as the engine settles them."""
    rules = TABLES[table].rules
    shoes = batch.seeded_shoes("settle-" + table, 0, 3, rules.decks)
    dealt = batch.deal(shoes, cut_card=rules.cut_card)
    lines = {bet: settling_lines(pay_table(bet, rules)) for bet in rules.bet_types}
    for row, shoe in enumerate(shoes):
        for column, played in enumerate(deal_shoe(cards(shoe), cut_card=rules.cut_card).rounds):
            settler = Settler(played.coup, rules)
            signature = dealt.signatures[row, column]
            assert OUTCOMES[signature] == played.coup.outcome
            assert dealt.cards_used[row, column] == played.coup.cards_used
            for bet, (line_of, nets) in lines.items():
                paid = pay_table(bet, rules)
                line = line_of[signature]
                assert line == line_settling(paid, played.coup), (table, bet)
                settled = settler.bet(Bet(type=bet, amount=STAKE))
                result = paid.lines[line].payout.result if line < len(paid.lines) else Result.LOSE
                assert settled.result == result, (table, bet)
                net = Fraction(settled.returned - settled.amount)
                assert net == nets[line] * Fraction(STAKE), (table, bet)


def test_signature_counts_cover_every_round():
    dealt = batch.deal(batch.seeded_shoes("count", 0, 5, 8))
    counts = dealt.signature_counts()
    assert counts.shape == (SIGNATURES,)
    assert counts.sum() == dealt.rounds.sum()
