"""Settlement: exact money, pushes, commission rounding and limits."""

import sys
from collections.abc import Collection
from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.baccarat.bets.money import Rounding
from service.baccarat.bets.types import Bet, BetType
from service.baccarat.play.round import play_and_settle
from service.baccarat.rulebook.coup import deal
from service.baccarat.rulebook.errors import BetError
from service.baccarat.tables.payouts import Result
from service.baccarat.tables.rules import TABLES, resolve_rules
from service.baccarat.tables.settlement import settle_bet, settle_slip, settle_slips
from tests import strategies
from tests.conftest import cards

STANDARD = TABLES["standard"].rules
BANKER_WINS = deal(cards("9S KH 2D 7C 5H"))  # 6 v 7
PLAYER_WINS = deal(cards("9S KH KD 7C"))  # natural 9 v 7
TIE = deal(cards("8S 8H KD KC"))  # natural 8 v 8


def bet(kind: str, amount: str) -> Bet:
    return Bet(type=BetType(kind), amount=Decimal(amount))


@pytest.mark.parametrize(
    ("coup", "kind", "amount", "result", "win", "commission", "returned"),
    [
        (BANKER_WINS, "banker", "25.00", "win", "23.75", "1.25", "48.75"),
        (BANKER_WINS, "banker", "1.10", "win", "1.04", "0.06", "2.14"),  # 1.045 rounded down
        (BANKER_WINS, "banker", "1", "win", "0.95", "0.05", "1.95"),
        (BANKER_WINS, "player", "10", "lose", "0.00", "0.00", "0.00"),
        (BANKER_WINS, "tie", "5", "lose", "0.00", "0.00", "0.00"),
        (PLAYER_WINS, "player", "10.50", "win", "10.50", "0.00", "21.00"),
        (PLAYER_WINS, "banker", "10", "lose", "0.00", "0.00", "0.00"),
        (TIE, "player", "10", "push", "0.00", "0.00", "10.00"),
        (TIE, "banker", "10", "push", "0.00", "0.00", "10.00"),
        (TIE, "tie", "5", "win", "40.00", "0.00", "45.00"),
    ],
)
def test_standard_payouts(coup, kind, amount, result, win, commission, returned):
    settled = settle_bet(bet(kind, amount), coup, STANDARD)
    assert settled.result is Result(result)
    assert (str(settled.win), str(settled.commission), str(settled.returned)) == (win, commission, returned)


def test_tie_pays_nine_to_one_on_the_tie_9_table():
    assert str(settle_bet(bet("tie", "5"), TIE, TABLES["tie_9"].rules).win) == "45.00"


@pytest.mark.parametrize(
    ("rounding", "win", "commission"),
    [
        (Rounding.DOWN, "1.04", "0.06"),
        (Rounding.HALF_UP, "1.05", "0.05"),
        (Rounding.HALF_EVEN, "1.04", "0.06"),
        (Rounding.UP, "1.05", "0.05"),
    ],
)
def test_commission_rounding_is_a_table_setting(rounding, win, commission):
    settled = settle_bet(bet("banker", "1.10"), BANKER_WINS, replace(STANDARD, payout_rounding=rounding))
    assert (str(settled.win), str(settled.commission)) == (win, commission)


def test_slip_totals():
    slip = settle_slip([bet("banker", "25.00"), bet("tie", "5")], BANKER_WINS, STANDARD)
    assert (str(slip.staked), str(slip.returned), str(slip.net)) == ("30.00", "48.75", "18.75")


def test_minor_unit_zero_settles_whole_units():
    rules = resolve_rules(
        "standard",
        {
            "minor_unit": 0,
            # A win of 1 on either would be paid 0 (0.95:1, 0.54:1): whole-unit minimums of 2.
            "limits": {
                "banker": replace(STANDARD.limits[BetType.BANKER], min=Decimal(2)),
                "big": replace(STANDARD.limits[BetType.BIG], min=Decimal(2)),
            },
        },
    )
    settled = settle_bet(bet("banker", "25"), BANKER_WINS, rules)
    assert (str(settled.win), str(settled.commission)) == ("23", "2")


@pytest.mark.parametrize(
    ("bets", "pointers"),
    [
        ([bet("banker", "0.50")], [("bets", 0, "amount")]),  # under the minimum of 1.00
        ([bet("tie", "20.01")], [("bets", 0, "amount")]),  # over the tie maximum
        ([bet("banker", "150"), bet("banker", "60")], [("bets", 0, "amount"), ("bets", 1, "amount")]),
        ([bet("player", "10.005")], [("bets", 0, "amount")]),  # more decimals than cents
        (
            [bet("player", "10"), bet("tie", "25"), bet("banker", "0.99")],
            [("bets", 1, "amount"), ("bets", 2, "amount")],
        ),
    ],
)
def test_a_slip_outside_the_limits_names_each_offending_bet(bets, pointers):
    with pytest.raises(BetError) as caught:
        settle_slip(bets, BANKER_WINS, STANDARD)
    assert [p.path for p in caught.value.problems] == pointers


