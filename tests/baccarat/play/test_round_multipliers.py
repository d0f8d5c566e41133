"""Playing a multiplier table's round with many slips, and dealt live
(service/baccarat/play/round.py): the multiplier cards drawn or given as for one
slip, each slip settled by the rule on its own (its own cap), all or none.

How one multiplied slip settles is tested in test_multiplier_settlement.py.
"""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.baccarat.bets.types import Bet, BetType
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.multipliers.rule import MULTIPLIED_BETS
from service.baccarat.play.round import (
    RoundSoFar,
    SlipTotals,
    play_and_settle,
    play_and_settle_slips,
    play_live,
)
from service.baccarat.rulebook.coup import deal
from service.baccarat.rulebook.errors import BaccaratError, BetError, CardError, ProblemCode
from service.baccarat.shoes.shuffle import SeedInputs
from service.baccarat.tables.rules import resolve_rules
from tests import strategies
from tests.conftest import cards

LIGHTNING = resolve_rules("standard", {"multipliers": PRESETS["lightning"].rule})
GOLDEN_WEALTH = resolve_rules("standard", {"multipliers": PRESETS["golden_wealth"].rule})
BANKER_NATURAL = cards("2S 8H 5D KC")  # Banker 8 beats Player 7
SIX_KINGS = cards("KS KS KS KS KS KS")  # a tie of six K♠
LIGHTNING_CARD = [(cards("8H")[0], 8)]


def bet(kind: str, amount: str) -> Bet:
    return Bet(type=BetType(kind), amount=Decimal(amount))


def test_each_slip_is_settled_by_the_rule_with_its_id_and_the_totals_count_the_fees():
    slips = [("a", [bet("banker", "10.00")]), ("b", [bet("player", "5"), bet("tie", "5")])]
    played = play_and_settle_slips(LIGHTNING, slips, cards=BANKER_NATURAL, multiplier_cards=LIGHTNING_CARD)
    assert played.slips == ()
    a, b = played.multiplied_slips
    assert (a.id, a.bets[0].multiplier, str(a.returned), str(a.net)) == ("a", 8, "89.50", "77.50")
    assert (b.id, str(b.fees), str(b.returned), str(b.net)) == ("b", "2.00", "0.00", "-12.00")
    assert played.multiplier_cards is not None
    assert played.totals == SlipTotals(
        slips=2,
        bets=3,
        staked=Decimal("20.00"),
        returned=Decimal("89.50"),
        net=Decimal("65.50"),
        fees=Decimal("4.00"),
        capped=Decimal("0.00"),
    )


def test_each_slip_is_the_slip_play_and_settle_settles_alone():
    slips = [("a", [bet("banker", "10.00"), bet("tie", "5")]), ("b", [bet("player", "2.50")])]
    played = play_and_settle_slips(LIGHTNING, slips, seed=SeedInputs("abc"), round_number=2)
    for (slip_id, bets), settled in zip(slips, played.multiplied_slips, strict=True):
        alone = play_and_settle(LIGHTNING, bets, seed=SeedInputs("abc"), round_number=2)
        assert alone.multiplier_cards == played.multiplier_cards
        assert alone.multiplied is not None
        assert settled.bets == alone.multiplied.bets
        assert settled.id == slip_id


def test_the_cap_is_each_slip_s_own():
    """Golden Wealth's six K♠ at x8: each 5.00 tie would win 6,553,600.00; each slip is capped at 500,000."""
    lit = [(cards("KS")[0], 8), *((card, 2) for card in cards("AS AH AD AC"))]
    slips = [(f"seat-{seat}", [bet("tie", "5.00")]) for seat in range(3)]
    played = play_and_settle_slips(GOLDEN_WEALTH, slips, cards=SIX_KINGS, multiplier_cards=lit)
    assert [str(slip.bets[0].win) for slip in played.multiplied_slips] == ["500000.00"] * 3
    assert str(played.totals.capped) == str(3 * Decimal("6053600.00"))


