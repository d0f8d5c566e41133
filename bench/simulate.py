"""The vectorised simulator (:mod:`service.baccarat.odds.simulation`): rounds dealt
and settled per second of CPU on one core, every bet of the standard preset
settled, with shoes from numpy's generator and from the service's own seeded
shuffle; the scalar engine dealing and settling the same way, for scale; and
a run split into pieces, tallied out of order and added up, against the run
in one call.

``PYTHONPATH=. .venv/bin/python -m bench.simulate``
"""

from __future__ import annotations

import time
from decimal import Decimal

from service.baccarat.bets.types import Bet
from service.baccarat.counting import batch
from service.baccarat.odds.simulation import Shuffle, tally_shoes
from service.baccarat.rulebook.cards import DECK
from service.baccarat.shoes.deal import deal_shoe
from service.baccarat.tables.rules import TABLES
from service.baccarat.tables.settlement import Settler

RULES = TABLES["standard"].rules
GOALS: dict[Shuffle, int] = {"numpy": 1_000_000, "service": 100_000}
#: Shoes 0 to 2,999 as (first, count) pieces, the way workers might be handed them.
SPLIT = ((2_500, 500), (0, 1_234), (1_234, 1_266))


def vectorised(shuffle: Shuffle, shoes: int, repeats: int = 3) -> tuple[float, int]:
    """Best rounds per CPU second of ``tally_shoes`` over ``shoes`` shoes."""
    best, rounds = 0.0, 0
    for _ in range(repeats):
        start = time.process_time()
        tally = tally_shoes(RULES, "bench", 0, shoes, shuffle=shuffle)
        rounds = tally.rounds
        best = max(best, rounds / (time.process_time() - start))
    return best, rounds


def scalar(shoes: int) -> float:
    """Rounds per CPU second of the scalar engine settling every offered bet on the same kind of shoes."""
    decks = batch.seeded_shoes("bench", 0, shoes, RULES.decks)
    bets = [Bet(type=bet, amount=Decimal(100)) for bet in RULES.bet_types]
    start, rounds = time.process_time(), 0
    for row in decks:
        for played in deal_shoe([DECK[i] for i in row], cut_card=RULES.cut_card).rounds:
            settler = Settler(played.coup, RULES)
            for bet in bets:
                settler.bet(bet)
            rounds += 1
    return rounds / (time.process_time() - start)


#: Shoes per measurement: a second or so each.
SHOES: dict[Shuffle, int] = {"numpy": 20_000, "service": 5_000}


def run() -> list[str]:
    lines = []
    for shuffle, shoes in SHOES.items():
        rate, rounds = vectorised(shuffle, shoes)
        goal = GOALS[shuffle]
        verdict = "meets" if rate >= goal else "MISSES"
        lines.append(
            f"simulate, {shuffle} shuffle, {len(RULES.bet_types)} bets settled each round: "
            f"{rate:,.0f} rounds/s on one core ({shoes:,} shoes, {rounds:,} rounds, best of 3; "
            f"{verdict} goal >= {goal:,})"
        )
    rate = scalar(200)
    lines.append(f"  the scalar engine, the same bets on seeded shoes: {rate:,.0f} rounds/s (200 shoes)")
    whole = tally_shoes(RULES, "bench", 0, 3_000)
    parts = sum(tally_shoes(RULES, "bench", first, count) for first, count in SPLIT)
    lines.append(
        f"  3,000 seeded shoes in one call and in {len(SPLIT)} pieces dealt in another order: "
        f"the same tally: {'yes' if parts == whole else 'NO'}"
    )
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
