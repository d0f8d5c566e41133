"""The rules engine: Punto Banco as pure Python, with no web imports.

It stands in rooms by concern, each a package that imports only the rooms
below it (tests/test_layers.py::ROOMS), lowest first: :mod:`.rulebook`
(cards, the tableau, a coup, a live round), :mod:`.bets` (bet types, pay
tables, money), :mod:`.shoes` (shuffle, dealing a shoe, composition,
roads), :mod:`.counting` (exact round counts, the vectorised deal), the
multiplier game (:mod:`.multipliers`), :mod:`.tables` (a table's
rules, settlement), :mod:`.play` (a round, a shoe), :mod:`.odds` (exact
prices, simulation), Peek Baccarat (:mod:`.peek`), and on top
:mod:`.requests`, what callers build and call.
"""