def test_a_bad_bet_on_any_slip_refuses_them_all_naming_each():
    slips = [
        ("a", [bet("banker", "10.00")]),
        ("b", [bet("player", "1.01"), bet("dragon_7", "5")]),
        ("c", [bet("tie", "25")]),
    ]
    with pytest.raises(BetError) as caught:
        play_and_settle_slips(LIGHTNING, slips, cards=BANKER_NATURAL, multiplier_cards=LIGHTNING_CARD)
    assert [(problem.path, problem.code) for problem in caught.value.problems] == [
        (("slips", 1, "bets", 1, "type"), ProblemCode.BET_NOT_OFFERED),
        (("slips", 2, "bets", 0, "amount"), ProblemCode.SLIP_OVER_MAXIMUM),
    ]
    slips[1] = ("b", [bet("player", "1.01")])
    with pytest.raises(BetError) as caught:
        play_and_settle_slips(LIGHTNING, slips[:2], cards=BANKER_NATURAL, multiplier_cards=LIGHTNING_CARD)
    assert [(problem.path, problem.code) for problem in caught.value.problems] == [
        (("slips", 1, "bets", 0, "amount"), ProblemCode.FEE_FINER_THAN_MINOR_UNIT),
    ]


@pytest.mark.parametrize(
    ("rules", "given", "code"),
    [
        (LIGHTNING, None, ProblemCode.MULTIPLIER_CARDS_MISSING),
        (GOLDEN_WEALTH, LIGHTNING_CARD, ProblemCode.MULTIPLIER_CARD_COUNT),
        (resolve_rules("standard"), LIGHTNING_CARD, ProblemCode.MULTIPLIER_CARDS_WITHOUT_RULE),
    ],
)
def test_multiplier_cards_are_checked_as_for_one_slip(rules, given, code):
    with pytest.raises(BaccaratError) as caught:
        play_and_settle_slips(
            rules, [("a", [bet("player", "5")])], cards=BANKER_NATURAL, multiplier_cards=given
        )
    assert [problem.code for problem in caught.value.problems] == [code]


def test_a_live_round_checks_its_multiplier_cards_and_slip_while_it_goes_on():
    so_far = play_live(
        LIGHTNING, BANKER_NATURAL[:3], bets=[bet("banker", "10")], multiplier_cards=LIGHTNING_CARD
    )
    assert isinstance(so_far, RoundSoFar)
    with pytest.raises(CardError) as caught:
        play_live(LIGHTNING, BANKER_NATURAL[:3], bets=[bet("banker", "10")])
    assert [problem.code for problem in caught.value.problems] == [ProblemCode.MULTIPLIER_CARDS_MISSING]
    with pytest.raises(CardError) as caught:
        play_live(GOLDEN_WEALTH, (), multiplier_cards=LIGHTNING_CARD)
    assert [problem.code for problem in caught.value.problems] == [ProblemCode.MULTIPLIER_CARD_COUNT]
    with pytest.raises(BetError) as caught:
        play_live(
            LIGHTNING, BANKER_NATURAL[:1], bets=[bet("banker", "1.01")], multiplier_cards=LIGHTNING_CARD
        )
    assert [problem.code for problem in caught.value.problems] == [ProblemCode.FEE_FINER_THAN_MINOR_UNIT]


@given(
    strategies.shoe_sequence(),
    st.lists(st.tuples(st.sampled_from(MULTIPLIED_BETS), st.integers(20, 100)), max_size=3),
    st.integers(2, 8),
)
def test_a_complete_live_multiplier_round_is_the_round_played_whole(sequence, stakes, multiplier):
    bets = [Bet(type=kind, amount=Decimal(twentieths) * Decimal("0.05")) for kind, twentieths in stakes]
    used = sequence[: deal(sequence).cards_used]
    lit = [(used[-1], multiplier if multiplier in (2, 3, 4, 5, 8) else 2)]
    whole = play_and_settle(LIGHTNING, bets, cards=used, multiplier_cards=lit)
    assert play_live(LIGHTNING, used, bets=bets, multiplier_cards=lit) == whole
