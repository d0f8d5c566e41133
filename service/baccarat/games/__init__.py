"""The games played on the plain game: each is a room of its own.

:mod:`.multipliers` (Lightning, Golden Wealth, Prosperity Tree and an
operator's own rule: multiplier cards lit on a round, and bets paid by
them) and :mod:`.peek` (Peek Baccarat: cards shown before a choice to
raise or fold). A game is built on the plain game's rooms and changes none
of them; the layers test (tests/test_layers.py) states where each game
sits: the multiplier game below the tables, whose rules name it, and peek
on top of the round it plays.
"""
