"""Playing a round from what a request brings: a card sequence, seed inputs,
or nothing (then a fresh seed is drawn and returned so the round can be replayed).

Seed inputs give a freshly shuffled shoe. Without a round number the round is
dealt from its top, with no burn ("the deck is reshuffled after each hand");
with ``round_number`` it is that round of the whole shoe, dealt with burn and
cut card (:mod:`.shoes.deal`).

A caller may watch a round's steps, dealing and settling, by giving a
``step`` hook (:data:`Step`): the service times each as a span of the
request's trace (service/server/tracing.py). The engine knows no tracer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from decimal import Decimal

from ..bets.money import ZERO, difference, to_minor_unit, total
from ..bets.types import Bet
from ..multipliers.cards import MultiplierCards, draw_multiplier_cards, studio_multiplier_cards
from ..multipliers.problems import fault_problems
from ..multipliers.rule import MultiplierCardError, MultiplierRule
from ..multipliers.settlement import MultipliedSlip, MultiplierSettler, SlipFaults
from ..rulebook.cards import Card, check_composition
from ..rulebook.coup import Coup, deal
from ..rulebook.errors import N_, BetError, CardError, Problem, ProblemCode, SeedError
from ..rulebook.live import Hands, RoundInProgress, deal_one_round
from ..shoes.deal import ShoeRound, shoe_round
from ..shoes.shuffle import Seed, SeedRecord, seeded_shoe
from ..tables.rules import Rules, check_whole_shoe
from ..tables.settlement import SettledSlip, SlipCheck, settle_slip, settle_slips, slip_problems


@dataclass(frozen=True, slots=True)
class PlayedRound:
    coup: Coup
    rules: Rules
    unused_cards: tuple[Card, ...] = ()
    seed: SeedRecord | None = None
    settlement: SettledSlip | None = None
    slips: tuple[SettledSlip, ...] = ()
    #: Where the round lies in its shoe, when it was asked for by number.
    shoe_round: ShoeRound | None = None
    #: A multiplier table's multiplier cards (drawn from the seed, or given by a studio).
    multiplier_cards: MultiplierCards | None = None
    #: A multiplier table's slip, settled by its rule (instead of :attr:`settlement`).
    multiplied: MultipliedSlip | None = None
    #: A multiplier table's many slips, each settled by its rule (instead of :attr:`slips`).
    multiplied_slips: tuple[MultipliedSlip, ...] = ()

    @property
    def totals(self) -> SlipTotals:
        """Sums over :attr:`slips`, or at a multiplier table over :attr:`multiplied_slips`."""
        if self.rules.multipliers is not None:
            return SlipTotals.of(self.multiplied_slips, self.rules)
        return SlipTotals.of(self.slips, self.rules)


@dataclass(frozen=True, slots=True, kw_only=True)
class SlipTotals:
    """Sums over many settled slips. Over a multiplier table's slips,
    ``fees`` are what they paid on top of their stakes (``net`` is after
    them) and ``capped`` what the cap took off their wins; over a plain
    table's, both are None."""

    slips: int
    bets: int
    staked: Decimal
    returned: Decimal
    net: Decimal
    fees: Decimal | None = None
    capped: Decimal | None = None

    @classmethod
    def of(cls, slips: Sequence[SettledSlip | MultipliedSlip], rules: Rules) -> SlipTotals:
        zero = to_minor_unit(ZERO, rules.minor_unit, rules.payout_rounding)
        staked = total((s.staked for s in slips), zero)
        returned = total((s.returned for s in slips), zero)
        bets = sum(len(s.bets) for s in slips)
        multiplied = [s for s in slips if isinstance(s, MultipliedSlip)]
        if not multiplied:
            return cls(
                slips=len(slips),
                bets=bets,
                staked=staked,
                returned=returned,
                net=difference(returned, staked),
            )
        fees = total((s.fees for s in multiplied), zero)
        capped = total((s.capped for s in multiplied), zero)
        return cls(
            slips=len(slips),
            bets=bets,
            staked=staked,
            returned=returned,
            net=difference(returned, staked, fees),
            fees=fees,
            capped=capped,
        )


