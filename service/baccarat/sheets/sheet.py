"""The rules sheet of a table, section by section, written from its rules.

Every figure is asked of the engine: card points of the cards themselves,
naturals and draws of the tableau (:mod:`.chart`), pays of the pay tables
the rules choose, returns and largest wins of the odds (:mod:`.returns`),
limits, chips, decks, the cut card and the dealing of the table, the
multiplier rule's cards, multipliers, fee and cap, and at Peek Baccarat's
table the peek's fee, cards shown, choices and returns from the peek's own
rule and odds (:mod:`.peek`). The sheet's ``id`` is a hash of what it
states: the rules id, the chips, the dealing, the malfunction clause, the
game when it is Peek Baccarat, and the engine's version, so an operator
keeps one sheet per id (docs/rules-sheet.md).

Why one module of this length: the sections are written here in the order
the sheet states them, each a short function of the same rules; the figures
come from the rooms named above, and what is left is the sheet's own order,
which a split would scatter.

>>> from service.baccarat.tables.rules import TABLES
>>> table = TABLES["tie_9"]
>>> sheet = rules_sheet(table.rules, chips=table.chips, dealing=table.dealing)
>>> [line.english for line in sheet.section(SectionCode.SHOE).lines]
['The game is played with 8 decks of 52 cards', 'The cards are reshuffled after each hand']
>>> sheet.section(SectionCode.BET).title
'The Player bet'
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType

from ... import __version__
from ..bets.catalogue import CATALOGUE
from ..bets.money import format_amount
from ..bets.paytable import Result
from ..bets.types import BetType
from ..multipliers.rule import MultiplierRule
from ..odds.exact import priced_by
from ..peek.round import Choice, PeekRule
from ..rulebook.cards import parse_card
from ..rulebook.errors import N_, Problem, ProblemCode, RulesError
from ..rulebook.tableau import is_natural
from ..tables.rules import Dealing, Rules
from .chart import CHART, THIRD_CARDS, ChartRow, player_totals, runs
from .returns import BetFigures, Returns, bet_returns
from .words import (
    CHOICE_NAMES,
    DEFAULT_MALFUNCTION,
    ROUNDING_WORDS,
    Line,
    LineCode,
    Malfunction,
    Section,
    SectionCode,
    Term,
    bet_term,
)

#: The hands a card-values section adds up, as the rule texts' examples do.
EXAMPLES = (("6H", "7S"), ("4D", "6C"), ("8S", "9H"), ("KD", "5S", "6H"), ("2C", "TD", "4S"))
#: Chips a table shows when it names none.
DEFAULT_CHIPS = tuple(Decimal(chip) for chip in (1, 5, 10, 25, 100))


@dataclass(frozen=True)
class RulesSheet:
    """A table's rules sheet: its sections, the Banker's chart, and what it was written for."""

    rules: Rules
    chips: tuple[Decimal, ...]
    dealing: Dealing
    malfunction: Malfunction
    sections: tuple[Section, ...]
    chart: tuple[ChartRow, ...]
    returns: Returns
    #: Played as Peek Baccarat, by these conditions.
    peek: PeekRule | None = None
    version: str = __version__
    #: First 16 hex digits of the SHA-256 of what the sheet states.
    id: str = field(init=False)

    def __post_init__(self) -> None:
        stated = {
            "rules": self.rules.id,
            "chips": [format_amount(chip, self.rules.minor_unit) for chip in self.chips],
            "dealing": str(self.dealing),
            "malfunction": str(self.malfunction),
            "version": self.version,
        }
        if self.peek is not None:
            stated["game"] = "peek"
        text = json.dumps(stated, sort_keys=True, separators=(",", ":"))
        object.__setattr__(self, "id", hashlib.sha256(text.encode()).hexdigest()[:16])

    def section(self, code: SectionCode) -> Section:
        """The first section of ``code``."""
        return next(section for section in self.sections if section.code is code)


def _section(code: SectionCode, lines: Sequence[Line], **values: object) -> Section:
    return Section(code, MappingProxyType(values), tuple(lines))


def card_values() -> Section:
    """How cards count, with worked hands."""
    ace, ten = parse_card("AS").points, parse_card("TS").points
    examples = []
    for codes in EXAMPLES:
        cards = [parse_card(code) for code in codes]
        points = sum(card.points for card in cards)
        examples.append(Line.of(LineCode.EXAMPLE, cards="+".join(codes), sum=points, total=points % 10))
    lines = [
        Line.of(LineCode.ACE, points=ace),
        Line.of(LineCode.PIPS),
        Line.of(LineCode.TENS_AND_FACES, points=ten),
        Line.of(LineCode.TOTAL),
        *examples,
    ]
    return _section(SectionCode.CARD_VALUES, lines)


def naturals() -> Section:
    totals = tuple(total for total in range(10) if is_natural(total))
    return _section(SectionCode.NATURALS, [Line.of(LineCode.NATURAL, naturals=runs(totals))], naturals=totals)


def player_rule() -> Section:
    draws, stands = player_totals(draws=True), player_totals(draws=False)
    line = Line.of(LineCode.PLAYER_DRAWS, draws=runs(draws), stands=runs(stands))
    return _section(SectionCode.PLAYER_RULE, [line], draws_on=draws, stands_on=stands)


def banker_rule() -> Section:
    """The Banker's rule in sentences; the chart itself is the sheet's ``chart``."""
    stood_draws = tuple(row.banker_total for row in CHART if row.player_stood)
    stood_stands = tuple(row.banker_total for row in CHART if not row.player_stood)
    lines = [Line.of(LineCode.BANKER_PLAYER_STOOD, draws=runs(stood_draws), stands=runs(stood_stands))]
    always = tuple(row.banker_total for row in CHART if all(row.player_drew))
    never = tuple(row.banker_total for row in CHART if not any(row.player_drew))
    lines.append(Line.of(LineCode.BANKER_ALWAYS_DRAWS, totals=runs(always)))
    for row in CHART:
        if row.banker_total in always or row.banker_total in never:
            continue
        draws = tuple(third for third in THIRD_CARDS if row.player_drew[third])
        stands = tuple(third for third in THIRD_CARDS if not row.player_drew[third])
        lines.append(
            Line.of(LineCode.BANKER_DRAWS_ON, total=row.banker_total, draws=runs(draws), stands=runs(stands))
        )
    lines.append(Line.of(LineCode.BANKER_ALWAYS_STANDS, totals=runs(never)))
    return _section(SectionCode.BANKER_RULE, lines)


def _odds(odds: Decimal) -> str:
    """Odds as a pay table prints them: ``8:1``, ``0.95:1``, ``1:2``."""
    if 0 < odds < 1 and (1 / odds) == (1 / odds).to_integral_value():
        return f"1:{int(1 / odds)}"
    return f"{format(odds.normalize(), 'f')}:1"


def _pay_lines(bet: BetType, rules: Rules) -> list[Line]:
    table = priced_by(bet, rules)
    # A commission pay table at a commission of 0 is named for what it pays.
    catalogued = CATALOGUE.get(table.id)
    lines = []
    for index, line in enumerate(table.lines):
        when, payout = Term(line.code, line.when), line.payout
        waived = (
            catalogued is not None
            and len(catalogued.lines) == len(table.lines)
            and catalogued.lines[index].payout.commission
            and not payout.commission
        )
        if payout.result is Result.PUSH:
            lines.append(Line.of(LineCode.PUSHES, when=when))
        elif payout.commission:
            rate = format((payout.commission * 100).normalize(), "f") + "%"
            lines.append(
                Line.of(
                    LineCode.PAYS_LESS_COMMISSION,
                    when=when,
                    odds=_odds(payout.odds),
                    rate=rate,
                    net=_odds(payout.net),
                )
            )
        elif waived:
            lines.append(Line.of(LineCode.PAYS_NO_COMMISSION, when=when, odds=_odds(payout.odds)))
        else:
            lines.append(Line.of(LineCode.PAYS, when=when, odds=_odds(payout.odds)))
    lines.append(Line.of(LineCode.OTHERWISE_LOSES))
    return lines


def _multiplied(bet: BetType, rule: MultiplierRule, figures: BetFigures) -> list[Line]:
    """A multiplied bet's pays, from nothing lit to the most a round of the
    table's shoe lights (``figures.largest_pay``), and its fee."""
    pay = rule.pays[bet]
    lines = []
    if pay.counted.most:
        low = format((pay.pays - pay.stake_kept).normalize(), "f")
        high = format(figures.largest_pay.normalize(), "f")
        lines.append(Line.of(LineCode.MULTIPLIED, pays=f"{low}-{high}:1"))
    rate = rule.fee.rate_on(bet)
    if rate:
        code = LineCode.FEE_RETURNED_ON_PUSH if rule.fee.returned_on_push else LineCode.FEE
        lines.append(Line.of(code, rate=format((rate * 100).normalize(), "f") + "%"))
    return lines


