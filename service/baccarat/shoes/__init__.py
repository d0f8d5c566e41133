"""The shoes: the cards a table deals from, and the scoreboards of what it dealt.

The seeded shuffle and its record (:mod:`.shuffle`), dealing a whole shoe
with burn and cut card, seeded or physical (:mod:`.deal`), a shoe's
composition for the exact math (:mod:`.composition`), and the roads drawn
from a shoe's results (:mod:`.roads`). It imports only the rulebook and
the bets.
"""
