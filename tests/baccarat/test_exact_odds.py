"""The engine, run over every ordered sequence of card values weighted by the
shoe's counts, reproduces the exact figures of DESIGN §8 to the last digit.

Only point values matter to the outcome, so a sequence of values stands for
all the card sequences with those values: its weight is the number of ways
to draw them from the shoe, times the ways to draw the unused cards up to
six (the figures count ordered six-card sequences).
"""

from collections import Counter
from fractions import Fraction
from functools import cache

import pytest

from service.baccarat.rulebook.cards import parse_card
from service.baccarat.rulebook.coup import deal
from service.baccarat.rulebook.errors import MissingCard

REPRESENTATIVE = [parse_card(code) for code in ("KS", "AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S")]


@cache
def exact_outcome_counts(decks: int) -> Counter[str]:
    counts = [16 * decks] + [4 * decks] * 9  # point value 0: tens and faces
    total_cards = 52 * decks
    outcomes: Counter[str] = Counter()

    def walk(values: list[int], weight: int) -> None:
        try:
            coup = deal([REPRESENTATIVE[v] for v in values])
        except MissingCard:
            for value in range(10):
                left = counts[value] - values.count(value)
                if left > 0:
                    walk([*values, value], weight * left)
            return
        for drawn in range(len(values), 6):  # the rest of the six cards, in any order
            weight *= total_cards - drawn
        outcomes[coup.outcome] += weight

    for first in range(10):
        walk([first], counts[first])
    return outcomes


def test_eight_decks_counts_match_design_to_the_last_digit():
    counts = exact_outcome_counts(8)
    assert sum(counts.values()) == 4_998_398_275_503_360
    assert counts["banker"] == 2_292_252_566_437_888
    assert counts["player"] == 2_230_518_282_592_256
    assert counts["tie"] == 475_627_426_473_216


@pytest.mark.parametrize(
    ("decks", "banker", "player", "tie"),
    [(8, "0.458597", "0.446247", "0.095156"), (6, "0.458653", "0.446279", "0.095069")],
)
def test_probabilities_match_design(decks, banker, player, tie):
    counts = exact_outcome_counts(decks)
    total = sum(counts.values())
    for outcome, expected in (("banker", banker), ("player", player), ("tie", tie)):
        assert f"{float(Fraction(counts[outcome], total)):.6f}" == expected
