"""The main bets' pay tables: the Player, the Banker by variant, and the tie.

Player and banker bets push on a tie. The banker's pay table is the table's
``variant``: 1:1 less the commission (``standard``), 1:1 but 1:2 on a win
with 6 (``no_commission``), or 1:1 but a push on a win with a three-card 7
(``ez``). The commission is the one pay a table may set freely (0 to 25%):
the standard banker table is written at 5% and paid at the table's rate.
"""

from __future__ import annotations

from decimal import Decimal

from ..rulebook.coup import Coup, Outcome
from .paytable import PUSH, NamedPayTable, PayLine, Source, win
from .types import BetType, Variant

#: The commission the standard banker table is written at (DESIGN §4).
STANDARD_COMMISSION = Decimal("0.05")

_ODDS = "https://www.multiplayerbaccarat.com/odds.html"
_TIE = "https://www.888casino.com/blog/baccarat-tips/beating-the-baccarat-tie-bet"


def _player_wins(coup: Coup) -> bool:
    return coup.outcome is Outcome.PLAYER


def _banker_wins(coup: Coup) -> bool:
    return coup.outcome is Outcome.BANKER


def _tie(coup: Coup) -> bool:
    return coup.outcome is Outcome.TIE


def _banker_wins_with_6(coup: Coup) -> bool:
    return _banker_wins(coup) and coup.banker.total == 6


def _banker_wins_without_6(coup: Coup) -> bool:
    return _banker_wins(coup) and coup.banker.total != 6


def _banker_wins_with_three_card_7(coup: Coup) -> bool:
    return _banker_wins(coup) and coup.banker.total == 7 and len(coup.banker.cards) == 3


def _banker_wins_without_three_card_7(coup: Coup) -> bool:
    return _banker_wins(coup) and not _banker_wins_with_three_card_7(coup)


_TIE_PUSHES = PayLine("a tie", _tie, PUSH)
_BANKER_BEATS_PLAYER = "The Banker's final total beats the Player's"


def _tie_table(pays: int, house_edge: str) -> NamedPayTable:
    return NamedPayTable(
        "The two final totals are equal",
        (PayLine("the totals are equal", _tie, win(pays)),),
        id=f"tie_{pays}_to_1",
        bet=BetType.TIE,
        source=Source("Eliot Jacobson: Beating the Baccarat Tie Bet", _TIE, house_edge),
        setting=("tie_pays", pays),
    )


#: Every main bet's pay tables, each bet's standard one first.
PAY_TABLES: tuple[NamedPayTable, ...] = (
    NamedPayTable(
        "The Player's final total beats the Banker's",
        (PayLine("Player wins", _player_wins, win(1)), _TIE_PUSHES),
        id="player_1_to_1",
        bet=BetType.PLAYER,
        source=Source("Multiplayer Baccarat: odds", _ODDS, "1.2351%"),
    ),
    NamedPayTable(
        _BANKER_BEATS_PLAYER,
        (PayLine("Banker wins", _banker_wins, win(1, STANDARD_COMMISSION)), _TIE_PUSHES),
        id="banker_commission",
        bet=BetType.BANKER,
        source=Source("Multiplayer Baccarat: odds", _ODDS, "1.0579%"),
        setting=("variant", str(Variant.STANDARD)),
    ),
    NamedPayTable(
        _BANKER_BEATS_PLAYER,
        (
            PayLine("Banker wins with a total of 6", _banker_wins_with_6, win("0.5")),
            PayLine("Banker wins with any other total", _banker_wins_without_6, win(1)),
            _TIE_PUSHES,
        ),
        id="banker_no_commission",
        bet=BetType.BANKER,
        source=Source(
            "Wizard of Odds: Commission Free Baccarat",
            "https://wizardofodds.com/games/baccarat/appendix/6/",
            "1.46%",
        ),
        setting=("variant", str(Variant.NO_COMMISSION)),
    ),
    NamedPayTable(
        _BANKER_BEATS_PLAYER,
        (
            PayLine("Banker wins with a three-card 7", _banker_wins_with_three_card_7, PUSH),
            PayLine("Banker wins any other way", _banker_wins_without_three_card_7, win(1)),
            _TIE_PUSHES,
        ),
        id="banker_ez",
        bet=BetType.BANKER,
        source=Source(
            "Eliot Jacobson: Card Counting the Super Six Baccarat Side Bet",
            "https://www.888casino.com/blog/card-counting-the-super-six-baccarat-side-bet/",
            "1.0183%",
        ),
        setting=("variant", str(Variant.EZ)),
    ),
    _tie_table(8, "14.360%"),
    _tie_table(9, "4.844%"),
)
