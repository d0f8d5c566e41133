"""Playing a whole seeded shoe from what a request brings: seed inputs, the
rounds to report, and bet slips to settle on them.

The whole shoe is always dealt (so the answer can say how many rounds it
holds and account for every card); ``from_round``/``to_round`` only choose
which rounds are reported and settled, so a slice is identical to the same
rounds of the whole listing. Bets never change the cards.

Bets come in one of two forms:

* ``bets``: one slip settled on every reported round (a flat bettor);
* ``bets_by_round``: a slip for each listed round, each round at most once
  and inside the reported slice.

At a multiplier table (``rules.multipliers``) each reported round of a
seeded shoe has the multiplier cards
:func:`.multipliers.cards.draw_multiplier_cards` draws for its round number,
the same as POST /v1/rounds with that ``round``, and its slip is settled by
the rule (:class:`.multipliers.settlement.MultiplierSettler`); a
physical shoe's are the studio's (:mod:`.multipliers.shoes`). The cards
dealt, and so the roads, are those of the plain shoe.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from ..bets.types import Bet
from ..multipliers.cards import ALGORITHM as MULTIPLIER_ALGORITHM
from ..multipliers.cards import MultiplierCards
from ..multipliers.settlement import MultipliedSlip, MultiplierSettler
from ..multipliers.shoes import RoundMultiplierCards, check_given, drawn, given_by_studio
from ..rulebook.cards import Card, check_composition
from ..rulebook.errors import N_, BetError, Problem, ProblemCode, ShoeError
from ..rulebook.live import Hands, RoundInProgress
from ..shoes.deal import DealtShoe, ShoeRound, deal_physical_shoe, deal_shoe, past_the_end
from ..shoes.roads import Result, Roads, roads
from ..shoes.shuffle import Seed, SeedRecord, seeded_shoe, shoe_hash
from ..tables.rules import Rules
from ..tables.settlement import SettledSlip, settle_slip, slip_problems
from .round import SlipTotals, multiplier_slip_problems


@dataclass(frozen=True, slots=True)
class RoundBets:
    """A slip for one round of the shoe."""

    round: int
    bets: Sequence[Bet]


@dataclass(frozen=True, slots=True)
class SettledRound:
    """A round of the shoe, with the slip settled on it if any."""

    round: ShoeRound
    settlement: SettledSlip | None = None
    #: At a multiplier table: the round's multiplier cards.
    multiplier_cards: MultiplierCards | None = None
    #: At a multiplier table: the slip settled by the rule (instead of :attr:`settlement`).
    multiplied: MultipliedSlip | None = None


@dataclass(frozen=True, slots=True)
class CardCounts:
    """Every card of the shoe is burned, dealt in a round, or left behind."""

    total: int
    burned: int
    dealt: int
    #: In a physical shoe's round in progress.
    in_progress: int
    left_behind: int


@dataclass(frozen=True, slots=True)
class InProgressRound:
    """A physical shoe's round in progress, with its number."""

    number: int
    round: RoundInProgress


