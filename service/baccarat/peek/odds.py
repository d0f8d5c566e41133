"""Exact returns of Peek Baccarat's bets (:mod:`.peek.round`), for a full shoe.

A return is what comes back per unit paid in, over every round: for the
Player and Banker bets the unit paid in is the stake as raised and the fee.
Tie and the pairs pay no fee and cannot be raised: their return is
``1 - house edge`` from the odds engine (:mod:`.odds.exact`).

For the Player and Banker bets the ordered six-card sequences of the shoe
are counted by point value (10^6 sequences, each weighted by how many
ordered card sequences have those points: 4,998,398,275,503,360 at 8 decks,
DESIGN §8), which tells each the round's result. Then, for each subset of
the first four cards that may be shown, the sequences are grouped by the
points shown: where the bet's expected value given what is shown is
positive, the player at best triples (the value is linear in the stake, so
never doubles); elsewhere keeps. Integer sums throughout, so each return
is an exact :class:`~fractions.Fraction`.

Suits play no part in the Player and Banker bets, so points are all the
shown cards tell of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np

from ..bets.types import BetType
from ..odds.exact import analyse
from ..rulebook.tableau import banker_draws, player_draws
from ..shoes.composition import full_shoe
from ..tables.rules import TABLES
from .round import PEEK, PeekRule, shown_masks

#: Per unit staked on a win (the Banker's 0.95 as 19/20), on a tie, on a loss.
_NETS: dict[BetType, tuple[Fraction, Fraction, Fraction]] = {
    BetType.PLAYER: (Fraction(1), Fraction(0), Fraction(-1)),
    BetType.BANKER: (Fraction(19, 20), Fraction(0), Fraction(-1)),
}


@dataclass(frozen=True, slots=True)
class PeekReturn:
    """A Player or Banker bet's return, kept and at best."""

    bet: BetType
    #: Always kept: the fee paid, never raised.
    kept: Fraction
    #: Tripled whenever what is shown favours the bet, else kept.
    best: Fraction
    #: How often the best play triples.
    tripled: Fraction
    #: Doubled (where tripling is not open: a stake over a third of the
    #: table maximum) whenever what is shown favours the bet, else kept.
    doubled: Fraction


@cache
def _rounds(decks: int) -> tuple[np.ndarray, np.ndarray]:
    """Every sequence of six points in dealing order: its weight (the ordered
    card sequences that have those points) and its result for the Player
    (1 won, 0 tie, -1 lost), each an array indexed by the six points."""
    counts = np.array([16 * decks] + [4 * decks] * 9, dtype=np.int64)
    points = np.indices((10,) * 6).reshape(6, -1).astype(np.int64)
    weight = np.ones(points.shape[1], dtype=np.int64)
    for i in range(6):
        left = counts[points[i]] - sum((points[j] == points[i]).astype(np.int64) for j in range(i))
        weight *= np.maximum(left, 0)
    p1, b1, p2, b2, fifth, sixth = points
    player, banker = (p1 + p2) % 10, (b1 + b2) % 10
    natural = (player >= 8) | (banker >= 8)
    stood = np.array([not player_draws(total)[0] if total < 8 else True for total in range(10)])
    player_draws_ = ~natural & ~stood[player]
    drew_table = np.array(
        [[total < 8 and banker_draws(total, t)[0] for t in range(10)] for total in range(10)]
    )
    stood_table = np.array([total < 8 and banker_draws(total, None)[0] for total in range(10)])
    banker_draws_ = ~natural & np.where(player_draws_, drew_table[banker, fifth], stood_table[banker])
    player_final = np.where(player_draws_, (player + fifth) % 10, player)
    banker_final = np.where(banker_draws_, (banker + np.where(player_draws_, sixth, fifth)) % 10, banker)
    return weight.reshape((10,) * 6), np.sign(player_final - banker_final).reshape((10,) * 6)


def peek_return(bet: BetType, *, decks: int = 8, rule: PeekRule = PEEK) -> PeekReturn:
    """The exact returns of a Player or Banker bet with the fee, shown cards
    drawn by ``rule.shown_weights``.

    >>> float(peek_return(BetType.PLAYER).kept)  # doctest: +ELLIPSIS
    0.82304...
    """
    weight, player_result = _rounds(decks)
    win, tie, lose = _NETS[bet]
    result = player_result if bet is BetType.PLAYER else -player_result
    scale = 20  # whole numbers: every net times 20
    net = np.where(result > 0, int(win * scale), np.where(result < 0, int(lose * scale), int(tie * scale)))
    value = weight * net
    total = int(weight.sum())
    fee = Fraction(rule.fee_rate)
    masks = shown_masks(rule.shown_weights)
    all_weight = sum(w for _, w in masks)
    gained, tripled = Fraction(0), Fraction(0)
    for mask, mask_weight in masks:
        if not mask_weight:
            continue
        hidden = (*(i for i in range(4) if not mask >> i & 1), 4, 5)
        shown_value, shown_weight = value.sum(axis=hidden), weight.sum(axis=hidden)
        favours = shown_value > 0
        share = Fraction(mask_weight, all_weight)
        gained += share * Fraction(int(shown_value[favours].sum()), total * scale)
        tripled += share * Fraction(int(shown_weight[favours].sum()), total)
    expected = Fraction(int(value.sum()), total * scale)
    kept = (1 + expected) / (1 + fee)
    best = (1 + 2 * tripled + expected + 2 * gained) / (1 + fee + 2 * tripled)
    doubled = (1 + tripled + expected + gained) / (1 + fee + tripled)
    return PeekReturn(bet, kept, best, tripled, doubled)


def side_return(bet: BetType, *, decks: int = 8) -> Fraction:
    """The return of a bet without fee or raise (Tie, the pairs) at the
    standard table: ``1 - house edge``."""
    odds = analyse(full_shoe(decks), TABLES["standard"].rules)
    return 1 - odds.bets[bet].house_edge