def _rate(rate: Decimal) -> str:
    """A fraction as a percentage: ``0.20`` is ``20%``."""
    return format((rate * 100).normalize(), "f") + "%"


def _peek_returns(bet: BetType, figures: BetFigures, rules: Rules, peek: PeekRule) -> list[Line]:
    """A fee bet's returns at a peek table: with the best choice and always
    kept, then for each range of stakes the table maximum leaves a choice
    (a raise may not take the bet over it), the return that range can have."""
    lines = [
        Line.of(
            LineCode.PEEK_RETURN_BEST,
            bet=bet_term(bet),
            rtp=f"{figures.rtp}%",
            tripled=f"{figures.tripled}%",
        ),
        Line.of(LineCode.PEEK_RETURN_KEPT, bet=bet_term(bet), rtp=f"{figures.kept}%"),
    ]
    # Stakes the peek takes: whole fees, so multiples of the fee's step (0.05 at 20% of cents).
    taken = fee_step(bet, rules, peek)
    low, top = rules.limits[bet].min, rules.limits[bet].max
    ranges = (
        (LineCode.PEEK_STAKES_TRIPLED, peek.multiples[Choice.TRIPLE], figures.rtp),
        (LineCode.PEEK_STAKES_DOUBLED, peek.multiples[Choice.DOUBLE], figures.doubled),
        (LineCode.PEEK_STAKES_KEPT, 1, figures.kept),
    )
    for code, times, rtp in ranges:
        # The largest stake taken that a raise to ``times`` keeps within the maximum.
        high = min(top, (top / times / taken).to_integral_value(rounding="ROUND_FLOOR") * taken)
        if high >= low:
            lines.append(
                Line.of(
                    code,
                    bet=bet_term(bet),
                    low=format_amount(low, rules.minor_unit),
                    high=format_amount(high, rules.minor_unit),
                    rtp=f"{rtp}%",
                )
            )
            low = high + taken
    return lines


