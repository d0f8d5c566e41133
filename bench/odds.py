"""Exact odds: ``python -m bench.odds``.

1. The engine (:func:`service.baccarat.odds.exact.analyse`, nothing remembered):
   every event and every bet of the standard table for a full 8-deck shoe,
   and for 52 shoes each less one card. Target <= 20 ms.
2. The same analysis by a plain recursive enumeration in pure Python: every
   sequence of point values, dealt by the engine and settled by its pay
   tables one by one, the first four cards split by how the hands pair. Run
   once, checked to give the same counts, and the speed-up reported.
3. ``POST /v1/odds`` through the Flask test client (in-process, no HTTP),
   for shoes it has not seen before.
"""

from __future__ import annotations

import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import product
from typing import Any

from service.app import create_app
from service.baccarat.odds.exact import EVENTS, Odds, analyse
from service.baccarat.rulebook.cards import DECK, Card
from service.baccarat.rulebook.coup import Coup, deal
from service.baccarat.rulebook.errors import MissingCard
from service.baccarat.shoes.composition import Composition, after_removing, full_shoe
from service.baccarat.tables.payouts import pay_table
from service.baccarat.tables.rules import TABLES, Rules

TARGET_MS = 20.0
TARGET_SPEED_UP = 100
RULES = TABLES["standard"].rules
BY_VALUE = [[card for card in DECK if card.points == value] for value in range(10)]


def median_ms(action: Callable[[int], Any], runs: int) -> float:
    """Median wall time of ``action(i)`` over ``runs`` calls, in milliseconds."""
    timings = []
    for i in range(runs):
        start = time.perf_counter_ns()
        action(i)
        timings.append(time.perf_counter_ns() - start)
    return statistics.median(timings) / 1e6


def fresh(composition: Composition) -> Odds:
    """The analysis of one shoe (nothing of a shoe is remembered between calls)."""
    return analyse(composition, RULES)


def _pairing(first: Card, second: Card) -> str:
    if first == second:
        return "perfect"
    return "pair" if first.rank == second.rank else "none"


def _first_fours(composition: Composition) -> Iterator[tuple[tuple[Card, ...], int, list[int]]]:
    """Each way the first four cards can go, by point values and pairings,
    with its weight and the point values left in the shoe. Positions that
    can pair (the Player's two cards of one value, the Banker's) are drawn
    card by card; the others only by value."""
    counts = dict(zip(DECK, composition.counts, strict=True))
    for values in product(range(10), repeat=4):
        pairs = [(0, 2)] if values[0] == values[2] else []
        pairs += [(1, 3)] if values[1] == values[3] else []
        exact = [i for pair in pairs for i in pair]
        classes: Counter[tuple[tuple[Card, Card], ...]] = Counter()
        for chosen in product(*(BY_VALUE[values[i]] for i in exact)):
            weight, taken = 1, Counter[Card]()
            for card in chosen:
                weight *= counts[card] - taken[card]
                taken[card] += 1
            if weight <= 0:
                continue
            drawn = dict(zip(exact, chosen, strict=True))
            key = tuple(_hand_like(drawn[a], drawn[b]) for a, b in pairs)
            classes[key] += weight
        for key, weight in classes.items():
            left = list(composition.by_value)
            for i in exact:
                left[values[i]] -= 1
            for i in range(4):
                if i not in exact:
                    weight *= left[values[i]]
                    left[values[i]] -= 1
            if weight <= 0:
                continue
            cards: list[Card] = [BY_VALUE[value][0] for value in values]
            for (a, b), (first, second) in zip(pairs, key, strict=True):
                cards[a], cards[b] = first, second
            yield tuple(cards), weight, left


def _hand_like(first: Card, second: Card) -> tuple[Card, Card]:
    """Two cards standing for every pair of cards of these values that pair the same way."""
    how = _pairing(first, second)
    lead = BY_VALUE[first.points][0]
    if how == "perfect":
        return lead, lead
    if how == "pair":
        return lead, Card(lead.rank, "H")
    return lead, next(c for c in BY_VALUE[second.points] if c.rank != lead.rank)


