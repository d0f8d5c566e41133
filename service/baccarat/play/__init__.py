"""Play: a round and a whole shoe, from what a request brings.

One round from cards, seed inputs or nothing, settled, or dealt live
(:mod:`.round`), and a whole shoe played round by round with its slips and
roads (:mod:`.shoe`). It imports every room below it: the rulebook, the
bets, the shoes, the counting of rounds, the multiplier game and the
tables.
"""
