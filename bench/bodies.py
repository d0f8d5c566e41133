"""The requests the benchmarks send, in one place so that every module of
bench/ can import them without importing what runs them (bench/ has no
import circle: tests/test_bench_imports.py).
"""

from __future__ import annotations

#: A signed round of six cards and three bets, as the yardsticks serve it.
ROUND = {
    "cards": ["KS", "2H", "3D", "AC", "5S", "6H"],  # Player 3 draws 5S, Banker 3 draws 6H: six cards
    "bets": [
        {"type": "banker", "amount": "25.00"},
        {"type": "player", "amount": "10"},
        {"type": "tie", "amount": "5"},
    ],
}
#: A settlement of 10,000 slips of the same three bets.
SLIPS = {
    "cards": ["KS", "2H", "3D", "AC", "5S", "6H"],
    "slips": [
        {
            "id": f"seat-{i}",
            "bets": [
                {"type": "banker", "amount": "25.00"},
                {"type": "player", "amount": "10"},
                {"type": "tie", "amount": "5"},
            ],
        }
        for i in range(10_000)
    ],
}
