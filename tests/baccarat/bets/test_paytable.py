"""Pay tables as data: the first line that holds decides, and a round no line
covers loses the bet.

The engine's own pay tables (what every bet pays, variant by variant) are
tested in test_payouts.py, test_variants.py and test_side_bets.py.
"""

from dataclasses import FrozenInstanceError
from decimal import Decimal

import pytest
from hypothesis import given

from service.baccarat.bets.paytable import LOSE, PUSH, PayLine, Payout, PayTable, Result, win
from service.baccarat.rulebook.coup import Coup, Outcome, deal
from tests import strategies
from tests.conftest import cards

BANKER_WINS = deal(cards("9S KH 2D 7C 5H"))  # 6 v 7, five cards
PLAYER_NATURAL = deal(cards("9S KH KD 7C"))  # natural 9 v 7, four cards
TIE = deal(cards("8S 8H KD KC"))  # natural 8 v 8


def is_tie(coup: Coup) -> bool:
    return coup.outcome is Outcome.TIE


def four_cards(coup: Coup) -> bool:
    return coup.cards_used == 4


#: Two lines that can both hold (a four-card tie): the order says which pays.
TIE_OR_FOUR = PayTable(
    "tie 8:1, else 2:1 on four cards",
    (PayLine("a tie", is_tie, win(8)), PayLine("four cards are dealt", four_cards, win(2))),
)


@pytest.mark.parametrize(
    ("coup", "payout"),
    [
        (TIE, win(8)),  # both lines hold: the first decides
        (PLAYER_NATURAL, win(2)),  # only the second holds
        (BANKER_WINS, LOSE),  # neither holds
    ],
)
def test_the_first_line_that_holds_decides(coup, payout):
    assert TIE_OR_FOUR.payout(coup) == payout


def test_a_table_with_no_lines_loses_every_bet():
    assert PayTable("nothing", ()).payout(TIE) is LOSE


def test_a_push_line_returns_the_stake():
    table = PayTable("tie pushes", (PayLine("a tie", is_tie, PUSH),))
    assert table.payout(TIE).result is Result.PUSH
    assert table.payout(BANKER_WINS).result is Result.LOSE


@pytest.mark.parametrize("odds", [8, "8", Decimal(8)])
def test_a_win_is_written_as_odds_to_one_in_any_exact_form(odds):
    assert win(odds) == Payout(Result.WIN, Decimal(8), Decimal(0))


def test_a_win_may_carry_the_commission_the_house_keeps():
    payout = win(1, Decimal("0.05"))
    assert (payout.result, payout.odds, payout.commission) == (Result.WIN, 1, Decimal("0.05"))
    assert win("0.5").odds == Decimal("0.5")  # no-commission banker on a 6: 1:2


def test_a_loss_and_a_push_pay_nothing_and_keep_nothing():
    for payout, result in ((LOSE, Result.LOSE), (PUSH, Result.PUSH)):
        assert (payout.result, payout.odds, payout.commission) == (result, 0, 0)


def test_a_payout_cannot_be_changed():
    with pytest.raises(FrozenInstanceError):
        LOSE.odds = Decimal(1)  # type: ignore[misc]


@given(strategies.shoe_sequence())
def test_any_round_gets_the_first_holding_line_or_loses(sequence):
    coup = deal(sequence)
    holding = [line.payout for line in TIE_OR_FOUR.lines if line.applies(coup)]
    assert TIE_OR_FOUR.payout(coup) == (holding[0] if holding else LOSE)