#: A caller's hook around each step of a round, given its name (``"deal"``,
#: ``"settle"``): a context manager the step runs in.
Step = Callable[[str], AbstractContextManager[object]]
_UNWATCHED = nullcontext()


def unwatched(name: str) -> AbstractContextManager[object]:
    """No hook: each step just runs.

    >>> with unwatched("deal"):
    ...     pass
    """
    return _UNWATCHED


#: A round just dealt: the coup, the cards sent but not used, the seed and
#: the place in the shoe (when there are any).
_Dealt = tuple[Coup, tuple[Card, ...], SeedRecord | None, ShoeRound | None]


def _deal_round(
    rules: Rules,
    cards: Sequence[Card] | None,
    seed: Seed | None,
    round_number: int | None,
    commitment: str | None,
) -> _Dealt:
    """What :func:`play_and_settle` deals, before it is made a :class:`PlayedRound`."""
    if cards is not None and seed is not None:
        raise SeedError(N_("Send either cards or a seed, not both"))
    if cards is not None:
        if round_number is not None:
            raise SeedError(
                N_("A round number addresses a seeded shoe"),
                [Problem.of(("round",), ProblemCode.ROUND_WITH_CARDS)],
            )
        check_composition(cards, rules.decks)
        coup = deal(cards)
        return coup, tuple(cards[coup.cards_used :]), None, None
    if round_number is not None:
        check_whole_shoe(rules, ("round",))
    shoe, record = seeded_shoe(rules.decks, seed, commitment)
    if round_number is None:
        return deal(shoe), (), record, None
    place = shoe_round(shoe, round_number, cut_card=rules.cut_card)
    return place.coup, (), record, place


def play_and_settle(
    rules: Rules,
    bets: Sequence[Bet],
    *,
    cards: Sequence[Card] | None = None,
    seed: Seed | None = None,
    round_number: int | None = None,
    commitment: str | None = None,
    multiplier_cards: Sequence[tuple[Card, int]] | None = None,
    step: Step = unwatched,
) -> PlayedRound:
    """Deal one round from ``cards`` or from a shoe shuffled by ``seed``
    (with neither, by a freshly drawn seed): its top round, or round
    ``round_number`` of the whole shoe; then settle ``bets``, one slip, on
    it (no bets: nothing is settled). ``step`` is run around each.

    At a multiplier table (``rules.multipliers``) the round's multiplier
    cards are drawn from the same seed inputs (round 1, or ``round_number``),
    or, for a round dealt from ``cards``, are the ``multiplier_cards`` a
    studio gives (each a card and its multiplier); the slip is settled by
    the rule."""
    with step("deal"):
        _check_multiplier_source(rules, cards, multiplier_cards)
        dealt = _deal_round(rules, cards, seed, round_number, commitment)
        lit = _multiplier_cards(rules, dealt[2], multiplier_cards, round_number)
    if lit is not None:
        return _play_multiplied(rules, dealt, lit, bets, step)
    if not bets:
        return _played(rules, dealt)
    with step("settle"):
        settlement = settle_slip(bets, dealt[0], rules)
    return _played(rules, dealt, settlement=settlement)


