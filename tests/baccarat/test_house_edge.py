"""Every bet's house edge at 8 decks, computed exactly from the engine's own
settlement, matches DESIGN §5 to the printed digits.

The round is enumerated as in ``test_exact_odds``: sequences of point values,
each weighted by the number of ways to draw it from the shoe. Pairs also
need ranks and suits, but only of the first four cards, so each first four
values is split further by how each hand's first two cards pair (no pair, a
pair of one rank, the same card twice), weighted by counting the ordered draws
of actual cards that give each: a brute force over the cards of those values,
the same for every four values of the same shape (which positions share a
value, which value is 0), so it is done once per shape. Each class of rounds
is then dealt with cards that have those values and pair that way.

Every bet is paid by :func:`payout` on every round; settlement depends on the
round only through that payout, so each distinct payout is settled once, by
:func:`settle_bet` on a round that produced it, for a stake of 100.00. The
house edge is the expected loss per unit staked, pushes included (a push is a
bet that lost nothing): DESIGN's figures use that definition, including for
the bets that can push (player, banker, EZ banker, Dragon Bonus).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from decimal import ROUND_HALF_EVEN, Decimal
from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from service.baccarat.bets.types import Bet, BetType
from service.baccarat.rulebook.cards import DECK, Card, parse_card
from service.baccarat.rulebook.coup import Coup, deal
from service.baccarat.rulebook.errors import MissingCard
from service.baccarat.tables.payouts import Payout, payout
from service.baccarat.tables.rules import TABLES, Rules
from service.baccarat.tables.settlement import settle_bet

pytestmark = pytest.mark.slow

DECKS = 8
STAKE = Decimal("100.00")
BY_VALUE = {value: [card for card in DECK if card.points == value] for value in range(10)}
REPRESENTATIVE = [BY_VALUE[value][0] for value in range(10)]
PRESETS = ("standard", "no_commission", "ez", "tiger")
STANDARD, NO_COMMISSION, EZ, TIGER = (TABLES[name].rules for name in PRESETS)

#: Each figure of DESIGN §5: the bet, the rules it is settled under, the printed house edge (%).
DESIGN_FIGURES: dict[str, tuple[BetType, Rules, str]] = {
    "banker": (BetType.BANKER, STANDARD, "1.0579"),
    "player": (BetType.PLAYER, STANDARD, "1.2351"),
    "tie 8:1": (BetType.TIE, STANDARD, "14.3596"),
    "tie 9:1": (BetType.TIE, TABLES["tie_9"].rules, "4.8440"),
    "no-commission banker": (BetType.BANKER, NO_COMMISSION, "1.4581"),
    "EZ banker": (BetType.BANKER, EZ, "1.0183"),
    "dragon 7": (BetType.DRAGON_7, EZ, "7.61"),
    "panda 8": (BetType.PANDA_8, EZ, "10.19"),
    "player pair": (BetType.PLAYER_PAIR, STANDARD, "10.36"),
    "banker pair": (BetType.BANKER_PAIR, STANDARD, "10.36"),
    "either pair": (BetType.EITHER_PAIR, STANDARD, "13.71"),
    "perfect pair": (BetType.PERFECT_PAIR, STANDARD, "13.03"),
    "dragon bonus player": (BetType.DRAGON_BONUS_PLAYER, STANDARD, "2.65"),
    "dragon bonus banker": (BetType.DRAGON_BONUS_BANKER, STANDARD, "9.37"),
    "big": (BetType.BIG, STANDARD, "4.35"),
    "small": (BetType.SMALL, STANDARD, "5.28"),
    "super 6": (BetType.SUPER_6, NO_COMMISSION, "29.98"),
    # Not in DESIGN §5: the figures the sources of these standard pay tables print.
    "lucky 6": (BetType.LUCKY_6, TIGER, "16.68"),
    "big tiger": (BetType.BIG_TIGER, TIGER, "15.2533"),
}
#: Settled too, to check against the others rather than against a printed figure.
EXTRA: dict[str, tuple[BetType, Rules]] = {
    "super 6 at 15:1": (BetType.SUPER_6, replace(NO_COMMISSION, super_6_pays=15))
}
BETS = {label: (bet, rules) for label, (bet, rules, _) in DESIGN_FIGURES.items()} | EXTRA


def pairing(first: Card, second: Card) -> str:
    """How a hand's first two cards pair."""
    if first == second:
        return "same card"
    return "pair" if first.rank == second.rank else "none"


@cache
def _pairing_weights_of_shape(shape: tuple[tuple[int, bool], ...]) -> dict[tuple[str, str], int]:
    # Values that realise the shape: the zero value where the shape says so,
    # otherwise a distinct non-zero value per group of positions.
    values = [0 if zero else group + 1 for group, zero in shape]
    weights: Counter[tuple[str, str]] = Counter()
    for p1, b1, p2, b2 in product(*(BY_VALUE[value] for value in values)):
        weight, seen = 1, Counter[Card]()
        for card in (p1, b1, p2, b2):
            weight *= DECKS - seen[card]
            seen[card] += 1
        weights[pairing(p1, p2), pairing(b1, b2)] += weight
    return {key: weight for key, weight in weights.items() if weight}


