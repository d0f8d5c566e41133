"""Multiplier rules as data: what a rule refuses (naming the field and why),
its canonical form and id, and the largest win of a bet."""

from dataclasses import replace
from decimal import Decimal

import pytest

from service.baccarat.bets.types import BetType
from service.baccarat.multipliers.odds import largest_pays
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.multipliers.rule import (
    ALLOWED_COUNTED,
    FAULT_TEMPLATES,
    MULTIPLIED_BETS,
    NO_FEE,
    Counted,
    FaultCode,
    Fee,
    MultipliedPay,
    MultiplierRule,
    MultiplierRulesError,
    largest_multiplier,
)
from service.baccarat.rulebook.errors import RulesError

LIGHTNING, GOLDEN_WEALTH, PROSPERITY_TREE = (
    PRESETS[name].rule for name in ("lightning", "golden_wealth", "prosperity_tree")
)
PLAYER_PAYS = {BetType.PLAYER: MultipliedPay(pays=Decimal(1), counted=Counted.WINNING_HAND)}


def rule(**changes):
    """Lightning's rule with ``changes``; its fee is on every bet it pays unless they change it."""
    pays = changes.get("pays", LIGHTNING.pays)
    settings = {
        "cards": LIGHTNING.cards,
        "multipliers": LIGHTNING.multipliers,
        "pays": pays,
        "fee": Fee(rate=LIGHTNING.fee.rate, bets=tuple(pays)),
        "cap": LIGHTNING.cap,
    }
    return MultiplierRule(**{**settings, **changes})


def pays(bet: str, base="1", counted=Counted.NONE, kept="0"):
    """One bet's pay, as ``changes`` for :func:`rule`."""
    return {
        "pays": {BetType(bet): MultipliedPay(pays=Decimal(base), counted=counted, stake_kept=Decimal(kept))}
    }


@pytest.mark.parametrize(
    ("changes", "path", "code"),
    [
        ({"cards": {}}, ("cards",), FaultCode.WEIGHTS_MISSING),
        ({"cards": {0: 1}}, ("cards", "0"), FaultCode.CARD_COUNT_OUT_OF_RANGE),
        ({"cards": {53: 1}}, ("cards", "53"), FaultCode.CARD_COUNT_OUT_OF_RANGE),
        ({"cards": {True: 1}}, ("cards", "True"), FaultCode.CARD_COUNT_OUT_OF_RANGE),
        ({"cards": {5: 0}}, ("cards", "5"), FaultCode.WEIGHT_NOT_WHOLE),
        ({"cards": {5: Decimal("0.5")}}, ("cards", "5"), FaultCode.WEIGHT_NOT_WHOLE),
        ({"cards": {5: 2**32 - 1, 6: 2}}, ("cards",), FaultCode.WEIGHTS_TOO_HEAVY),
        ({"multipliers": {}}, ("multipliers",), FaultCode.WEIGHTS_MISSING),
        ({"multipliers": {1: 3}}, ("multipliers", "1"), FaultCode.MULTIPLIER_OUT_OF_RANGE),
        ({"multipliers": {1001: 3}}, ("multipliers", "1001"), FaultCode.MULTIPLIER_OUT_OF_RANGE),
        ({"multipliers": {2: -1}}, ("multipliers", "2"), FaultCode.WEIGHT_NOT_WHOLE),
        ({"pays": {}}, ("pays",), FaultCode.NO_BET_PAID),
        (pays("big"), ("pays", "big"), FaultCode.BET_NOT_MULTIPLIED),
        ({"pays": {BetType.TIE: None}}, ("pays", "tie"), FaultCode.PAY_NOT_GIVEN),
        (pays("tie", "5", Counted.WINNING_HAND), ("pays", "tie", "counted"), FaultCode.COUNTED_NOT_ALLOWED),
        (
            pays("player", "1", Counted.PAIRED_CARDS),
            ("pays", "player", "counted"),
            FaultCode.COUNTED_NOT_ALLOWED,
        ),
        (
            pays("player_pair", "9", Counted.ALL_CARDS),
            ("pays", "player_pair", "counted"),
            FaultCode.COUNTED_NOT_ALLOWED,
        ),
        (pays("player", "0"), ("pays", "player", "pays"), FaultCode.BASE_PAY_OUT_OF_RANGE),
        (pays("player", "NaN"), ("pays", "player", "pays"), FaultCode.BASE_PAY_OUT_OF_RANGE),
        (pays("player", "10001"), ("pays", "player", "pays"), FaultCode.BASE_PAY_OUT_OF_RANGE),
        (pays("banker", kept="1"), ("pays", "banker", "stake_kept"), FaultCode.STAKE_KEPT_OUT_OF_RANGE),
        (pays("banker", kept="-0.05"), ("pays", "banker", "stake_kept"), FaultCode.STAKE_KEPT_OUT_OF_RANGE),
        (pays("banker", "0.04", kept="0.05"), ("pays", "banker", "stake_kept"), FaultCode.WIN_BELOW_NOTHING),
        ({"fee": Fee(rate=Decimal("-0.2"), bets=())}, ("fee", "rate"), FaultCode.FEE_RATE_OUT_OF_RANGE),
        ({"fee": Fee(rate=Decimal("1.5"), bets=())}, ("fee", "rate"), FaultCode.FEE_RATE_OUT_OF_RANGE),
        (
            {**pays("tie", "5"), "fee": Fee(rate=Decimal("0.2"), bets=(BetType.PLAYER,))},
            ("fee", "bets", 0),
            FaultCode.FEE_ON_BET_NOT_PAID,
        ),
        ({"cap": Decimal(0)}, ("cap",), FaultCode.CAP_NOT_POSITIVE),
        ({"cap": Decimal("Infinity")}, ("cap",), FaultCode.CAP_NOT_POSITIVE),
    ],
)
def test_a_rule_that_does_not_hold_is_refused_naming_the_field(changes, path, code):
    with pytest.raises(MultiplierRulesError) as raised:
        rule(**changes)
    assert [(fault.path, fault.code) for fault in raised.value.faults] == [(path, code)]
    assert isinstance(raised.value, RulesError)  # answered as any rules error
    assert str(raised.value).startswith("The multiplier rule does not hold together: ")
    assert str(raised.value.faults[0]) in str(raised.value)


