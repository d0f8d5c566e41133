"""The peers' side of :mod:`bench.peers`: imported by it, in its own
process, once it has made the peers importable from ``.venv-peers`` (never
installed in the service's environment).

Each function deals the shoes it is given (card codes in dealing order, with
each shoe's burn and how many rounds the service dealt from it) with one
peer through its public API, and answers the peer's version, rounds dealt,
best CPU seconds of five passes, and outcomes (so that the two sides can be
seen to deal the same rounds).

* PyBaccarat 0.18: ``Game.play()`` is its whole-shoe procedure, but with
  ``display=False`` it fails on its own bug (it appends to a string it only
  makes when displaying), and with ``display=True`` it prints every hand; so
  the shoe is dealt here as ``play()`` deals it (burn, then ``play_hand()``
  with emptied hands until the cut card, then one more), without its
  printing and scoreboards: the least PyBaccarat does to deal a shoe.
* cardsharp 0.6.0: ``BaccaratGame.play_round(BetType.BANKER, 10)`` deals a
  round and settles one banker bet; its shoe is given the same cards in the
  same order, from the first card after the service's burn, for as many
  rounds as the service dealt.
"""

from __future__ import annotations

import time
from collections import Counter
from importlib.metadata import PackageNotFoundError, version
from typing import Any

RANKS = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, **{str(n): n for n in range(2, 10)}}


def best_of(deal: Any, passes: int = 5) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(passes):
        start = time.process_time()
        result = deal()
        best = min(best, time.process_time() - start)
    return best, result


def pybaccarat(shoes: list[list[str]], cut_card: int) -> dict[str, Any]:
    from pybaccarat.baccarat import Game, Hand
    from pybaccarat.playingcards import Card, Shoe

    decks = [[Card(RANKS[code[0]], code[1].lower()) for code in shoe] for shoe in shoes]

    def deal() -> Counter[str]:
        outcomes: Counter[str] = Counter()
        for cards in decks:
            shoe, player, banker = Shoe(list(cards)), Hand(), Hand()
            game = Game(shoe=shoe, player=player, banker=banker)
            shoe.reset()
            shoe.set_cut_card(-cut_card)
            for _ in range(min(shoe.deal().get_rank(), 10)):
                shoe.deal()
            last = False
            while not last:
                player.empty()
                banker.empty()
                last = shoe.cut_card_seen()
                outcomes[game.play_hand()[0]] += 1
        return outcomes

    seconds, outcomes = best_of(deal)
    return {"version": "0.18", "seconds": seconds, "rounds": outcomes.total(), "outcomes": dict(outcomes)}


def cardsharp(shoes: list[list[str]], burns: list[int], rounds: list[int]) -> dict[str, Any]:
    from cardsharp.baccarat.game import BaccaratGame, BetType, Outcome
    from cardsharp.common.card import Card, Rank, Suit
    from cardsharp.common.shoe import Shoe

    ranks = {
        "A": Rank.ACE, "T": Rank.TEN, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING,
        **{str(n): Rank(n) for n in range(2, 10)},
    }  # fmt: skip
    suits = {"S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS, "C": Suit.CLUBS}
    decks = [[Card(suits[code[1]], ranks[code[0]]) for code in shoe] for shoe in shoes]
    names = {Outcome.PLAYER_WIN: "P", Outcome.BANKER_WIN: "B", Outcome.TIE: "T"}

    def deal() -> Counter[str]:
        outcomes: Counter[str] = Counter()
        for cards, burn, count in zip(decks, burns, rounds, strict=True):
            shoe = Shoe(num_decks=len(cards) // 52, penetration=1.0)
            shoe.cards = list(cards)
            shoe.next_card_index = burn
            game = BaccaratGame(shoe=shoe)
            for _ in range(count):
                result, _payout = game.play_round(BetType.BANKER, 10)
                outcomes[names[result.outcome]] += 1
        return outcomes

    seconds, outcomes = best_of(deal)
    try:
        shipped = version("cardsharp")
    except PackageNotFoundError:
        shipped = "unknown"
    return {"version": shipped, "seconds": seconds, "rounds": outcomes.total(), "outcomes": dict(outcomes)}
