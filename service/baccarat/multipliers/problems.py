"""A multiplier rule an operator sends: made by the engine, its faults
answered as the API's problems (:class:`.rulebook.errors.ProblemCode`).

:class:`.MultiplierRule` checks every field and names each offending one
with a :class:`.FaultCode`; :func:`operator_rule` makes the rule, or raises
a :class:`.RulesError` whose problems sit under ``rules/multipliers``.

>>> from decimal import Decimal
>>> from service.baccarat.bets.types import BetType
>>> from service.baccarat.multipliers.rule import Counted, MultipliedPay
>>> pays = {BetType.TIE: MultipliedPay(pays=Decimal(5), counted=Counted.ALL_CARDS)}
>>> operator_rule(cards={3: 1}, multipliers={2: 4, 5: 1}, pays=pays).canonical["multipliers"]
{'2': 4, '5': 1}
>>> try:
...     operator_rule(cards={0: 1}, multipliers={2: 1}, pays=pays)
... except RulesError as error:
...     [(problem.path, str(problem.code)) for problem in error.problems]
[(('rules', 'multipliers', 'cards', '0'), 'multiplier_card_count_out_of_range')]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from types import MappingProxyType
from typing import Any

from ..rulebook.errors import N_, Problem, ProblemCode, RulesError
from .rule import Fault, FaultCode, MultiplierRule, MultiplierRulesError

#: Where a sent rule sits in a request.
AT = ("rules", "multipliers")

#: The problem each check of a rule is answered as (a rule's pays are
#: given whole by the schema, so ``pay_not_given`` is never reached).
RULE_PROBLEMS: Mapping[FaultCode, ProblemCode] = MappingProxyType(
    {
        FaultCode.WEIGHTS_MISSING: ProblemCode.MULTIPLIER_WEIGHTS_MISSING,
        FaultCode.CARD_COUNT_OUT_OF_RANGE: ProblemCode.MULTIPLIER_CARD_COUNT_OUT_OF_RANGE,
        FaultCode.MULTIPLIER_OUT_OF_RANGE: ProblemCode.MULTIPLIER_OUT_OF_RANGE,
        FaultCode.WEIGHT_NOT_WHOLE: ProblemCode.MULTIPLIER_WEIGHT_NOT_WHOLE,
        FaultCode.WEIGHTS_TOO_HEAVY: ProblemCode.MULTIPLIER_WEIGHTS_TOO_HEAVY,
        FaultCode.NO_BET_PAID: ProblemCode.MULTIPLIER_NO_BET_PAID,
        FaultCode.BET_NOT_MULTIPLIED: ProblemCode.MULTIPLIER_BET_NOT_MULTIPLIED,
        FaultCode.BASE_PAY_OUT_OF_RANGE: ProblemCode.MULTIPLIER_BASE_PAY_OUT_OF_RANGE,
        FaultCode.COUNTED_NOT_ALLOWED: ProblemCode.MULTIPLIER_COUNTED_NOT_ALLOWED,
        FaultCode.STAKE_KEPT_OUT_OF_RANGE: ProblemCode.MULTIPLIER_STAKE_KEPT_OUT_OF_RANGE,
        FaultCode.WIN_BELOW_NOTHING: ProblemCode.MULTIPLIER_WIN_BELOW_NOTHING,
        FaultCode.FEE_RATE_OUT_OF_RANGE: ProblemCode.MULTIPLIER_FEE_RATE_OUT_OF_RANGE,
        FaultCode.FEE_ON_BET_NOT_PAID: ProblemCode.MULTIPLIER_FEE_ON_BET_NOT_PAID,
        FaultCode.CAP_NOT_POSITIVE: ProblemCode.MULTIPLIER_CAP_NOT_POSITIVE,
        FaultCode.CAP_FINER_THAN_MINOR_UNIT: ProblemCode.MULTIPLIER_CAP_FINER_THAN_MINOR_UNIT,
    }
)

#: Values a problem names otherwise than the fault does (``bets`` is a
#: count of bets among the problems' values).
_RENAMED = {"bets": "paid"}


def _value(value: Any) -> Any:
    """A fault's value as a problem carries it: decimals and totals as written."""
    if isinstance(value, Decimal):
        return format(value, "f")
    return value


def _problem(fault: Fault) -> Problem:
    values = {_RENAMED.get(name, name): _value(value) for name, value in fault.values.items()}
    if fault.code is FaultCode.WEIGHTS_TOO_HEAVY:
        values["total"] = str(values["total"])
    if fault.code is FaultCode.BASE_PAY_OUT_OF_RANGE:
        values["most"] = int(values["most"])
    return Problem((*AT, *fault.path), RULE_PROBLEMS[fault.code], values)


def rule_error(error: MultiplierRulesError) -> RulesError:
    """``error`` as the API answers it: each fault a problem under ``rules/multipliers``."""
    return RulesError(N_("The multiplier rule does not hold together"), [_problem(f) for f in error.faults])


def operator_rule(**parts: Any) -> MultiplierRule:
    """The :class:`.MultiplierRule` of ``parts``, or a :class:`.RulesError` naming each fault."""
    try:
        return MultiplierRule(**parts)
    except MultiplierRulesError as error:
        raise rule_error(error) from None


def cap_problems(rule: MultiplierRule, minor_unit: int) -> list[Problem]:
    """The cap of ``rule`` if it is finer than the currency's minor unit."""
    unit = Decimal(1).scaleb(-minor_unit)
    if rule.cap is None or rule.cap == rule.cap.quantize(unit):
        return []
    fault = Fault.of(("cap",), FaultCode.CAP_FINER_THAN_MINOR_UNIT, cap=rule.cap, places=minor_unit)
    return [_problem(fault)]


#: The problems a multiplier round's faults are answered as: those a request
#: can reach (a rule is a preset, the stakes were checked by the table's limits).
_FAULT_PROBLEMS = {
    FaultCode.MULTIPLIER_CARD_COUNT: ProblemCode.MULTIPLIER_CARD_COUNT,
    FaultCode.MULTIPLIER_CARD_REPEATED: ProblemCode.MULTIPLIER_CARD_REPEATED,
    FaultCode.MULTIPLIER_NOT_OF_RULE: ProblemCode.MULTIPLIER_NOT_OF_RULE,
    FaultCode.FEE_FINER_THAN_MINOR_UNIT: ProblemCode.FEE_FINER_THAN_MINOR_UNIT,
}


def fault_problems(faults: Sequence[Fault]) -> list[Problem]:
    """The engine's multiplier faults (of a slip, or of a studio's multiplier cards) as problems."""
    return [Problem(fault.path, _FAULT_PROBLEMS[fault.code], fault.values) for fault in faults]