def fee_rate(bet: BetType, rules: Rules, peek: PeekRule | None = None) -> Decimal:
    """The fee ``bet`` pays on top of its stake, as a rate: its multiplier
    rule's, or at Peek Baccarat's table the peek's; 0 without one."""
    rule = rules.multipliers
    if rule is not None and bet in rule.pays:
        return rule.fee.rate_on(bet)
    if peek is not None and bet in peek.fee_bets:
        return peek.fee_rate
    return Decimal(0)


def fee_step(bet: BetType, rules: Rules, peek: PeekRule | None = None) -> Decimal:
    """The stakes ``bet`` is taken in: a stake whose fee is not a whole
    number of minor units is refused, never rounded, so with a fee of 20%
    and cents, multiples of 0.05; without a fee, the minor unit.

    >>> from service.baccarat.tables.rules import TABLES
    >>> from service.baccarat.peek.round import PEEK
    >>> peek = TABLES["peek"].rules
    >>> fee_step(BetType.BANKER, peek, PEEK), fee_step(BetType.TIE, peek, PEEK)
    (Decimal('0.05'), Decimal('0.01'))
    """
    unit = Decimal(1).scaleb(-rules.minor_unit)
    return (unit * Fraction(fee_rate(bet, rules, peek)).denominator).quantize(unit)


