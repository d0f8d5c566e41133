"""The bets the service settles and the ways a banker bet is paid: the game's
vocabulary, which the pay tables (:mod:`.bets.catalogue`) and the tables' rules
(:mod:`.tables.rules`) are written in."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum


class BetType(StrEnum):
    """Every bet the service settles: the three main bets, then the side bets
    (answers list bets in this order)."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    PLAYER_PAIR = "player_pair"
    BANKER_PAIR = "banker_pair"
    EITHER_PAIR = "either_pair"
    PERFECT_PAIR = "perfect_pair"
    DRAGON_BONUS_PLAYER = "dragon_bonus_player"
    DRAGON_BONUS_BANKER = "dragon_bonus_banker"
    DRAGON_7 = "dragon_7"
    PANDA_8 = "panda_8"
    BIG = "big"
    SMALL = "small"
    SUPER_6 = "super_6"
    LUCKY_6 = "lucky_6"
    BIG_TIGER = "big_tiger"
    SMALL_TIGER = "small_tiger"
    TIGER_TIE = "tiger_tie"


#: The bets every table offers; the others are side bets.
MAIN_BETS = (BetType.PLAYER, BetType.BANKER, BetType.TIE)


class Variant(StrEnum):
    """How the banker bet is paid: each is one of the banker's pay tables."""

    STANDARD = "standard"  # 1:1 less the commission
    NO_COMMISSION = "no_commission"  # 1:1, but a win with a total of 6 pays 1:2
    EZ = "ez"  # 1:1, but a win with a three-card 7 pushes


@dataclass(frozen=True, slots=True, kw_only=True)
class Bet:
    type: BetType
    amount: Decimal
    id: str | None = None