@dataclass(frozen=True, slots=True)
class PlayedShoe:
    """A dealt shoe with the rounds asked for, settled."""

    dealt: DealtShoe
    rules: Rules
    #: The seed a seeded shoe was shuffled from; ``None`` for a physical shoe.
    seed: SeedRecord | None
    rounds: tuple[SettledRound, ...]
    include_shoe: bool = False
    #: The last round the roads cover: the last round answered, or, when a
    #: physical shoe's slice holds none yet, its last complete round.
    roads_through: int = 0

    @property
    def round_count(self) -> int:
        """Rounds in the whole shoe."""
        return len(self.dealt.rounds)

    @property
    def burned(self) -> tuple[Card, ...]:
        return self.dealt.burned

    @property
    def cut_card_position(self) -> int | None:
        return self.dealt.cut_card_position

    @property
    def card_counts(self) -> CardCounts:
        dealt = self.dealt
        return CardCounts(
            len(dealt.cards),
            len(dealt.burned),
            dealt.dealt_count,
            dealt.in_progress_count,
            dealt.left_behind_count,
        )

    @property
    def burn_remaining(self) -> int | None:
        """A physical shoe still at its burn: the cards still to burn."""
        return self.dealt.burn_remaining or None

    @property
    def shoe_hash(self) -> str:
        """SHA-256 of the shoe's cards: the whole seeded shoe, or the
        physical shoe's cards as sent."""
        return self.seed.shoe_hash if self.seed is not None else shoe_hash(self.dealt.cards)

    @property
    def in_progress(self) -> InProgressRound | None:
        """A physical shoe's round still being dealt, numbered."""
        round = self.dealt.in_progress
        return None if round is None else InProgressRound(self.round_count + 1, round)

    @property
    def shoe(self) -> tuple[Card, ...] | None:
        """The whole shoe in dealing order, when asked for."""
        return self.dealt.cards if self.include_shoe else None

    @property
    def roads(self) -> Roads:
        """The scoreboards from the shoe's first round through the last
        round reported: what the table's screen shows after that round."""
        return roads(Result.of(r.coup) for r in self.dealt.rounds[: self.roads_through])

    @property
    def multiplier_algorithm(self) -> str | None:
        """A seeded shoe at a multiplier table: the derivation of its rounds' multiplier cards."""
        seeded = self.seed is not None and self.rules.multipliers is not None
        return MULTIPLIER_ALGORITHM if seeded else None

    @property
    def totals(self) -> SlipTotals | None:
        """Sums over the settled rounds' slips (with their fees and what the
        cap took, at a multiplier table); ``None`` when no bets were sent."""
        slips: list[SettledSlip | MultipliedSlip] = []
        for r in self.rounds:
            if r.multiplied is not None:
                slips.append(r.multiplied)
            elif r.settlement is not None:
                slips.append(r.settlement)
        return SlipTotals.of(slips, self.rules) if slips else None


@dataclass(frozen=True, slots=True, kw_only=True)
class ShoeReport:
    """Which rounds of a shoe to answer, ``from_round`` to ``to_round`` (past
    the last round reads as the last round), and the slips to settle on them."""

    from_round: int = 1
    to_round: int | None = None
    bets: Sequence[Bet] = ()
    bets_by_round: Sequence[RoundBets] = ()
    include_shoe: bool = False


def play_shoe(
    rules: Rules,
    *,
    seed: Seed | None = None,
    commitment: str | None = None,
    report: ShoeReport = ShoeReport(),
    multiplier_cards: Sequence[RoundMultiplierCards] = (),
) -> PlayedShoe:
    """Shuffle a shoe from ``seed`` (checked against ``commitment``), deal it
    whole, and answer the rounds ``report`` asks for, settled."""
    check_given(rules.multipliers, multiplier_cards, physical=False)
    cards, record = seeded_shoe(rules.decks, seed, commitment)
    return _settled(rules, deal_shoe(cards, cut_card=rules.cut_card), record, report)


def play_physical_shoe(
    rules: Rules,
    cards: Sequence[Card],
    hands: Hands = (),
    *,
    cut_card_position: int | None = None,
    report: ShoeReport = ShoeReport(),
    multiplier_cards: Sequence[RoundMultiplierCards] = (),
) -> PlayedShoe:
    """Deal a physical shoe from the cards dealt so far
    (:func:`.shoes.deal.deal_physical_shoe`) and answer the complete rounds
    ``report`` asks for, settled. A slip for the round in progress is
    checked, not settled. At a multiplier table ``multiplier_cards`` are
    the studio's for each complete round answered
    (:func:`.multipliers.shoes.given_by_studio`)."""
    check_given(rules.multipliers, multiplier_cards, physical=True)
    check_composition(cards, rules.decks)
    dealt = deal_physical_shoe(cards, hands, decks=rules.decks, cut_card_position=cut_card_position)
    return _settled(rules, dealt, None, report, multiplier_cards)


