"""The bets: what a player can stake on a coup and what each pays.

The bet types and a bet on a slip (:mod:`.types`), money in the table's
minor unit (:mod:`.money`), a pay table and its lines (:mod:`.paytable`),
the main bets' and the side bets' pay tables (:mod:`.main_bets`,
:mod:`.side_bets`) and the catalogue that names them all
(:mod:`.catalogue`). It imports only the rulebook.
"""