def stake_step(bet: BetType, rules: Rules, peek: PeekRule | None = None) -> Decimal:
    """The smallest stake of which every stake that is a multiple is paid
    exactly what ``bet``'s lines state (commission included) and charged
    exactly its fee, with nothing rounded: the minor unit times the least
    common multiple of the denominators of its pays and fee rates (docs/bets.md, "Money").

    >>> from service.baccarat.tables.rules import TABLES
    >>> standard = TABLES["standard"].rules
    >>> stake_step(BetType.BANKER, standard), stake_step(BetType.PLAYER, standard)
    (Decimal('0.20'), Decimal('0.01'))
    """
    rates: list[Decimal] = []
    rule = rules.multipliers
    if rule is not None and bet in rule.pays:
        rates += [
            rule.pays[bet].pays - rule.pays[bet].stake_kept,
            rule.pays[bet].stake_kept,
            rule.fee.rate_on(bet),
        ]
    else:
        rates += [line.payout.net for line in priced_by(bet, rules).lines if line.payout.result is Result.WIN]
    if peek is not None and bet in peek.fee_bets:
        rates.append(peek.fee_rate)
    multiple = math.lcm(*(Fraction(rate).denominator for rate in rates)) if rates else 1
    return (Decimal(1).scaleb(-rules.minor_unit) * multiple).quantize(Decimal(1).scaleb(-rules.minor_unit))


def _paid_by(bet: BetType, rules: Rules) -> dict[str, str]:
    """What pays ``bet``: its pay table's id, or at a multiplier table, for a
    bet the rule pays, the rule's id (its base pays are the rule's own, not
    those of any pay table of the catalogue)."""
    if rules.multipliers is not None and bet in rules.multipliers.pays:
        return {"rule": rules.multipliers.id}
    return {"pay_table": priced_by(bet, rules).id}


def bet_section(bet: BetType, rules: Rules, returns: Returns, peek: PeekRule | None = None) -> Section:
    """One offered bet: its pay table's lines, a multiplier rule's pays and
    fee, Peek Baccarat's fee, its return to player (at Peek Baccarat, with
    the best choice and always kept) and its largest win."""
    figures = returns.bets[bet]
    lines = _pay_lines(bet, rules)
    if rules.multipliers is not None and bet in rules.multipliers.pays:
        lines += _multiplied(bet, rules.multipliers, figures)
    values: dict[str, object] = {}
    if peek is not None and bet in peek.fee_bets and figures.kept is not None:
        lines.append(Line.of(LineCode.FEE, rate=_rate(peek.fee_rate)))
        lines += _peek_returns(bet, figures, rules, peek)
        values = {"fee": _rate(peek.fee_rate), "rtp_kept": figures.kept, "tripled": figures.tripled}
    else:
        lines.append(Line.of(LineCode.RETURN, rtp=f"{figures.rtp}%"))
    unit = Decimal(1).scaleb(-rules.minor_unit)
    taken = fee_step(bet, rules, peek)
    if taken > unit:
        # A stake whose fee is not whole is refused: "from min to max" holds on these stakes alone.
        multiple = format_amount(taken, rules.minor_unit)
        lines.append(Line.of(LineCode.STAKES_TAKEN, step=multiple, rate=_rate(fee_rate(bet, rules, peek))))
        values["stake_multiple"] = multiple
    step = stake_step(bet, rules, peek)
    if step > unit:
        written = format_amount(step, rules.minor_unit)
        if step > taken:  # else no other stake is taken, and none is rounded
            rounding = Term(str(rules.payout_rounding), ROUNDING_WORDS[str(rules.payout_rounding)])
            lines.append(
                Line.of(LineCode.STAKE_STEP, step=written, rounding=rounding, minor_unit=rules.minor_unit)
            )
        values["stake_step"] = written
    if figures.over_cost:
        lines.append(Line.of(LineCode.RETURN_OVER_COST, rtp=f"{figures.rtp}%"))
        values["warning"] = str(LineCode.RETURN_OVER_COST)
    lines.append(Line.of(LineCode.LARGEST_WIN, amount=figures.largest_win))
    limits = rules.limits[bet]
    return Section(
        SectionCode.BET,
        MappingProxyType(
            {
                "bet": str(bet),
                **_paid_by(bet, rules),
                "min": format_amount(limits.min, rules.minor_unit),
                "max": format_amount(limits.max, rules.minor_unit),
                "rtp": figures.rtp,
                "largest_win": figures.largest_win,
                **values,
            }
        ),
        tuple(lines),
        MappingProxyType({"bet": bet_term(bet)}),
    )


def _chances(weights: Mapping[int, int]) -> str:
    """Each value with its chance, as a fraction of the weights' total:
    ``2 (15/16), 3 (1/16)``."""
    total = sum(weights.values())
    return ", ".join(f"{value} ({Fraction(weight, total)})" for value, weight in sorted(weights.items()))