def _settled(
    rules: Rules,
    dealt: DealtShoe,
    record: SeedRecord | None,
    report: ShoeReport,
    multiplier_cards: Sequence[RoundMultiplierCards] = (),
) -> PlayedShoe:
    """The :class:`PlayedShoe` of the rounds of ``dealt`` that ``report``
    asks for, with their slips settled (at a multiplier table, with their
    multiplier cards: drawn from the seed, or ``multiplier_cards``)."""
    from_round, to_round = report.from_round, report.to_round
    last = len(dealt.rounds)
    # A physical shoe's next round (in progress, or about to be dealt) takes
    # bets; a slice may start there, before it holds a complete round.
    pending = last + 1 if record is None and not dealt.complete else None
    if from_round > (pending or last):
        raise past_the_end(last, {"from_round": from_round})
    if to_round is not None and to_round < from_round:
        raise ShoeError(
            N_("The slice of rounds is empty"),
            [Problem.of(("to_round",), ProblemCode.TO_ROUND_BEFORE_FROM_ROUND, from_round=from_round)],
        )
    to_round = last if to_round is None else min(to_round, last)
    chosen = dealt.rounds[from_round - 1 : to_round]
    checked = slip_problems if rules.multipliers is None else multiplier_slip_problems
    slips = _slips_by_round(rules, chosen, pending, report.bets, report.bets_by_round, checked)
    if rules.multipliers is None:
        rounds = tuple(
            SettledRound(r, settle_slip(slips[r.number], r.coup, rules) if r.number in slips else None)
            for r in chosen
        )
    else:
        rule = rules.multipliers
        if record is not None:
            lit = drawn(rule, record.inputs, chosen)
        else:
            lit = given_by_studio(rule, multiplier_cards, chosen, pending)
        rounds = _multiplied(rules, chosen, lit, slips)
    through = chosen[-1].number if chosen else last
    return PlayedShoe(dealt, rules, record, rounds, report.include_shoe, through)


def _multiplied(
    rules: Rules,
    chosen: Sequence[ShoeRound],
    lit: Mapping[int, MultiplierCards],
    slips: Mapping[int, Sequence[Bet]],
) -> tuple[SettledRound, ...]:
    """The rounds ``chosen`` at a multiplier table, each with its multiplier
    cards (``lit``, by round number) and its slip settled by the rule."""
    rule = rules.multipliers
    assert rule is not None
    unit, rounding = rules.minor_unit, rules.payout_rounding
    rounds = []
    for r in chosen:
        cards = lit[r.number]
        slip = slips.get(r.number)
        multiplied = None
        if slip is not None:
            settler = MultiplierSettler(r.coup, cards, rule, minor_unit=unit, rounding=rounding)
            multiplied = settler.slip(slip)  # checked by _slips_by_round
        rounds.append(SettledRound(r, multiplier_cards=cards, multiplied=multiplied))
    return tuple(rounds)


def _slips_by_round(
    rules: Rules,
    chosen: Sequence[ShoeRound],
    pending: int | None,
    bets: Sequence[Bet],
    bets_by_round: Sequence[RoundBets],
    checked: Callable[[Sequence[Bet], Rules], list[Problem]],
) -> dict[int, Sequence[Bet]]:
    """Which slip each reported round settles, after checking every slip
    (that of the round in progress, numbered ``pending``, too) by
    ``checked``; :class:`BetError` or :class:`ShoeError` names each
    offending input."""
    if bets:
        problems = checked(bets, rules)
        if problems:
            raise BetError(N_("Some bets cannot be accepted at this table"), problems)
        return {r.number: bets for r in chosen}
    numbers = {r.number for r in chosen} | ({pending} if pending is not None else set())
    answered = f"{min(numbers)}-{max(numbers)}" if numbers else "none"
    outside = [
        Problem.of(
            ("bets_by_round", index, "round"),
            ProblemCode.ROUND_NOT_ANSWERED,
            round=entry.round,
            answered=answered,
        )
        for index, entry in enumerate(bets_by_round)
        if entry.round not in numbers
    ]
    if outside:
        raise ShoeError(N_("Some bets are for rounds this answer does not deal"), outside)
    problems = [
        problem.within("bets_by_round", index)
        for index, entry in enumerate(bets_by_round)
        for problem in checked(entry.bets, rules)
    ]
    if problems:
        raise BetError(N_("Some bets cannot be accepted at this table"), problems)
    return {entry.round: entry.bets for entry in bets_by_round}