def test_every_fault_is_named_at_once_and_moves_under_a_prefix():
    with pytest.raises(MultiplierRulesError) as raised:
        MultiplierRule(cards={0: 1}, multipliers={1: 1}, pays={}, cap=Decimal(-1))
    faults = raised.value.faults
    assert [fault.path for fault in faults] == [("cards", "0"), ("multipliers", "1"), ("pays",), ("cap",)]
    moved = raised.value.within("rules", "multiplier")
    assert [fault.path for fault in moved.faults] == [
        ("rules", "multiplier", *fault.path) for fault in faults
    ]
    assert [fault.code for fault in moved.faults] == [fault.code for fault in faults]
    assert str(moved).startswith("The multiplier rule does not hold together: rules/multiplier/cards/0: ")


def test_every_fault_code_has_its_sentence():
    assert set(FAULT_TEMPLATES) == set(FaultCode)
    assert all(code.value == code.name.lower() for code in FaultCode)


def test_what_counts_for_each_bet():
    assert ALLOWED_COUNTED == {
        BetType.PLAYER: (Counted.WINNING_HAND, Counted.ALL_CARDS, Counted.NONE),
        BetType.BANKER: (Counted.WINNING_HAND, Counted.ALL_CARDS, Counted.NONE),
        BetType.TIE: (Counted.ALL_CARDS, Counted.NONE),
        BetType.PLAYER_PAIR: (Counted.PAIRED_CARDS, Counted.NONE),
        BetType.BANKER_PAIR: (Counted.PAIRED_CARDS, Counted.NONE),
    }
    assert [counted.most for counted in Counted] == [3, 6, 2, 0]


def test_a_rule_keeps_its_bets_and_the_fee_s_bets_in_bet_type_order():
    made = rule(
        pays={BetType.TIE: LIGHTNING.pays[BetType.TIE], BetType.PLAYER: LIGHTNING.pays[BetType.PLAYER]},
        fee=Fee(rate=Decimal("0.2"), bets=(BetType.TIE, BetType.PLAYER)),
    )
    assert made.bet_types == (BetType.PLAYER, BetType.TIE)
    assert made.fee.bets == (BetType.PLAYER, BetType.TIE)
    assert made.fee.rate_on(BetType.TIE) == Decimal("0.2")
    assert NO_FEE.rate_on(BetType.TIE) == 0