def multipliers_section(rule: MultiplierRule, minor_unit: int) -> Section:
    cards = runs(tuple(sorted(rule.cards)))
    multipliers = ", ".join(str(multiplier) for multiplier in sorted(rule.multipliers))
    lines = [Line.of(LineCode.MULTIPLIER_CARDS, cards=cards, multipliers=multipliers)]
    # The weights, as chances: "2, 6" alone would hide a 1:3 choice between them.
    if len(rule.cards) > 1:
        lines.append(Line.of(LineCode.MULTIPLIER_CARD_CHANCES, chances=_chances(rule.cards)))
    if len(rule.multipliers) > 1:
        lines.append(Line.of(LineCode.MULTIPLIER_CHANCES, chances=_chances(rule.multipliers)))
    lines.append(Line.of(LineCode.MULTIPLIER_MATCH))
    if rule.cap is None:
        return _section(SectionCode.MULTIPLIERS, lines, rule=rule.id)
    cap = format_amount(rule.cap, minor_unit)
    lines.append(Line.of(LineCode.CAP, cap=cap))
    return _section(SectionCode.MULTIPLIERS, lines, rule=rule.id, cap=cap)


def peek_section(rules: Rules, peek: PeekRule, returns: Returns) -> Section:
    """Peek Baccarat's own conditions, each from its rule: which bets pay
    the fee and how much, which cards are shown and how often, the choices
    and the table maximum that limits them, no fee on the raise, and the
    Player and Banker returns with the best choice and always kept."""
    fee_bets = tuple(bet for bet in rules.bet_types if bet in peek.fee_bets)
    rate = _rate(peek.fee_rate)
    lines = [Line.of(LineCode.PEEK_FEE, bet=bet_term(bet), rate=rate) for bet in fee_bets]
    lines += [
        Line.of(LineCode.PEEK_NO_FEE, bet=bet_term(bet)) for bet in rules.bet_types if bet not in fee_bets
    ]
    counts = tuple(count for count in sorted(peek.shown_weights) if peek.shown_weights[count])
    total = sum(peek.shown_weights[count] for count in counts)
    lines.append(Line.of(LineCode.PEEK_SHOWN, shown=runs(counts)))
    lines += [
        Line.of(LineCode.PEEK_SHOWN_COUNT, count=count, chance=f"{peek.shown_weights[count]}/{total}")
        for count in counts
    ]
    lines += [
        Line.of(LineCode.PEEK_CHOICE, choice=Term(str(choice), CHOICE_NAMES[str(choice)]), times=times)
        for choice, times in peek.multiples.items()
    ]
    lines += [
        Line.of(
            LineCode.PEEK_MAXIMUM,
            bet=bet_term(bet),
            max=format_amount(rules.limits[bet].max, rules.minor_unit),
        )
        for bet in fee_bets
    ]
    lines += [Line.of(LineCode.PEEK_RAISE_NO_FEE), Line.of(LineCode.PEEK_SETTLED)]
    for bet in fee_bets:
        lines += _peek_returns(bet, returns.bets[bet], rules, peek)
    return _section(
        SectionCode.PEEK,
        lines,
        fee=rate,
        fee_bets=tuple(str(bet) for bet in fee_bets),
        shown=counts,
        shown_weights=tuple(f"{count}: {peek.shown_weights[count]}/{total}" for count in counts),
        choices=tuple(f"{choice}: {times}" for choice, times in peek.multiples.items()),
        strategy="triple_when_favoured_else_keep",
        **{f"rtp_{bet}": returns.bets[bet].rtp for bet in fee_bets},
        **{f"rtp_kept_{bet}": returns.bets[bet].kept for bet in fee_bets},
    )


def return_section(returns: Returns) -> Section:
    lines = [
        Line.of(LineCode.EXACT_RETURNS_ONE_DECK, sequences=returns.sequences)
        if returns.decks == 1
        else Line.of(LineCode.EXACT_RETURNS, decks=returns.decks, sequences=returns.sequences)
    ]
    if returns.method == "exact_enumeration_per_cost":
        lines.append(Line.of(LineCode.RETURNS_PER_COST))
    elif returns.method == "exact_enumeration_peek":
        lines.append(Line.of(LineCode.PEEK_RETURNS))
    return _section(
        SectionCode.RETURN_TO_PLAYER, lines, method=str(returns.method), sequences=returns.sequences
    )


