"""Counting rounds: how many rounds of each kind a shoe composition deals.

The exact count of every ordered deal of a composition, by what settles
each bet (:mod:`.round_counts`), and the vectorised deal of many seeded
shoes at once (:mod:`.batch`). Exact integers only: pricing them is the
odds' room. It imports the rulebook, the bets and the shoes.
"""