def test_the_canonical_form_states_every_setting():
    assert GOLDEN_WEALTH.canonical == {
        "cards": {"5": 1},
        "multipliers": {"2": 50, "3": 42, "5": 7, "8": 1},
        "pays": {
            "player": {"pays": "1", "counted": "winning_hand", "stake_kept": "0"},
            "banker": {"pays": "1", "counted": "winning_hand", "stake_kept": "0.05"},
            "tie": {"pays": "5", "counted": "all_cards", "stake_kept": "0"},
            "player_pair": {"pays": "9", "counted": "paired_cards", "stake_kept": "0"},
            "banker_pair": {"pays": "9", "counted": "paired_cards", "stake_kept": "0"},
        },
        "fee": {
            "rate": "0.2",
            "bets": ["player", "banker", "tie", "player_pair", "banker_pair"],
            "returned_on_push": False,
        },
        "cap": "500000",
    }


def test_weights_are_relative_and_values_are_read_as_their_value():
    assert rule(multipliers={2: 28, 3: 20, 4: 16, 5: 14, 8: 10}).id == LIGHTNING.id
    assert rule(cards={1: 3, 2: 6, 3: 9, 4: 6, 5: 3}).id == LIGHTNING.id
    assert rule(fee=Fee(rate=Decimal("0.200"), bets=MULTIPLIED_BETS)).id == LIGHTNING.id
    assert rule(fee=Fee(rate=Decimal("0.2"), bets=tuple(reversed(MULTIPLIED_BETS)))).id == LIGHTNING.id


@pytest.mark.parametrize(
    "changes",
    [
        {"cards": {1: 1, 2: 2, 3: 3, 4: 2, 5: 2}},
        {"cards": {5: 1}},
        {"multipliers": {2: 14, 3: 10, 4: 8, 5: 7, 8: 6}},
        {"multipliers": {2: 14, 3: 10, 4: 8, 5: 7, 7: 5}},
        {"pays": {**LIGHTNING.pays, BetType.TIE: MultipliedPay(pays=Decimal(6), counted=Counted.ALL_CARDS)}},
        {"pays": {**LIGHTNING.pays, BetType.TIE: MultipliedPay(pays=Decimal(5), counted=Counted.NONE)}},
        {
            "pays": {
                **LIGHTNING.pays,
                BetType.BANKER: replace(LIGHTNING.pays[BetType.BANKER], stake_kept=Decimal("0.04")),
            }
        },
        {
            "pays": {bet: pay for bet, pay in LIGHTNING.pays.items() if bet is not BetType.BANKER_PAIR},
            "fee": Fee(rate=Decimal("0.2"), bets=MULTIPLIED_BETS[:4]),
        },
        {"fee": Fee(rate=Decimal("0.25"), bets=MULTIPLIED_BETS)},
        {"fee": Fee(rate=Decimal("0.2"), bets=MULTIPLIED_BETS[:2])},
        {"fee": Fee(rate=Decimal("0.2"), bets=MULTIPLIED_BETS, returned_on_push=True)},
        {"cap": Decimal(500000)},
    ],
)
def test_every_setting_is_part_of_the_id(changes):
    assert rule(**changes).id != LIGHTNING.id


def test_a_bet_paid_without_multiplier_wins_its_base_pay_at_most():
    flat = rule(pays={BetType.TIE: MultipliedPay(pays=Decimal(8), counted=Counted.NONE)}, fee=NO_FEE)
    assert largest_pays(flat) == {BetType.TIE: Decimal(8)}
    assert MultiplierRule(cards={1: 1}, multipliers={2: 1}, pays=PLAYER_PAYS).fee == NO_FEE


@pytest.mark.parametrize(
    ("cards", "pattern", "multiplier"),
    [
        # Each multiplier card lights one distinct counted card, those counted most first.
        ({1: 1}, (6,), 8**6),
        ({1: 1}, (1, 1, 1, 1, 1, 1), 8),
        ({1: 1}, (2, 2, 2), 8**2),
        ({2: 1, 3: 1}, (2, 2, 1, 1), 8**5),
        ({5: 1}, (1, 1, 1, 1, 1, 1), 8**5),
        ({8: 1}, (1, 1, 1, 1, 1, 1), 8**6),
        ({1: 1}, (), 1),
    ],
)
def test_the_largest_multiplier_lights_no_more_cards_than_the_rule_draws(cards, pattern, multiplier):
    assert largest_multiplier(replace(LIGHTNING, cards=cards), pattern) == multiplier
