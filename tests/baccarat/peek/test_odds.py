"""Peek Baccarat's exact returns against the operator's printed ones:
Player and Banker 98.8% with the player raising at best, the pairs 89.6%,
the tie 85.6%."""

from fractions import Fraction

import pytest

from service.baccarat.bets.types import BetType
from service.baccarat.odds.exact import analyse, decimal_text
from service.baccarat.peek.odds import _rounds, peek_return, side_return
from service.baccarat.peek.round import PEEK, PeekRule
from service.baccarat.shoes.composition import full_shoe
from service.baccarat.tables.rules import TABLES


def percent(value: Fraction) -> str:
    return f"{float(value * 100):.1f}"


def test_the_point_sequences_count_every_ordered_six_card_sequence():
    weight, result = _rounds(8)
    assert int(weight.sum()) == 4_998_398_275_503_360
    assert int(weight[result > 0].sum()) == 2_230_518_282_592_256
    assert int(weight[result < 0].sum()) == 2_292_252_566_437_888


@pytest.mark.parametrize("bet", [BetType.PLAYER, BetType.BANKER])
def test_kept_the_fee_leaves_the_bet_s_return_over_1_2(bet):
    odds = analyse(full_shoe(8), TABLES["standard"].rules)
    assert peek_return(bet).kept == (1 - odds.bets[bet].house_edge) / Fraction(6, 5)


@pytest.mark.parametrize("bet", [BetType.PLAYER, BetType.BANKER])
def test_raised_at_best_the_player_and_banker_return_the_printed_98_8(bet):
    returned = peek_return(bet)
    assert percent(returned.best) == PEEK.published_returns[str(bet)]
    assert percent(returned.kept) == "82.3" if bet is BetType.PLAYER else "82.5"
    assert 0 < returned.tripled < 1


@pytest.mark.parametrize(
    ("bet", "printed"),
    [(BetType.TIE, "tie"), (BetType.PLAYER_PAIR, "pairs"), (BetType.BANKER_PAIR, "pairs")],
)
def test_tie_and_pairs_return_what_is_printed(bet, printed):
    assert percent(side_return(bet)) == PEEK.published_returns[printed]


def test_every_subset_shown_alike_would_give_the_player_the_edge():
    """Why the rule weighs how many cards are shown: equally likely subsets
    return more than is staked."""
    alike = PeekRule(shown_weights={1: 4, 2: 6, 3: 4, 4: 1})
    assert decimal_text(peek_return(BetType.PLAYER, rule=alike).best, 4) == "1.003"
    assert peek_return(BetType.BANKER, rule=alike).best > 1


@pytest.mark.parametrize(
    ("count", "player", "banker"),
    [(1, "93.1", "93.4"), (2, "98.1", "98.1"), (3, "106.8", "106.6"), (4, "114.4", "114.0")],
)
def test_each_count_shown_alone_returns_what_docs_bets_md_says(count, player, banker):
    alone = PeekRule(shown_weights={count: 1})
    assert percent(peek_return(BetType.PLAYER, rule=alone).best) == player
    assert percent(peek_return(BetType.BANKER, rule=alone).best) == banker


def test_the_best_play_triples_as_often_as_docs_bets_md_says():
    assert f"{float(peek_return(BetType.PLAYER).tripled * 100):.1f}" == "44.5"
    assert f"{float(peek_return(BetType.BANKER).tripled * 100):.1f}" == "46.7"
