"""Side bets, each paying and each losing condition on a crafted round (DESIGN §5).

Cards are in dealing order: Player, Banker, Player, Banker, then the
Player's third card, then the Banker's. Every stake is 10.00.
"""

from decimal import Decimal

import pytest
from hypothesis import given

from service.baccarat.bets.types import Bet, BetType, Variant
from service.baccarat.rulebook.coup import deal
from service.baccarat.tables.payouts import Result, payout
from service.baccarat.tables.rules import TABLES, Rules
from service.baccarat.tables.settlement import settle_bet
from tests import strategies
from tests.conftest import cards

STANDARD = TABLES["standard"].rules
STAKE = Decimal("10.00")

# (bet, cards, what the round is, result, win on 10.00)
CASES = [
    # Pairs: by rank on the first two cards, even when the hand draws a third.
    ("player_pair", "5S 2H 5D 3C 4S KC", "P 5-5 draws 4, B 5 draws K", "win", "110.00"),
    ("player_pair", "TS 9H JD 9C", "P 10-J: not a pair", "lose", "0.00"),
    ("player_pair", "3S KH AD KC 3H 2C", "P 3-A drew a 3: the third card does not count", "lose", "0.00"),
    ("player_pair", "KS 9H KS 9C", "P K-K of one suit is a pair too", "win", "110.00"),
    ("banker_pair", "TS 9H JD 9C", "B 9-9 natural", "win", "110.00"),
    ("banker_pair", "2S AH 4D AC 5D", "B A-A draws a 5", "win", "110.00"),
    ("banker_pair", "5S 2H 5D 3C 4S KC", "B 2-3", "lose", "0.00"),
    ("banker_pair", "2S KH 3D QC 4H TC", "B K-Q: same value, not a pair", "lose", "0.00"),
    ("either_pair", "5S 2H 5D 3C 4S KC", "the Player's pair", "win", "50.00"),
    ("either_pair", "TS 9H JD 9C", "the Banker's pair", "win", "50.00"),
    ("either_pair", "9S 9H 9D 9C", "both pairs: paid once", "win", "50.00"),
    ("either_pair", "3S KH AD QC 3H 2C", "no pair: K-Q is not one", "lose", "0.00"),
    # Perfect pair: same rank and suit on either hand.
    ("perfect_pair", "5S 2H 5S 3C 4S KC", "P 5S-5S", "win", "250.00"),
    ("perfect_pair", "TS 9H JD 9H", "B 9H-9H", "win", "250.00"),
    ("perfect_pair", "9S 9H 9S 9H", "both hands: paid once", "win", "250.00"),
    ("perfect_pair", "TS 9H JD 9C", "B 9H-9C: a pair, not a perfect one", "lose", "0.00"),
    ("perfect_pair", "5S 2H 5D 3C 4S KC", "P 5S-5D", "lose", "0.00"),
    # Dragon Bonus, Player.
    ("dragon_bonus_player", "9S KH KD 7C", "P natural 9 beats 7", "win", "10.00"),
    ("dragon_bonus_player", "9S KH KD QC", "P natural 9 beats 0: a natural pays 1:1", "win", "10.00"),
    ("dragon_bonus_player", "8S 8H KD KC", "natural tie 8-8", "push", "0.00"),
    ("dragon_bonus_player", "9S 9H KD KC", "natural tie 9-9", "push", "0.00"),
    ("dragon_bonus_player", "7S 7H KD KC", "tie 7-7 without naturals", "lose", "0.00"),
    ("dragon_bonus_player", "2S KH 3D KC 4H TC", "P 9 beats 0 by 9", "win", "300.00"),
    ("dragon_bonus_player", "2S AH 3D KC 4H TC", "P 9 beats 1 by 8", "win", "100.00"),
    ("dragon_bonus_player", "2S 2H 3D KC 4H TC", "P 9 beats 2 by 7", "win", "60.00"),
    ("dragon_bonus_player", "2S 3H 3D KC 4H TC", "P 9 beats 3 by 6", "win", "40.00"),
    ("dragon_bonus_player", "2S 4H 3D KC 4H TC", "P 9 beats 4 by 5", "win", "20.00"),
    ("dragon_bonus_player", "2S 5H 3D KC 4H TC", "P 9 beats 5 by 4", "win", "10.00"),
    ("dragon_bonus_player", "2S 6H 3D KC 4H", "P 9 beats 6 by 3", "lose", "0.00"),
    ("dragon_bonus_player", "9S KH 2D 7C 5H", "the Banker wins", "lose", "0.00"),
    ("dragon_bonus_player", "KS 8H KD KC", "the Banker wins with a natural", "lose", "0.00"),
    # Dragon Bonus, Banker.
    ("dragon_bonus_banker", "KS 9H KD KC", "B natural 9 beats 0", "win", "10.00"),
    ("dragon_bonus_banker", "8S 8H KD KC", "natural tie", "push", "0.00"),
    ("dragon_bonus_banker", "KS AH KD 2C TH 6D", "B 9 beats 0 by 9", "win", "300.00"),
    ("dragon_bonus_banker", "AS AH KD 2C TH 6D", "B 9 beats 1 by 8", "win", "100.00"),
    ("dragon_bonus_banker", "KS 7H KD KC TH", "B 7 beats 0 by 7", "win", "60.00"),
    ("dragon_bonus_banker", "AS 7H KD KC KH", "B 7 beats 1 by 6", "win", "40.00"),
    ("dragon_bonus_banker", "2S 7H KD KC TH", "B 7 beats 2 by 5", "win", "20.00"),
    ("dragon_bonus_banker", "3S 7H KD KC TH", "B 7 beats 3 by 4", "win", "10.00"),
    ("dragon_bonus_banker", "4S 7H KD KC TH", "B 7 beats 4 by 3", "lose", "0.00"),
    ("dragon_bonus_banker", "9S KH 2D 7C 5H", "B 7 beats 6 by 1", "lose", "0.00"),
    ("dragon_bonus_banker", "9S KH KD 7C", "the Player wins", "lose", "0.00"),
    ("dragon_bonus_banker", "7S 7H KD KC", "tie without naturals", "lose", "0.00"),
    # Dragon 7: the Banker wins with a three-card 7.
    ("dragon_7", "2S AH 4D AC 5D", "B A-A-5 = 7 beats 6", "win", "400.00"),
    ("dragon_7", "AS 7H KD KC KH", "B two-card 7 beats 1", "lose", "0.00"),
    ("dragon_7", "3S AH 4D AC 5D", "B three-card 7 ties P 7", "lose", "0.00"),
    ("dragon_7", "2S AH 3D AC 3H 5D", "B three-card 7 loses to P 8", "lose", "0.00"),
    ("dragon_7", "2S AH 4D AC 6D", "B three-card 8 beats 6", "lose", "0.00"),
    # Panda 8: the Player wins with a three-card 8.
    ("panda_8", "2S AH 3D AC 3H 5D", "P 2-3-3 = 8 beats 7", "win", "250.00"),
    ("panda_8", "8S KH KD 7C", "P natural 8 beats 7", "lose", "0.00"),
    ("panda_8", "2S AH 3D AC 3H 6D", "P three-card 8 ties B 8", "lose", "0.00"),
    ("panda_8", "2S AH 3D AC 3H 7D", "P three-card 8 loses to B 9", "lose", "0.00"),
    ("panda_8", "2S KH 3D KC 4H TC", "P three-card 9 wins", "lose", "0.00"),
    # Big and Small: the number of cards dealt.
    ("big", "9S KH 2D 7C 5H", "5 cards", "win", "5.40"),
    ("big", "2S KH 3D KC 4H TC", "6 cards", "win", "5.40"),
    ("big", "9S KH KD 7C", "4 cards", "lose", "0.00"),
    ("small", "9S KH KD 7C", "4 cards", "win", "15.00"),
    ("small", "9S KH 2D 7C 5H", "5 cards", "lose", "0.00"),
    ("small", "2S KH 3D KC 4H TC", "6 cards", "lose", "0.00"),
    # Super 6: the Banker wins with a total of 6.
    ("super_6", "2S 3H 3D 3C KH", "B two-card 6 beats 5", "win", "120.00"),
    ("super_6", "2S AH 3D KC KH 5D", "B three-card 6 beats 5", "win", "120.00"),
    ("super_6", "3S 3H 3D 3C", "tie 6-6", "lose", "0.00"),
    ("super_6", "9S KH 2D 7C 5H", "B 7 beats 6", "lose", "0.00"),
    ("super_6", "7S 3H KD 3C", "P 7 beats B 6", "lose", "0.00"),
    # Lucky 6: the Banker wins with a 6, paid by its cards (12:1 with two, 20:1 with three).
    ("lucky_6", "2S 3H 3D 3C KH", "B two-card 6 beats 5", "win", "120.00"),
    ("lucky_6", "2S AH 3D KC KH 5D", "B three-card 6 beats 5", "win", "200.00"),
    ("lucky_6", "3S 3H 3D 3C", "tie 6-6", "lose", "0.00"),
    ("lucky_6", "7S 3H KD 3C", "P 7 beats B 6", "lose", "0.00"),
    # The Tiger bets: a Banker win with a three-card 6, with a two-card 6, a tie at 6.
    ("big_tiger", "2S AH 3D KC KH 5D", "B three-card 6 beats 5", "win", "500.00"),
    ("big_tiger", "2S 3H 3D 3C KH", "B two-card 6 beats 5", "lose", "0.00"),
    ("small_tiger", "2S 3H 3D 3C KH", "B two-card 6 beats 5", "win", "220.00"),
    ("small_tiger", "2S AH 3D KC KH 5D", "B three-card 6 beats 5", "lose", "0.00"),
    ("tiger_tie", "3S 3H 3D 3C", "tie 6-6", "win", "350.00"),
    ("tiger_tie", "7S 7H KD KC", "tie 7-7", "lose", "0.00"),
    ("tiger_tie", "2S 3H 3D 3C KH", "B wins with 6", "lose", "0.00"),
]


