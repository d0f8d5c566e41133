"""The rules sheet: the page a casino shows its players beside the table,
written from the rules the table plays (docs/rules-sheet.md).

Its words, each a code with an English template (:mod:`.words`); the
Banker's chart from the tableau (:mod:`.chart`); each offered bet's pays,
exact return to player and largest win (:mod:`.returns`); the sheet itself,
section by section (:mod:`.sheet`). It reads a table's rules, the odds and
the multiplier game's returns, so it sits above every room but the
requests; nothing but the requests imports it.
"""
