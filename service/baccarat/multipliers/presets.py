"""The multiplier games as their operators publish them: Lightning, Golden
Wealth and Prosperity Tree baccarat, each a :class:`.MultiplierRule` with
the sources that print its cards, multipliers, pays, fee and returns.

The operators publish no weights: how often each count of cards and each
multiplier comes up is theirs to set. The weights here are this service's
examples, chosen so that the exact returns (:mod:`.multipliers.odds`) come
close to the published ones; docs/multipliers.md gives both.

>>> rule = PRESETS["prosperity_tree"].rule
>>> rule.canonical["cards"], rule.canonical["multipliers"], rule.canonical["cap"]
({'8': 1}, {'2': 15, '3': 1}, '500000')
>>> PRESETS["golden_wealth"].published[BetType.TIE]
'93.4%'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType

from ..bets.paytable import Source
from ..bets.types import BetType
from .rule import MULTIPLIED_BETS, Counted, Fee, MultipliedPay, MultiplierRule


@dataclass(frozen=True, kw_only=True)
class MultiplierPreset:
    """A multiplier game as an operator publishes it, with this service's
    example weights (the operators do not publish theirs)."""

    name: str
    description: str
    rule: MultiplierRule
    #: Where the game's conditions are published.
    sources: tuple[Source, ...]
    #: Each bet's return to player as the sources print it (``"98.9%"``),
    #: for the bets they print one for. The service computes its own
    #: (:mod:`.multipliers.odds`) from the weights, never shows this instead.
    published: Mapping[BetType, str]


def _pays(tie: int, pairs: int) -> Mapping[BetType, MultipliedPay]:
    """The pays every preset shares: Player 1:1 and Banker 1:1 less 5% of
    the stake, each multiplied by its winning hand; the tie by every card;
    each pair bet by its two paired cards."""
    return MappingProxyType(
        {
            BetType.PLAYER: MultipliedPay(pays=Decimal(1), counted=Counted.WINNING_HAND),
            BetType.BANKER: MultipliedPay(
                pays=Decimal(1), counted=Counted.WINNING_HAND, stake_kept=Decimal("0.05")
            ),
            BetType.TIE: MultipliedPay(pays=Decimal(tie), counted=Counted.ALL_CARDS),
            BetType.PLAYER_PAIR: MultipliedPay(pays=Decimal(pairs), counted=Counted.PAIRED_CARDS),
            BetType.BANKER_PAIR: MultipliedPay(pays=Decimal(pairs), counted=Counted.PAIRED_CARDS),
        }
    )


#: 20% of every stake on top of it, kept on a push.
_FEE = Fee(rate=Decimal("0.2"), bets=MULTIPLIED_BETS)
_WEIGHTS_NOTE = (
    "the multiplier weights are not published: these are this service's example weights, "
    "chosen so that the exact returns come close to the published ones"
)

PRESETS: Mapping[str, MultiplierPreset] = MappingProxyType(
    {
        "lightning": MultiplierPreset(
            name="lightning",
            description=(
                "Lightning Baccarat: 1 to 5 lightning cards, each x2, x3, x4, x5 or x8; "
                "Player and Banker 1:1 (95% of a winning Banker stake returned), tie 5:1, "
                "pairs 9:1, each times its cards' multipliers; a 20% fee on every bet"
            ),
            rule=MultiplierRule(
                cards={1: 1, 2: 2, 3: 3, 4: 2, 5: 1},
                multipliers={2: 14, 3: 10, 4: 8, 5: 7, 8: 5},
                pays=_pays(tie=5, pairs=9),
                fee=_FEE,
            ),
            sources=(
                Source(
                    "Lightning Baccarat (Evolution): game rules and RTP",
                    "https://www.ltccasino.com/cryptocasino/lightning-baccarat/",
                    note="1 to 5 cards, x2/x3/x4/x5/x8, 20% fee, Player 98.76%; " + _WEIGHTS_NOTE,
                ),
                Source(
                    "Lightning Baccarat: how a Banker win and the tie are paid",
                    "https://www.livedealer.org/forums/showthread.php?8871-Lightning-Baccarat/page2",
                    note="a 1.00 Banker win at x8 returns 8.95 (95% of the stake + 8); tie up to 1,310,720:1",
                ),
            ),
            published=MappingProxyType({BetType.PLAYER: "98.76%"}),
        ),
        "golden_wealth": MultiplierPreset(
            name="golden_wealth",
            description=(
                "Golden Wealth Baccarat: 5 gold cards, each x2, x3, x5 or x8; Player and "
                "Banker 1-512:1 (95% of a winning Banker stake returned), tie 5:1 times every "
                "card's multiplier, pairs 9-576:1; a 20% fee on every bet; at most 500,000 won a round"
            ),
            rule=MultiplierRule(
                cards={5: 1},
                multipliers={2: 50, 3: 42, 5: 7, 8: 1},
                pays=_pays(tie=5, pairs=9),
                fee=_FEE,
                cap=Decimal(500000),
            ),
            sources=(
                Source(
                    "win2day: Ergänzungsspielbedingungen First Person Golden Wealth Baccarat",
                    "https://www.win2day.at/fairplay/spielbedingungen/firstpersongoldenwealthbaccarat-spielbedingungen",
                    note="5 cards, x2/x3/x5/x8, 20% fee, payout per round at most EUR 500,000; "
                    + _WEIGHTS_NOTE,
                ),
            ),
            published=MappingProxyType(
                {
                    BetType.PLAYER: "98.9%",
                    BetType.BANKER: "98.7%",
                    BetType.TIE: "93.4%",
                    BetType.PLAYER_PAIR: "86%",
                    BetType.BANKER_PAIR: "86%",
                }
            ),
        ),
        "prosperity_tree": MultiplierPreset(
            name="prosperity_tree",
            description=(
                "Prosperity Tree Baccarat: 8 prosperity cards, each x2 or x3; Player and Banker "
                "1-27:1 (95% of a winning Banker stake returned), tie 5:1 times every card's "
                "multiplier, pairs 10-90:1; a 20% fee on every bet; at most 500,000 won a round"
            ),
            rule=MultiplierRule(
                cards={8: 1},
                multipliers={2: 15, 3: 1},
                pays=_pays(tie=5, pairs=10),
                fee=_FEE,
                cap=Decimal(500000),
            ),
            sources=(
                Source(
                    "win2day: Ergänzungsspielbedingungen Prosperity Tree Baccarat",
                    "https://www.win2day.at/fairplay/spielbedingungen",
                    note="the operator's index of game conditions; 8 cards, x2/x3, 20% fee, tie up to "
                    "EUR 500,000; " + _WEIGHTS_NOTE,
                ),
                Source(
                    "Prosperity Tree Baccarat (Evolution)",
                    "https://evocasinos.com/th/games/prosperity-tree-baccarat",
                    note="eight prosperity cards every round, x2 or x3",
                ),
            ),
            published=MappingProxyType(
                {
                    BetType.PLAYER: "98.9%",
                    BetType.BANKER: "98.7%",
                    BetType.TIE: "92.8%",
                    BetType.PLAYER_PAIR: "92.5%",
                    BetType.BANKER_PAIR: "92.5%",
                }
            ),
        ),
    }
)
