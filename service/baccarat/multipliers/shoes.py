"""A shoe's multiplier cards at a multiplier table (``rules.multipliers``):
drawn for each round of a seeded shoe, or given by the studio for each round
of a physical shoe.

A seeded shoe's round ``n`` has the multiplier cards
:func:`.multipliers.cards.draw_multiplier_cards` draws for ``round_number=n``:
those of POST /v1/rounds with the same seed inputs and ``round: n``.

A studio draws its own: a physical shoe's request gives them round by
round (:class:`RoundMultiplierCards`), one entry for each complete round
it answers (an entry for the round in progress is checked, not answered),
each checked against the rule as a round's multiplier cards are
(:func:`.multipliers.cards.studio_multiplier_cards`). Each offending entry
is named at ``multiplier_cards_by_round/i``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..rulebook.cards import Card
from ..rulebook.errors import N_, CardError, Problem, ProblemCode, SeedError, ShoeError
from ..shoes.deal import ShoeRound
from ..shoes.shuffle import SeedInputs
from .cards import MultiplierCards, draw_multiplier_cards, studio_multiplier_cards
from .problems import fault_problems
from .rule import MultiplierCardError, MultiplierRule

#: Where a physical shoe's request gives its multiplier cards.
AT = "multiplier_cards_by_round"


@dataclass(frozen=True, slots=True)
class RoundMultiplierCards:
    """The multiplier cards a studio drew for one round of its shoe, each a card and its multiplier."""

    round: int
    cards: Sequence[tuple[Card, int]]


def check_given(
    rule: MultiplierRule | None, given: Sequence[RoundMultiplierCards], *, physical: bool
) -> None:
    """Multiplier cards are given for a physical shoe at a multiplier table, and only then."""
    if given and (rule is None or not physical):
        raise SeedError(
            N_("Multiplier cards were sent where none are given"),
            [Problem.of((AT,), ProblemCode.MULTIPLIER_CARDS_WITHOUT_RULE)],
        )


def drawn(
    rule: MultiplierRule, inputs: SeedInputs, chosen: Sequence[ShoeRound]
) -> dict[int, MultiplierCards]:
    """The multiplier cards of each round ``chosen`` of the shoe shuffled from ``inputs``, by round number."""
    return {r.number: draw_multiplier_cards(rule, inputs, round_number=r.number) for r in chosen}


def given_by_studio(
    rule: MultiplierRule,
    given: Sequence[RoundMultiplierCards],
    chosen: Sequence[ShoeRound],
    pending: int | None,
) -> dict[int, MultiplierCards]:
    """The multiplier cards the studio gave for each round ``chosen``, by
    round number, after checking every entry (that of the round in
    progress, numbered ``pending``, too): a :class:`ShoeError` names an
    entry for a round not answered, a :class:`CardError` each card the rule
    refuses, then each answered round without its multiplier cards."""
    numbers = {r.number for r in chosen} | ({pending} if pending is not None else set())
    answered = f"{min(numbers)}-{max(numbers)}" if numbers else "none"
    outside = [
        Problem.of((AT, index, "round"), ProblemCode.ROUND_NOT_ANSWERED, round=entry.round, answered=answered)
        for index, entry in enumerate(given)
        if entry.round not in numbers
    ]
    if outside:
        raise ShoeError(N_("Some multiplier cards are for rounds this answer does not deal"), outside)
    lit: dict[int, MultiplierCards] = {}
    problems: list[Problem] = []
    for index, entry in enumerate(given):
        try:
            lit[entry.round] = studio_multiplier_cards(rule, entry.cards)
        except MultiplierCardError as error:
            # A fault sits at multiplier_cards[/i/...]: here, at the entry's cards.
            problems += [
                Problem((AT, index, "cards", *problem.path[1:]), problem.code, problem.values)
                for problem in fault_problems(error.faults)
            ]
    if problems:
        raise CardError(N_("The multiplier cards cannot come from this rule"), problems)
    missing = [
        Problem.of((AT,), ProblemCode.ROUND_MULTIPLIER_CARDS_MISSING, round=r.number)
        for r in chosen
        if r.number not in lit
    ]
    if missing:
        raise CardError(N_("The multiplier cards were not sent"), missing)
    return lit