def limits_section(rules: Rules, chips: tuple[Decimal, ...]) -> Section:
    unit = rules.minor_unit
    lines = [
        Line.of(
            LineCode.BET_LIMITS,
            bet=bet_term(bet),
            min=format_amount(rules.limits[bet].min, unit),
            max=format_amount(rules.limits[bet].max, unit),
        )
        for bet in rules.bet_types
    ]
    written = [format_amount(chip, unit) for chip in chips]
    lines.append(Line.of(LineCode.CHIPS, chips=", ".join(written)))
    rounding = Term(str(rules.payout_rounding), ROUNDING_WORDS[str(rules.payout_rounding)])
    lines.append(Line.of(LineCode.ROUNDED, rounding=rounding, minor_unit=unit))
    return _section(SectionCode.LIMITS, lines, chips=written, minor_unit=unit)


def shoe_section(rules: Rules, dealing: Dealing) -> Section:
    lines = [Line.of(LineCode.ONE_DECK) if rules.decks == 1 else Line.of(LineCode.DECKS, decks=rules.decks)]
    if dealing is Dealing.RESHUFFLE_EACH_HAND:
        lines.append(Line.of(LineCode.RESHUFFLED))
        return _section(SectionCode.SHOE, lines, decks=rules.decks, dealing=str(dealing))
    lines += [Line.of(LineCode.BURN), Line.of(LineCode.CUT_CARD, cut_card=rules.cut_card)]
    return _section(SectionCode.SHOE, lines, decks=rules.decks, dealing=str(dealing), cut_card=rules.cut_card)


def check_chips(chips: tuple[Decimal, ...], minor_unit: int) -> None:
    """Every chip is a whole number of the currency's minor unit (a
    :class:`RulesError` naming each one that is not: never rounded)."""
    unit = Decimal(1).scaleb(-minor_unit)
    problems = [
        Problem.of(("chips", index), ProblemCode.AMOUNT_TOO_MANY_DECIMALS, amount=chip, places=minor_unit)
        for index, chip in enumerate(chips)
        if chip != chip.quantize(unit)
    ]
    if problems:
        raise RulesError(N_("A chip is not a whole number of the currency's minor unit"), problems)


def rules_sheet(
    rules: Rules,
    *,
    chips: tuple[Decimal, ...] = DEFAULT_CHIPS,
    dealing: Dealing = Dealing.SHOE,
    malfunction: Malfunction = DEFAULT_MALFUNCTION,
    peek: PeekRule | None = None,
) -> RulesSheet:
    """The sheet of a table playing ``rules``, with its chips, its dealing
    and its malfunction clause; of Peek Baccarat played by ``peek``'s
    conditions when given (its Player and Banker pays the plain ones,
    which its odds price)."""
    check_chips(chips, rules.minor_unit)
    returns = bet_returns(rules, peek)
    sections = [
        _section(SectionCode.OBJECT, [Line.of(LineCode.OBJECT), Line.of(LineCode.HANDS_ARE_NAMES)]),
        card_values(),
        _section(SectionCode.DEAL, [Line.of(LineCode.DEAL_ORDER), Line.of(LineCode.THIRD_CARD)]),
        naturals(),
        player_rule(),
        banker_rule(),
        _section(SectionCode.OUTCOMES, [Line.of(LineCode.HIGHER_TOTAL_WINS), Line.of(LineCode.TIE_PUSHES)]),
        *(bet_section(bet, rules, returns, peek) for bet in rules.bet_types),
    ]
    if rules.multipliers is not None:
        sections.append(multipliers_section(rules.multipliers, rules.minor_unit))
    if peek is not None:
        sections.append(peek_section(rules, peek, returns))
    sections += [
        return_section(returns),
        limits_section(rules, chips),
        shoe_section(rules, dealing),
        _section(SectionCode.MALFUNCTION, [Line.clause(malfunction)], clause=str(malfunction)),
        _section(
            SectionCode.RULES,
            [Line.of(LineCode.WRITTEN_FOR, rules_id=rules.id, version=__version__)],
            rules_id=rules.id,
            version=__version__,
        ),
    ]
    return RulesSheet(rules, chips, dealing, malfunction, tuple(sections), CHART, returns, peek)