def pairing_weights(values: tuple[int, int, int, int]) -> dict[tuple[str, str], int]:
    """Ordered draws of the first four cards (Player, Banker, Player, Banker)
    with these point values, by how the Player's and the Banker's pair."""
    return _pairing_weights_of_shape(tuple((values.index(value), value == 0) for value in values))


def hand_with(first: int, second: int, how: str) -> tuple[Card, Card]:
    """A hand's first two cards with these values, pairing as ``how`` says."""
    card = REPRESENTATIVE[first]
    if how == "same card":
        return card, card
    if how == "pair":
        return card, parse_card(card.rank + "H")
    return card, next(other for other in BY_VALUE[second] if other.rank != card.rank)


def rounds() -> Iterator[tuple[Coup, int]]:
    """Every class of rounds with its weight: the ordered six-card sequences it stands for."""
    total_cards = 52 * DECKS

    def play_on(cards: list[Card], weight: int, left: list[int]) -> Iterator[tuple[Coup, int]]:
        try:
            coup = deal(cards)
        except MissingCard:
            for value in range(10):
                if left[value]:
                    left[value] -= 1
                    yield from play_on([*cards, REPRESENTATIVE[value]], weight * (left[value] + 1), left)
                    left[value] += 1
            return
        for drawn in range(len(cards), 6):  # the rest of the six cards, in any order
            weight *= total_cards - drawn
        yield coup, weight

    for values in product(range(10), repeat=4):
        left = [16 * DECKS] + [4 * DECKS] * 9
        for value in values:
            left[value] -= 1
        for (player, banker), weight in pairing_weights(values).items():
            p1, p2 = hand_with(values[0], values[2], player)
            b1, b2 = hand_with(values[1], values[3], banker)
            yield from play_on([p1, b1, p2, b2], weight, left)


@cache
def enumeration() -> tuple[dict[str, Fraction], Counter[str]]:
    """Each bet's house edge, and the rounds counted by outcome."""
    weights: dict[str, Counter[Payout]] = {label: Counter() for label in BETS}
    examples: dict[tuple[str, Payout], Coup] = {}
    outcomes: Counter[str] = Counter()
    bets = [(label, bet, rules, weights[label]) for label, (bet, rules) in BETS.items()]
    for coup, weight in rounds():
        outcomes[coup.outcome] += weight
        for label, bet, rules, counter in bets:
            pay = payout(bet, coup, rules)
            if pay not in counter:
                examples[label, pay] = coup
            counter[pay] += weight
    edges = {}
    for label, (bet, rules) in BETS.items():
        staked = net = 0
        for pay, weight in weights[label].items():
            settled = settle_bet(Bet(type=bet, amount=STAKE), examples[label, pay], rules)
            net += weight * (settled.returned - settled.amount)
            staked += weight * settled.amount
        edges[label] = Fraction(-net) / Fraction(staked)
    return edges, outcomes


def percent(edge: Fraction, digits: int) -> str:
    """``edge`` as a percentage rounded (half even) to ``digits`` decimals."""
    exact = Decimal(edge.numerator * 100) / Decimal(edge.denominator)
    return str(exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN))


def test_the_rounds_counted_are_those_of_design_section_8():
    _, outcomes = enumeration()
    assert sum(outcomes.values()) == 4_998_398_275_503_360
    assert outcomes == {
        "banker": 2_292_252_566_437_888,
        "player": 2_230_518_282_592_256,
        "tie": 475_627_426_473_216,
    }


@pytest.mark.parametrize("values", [(0, 0, 0, 0), (0, 3, 0, 3), (5, 5, 5, 5), (1, 2, 3, 4), (0, 1, 1, 0)])
def test_pairing_weights_add_up_to_the_draws_of_those_values(values):
    left, expected = [16 * DECKS] + [4 * DECKS] * 9, 1
    for value in values:
        expected *= left[value]
        left[value] -= 1
    assert sum(pairing_weights(values).values()) == expected


@pytest.mark.parametrize(
    ("label", "printed"), [(label, printed) for label, (_, _, printed) in DESIGN_FIGURES.items()]
)
def test_house_edge_matches_design(label, printed):
    edges, _ = enumeration()
    digits = len(printed.split(".")[1])
    assert percent(edges[label], digits) == printed


def test_super_6_at_15_to_1_pays_the_same_wins_more():
    edges, _ = enumeration()
    # Same winning rounds, 16 back instead of 13: the return scales by 16/13.
    assert 1 - edges["super 6 at 15:1"] == (1 - edges["super 6"]) * Fraction(16, 13)


def test_pair_odds_agree_with_the_closed_form():
    edges, _ = enumeration()
    # The second card shares the first's rank with probability (4d - 1) / (52d - 1).
    pair = Fraction(4 * DECKS - 1, 52 * DECKS - 1)
    assert edges["player pair"] == edges["banker pair"] == 1 - 12 * pair