def play_and_settle_slips(
    rules: Rules,
    slips: Sequence[tuple[str | None, Sequence[Bet]]],
    *,
    cards: Sequence[Card] | None = None,
    seed: Seed | None = None,
    round_number: int | None = None,
    commitment: str | None = None,
    multiplier_cards: Sequence[tuple[Card, int]] | None = None,
    step: Step = unwatched,
) -> PlayedRound:
    """Deal as :func:`play_and_settle` does, then settle many slips on the
    round, all or none: a bet that cannot be settled, on any slip, refuses
    them all, named at ``slips/i/bets/j``.

    At a multiplier table the round's multiplier cards are those
    :func:`play_and_settle` draws or is given, and each slip is settled by
    the rule on its own (the cap is each slip's, on this round)."""
    with step("deal"):
        _check_multiplier_source(rules, cards, multiplier_cards)
        dealt = _deal_round(rules, cards, seed, round_number, commitment)
        lit = _multiplier_cards(rules, dealt[2], multiplier_cards, round_number)
    if lit is not None:
        return _settle_multiplied_slips(rules, dealt, lit, slips, step)
    with step("settle"):
        settled = tuple(settle_slips(slips, dealt[0], rules))
    return _played(rules, dealt, slips=settled)


def _check_multiplier_source(
    rules: Rules, cards: Sequence[Card] | None, multiplier_cards: Sequence[tuple[Card, int]] | None
) -> None:
    """Multiplier cards are given with the cards of a multiplier table's round, and only then."""
    if multiplier_cards is not None and (rules.multipliers is None or cards is None):
        raise SeedError(
            N_("Multiplier cards were sent where none are given"),
            [Problem.of(("multiplier_cards",), ProblemCode.MULTIPLIER_CARDS_WITHOUT_RULE)],
        )
    if multiplier_cards is None and rules.multipliers is not None and cards is not None:
        raise CardError(
            N_("The multiplier cards were not sent"),
            [Problem.of(("multiplier_cards",), ProblemCode.MULTIPLIER_CARDS_MISSING)],
        )


def _multiplier_cards(
    rules: Rules,
    record: SeedRecord | None,
    given: Sequence[tuple[Card, int]] | None,
    round_number: int | None,
) -> MultiplierCards | None:
    """A multiplier round's cards: those a studio gave, checked against the
    rule, or those drawn from the round's seed inputs; None at a plain table."""
    rule = rules.multipliers
    if rule is None:
        return None
    if given is not None:
        try:
            return studio_multiplier_cards(rule, given)
        except MultiplierCardError as error:
            raise CardError(
                N_("The multiplier cards cannot come from this rule"), fault_problems(error.faults)
            ) from None
    assert record is not None  # a round not dealt from cards is seeded
    return draw_multiplier_cards(rule, record.inputs, round_number=round_number or 1)


class _MultipliedSlipCheck:
    """Checks the slips of one request at a multiplier table: the table's
    limits first, then, where they hold, the rule's stakes and fees."""

    def __init__(self, rules: Rules, rule: MultiplierRule) -> None:
        self.limits, self.faults = SlipCheck(rules), SlipFaults(rule, minor_unit=rules.minor_unit)

    def problems(self, bets: Sequence[Bet]) -> list[Problem]:
        """Why ``bets`` cannot be settled, each at its bet."""
        return self.limits.problems(bets) or fault_problems(self.faults.of(bets))


def multiplier_slip_problems(bets: Sequence[Bet], rules: Rules) -> list[Problem]:
    """Why a multiplier table (``rules.multipliers``) cannot take the slip
    ``bets``: the table's limits first (:func:`.tables.settlement.slip_problems`),
    then what the rule refuses (:func:`.multipliers.settlement.slip_faults`)."""
    rule = rules.multipliers
    assert rule is not None
    return _MultipliedSlipCheck(rules, rule).problems(bets)


def _play_multiplied(
    rules: Rules, dealt: _Dealt, lit: MultiplierCards, bets: Sequence[Bet], step: Step
) -> PlayedRound:
    """A multiplier table's round with its multiplier cards ``lit``, and its slip settled by the rule."""
    rule = rules.multipliers
    assert rule is not None
    coup, unused_cards, record, place = dealt
    multiplied = None
    if bets:
        with step("settle"):  # a refused slip fails the settle step, as at a plain table
            problems = multiplier_slip_problems(bets, rules)
            if problems:
                raise BetError(N_("Some bets cannot be accepted at this table"), problems)
            unit, rounding = rules.minor_unit, rules.payout_rounding
            multiplied = MultiplierSettler(coup, lit, rule, minor_unit=unit, rounding=rounding).slip(bets)
    return PlayedRound(
        coup, rules, unused_cards, record, shoe_round=place, multiplier_cards=lit, multiplied=multiplied
    )