def plain_enumeration(composition: Composition, rules: Rules) -> Counter[str]:
    """Every event and every pay-table line counted over the ordered
    six-card sequences, one round at a time."""
    total = composition.total
    tallies: Counter[str] = Counter()
    tables = {bet: pay_table(bet, rules) for bet in rules.bet_types}

    def tally(coup: Coup, weight: int) -> None:
        for event in EVENTS:
            if event.applies(coup):
                tallies[event.name] += weight
        for bet, table in tables.items():
            line = next((i for i, line in enumerate(table.lines) if line.applies(coup)), len(table.lines))
            tallies[f"{bet}:{line}"] += weight

    def walk(cards: tuple[Card, ...], weight: int, left: list[int]) -> None:
        try:
            coup = deal(cards)
        except MissingCard:
            for value in range(10):
                if left[value] > 0:
                    left[value] -= 1
                    walk((*cards, BY_VALUE[value][0]), weight * (left[value] + 1), left)
                    left[value] += 1
            return
        for drawn in range(len(cards), 6):
            weight *= total - drawn
        tally(coup, weight)

    for cards, weight, left in _first_fours(composition):
        walk(cards, weight, left)
    return tallies


def tallies_of(odds: Odds) -> Counter[str]:
    """The fast analysis as the same tallies as :func:`plain_enumeration`."""
    tallies = Counter({name: count for name, count in odds.counts.items() if count})
    for bet, bet_odds in odds.bets.items():
        for index, line in enumerate(bet_odds.lines):
            count = line.probability * odds.sequences
            if count:
                tallies[f"{bet}:{index}"] += int(count)
    return tallies


def engine() -> tuple[list[str], float]:
    """The fast analysis: a full shoe and shoes less one card."""
    fresh(full_shoe(8))  # builds the tableau's structure, once per process
    full = median_ms(lambda i: fresh(full_shoe(8)), 50)
    depleted = [after_removing(8, [card]) for card in DECK]
    less_one = median_ms(lambda i: fresh(depleted[i]), len(depleted))
    verdict = "meets" if full <= TARGET_MS else "MISSES"
    return [
        f"exact odds, 8-deck shoe, all {len(EVENTS)} events and {len(RULES.bet_types)} bets of the "
        f"standard table: median {full:.2f} ms ({verdict} target <= {TARGET_MS:g} ms)",
        f"  the same for 52 shoes each less one card: median {less_one:.2f} ms",
    ], full


def plain(fast_ms: float) -> list[str]:
    """The plain enumeration, once, against the engine."""
    start = time.perf_counter()
    tallies = plain_enumeration(full_shoe(8), RULES)
    seconds = time.perf_counter() - start
    same = tallies == tallies_of(fresh(full_shoe(8)))
    speed_up = seconds * 1000 / fast_ms
    verdict = "meets" if speed_up >= TARGET_SPEED_UP else "MISSES"
    return [
        f"plain recursive enumeration in pure Python, same analysis: {seconds:.1f} s "
        f"(same counts: {'yes' if same else 'NO'})",
        f"  speed-up of the engine: {speed_up:,.0f}x ({verdict} target >= {TARGET_SPEED_UP}x)",
    ]


def endpoint(runs: int = 104) -> list[str]:
    """POST /v1/odds for shoes not seen before (no remembered counts)."""
    client = create_app({"TESTING": True}).test_client()
    client.post("/v1/odds", json={})

    def ask(i: int) -> None:
        removed = [DECK[i % 52].code, DECK[(7 * i + 3) % 52].code]
        response = client.post("/v1/odds", json={"removed": removed})
        assert response.status_code == 200, response.get_data(as_text=True)

    median = median_ms(ask, runs)
    verdict = "meets" if median <= TARGET_MS else "MISSES"
    return [
        f"POST /v1/odds, 8-deck shoe less two cards, standard table: median {median:.2f} ms "
        f"in-process ({verdict} target <= {TARGET_MS:g} ms)"
    ]


def run() -> list[str]:
    """Every figure of this section, as printable lines."""
    lines, fast_ms = engine()
    return lines + endpoint() + plain(fast_ms)


if __name__ == "__main__":
    for line in run():
        print(line)