def test_limits_at_the_boundaries_are_accepted():
    settle_slip([bet("banker", "1.00"), bet("player", "200.00"), bet("tie", "20.00")], BANKER_WINS, STANDARD)


def test_many_slips_are_refused_together_naming_each_slip():
    slips = [("a", [bet("banker", "10")]), ("b", [bet("tie", "50")]), ("c", [bet("player", "0.10")])]
    with pytest.raises(BetError) as caught:
        settle_slips(slips, BANKER_WINS, STANDARD)
    assert [p.path for p in caught.value.problems] == [
        ("slips", 1, "bets", 0, "amount"),
        ("slips", 2, "bets", 0, "amount"),
    ]


@given(strategies.shoe_sequence(), strategies.bets)
def test_no_bet_loses_more_than_its_stake_and_money_is_exact(sequence, bets):
    coup = deal(sequence)
    slip = settle_slip(bets, coup, STANDARD)
    for settled in slip.bets:
        assert settled.returned >= 0
        assert settled.returned - settled.amount >= -settled.amount
        assert settled.win >= 0
        assert settled.commission >= 0
        assert (
            settled.returned
            == {Result.WIN: settled.amount + settled.win, Result.PUSH: settled.amount, Result.LOSE: 0}[
                settled.result
            ]
        )
        for value in (settled.win, settled.commission, settled.returned):
            assert value.as_tuple().exponent == -2
    assert slip.net == slip.returned - slip.staked


@given(strategies.shoe_sequence(), strategies.bets, st.randoms(use_true_random=False))
def test_settlement_does_not_depend_on_bet_order(sequence, bets, random):
    coup = deal(sequence)
    shuffled = list(bets)
    random.shuffle(shuffled)
    first, second = settle_slip(bets, coup, STANDARD), settle_slip(shuffled, coup, STANDARD)
    assert (first.staked, first.returned) == (second.staked, second.returned)
    assert sorted(first.bets, key=repr) == sorted(second.bets, key=repr)


def test_equal_stakes_written_differently_settle_alike_but_are_checked_as_written():
    slips = [("a", [bet("player", "10")]), ("b", [bet("player", "10.00")]), ("c", [bet("player", "10.50")])]
    a, b, c = settle_slips(slips, PLAYER_WINS, STANDARD)
    assert a.bets[0] == replace(b.bets[0], bet=a.bets[0].bet)
    assert str(c.bets[0].win) == "10.50"
    with pytest.raises(BetError) as caught:
        settle_slips([*slips, ("d", [bet("player", "10.500")])], PLAYER_WINS, STANDARD)
    [problem] = caught.value.problems
    assert problem.path == ("slips", 3, "bets", 0, "amount")
    assert problem.detail.startswith("10.500 has more than 2 decimal places")


def engine_state() -> dict[str, int]:
    """The size of every container and function cache a module of the engine holds."""
    sizes = {}
    for name, module in list(sys.modules.items()):
        if name != "service.baccarat" and not name.startswith("service.baccarat."):
            continue
        for attribute, value in vars(module).items():
            if attribute.startswith("__"):
                continue
            if hasattr(value, "cache_info"):
                sizes[f"{name}.{attribute}"] = value.cache_info().currsize
            elif isinstance(value, Collection) and not isinstance(value, str | bytes):
                sizes[f"{name}.{attribute}"] = len(value)
    return sizes


def test_settling_leaves_nothing_behind_in_the_engine():
    play_and_settle(STANDARD, [bet("banker", "25")], cards=cards("9S KH 2D 7C 5H"))
    before = engine_state()
    for commission in ("0.04", "0.05", "0.045"):
        rules = resolve_rules("standard", {"commission": Decimal(commission)})
        stakes = [Decimal(cents).scaleb(-2) for cents in range(100, 20_000, 7)]
        slips = [(str(stake), [Bet(type=BetType.BANKER, amount=stake)]) for stake in stakes]
        settle_slips(slips, BANKER_WINS, rules)
        play_and_settle(rules, slips[-1][1], cards=cards("KS 2H 3D AC 5S 6H"))
    assert engine_state() == before


def test_a_plain_slip_s_sums_fit_decimal_s_default_precision():
    """The settler sums a plain slip with the builtin sum, in Decimal's
    default 28 digits: exact only while the largest slip fits them with
    its decimals (the most a pay table pays, the largest stake, the most
    bets on a slip). A pay table that broke the bound would fail here."""
    from decimal import getcontext

    from service.baccarat.bets.catalogue import CATALOGUE
    from service.contract.schemas.slips import MAX_BETS_PER_SLIP

    most_net = max(line.payout.net for table in CATALOGUE.values() for line in table.lines)
    assert most_net < 1000
    largest_stake, decimals = 10**12, 4  # 12 integer digits, a minor unit of at most 4
    largest_slip = MAX_BETS_PER_SLIP * largest_stake * (1 + most_net)
    assert largest_slip < 10 ** (getcontext().prec - decimals)