@pytest.mark.parametrize(
    ("bet", "sequence", "result", "win"),
    [
        pytest.param(bet, sequence, result, win, id=f"{bet}: {what}")
        for bet, sequence, what, result, win in CASES
    ],
)
def test_side_bet(bet, sequence, result, win):
    settled = settle_bet(Bet(type=BetType(bet), amount=STAKE), deal(cards(sequence)), Rules())
    assert settled.result is Result(result)
    assert str(settled.win) == win
    assert str(settled.commission) == "0.00"
    expected = {"win": STAKE + Decimal(win), "push": STAKE, "lose": Decimal(0)}[result]
    assert settled.returned == expected


def test_every_side_bet_has_a_paying_and_a_losing_case():
    covered = {(bet, result) for bet, _, _, result, _ in CASES}
    for bet in BetType:
        if bet in (BetType.PLAYER, BetType.BANKER, BetType.TIE):
            continue
        assert {(bet, "win"), (bet, "lose")} <= covered


@pytest.mark.parametrize(("pays", "win"), [(12, "120.00"), (15, "150.00")])
def test_super_6_pays_12_or_15_to_1(pays, win):
    settled = settle_bet(
        Bet(type=BetType.SUPER_6, amount=STAKE), deal(cards("2S 3H 3D 3C KH")), Rules(super_6_pays=pays)
    )
    assert str(settled.win) == win


