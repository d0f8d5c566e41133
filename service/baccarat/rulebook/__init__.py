"""The rulebook: Punto Banco's rules of play and nothing else.

Cards and their points (:mod:`.cards`), when each hand draws
(:mod:`.tableau`), a coup dealt from a card sequence (:mod:`.coup`), a
round dealt card by card as a studio deals it (:mod:`.live`), and the
problems every room of the engine reports in (:mod:`.errors`). It knows no
bet, no shoe and no game: it imports nothing of the engine's other rooms.
"""
