"""The side bets' pay tables (DESIGN §5; docs/bets.md has them with house edges).

Pairs go by rank on each hand's first two cards, even when the hand drew a
third; a perfect pair is also the same suit. Dragon Bonus pays on a side's
win: 1:1 with a natural, by the margin without one, and pushes on a natural
tie. Dragon 7 and Panda 8 are EZ Baccarat's; Big and Small count the cards
dealt; Super 6 pays on a Banker win with a total of 6.

>>> from service.baccarat.cards import parse_card
>>> from service.baccarat.coup import deal
>>> from service.baccarat.tables import Rules
>>> coup = deal([parse_card(c) for c in ["2S", "KH", "2H", "3C", "4D", "4S"]])
>>> coup.player.total, coup.banker.total, coup.player.pair
(8, 7, True)
>>> SIDE_BETS[BetType.PLAYER_PAIR](Rules()).payout(coup).odds
Decimal('11')
>>> SIDE_BETS[BetType.DRAGON_BONUS_PLAYER](Rules()).payout(coup).result
<Result.LOSE: 'lose'>
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from .coup import Coup, Hand, Outcome, Side
from .paytable import PUSH, PayLine, PayTable, win
from .tables import SUPER_6_PAYS, BetType, Rules

#: Dragon Bonus on a win without a natural, by the winning margin in points;
#: a margin under 4 loses.
DRAGON_BONUS_MARGINS: Mapping[int, int] = MappingProxyType({9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1})


def _hand(coup: Coup, side: Side) -> Hand:
    return coup.player if side is Side.PLAYER else coup.banker


def _wins(coup: Coup, side: Side) -> bool:
    return coup.outcome.value == side.value


def margin(coup: Coup) -> int:
    """Points between the two final totals."""
    return abs(coup.player.total - coup.banker.total)


def _wins_by(side: Side, points: int) -> Callable[[Coup], bool]:
    def applies(coup: Coup) -> bool:
        return _wins(coup, side) and not _hand(coup, side).natural and margin(coup) == points

    return applies


def _dragon_bonus(side: Side) -> PayTable:
    name = side.capitalize()
    lines = [
        PayLine(
            f"{name} wins with a natural",
            lambda coup: _wins(coup, side) and _hand(coup, side).natural,
            win(1),
        ),
        PayLine(
            "a tie between two naturals", lambda coup: coup.outcome is Outcome.TIE and coup.natural, PUSH
        ),
    ]
    lines.extend(
        PayLine(f"{name} wins by {points} points without a natural", _wins_by(side, points), win(pays))
        for points, pays in DRAGON_BONUS_MARGINS.items()
    )
    return PayTable(
        f"{name} wins: 1:1 with a natural, by the margin without one (9 points 30:1 down to 4 points 1:1); "
        "pushes on a tie between naturals",
        tuple(lines),
    )


def _pair(side: Side) -> PayTable:
    name = side.capitalize()
    return PayTable(
        f"The {name}'s first two cards are a pair (same rank: 10-J is not a pair)",
        (
            PayLine(
                f"the {name}'s first two cards share a rank", lambda coup: _hand(coup, side).pair, win(11)
            ),
        ),
    )


def _three_card_win(side: Side, total: int) -> Callable[[Coup], bool]:
    def applies(coup: Coup) -> bool:
        hand = _hand(coup, side)
        return _wins(coup, side) and hand.total == total and len(hand.cards) == 3

    return applies


_FIXED: Mapping[BetType, PayTable] = MappingProxyType(
    {
        BetType.PLAYER_PAIR: _pair(Side.PLAYER),
        BetType.BANKER_PAIR: _pair(Side.BANKER),
        BetType.EITHER_PAIR: PayTable(
            "Either hand's first two cards are a pair",
            (
                PayLine(
                    "the Player's or the Banker's first two cards share a rank",
                    lambda coup: coup.player.pair or coup.banker.pair,
                    win(5),
                ),
            ),
        ),
        BetType.PERFECT_PAIR: PayTable(
            "Either hand's first two cards are the same rank and suit",
            (
                PayLine(
                    "the Player's or the Banker's first two cards share rank and suit",
                    lambda coup: coup.player.perfect_pair or coup.banker.perfect_pair,
                    win(25),
                ),
            ),
        ),
        BetType.DRAGON_BONUS_PLAYER: _dragon_bonus(Side.PLAYER),
        BetType.DRAGON_BONUS_BANKER: _dragon_bonus(Side.BANKER),
        BetType.DRAGON_7: PayTable(
            "The Banker wins with a three-card 7",
            (PayLine("Banker wins with a three-card 7", _three_card_win(Side.BANKER, 7), win(40)),),
        ),
        BetType.PANDA_8: PayTable(
            "The Player wins with a three-card 8",
            (PayLine("Player wins with a three-card 8", _three_card_win(Side.PLAYER, 8), win(25)),),
        ),
        BetType.BIG: PayTable(
            "Five or six cards are dealt",
            (PayLine("5 or 6 cards are dealt", lambda coup: coup.cards_used >= 5, win("0.54")),),
        ),
        BetType.SMALL: PayTable(
            "Four cards are dealt",
            (PayLine("4 cards are dealt", lambda coup: coup.cards_used == 4, win("1.5")),),
        ),
    }
)


def _banker_wins_with_6(coup: Coup) -> bool:
    return coup.outcome is Outcome.BANKER and coup.banker.total == 6


#: Super 6's pay table for each pay a table may choose (SUPER_6_PAYS).
_SUPER_6 = {
    pays: PayTable(
        "The Banker wins with a total of 6 (two or three cards)",
        (PayLine("Banker wins with a total of 6", _banker_wins_with_6, win(pays)),),
    )
    for pays in SUPER_6_PAYS
}


def _fixed(bet: BetType) -> Callable[[Rules], PayTable]:
    table = _FIXED[bet]
    return lambda rules: table


#: Each side bet's pay table under the rules in force.
SIDE_BETS: Mapping[BetType, Callable[[Rules], PayTable]] = MappingProxyType(
    {**{bet: _fixed(bet) for bet in _FIXED}, BetType.SUPER_6: lambda rules: _SUPER_6[rules.super_6_pays]}
)
