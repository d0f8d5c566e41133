"""The richest round a multiplier rule can pay a bet at a shoe of ``decks``
decks, found by exhaustive search, independently of the engine's patterns
(:mod:`.multipliers.odds` counts set partitions of the six positions; this
goes over every sequence of six card values instead).

For each of the 10**6 sequences of six values, the tableau decides which
cards are dealt, who wins and which cards count for each bet. Counted cards
of one value can be one card several times, at most ``decks`` times (a shoe
holds each card ``decks`` times), and each multiplier card lights one card:
the most that can be lit is the ``K`` largest groups of equal cards, with
the groups as large as the shoe allows (``K`` the most multiplier cards the
rule draws). A round holds no value more often than the shoe does (four
cards of each value from one deck, sixteen tens and faces). The search
gives the most lit counted cards over every round the bet wins, and a round
that has them: its cards and its multiplier cards, each lit by the rule's
largest multiplier, ready to be played at a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from service.baccarat.bets.types import BetType
from service.baccarat.multipliers.rule import Counted, MultiplierRule
from service.baccarat.rulebook.cards import DECK, RANKS, SUITS, Card
from service.baccarat.rulebook.tableau import banker_draws, player_draws

_POSITIONS = 6
#: The distinct cards of each value, those of one rank together (two tens are a pair).
IDENTITIES = tuple(
    tuple(Card(rank, suit) for rank in RANKS if Card(rank, "S").points == value for suit in SUITS)
    for value in range(10)
)


@dataclass(frozen=True)
class _Deals:
    """Every sequence of six values: the values, the cards used and who wins."""

    values: npt.NDArray[np.int64]
    used: npt.NDArray[np.bool_]
    player_drew: npt.NDArray[np.bool_]
    banker_drew: npt.NDArray[np.bool_]
    outcome: npt.NDArray[np.int64]  # 0 Player, 1 Banker, 2 tie


@cache
def _deals() -> _Deals:
    values = np.indices((10,) * _POSITIONS).reshape(_POSITIONS, -1).T.astype(np.int64)
    p1, b1, p2, b2, c5, c6 = values.T
    player, banker = (p1 + p2) % 10, (b1 + b2) % 10
    natural = (player >= 8) | (banker >= 8)
    # The tableau by two-card total (8 and 9 are naturals: no draw).
    player_rule = np.array([total < 8 and player_draws(total)[0] for total in range(10)])
    stood_rule = np.array([total < 8 and banker_draws(total, None)[0] for total in range(10)])
    drew_rule = np.array(
        [[total < 8 and banker_draws(total, third)[0] for third in range(10)] for total in range(10)]
    )
    player_drew = ~natural & player_rule[player]
    banker_drew = ~natural & np.where(player_drew, drew_rule[banker, c5], stood_rule[banker])
    player_final = np.where(player_drew, (player + c5) % 10, player)
    banker_final = np.where(banker_drew, (banker + np.where(player_drew, c6, c5)) % 10, banker)
    outcome = np.where(player_final > banker_final, 0, np.where(banker_final > player_final, 1, 2))
    cards = 4 + player_drew.astype(np.int64) + banker_drew
    used = np.arange(_POSITIONS)[None, :] < cards[:, None]
    return _Deals(values, used, player_drew, banker_drew, outcome)


def _counted_positions(bet: BetType, counted: Counted, deals: _Deals) -> npt.NDArray[np.bool_]:
    """Which positions count for ``bet``, per sequence (a third card is
    dealt at position 4, the Banker's at 5 when the Player drew)."""
    size = len(deals.values)
    mask = np.zeros((size, _POSITIONS), dtype=bool)
    if counted is Counted.ALL_CARDS:
        return deals.used.copy()
    if counted is Counted.NONE:
        return mask
    banker_side = bet in (BetType.BANKER, BetType.BANKER_PAIR)
    first, second = (1, 3) if banker_side else (0, 2)
    mask[:, first] = mask[:, second] = True
    if counted is Counted.WINNING_HAND:
        if banker_side:
            mask[:, 4] = deals.banker_drew & ~deals.player_drew
            mask[:, 5] = deals.banker_drew & deals.player_drew
        else:
            mask[:, 4] = deals.player_drew
    return mask


def _wins(bet: BetType, deals: _Deals) -> npt.NDArray[np.bool_]:
    """Whether ``bet`` wins, per sequence (a pair of tens is one rank: the search picks it so)."""
    values = deals.values
    return {
        BetType.PLAYER: deals.outcome == 0,
        BetType.BANKER: deals.outcome == 1,
        BetType.TIE: deals.outcome == 2,
        BetType.PLAYER_PAIR: values[:, 0] == values[:, 2],
        BetType.BANKER_PAIR: values[:, 1] == values[:, 3],
    }[bet]


@cache
def _kinds(bet: BetType, counted: Counted) -> tuple[tuple[tuple[int, ...], tuple[int, ...], int], ...]:
    """Each distinct (counted cards per value, cards per value) of the
    sequences ``bet`` wins, with one sequence that has it."""
    deals = _deals()
    wins = np.flatnonzero(_wins(bet, deals))
    values, used = deals.values[wins], deals.used[wins]
    counted_mask = _counted_positions(bet, counted, deals)[wins]
    by_value = np.zeros((len(wins), 10), dtype=np.int64)
    all_by_value = np.zeros((len(wins), 10), dtype=np.int64)
    rows = np.arange(len(wins))
    for position in range(_POSITIONS):
        np.add.at(by_value, (rows, values[:, position]), counted_mask[:, position])
        np.add.at(all_by_value, (rows, values[:, position]), used[:, position])
    code = np.zeros(len(wins), dtype=np.int64)
    for column in (*by_value.T, *all_by_value.T):
        code = code * 7 + column
    _, first = np.unique(code, return_index=True)
    return tuple(
        (tuple(by_value[index].tolist()), tuple(all_by_value[index].tolist()), int(wins[index]))
        for index in first
    )


def _groups(counted: Sequence[int], decks: int) -> list[int]:
    """Counted cards of each value made into as few cards as the shoe allows, largest first."""
    sizes = []
    for count in counted:
        sizes += [decks] * (count // decks) + ([count % decks] if count % decks else [])
    return sorted(sizes, reverse=True)


@dataclass(frozen=True)
class RichestRound:
    """A round that pays a bet its largest multiplier: the cards to deal,
    the multiplier cards to light (each with the rule's largest multiplier),
    and how many counted cards they light."""

    cards: tuple[Card, ...]
    multiplier_cards: tuple[tuple[Card, int], ...]
    lit: int


def most_lit(rule: MultiplierRule, bet: BetType, decks: int) -> RichestRound:
    """The round of a shoe of ``decks`` decks on which ``bet`` wins with the
    most counted cards lit under ``rule``, found over every sequence of values."""
    draws = max(rule.cards)
    best: tuple[int, int] | None = None
    for counted, every, index in _kinds(bet, rule.pays[bet].counted):
        if any(every[value] > len(IDENTITIES[value]) * decks for value in range(10)):
            continue  # the shoe holds fewer cards of a value than the round deals
        lit = sum(_groups(counted, decks)[:draws])
        if best is None or lit > best[0]:
            best = (lit, index)
    assert best is not None, f"no round wins {bet}"
    lit, index = best
    return _richest(rule, bet, decks, index, lit)


def _richest(rule: MultiplierRule, bet: BetType, decks: int, index: int, lit: int) -> RichestRound:
    """The cards of sequence ``index``: each value's counted cards given its
    cards ``decks`` at a time (a pair's two tens one rank), then the others;
    the largest groups lit, and as many other cards as the rule draws."""
    deals = _deals()
    counted_mask = _counted_positions(bet, rule.pays[bet].counted, deals)[index]
    used = int(deals.used[index].sum())
    values = deals.values[index][:used].tolist()
    cards: list[Card | None] = [None] * used
    groups: dict[Card, int] = {}
    for value in range(10):
        slots = [p for p in range(used) if values[p] == value and counted_mask[p]]
        slots += [p for p in range(used) if values[p] == value and not counted_mask[p]]
        for place, position in enumerate(slots):
            card = IDENTITIES[value][place // decks]
            cards[position] = card
            if counted_mask[position]:
                groups[card] = groups.get(card, 0) + 1
    top = max(rule.multipliers)
    draws = max(rule.cards)
    chosen = sorted(groups, key=lambda card: -groups[card])[:draws]
    assert sum(groups[card] for card in chosen) == lit
    others = [card for card in DECK if card not in groups]
    lights = [*chosen, *others[: draws - len(chosen)]]
    dealt = tuple(card for card in cards if card is not None)
    return RichestRound(dealt, tuple((card, top) for card in lights), lit)
