"""The tableau: when the Player and the Banker draw a third card.

Each rule returns the decision together with the sentence a dealer would say,
so that every draw and every stand in a round can be explained.

>>> player_draws(5)
(True, "Player's two-card total is 5: the Player draws on 0-5")
>>> banker_draws(3, player_third=8)[0]
False
>>> banker_draws(6, player_third=7)[0]
True
"""

from __future__ import annotations

from .cards import RANKS, parse_card

#: Banker totals 3-6 when the Player drew: the Player third-card values on
#: which the Banker draws (0-2 always draws, 7 never does).
BANKER_DRAWS_ON: dict[int, frozenset[int]] = {
    3: frozenset({0, 1, 2, 3, 4, 5, 6, 7, 9}),
    4: frozenset({2, 3, 4, 5, 6, 7}),
    5: frozenset({4, 5, 6, 7}),
    6: frozenset({6, 7}),
}


def is_natural(two_card_total: int) -> bool:
    """A two-card 8 or 9 is a natural: it ends the round, nobody draws."""
    return two_card_total >= 8


def nobody_draws(player_total: int, banker_total: int) -> str:
    """Why nobody draws in a round a natural ends (the Player's natural is
    named when both hands have one).

    >>> nobody_draws(8, 9)
    'Player has a natural 8: nobody draws'
    """
    holder, total = ("Player", player_total) if is_natural(player_total) else ("Banker", banker_total)
    return f"{holder} has a natural {total}: nobody draws"


def player_draws(total: int) -> tuple[bool, str]:
    """The Player draws on 0-5 and stands on 6-7."""
    if total <= 5:
        return True, f"Player's two-card total is {total}: the Player draws on 0-5"
    return False, f"Player's two-card total is {total}: the Player stands on 6-7"


def banker_draws(total: int, player_third: int | None) -> tuple[bool, str]:
    """Whether the Banker draws, given its two-card total and the point value
    of the Player's third card (``None`` when the Player stood)."""
    if player_third is None:
        if total <= 5:
            return True, f"Player stood and Banker's total is {total}: the Banker draws on 0-5"
        return False, f"Player stood and Banker's total is {total}: the Banker stands on 6-7"
    if total <= 2:
        return True, f"Banker's total is {total}: the Banker always draws on 0-2"
    if total == 7:
        return False, "Banker's total is 7: the Banker always stands on 7"
    draws_on = BANKER_DRAWS_ON[total]
    shown = _ranges(draws_on)
    if player_third in draws_on:
        return True, (
            f"Banker's total is {total} and the Player's third card counts "
            f"{player_third}: on {total} the Banker draws when it counts {shown}"
        )
    return False, (
        f"Banker's total is {total} and the Player's third card counts "
        f"{player_third}: on {total} the Banker draws only when it counts {shown}"
    )


def _ranges(values: frozenset[int]) -> str:
    """``{0,1,2,3,9}`` as ``"0-3 or 9"``."""
    runs: list[list[int]] = []
    for value in sorted(values):
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    parts = [f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs]
    return " or ".join(parts) if len(parts) <= 2 else ", ".join(parts[:-1]) + " or " + parts[-1]


def tableau() -> dict[str, object]:
    """The whole tableau as data, computed from the rules above (so the
    data a client renders can never disagree with how rounds are dealt)."""
    player = []
    for total in range(8):
        draws, reason = player_draws(total)
        player.append({"total": total, "action": "draw" if draws else "stand", "reason": reason})
    banker = []
    for total in range(8):
        on = [p3 for p3 in range(10) if banker_draws(total, p3)[0]]
        banker.append(
            {
                "total": total,
                "when_player_stood": "draw" if banker_draws(total, None)[0] else "stand",
                "draws_when_player_third_is": on,
                "stands_when_player_third_is": [p3 for p3 in range(10) if p3 not in on],
            }
        )
    return {
        "card_points": {rank: parse_card(rank + "S").points for rank in RANKS},
        "naturals": [8, 9],
        "player": player,
        "banker": banker,
        "notes": [
            "Cards are dealt Player, Banker, Player, Banker.",
            "A two-card 8 or 9 in either hand is a natural: nobody draws.",
            "The Player acts first; the Banker's rule depends on whether the Player drew "
            "and on the point value of the Player's third card.",
            "Higher total wins; equal totals tie, and player and banker bets push on a tie.",
        ],
    }