def _settle_multiplied_slips(
    rules: Rules,
    dealt: _Dealt,
    lit: MultiplierCards,
    slips: Sequence[tuple[str | None, Sequence[Bet]]],
    step: Step,
) -> PlayedRound:
    """A multiplier table's round with many slips, with its multiplier cards
    ``lit``, and each slip settled by the rule (all or none)."""
    rule = rules.multipliers
    assert rule is not None
    coup, unused_cards, record, place = dealt
    check = _MultipliedSlipCheck(rules, rule)
    with step("settle"):  # a refused slip fails the settle step, as at a plain table
        problems = [
            problem.within("slips", index)
            for index, (_, bets) in enumerate(slips)
            for problem in check.problems(bets)
        ]
        if problems:
            raise BetError(N_("Some bets cannot be accepted at this table"), problems)
        unit, rounding = rules.minor_unit, rules.payout_rounding
        settler = MultiplierSettler(coup, lit, rule, minor_unit=unit, rounding=rounding)
        settled = tuple(settler.slip(bets, slip_id) for slip_id, bets in slips)
    return PlayedRound(
        coup, rules, unused_cards, record, shoe_round=place, multiplier_cards=lit, multiplied_slips=settled
    )


def _played(
    rules: Rules, dealt: _Dealt, *, settlement: SettledSlip | None = None, slips: tuple[SettledSlip, ...] = ()
) -> PlayedRound:
    """The :class:`PlayedRound` of ``dealt``, settled on ``settlement`` or ``slips``."""
    coup, unused_cards, seed, place = dealt
    return PlayedRound(coup, rules, unused_cards, seed, settlement, slips, place)


@dataclass(frozen=True, slots=True)
class RoundSoFar:
    """A round dealt live that needs more cards, under ``rules``; its slip
    was checked and will be settled once the round is complete."""

    round: RoundInProgress
    rules: Rules


def play_live(
    rules: Rules,
    cards: Sequence[Card],
    hands: Hands = (),
    bets: Sequence[Bet] = (),
    *,
    multiplier_cards: Sequence[tuple[Card, int]] | None = None,
    step: Step = unwatched,
) -> PlayedRound | RoundSoFar:
    """The round dealt live as ``cards`` so far (``hands`` tags them with the
    hand they were placed with; :func:`.rulebook.live.deal_one_round`): once complete,
    :func:`play_and_settle`'s answer for the same cards and bets; until then
    the round so far, with the slip checked but not settled.

    At a multiplier table the studio gives the round's ``multiplier_cards``
    (drawn after bets close, before the deal) with every call: while the
    round goes on they are checked against the rule, as the slip is; once
    it is complete the answer is :func:`play_and_settle`'s for the same
    cards, multiplier cards and bets."""
    with step("deal"):
        _check_multiplier_source(rules, cards, multiplier_cards)
        check_composition(cards, rules.decks)
        dealt = deal_one_round(cards, hands)
        lit = _multiplier_cards(rules, None, multiplier_cards, None)
    if isinstance(dealt, RoundInProgress):
        checked = slip_problems if lit is None else multiplier_slip_problems
        problems = checked(bets, rules)
        if problems:
            raise BetError(N_("Some bets cannot be accepted at this table"), problems)
        return RoundSoFar(dealt, rules)
    if lit is not None:
        return _play_multiplied(rules, (dealt, (), None, None), lit, bets, step)
    if not bets:
        return PlayedRound(dealt, rules)
    with step("settle"):
        settlement = settle_slip(bets, dealt, rules)
    return PlayedRound(dealt, rules, settlement=settlement)
