"""An operator's multiplier rule made by the engine: every check of
:class:`.MultiplierRule` has a problem code, and each fault becomes a
problem under ``rules/multipliers`` with values a problem can carry."""

from decimal import Decimal

import pytest

from service.baccarat.bets.types import BetType
from service.baccarat.multipliers.problems import RULE_PROBLEMS, cap_problems, operator_rule
from service.baccarat.multipliers.rule import Counted, FaultCode, Fee, MultipliedPay
from service.baccarat.rulebook.errors import PROBLEM_TEMPLATES, RulesError

TIE = {BetType.TIE: MultipliedPay(pays=Decimal(5), counted=Counted.ALL_CARDS)}


def test_every_check_of_a_rule_has_its_problem_code_with_the_same_placeholders():
    rule_checks = set(FaultCode) - {
        FaultCode.PAY_NOT_GIVEN,  # the schema requires a pay's fields
        FaultCode.MULTIPLIER_CARD_COUNT,  # the round's checks, answered by play.py
        FaultCode.MULTIPLIER_CARD_REPEATED,
        FaultCode.MULTIPLIER_NOT_OF_RULE,
        FaultCode.BET_NOT_PAID,
        FaultCode.STAKE_NOT_POSITIVE,
        FaultCode.STAKE_TOO_MANY_DECIMALS,
        FaultCode.FEE_FINER_THAN_MINOR_UNIT,
    }
    assert set(RULE_PROBLEMS) == rule_checks
    assert all(problem in PROBLEM_TEMPLATES for problem in RULE_PROBLEMS.values())


def test_a_rule_that_holds_is_made():
    rule = operator_rule(cards={3: 2}, multipliers={2: 4, 5: 2}, pays=TIE)
    assert rule.canonical["cards"] == {"3": 1}
    assert rule.canonical["multipliers"] == {"2": 2, "5": 1}


@pytest.mark.parametrize(
    ("parts", "path", "code", "values"),
    [
        ({"cards": {}}, ("cards",), "multiplier_weights_missing", {}),
        (
            {"multipliers": {2: 2**32, 3: 1}},
            ("multipliers",),
            "multiplier_weights_too_heavy",
            {"total": str(2**32 + 1), "most": 2**32},
        ),
        (
            {"pays": {BetType.BIG: MultipliedPay(pays=Decimal(1), counted=Counted.NONE)}},
            ("pays", "big"),
            "multiplier_bet_not_multiplied",
            {"paid": "player, banker, tie, player_pair, banker_pair", "bet": "big"},
        ),
        (
            {"pays": {BetType.TIE: MultipliedPay(pays=Decimal(0), counted=Counted.ALL_CARDS)}},
            ("pays", "tie", "pays"),
            "multiplier_base_pay_out_of_range",
            {"pays": "0", "most": 10000},
        ),
        (
            {"fee": Fee(rate=Decimal("1.5"), bets=())},
            ("fee", "rate"),
            "multiplier_fee_rate_out_of_range",
            {"rate": "1.5"},
        ),
        ({"cap": Decimal(-1)}, ("cap",), "multiplier_cap_not_positive", {"cap": "-1"}),
    ],
)
def test_a_fault_is_a_problem_under_rules_multipliers(parts, path, code, values):
    with pytest.raises(RulesError) as raised:
        operator_rule(**{"cards": {3: 1}, "multipliers": {2: 1}, "pays": TIE, **parts})
    (problem,) = raised.value.problems
    assert (problem.path, str(problem.code), dict(problem.values)) == (
        ("rules", "multipliers", *path),
        code,
        values,
    )


def test_a_cap_finer_than_the_minor_unit_is_a_problem_and_a_whole_one_none():
    rule = operator_rule(cards={3: 1}, multipliers={2: 1}, pays=TIE, cap=Decimal("10.005"))
    (problem,) = cap_problems(rule, 2)
    assert (problem.path, str(problem.code)) == (
        ("rules", "multipliers", "cap"),
        "multiplier_cap_finer_than_minor_unit",
    )
    assert dict(problem.values) == {"cap": "10.005", "places": 2}
    assert cap_problems(rule, 3) == []
