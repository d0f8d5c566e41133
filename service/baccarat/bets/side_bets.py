"""The side bets' pay tables (DESIGN §5; docs/bets.md has them with house edges).

Pairs go by rank on each hand's first two cards, even when the hand drew a
third; a perfect pair is also the same suit. Dragon Bonus pays on a side's
win: 1:1 with a natural, by the margin without one, and pushes on a natural
tie. Dragon 7 and Panda 8 are EZ Baccarat's; Big and Small count the cards
dealt; Super 6 and Lucky 6 pay on a Banker win with a total of 6, Lucky 6
by how many cards made it; the Tiger bets pay on a Banker 6 by its cards,
and on a tie at 6.

Every line's test is a function made here, once, at import: the exact odds
keep one matrix per pay table's tests (:mod:`.odds.exact`).

>>> from service.baccarat.rulebook.cards import parse_card
>>> from service.baccarat.rulebook.coup import deal
>>> coup = deal([parse_card(c) for c in ["2S", "KH", "2H", "3C", "4D", "4S"]])
>>> coup.player.total, coup.banker.total, coup.player.pair
(8, 7, True)
>>> PLAYER_PAIR_11.payout(coup).odds
Decimal('11')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from types import MappingProxyType

from ..rulebook.coup import Coup, Hand, Outcome, Side
from .paytable import PUSH, NamedPayTable, PayLine, Source, win
from .types import BetType

#: Dragon Bonus on a win without a natural, by the winning margin in points;
#: a margin under 4 loses.
DRAGON_BONUS_MARGINS: Mapping[int, int] = MappingProxyType({9: 30, 8: 10, 7: 6, 6: 4, 5: 2, 4: 1})

_WOO = "https://wizardofodds.com/games/baccarat/side-bets/"
_888 = "https://www.888casino.com/blog/side-bets/"
_DRAGON_BONUS = Source("Wizard of Odds: Baccarat Side Bets (Dragon Bonus)", _WOO)
_PAIRS_11 = Source(
    "Eliot Jacobson: Computer-Perfect Play Against the Baccarat Pairs Bet",
    f"{_888}computer-perfect-play-against-the-baccarat-pairs-bet/",
    "10.361%",
)
_PAIRS_12 = Source(
    "Baccarat Pair Bet Calculator",
    "https://www.practicalwebtools.com/gambling-tools/baccarat-pair-bet",
    "2.89%",
)
_TOP_TEN = "https://wordstreetjournal.com/top-ten-baccarat-side-games-detailed-odds-and-payouts/"
_EZ = f"{_888}co-card-counting-the-dragon-and-panda-side-bets-in-ez-baccarat"
_EZ_TITLE = "Eliot Jacobson: Co-Card Counting the Dragon and Panda Side Bets in EZ Baccarat"
_BIG_SMALL = Source(
    "Side Bets in Baccarat Explained",
    "https://www.playbaccarat.com/baccarat-strategy/side-bets-in-baccarat-explained/",
    note="prints 4.35% (Big) and 5.27% (Small) for six decks",
)
_BIG_SMALL_53 = Source(
    "Live Baccarat game rules",
    "http://open365a.com/Content/themes/MemberLayout/iframe_gamerule.html",
    note="prints the pay table, no house edge",
)
_LUCKY_6 = f"{_WOO}lucky-6/"


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


def _dragon_bonus(side: Side, source: Source) -> NamedPayTable:
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
    return NamedPayTable(
        f"{name} wins: 1:1 with a natural, by the margin without one (9 points 30:1 down to 4 points 1:1); "
        "pushes on a tie between naturals",
        tuple(lines),
        id=f"dragon_bonus_{side}_30_10_6_4_2_1",
        bet=BetType(f"dragon_bonus_{side}"),
        source=source,
    )


def _has_pair(side: Side) -> Callable[[Coup], bool]:
    return lambda coup: _hand(coup, side).pair


def _pair(side: Side, pays: int, source: Source) -> NamedPayTable:
    name = side.capitalize()
    return NamedPayTable(
        f"The {name}'s first two cards are a pair (same rank: 10-J is not a pair)",
        (PayLine(f"the {name}'s first two cards share a rank", _PAIRS[side], win(pays)),),
        id=f"{side}_pair_{pays}_to_1",
        bet=BetType(f"{side}_pair"),
        source=source,
    )


_PAIRS = {side: _has_pair(side) for side in Side}


def _three_card_win(side: Side, total: int) -> Callable[[Coup], bool]:
    def applies(coup: Coup) -> bool:
        hand = _hand(coup, side)
        return _wins(coup, side) and hand.total == total and len(hand.cards) == 3

    return applies


def _banker_wins_with_6(coup: Coup) -> bool:
    return coup.outcome is Outcome.BANKER and coup.banker.total == 6


def _banker_wins_with_two_card_6(coup: Coup) -> bool:
    return _banker_wins_with_6(coup) and len(coup.banker.cards) == 2


_banker_wins_with_three_card_6 = _three_card_win(Side.BANKER, 6)


def _either_perfect_pair(coup: Coup) -> bool:
    return coup.player.perfect_pair or coup.banker.perfect_pair


def _both_perfect_pairs(coup: Coup) -> bool:
    return coup.player.perfect_pair and coup.banker.perfect_pair


def _one_perfect_pair(coup: Coup) -> bool:
    return coup.player.perfect_pair != coup.banker.perfect_pair


_PERFECT_PAIR = "Either hand's first two cards are the same rank and suit"
_BANKER_WINS_WITH_6 = "The Banker wins with a total of 6 (two or three cards)"


def _super_6(pays: int, source: Source) -> NamedPayTable:
    return NamedPayTable(
        _BANKER_WINS_WITH_6,
        (PayLine("Banker wins with a total of 6", _banker_wins_with_6, win(pays)),),
        id=f"super_6_{pays}_to_1",
        bet=BetType.SUPER_6,
        source=source,
        setting=("super_6_pays", pays),
    )


def _lucky_6(three_cards: int, house_edge: str) -> NamedPayTable:
    return NamedPayTable(
        _BANKER_WINS_WITH_6,
        (
            PayLine("Banker wins with a two-card 6", _banker_wins_with_two_card_6, win(12)),
            PayLine("Banker wins with a three-card 6", _banker_wins_with_three_card_6, win(three_cards)),
        ),
        id=f"lucky_6_12_or_{three_cards}",
        bet=BetType.LUCKY_6,
        source=Source("Wizard of Odds: Lucky 6", _LUCKY_6, house_edge),
    )


def _cards_dealt(
    bet: BetType, pays: str, applies: Callable[[Coup], bool], when: str, source: Source
) -> NamedPayTable:
    return NamedPayTable(
        _CARDS_DEALT[when],
        (PayLine(when, applies, win(pays)),),
        id=f"{bet}_{pays.replace('.', '_')}_to_1",
        bet=bet,
        source=source,
    )


_FIVE_OR_SIX = "5 or 6 cards are dealt"
_FOUR = "4 cards are dealt"
#: What Big and Small are on, in words.
_CARDS_DEALT = {_FIVE_OR_SIX: "Five or six cards are dealt", _FOUR: "Four cards are dealt"}


def _big(coup: Coup) -> bool:
    return coup.cards_used >= 5


def _small(coup: Coup) -> bool:
    return coup.cards_used == 4


def _tie_at_6(coup: Coup) -> bool:
    return coup.outcome is Outcome.TIE and coup.banker.total == 6


PLAYER_PAIR_11 = _pair(Side.PLAYER, 11, _PAIRS_11)

#: Every side bet's pay tables, each bet's standard one first.
PAY_TABLES: tuple[NamedPayTable, ...] = (
    PLAYER_PAIR_11,
    _pair(Side.PLAYER, 12, _PAIRS_12),
    _pair(Side.BANKER, 11, _PAIRS_11),
    _pair(Side.BANKER, 12, _PAIRS_12),
    NamedPayTable(
        "Either hand's first two cards are a pair",
        (
            PayLine(
                "the Player's or the Banker's first two cards share a rank",
                lambda coup: coup.player.pair or coup.banker.pair,
                win(5),
            ),
        ),
        id="either_pair_5_to_1",
        bet=BetType.EITHER_PAIR,
        source=Source("Top-10 Baccarat Side Games Odds", _TOP_TEN, "13.71%", note="gives no deck count"),
    ),
    NamedPayTable(
        _PERFECT_PAIR,
        (
            PayLine(
                "the Player's or the Banker's first two cards share rank and suit",
                _either_perfect_pair,
                win(25),
            ),
        ),
        id="perfect_pair_25_to_1",
        bet=BetType.PERFECT_PAIR,
        source=Source("Top-10 Baccarat Side Games Odds", _TOP_TEN, "13.03%", note="gives no deck count"),
    ),
    NamedPayTable(
        _PERFECT_PAIR,
        (
            PayLine("both hands' first two cards share rank and suit", _both_perfect_pairs, win(200)),
            PayLine("one hand's first two cards share rank and suit", _one_perfect_pair, win(25)),
        ),
        id="perfect_pair_25_or_200",
        bet=BetType.PERFECT_PAIR,
        source=Source(
            "Perfect Pairs (Version 2), a copy of the Wizard of Odds page",
            "https://daikenfudousan.com/games/baccarat/side-bets/perfect-pairs-ver2/",
            note="prints the version paying 250:1 on both hands (6.62%) and each event's probability; "
            "no source found prints the 200:1 version's edge",
        ),
    ),
    _dragon_bonus(Side.PLAYER, replace(_DRAGON_BONUS, house_edge="2.65%")),
    _dragon_bonus(Side.BANKER, replace(_DRAGON_BONUS, house_edge="9.37%")),
    NamedPayTable(
        "The Banker wins with a three-card 7",
        (PayLine("Banker wins with a three-card 7", _three_card_win(Side.BANKER, 7), win(40)),),
        id="dragon_7_40_to_1",
        bet=BetType.DRAGON_7,
        source=Source(_EZ_TITLE, _EZ, "7.6110%"),
    ),
    NamedPayTable(
        "The Player wins with a three-card 8",
        (PayLine("Player wins with a three-card 8", _three_card_win(Side.PLAYER, 8), win(25)),),
        id="panda_8_25_to_1",
        bet=BetType.PANDA_8,
        source=Source(_EZ_TITLE, _EZ, "10.1876%"),
    ),
    _cards_dealt(BetType.BIG, "0.54", _big, _FIVE_OR_SIX, replace(_BIG_SMALL, house_edge="4.35%")),
    _cards_dealt(BetType.BIG, "0.53", _big, _FIVE_OR_SIX, _BIG_SMALL_53),
    _cards_dealt(BetType.SMALL, "1.5", _small, _FOUR, replace(_BIG_SMALL, house_edge="5.27%")),
    _cards_dealt(BetType.SMALL, "1.45", _small, _FOUR, _BIG_SMALL_53),
    _super_6(
        12,
        Source(
            "LeoVegas: Super 6 side bet",
            "https://www.leovegas.com/en-row/blog/live-casino/baccarat-academy/side-bets-guide/super-6-side-bet",
            "29.98%",
            note="gives no deck count",
        ),
    ),
    _super_6(
        15,
        Source(
            "Countable Mines Games Baccarat Side Bets",
            "https://cooper-boating.com/countable-mines-games-baccarat-side-bets/",
            "13.82%",
        ),
    ),
    _lucky_6(20, "16.68%"),
    _lucky_6(23, "11.70%"),
    NamedPayTable(
        "The Banker wins with a three-card 6",
        (PayLine("Banker wins with a three-card 6", _banker_wins_with_three_card_6, win(50)),),
        id="big_tiger_50_to_1",
        bet=BetType.BIG_TIGER,
        source=Source(
            "Eliot Jacobson: Card Counting the Big Tiger Baccarat Side Bet",
            "https://advancedadvantageplay.com/2024/07/card-counting-the-big-tiger-baccarat-side-bet",
            "15.2533%",
        ),
    ),
    NamedPayTable(
        "The Banker wins with a two-card 6",
        (PayLine("Banker wins with a two-card 6", _banker_wins_with_two_card_6, win(22)),),
        id="small_tiger_22_to_1",
        bet=BetType.SMALL_TIGER,
        source=Source(
            "Wizard of Odds: Lucky 6",
            _LUCKY_6,
            note="prints the probability of a Banker win with a two-card 6 (0.037247), not this pay table",
        ),
    ),
    NamedPayTable(
        "The hands tie with a total of 6",
        (PayLine("a tie at 6", _tie_at_6, win(35)),),
        id="tiger_tie_35_to_1",
        bet=BetType.TIGER_TIE,
        source=Source(
            "Wizard of Odds: Baccarat Proposition Bets on Winning Side and Total",
            f"{_WOO}winning-side-and-total/",
            note="prints the probability of a tie at 6 (0.019240), not this pay table",
        ),
    ),
)
