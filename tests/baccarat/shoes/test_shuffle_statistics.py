"""Statistics of many seeded shoes: the shuffle is uniform and the outcomes
match the exact probabilities.

The bounds are set so that a correct shuffle passes with overwhelming
probability (a chi-square p-value above 1e-6 in either tail, proportions
within 5 standard errors), and the same tests are shown to catch the two
classic Fisher-Yates mistakes. Chi-square p-values use the Wilson-Hilferty
approximation, which is accurate far into the tails for thousands of
degrees of freedom.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from service.baccarat.rulebook.cards import DECK, Card
from service.baccarat.shoes.deal import deal_shoe
from service.baccarat.shoes.shuffle import SeedInputs, shuffled, shuffled_shoe, words

pytestmark = pytest.mark.slow

#: Smallest p-value a correct shuffle is allowed, in either tail.
P_FLOOR = 1e-6
#: Largest distance, in standard errors, of an observed proportion from the exact one.
Z_BOUND = 5.0
#: DESIGN §8 (tests/baccarat/test_exact_odds.py derives them to the last digit).
EXACT = {
    8: {"banker": 0.458597, "player": 0.446247, "tie": 0.095156},
    6: {"banker": 0.458653, "player": 0.446279, "tie": 0.095069},
}

Shuffle = Callable[[Sequence[Card], SeedInputs], list[Card]]


def chi_square_tails(statistic: float, dof: int) -> tuple[float, float]:
    """Lower and upper tail p-values of a chi-square statistic (Wilson-Hilferty)."""
    z = ((statistic / dof) ** (1 / 3) - (1 - 2 / (9 * dof))) / math.sqrt(2 / (9 * dof))
    upper = 0.5 * math.erfc(z / math.sqrt(2))
    return 1 - upper, upper


def position_table(shuffle: Shuffle, deck: Sequence[Card], shuffles: int) -> list[list[int]]:
    """How often each card code lands at each position over ``shuffles`` seeds."""
    index = {card: i for i, card in enumerate(DECK)}
    counts = [[0] * len(DECK) for _ in deck]
    for nonce in range(shuffles):
        for position, card in enumerate(shuffle(deck, SeedInputs("statistics", "positions", nonce))):
            counts[position][index[card]] += 1
    return counts


def card_at_position_tails(shuffle: Shuffle, decks: int, shuffles: int) -> tuple[float, float]:
    """Chi-square test that every card code is equally likely at every position."""
    deck = list(DECK) * decks
    counts = position_table(shuffle, deck, shuffles)
    expected = shuffles * decks / len(deck)
    statistic = sum((seen - expected) ** 2 / expected for row in counts for seen in row)
    return chi_square_tails(statistic, (len(deck) - 1) * (len(DECK) - 1))


def naive(cards: Sequence[Card], inputs: SeedInputs) -> list[Card]:
    """A classic mistake: swap with any position, not one at or below ``i``."""
    order, stream = list(cards), words(inputs)
    for i in range(len(order) - 1, -1, -1):
        j = next(stream) % len(order)
        order[i], order[j] = order[j], order[i]
    return order


def sattolo(cards: Sequence[Card], inputs: SeedInputs) -> list[Card]:
    """Another: draw ``j`` below ``i`` (off by one), so no card keeps its place."""
    order, stream = list(cards), words(inputs)
    for i in range(len(order) - 1, 0, -1):
        j = next(stream) % i
        order[i], order[j] = order[j], order[i]
    return order


@pytest.mark.parametrize(("decks", "shuffles"), [(1, 10_400), (8, 2_000)])
def test_every_card_is_equally_likely_at_every_position(decks, shuffles):
    lower, upper = card_at_position_tails(shuffled, decks, shuffles)
    assert lower > P_FLOOR, "the counts are too even to be random"
    assert upper > P_FLOOR, "some cards favour some positions"


@pytest.mark.parametrize("broken", [naive, sattolo])
def test_the_position_test_catches_classic_shuffle_mistakes(broken):
    _, upper = card_at_position_tails(broken, 1, 10_400)
    assert upper < P_FLOOR


def z_score(seen: int, total: int, p: float) -> float:
    return (seen / total - p) / math.sqrt(p * (1 - p) / total)


@pytest.mark.parametrize(("decks", "shoes"), [(8, 6_000), (6, 3_000)])
def test_outcomes_over_many_shoes_match_the_exact_probabilities(decks, shoes):
    outcomes: Counter[str] = Counter()
    player_pairs = 0
    for nonce in range(shoes):
        dealt = deal_shoe(shuffled_shoe(decks, SeedInputs("statistics", "outcomes", nonce)))
        outcomes.update(str(r.coup.outcome) for r in dealt.rounds)
        player_pairs += sum(r.coup.player.pair for r in dealt.rounds)
    rounds = sum(outcomes.values())
    assert rounds > 70 * shoes * decks / 8
    for outcome, p in EXACT[decks].items():
        assert abs(z_score(outcomes[outcome], rounds, p)) < Z_BOUND, (outcome, outcomes[outcome] / rounds)
    # The Player's first two cards share a rank: 4d - 1 of the other 52d - 1 cards match the first.
    pair = (4 * decks - 1) / (52 * decks - 1)
    assert abs(z_score(player_pairs, rounds, pair)) < Z_BOUND
