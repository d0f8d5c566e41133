"""The odds: every bet priced exactly, and simulated.

Exact probabilities, returns and house edge of every bet at a table for any
shoe composition (:mod:`.exact`), and the seeded simulation of many shoes
that checks them (:mod:`.simulation`). It imports every room below it up
to the round.
"""
