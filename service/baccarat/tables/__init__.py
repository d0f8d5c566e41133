"""The tables: a table's rules, and settling slips at them.

A table's rules and the presets (:mod:`.rules`: variant, pay tables,
limits, chips, dealing, and the game it plays), a slip checked against
them and settled (:mod:`.settlement`), and how a settled bet is paid line
by line (:mod:`.payouts`). It imports the rulebook, the bets, the shoes,
the counting of rounds and the multiplier game its rules may name.
"""