@pytest.mark.parametrize(
    ("bet", "amount", "win"),
    [("big", "1.01", "0.54"), ("big", "0.99", "0.53"), ("small", "1.01", "1.51"), ("small", "0.03", "0.04")],
)
def test_fractional_pays_round_down_to_the_cent(bet, amount, win):
    coup = deal(cards("9S KH 2D 7C 5H" if bet == "big" else "9S KH KD 7C"))
    assert str(settle_bet(Bet(type=BetType(bet), amount=Decimal(amount)), coup, Rules()).win) == win


# --- invariants, on any round ------------------------------------------------------------


def results(coup, rules=STANDARD):
    return {bet: payout(bet, coup, rules).result for bet in BetType}


@given(strategies.shoe_sequence())
def test_either_pair_is_player_pair_or_banker_pair(sequence):
    won = {bet for bet, result in results(deal(sequence)).items() if result is Result.WIN}
    pairs = {BetType.PLAYER_PAIR, BetType.BANKER_PAIR} & won
    assert (BetType.EITHER_PAIR in won) == bool(pairs)
    if BetType.PERFECT_PAIR in won:
        assert BetType.EITHER_PAIR in won


@given(strategies.shoe_sequence())
def test_big_or_small_wins_never_both(sequence):
    outcome = results(deal(sequence))
    assert {outcome[BetType.BIG], outcome[BetType.SMALL]} == {Result.WIN, Result.LOSE}


@given(strategies.shoe_sequence())
def test_side_bets_agree_with_the_main_bets(sequence):
    coup = deal(sequence)
    standard = results(coup)
    ez = results(coup, Rules(variant=Variant.EZ, commission=Decimal(0)))
    no_commission = payout(BetType.BANKER, coup, Rules(variant=Variant.NO_COMMISSION, commission=Decimal(0)))
    assert not {standard[BetType.DRAGON_BONUS_PLAYER], standard[BetType.DRAGON_BONUS_BANKER]} <= {Result.WIN}
    if standard[BetType.DRAGON_BONUS_PLAYER] is Result.PUSH:
        assert standard[BetType.DRAGON_BONUS_BANKER] is Result.PUSH
        assert standard[BetType.TIE] is Result.WIN
    if standard[BetType.DRAGON_BONUS_PLAYER] is Result.WIN:
        assert standard[BetType.PLAYER] is Result.WIN
    if standard[BetType.DRAGON_BONUS_BANKER] is Result.WIN:
        assert standard[BetType.BANKER] is Result.WIN
    if standard[BetType.DRAGON_7] is Result.WIN:
        assert standard[BetType.BANKER] is Result.WIN
        assert ez[BetType.BANKER] is Result.PUSH
    if standard[BetType.PANDA_8] is Result.WIN:
        assert standard[BetType.PLAYER] is Result.WIN
    if standard[BetType.SUPER_6] is Result.WIN:
        assert no_commission.result is Result.WIN
        assert no_commission.odds == Decimal("0.5")
