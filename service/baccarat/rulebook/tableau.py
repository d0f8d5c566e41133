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

from enum import StrEnum

from .cards import RANKS, parse_card

#: Banker totals 3-6 when the Player drew: the Player third-card values on
#: which the Banker draws (0-2 always draws, 7 never does).
BANKER_DRAWS_ON: dict[int, frozenset[int]] = {
    3: frozenset({0, 1, 2, 3, 4, 5, 6, 7, 9}),
    4: frozenset({2, 3, 4, 5, 6, 7}),
    5: frozenset({4, 5, 6, 7}),
    6: frozenset({6, 7}),
}


def N_(template: str) -> str:
    """Marks a sentence of the rulebook for translation (gettext's no-op
    marker: ``make translations`` extracts what it wraps); the engine itself
    speaks English."""
    return template


class ReasonCode(StrEnum):
    """Why a hand draws or stands, or why the round is over: a closed set, one
    code per rule of the tableau. A reason's values are the totals and the
    Player's third card it was decided from."""

    PLAYER_NATURAL = "player_natural"
    BANKER_NATURAL = "banker_natural"
    PLAYER_DRAWS_ON_0_5 = "player_draws_on_0_5"
    PLAYER_STANDS_ON_6_7 = "player_stands_on_6_7"
    BANKER_DRAWS_ON_0_5_PLAYER_STOOD = "banker_draws_on_0_5_player_stood"
    BANKER_STANDS_ON_6_7_PLAYER_STOOD = "banker_stands_on_6_7_player_stood"
    BANKER_DRAWS_ON_0_2 = "banker_draws_on_0_2"
    BANKER_STANDS_ON_7 = "banker_stands_on_7"
    BANKER_DRAWS_ON_PLAYER_THIRD = "banker_draws_on_player_third"
    BANKER_STANDS_ON_PLAYER_THIRD = "banker_stands_on_player_third"
    INITIAL_DEAL = "initial_deal"
    BOTH_HANDS_DREW = "both_hands_drew"
    PLAYER_HIGHER_TOTAL = "player_higher_total"
    BANKER_HIGHER_TOTAL = "banker_higher_total"
    EQUAL_TOTALS = "equal_totals"


#: Each code's sentence, its placeholders the reason's values (and, for the
#: Banker's rules on 3-6, ``draws_on``: the third-card values it draws on).
REASON_TEMPLATES: dict[ReasonCode, str] = {
    ReasonCode.PLAYER_NATURAL: N_("Player has a natural {player_total}: nobody draws"),
    ReasonCode.BANKER_NATURAL: N_("Banker has a natural {banker_total}: nobody draws"),
    ReasonCode.PLAYER_DRAWS_ON_0_5: N_("Player's two-card total is {player_total}: the Player draws on 0-5"),
    ReasonCode.PLAYER_STANDS_ON_6_7: N_(
        "Player's two-card total is {player_total}: the Player stands on 6-7"
    ),
    ReasonCode.BANKER_DRAWS_ON_0_5_PLAYER_STOOD: N_(
        "Player stood and Banker's total is {banker_total}: the Banker draws on 0-5"
    ),
    ReasonCode.BANKER_STANDS_ON_6_7_PLAYER_STOOD: N_(
        "Player stood and Banker's total is {banker_total}: the Banker stands on 6-7"
    ),
    ReasonCode.BANKER_DRAWS_ON_0_2: N_("Banker's total is {banker_total}: the Banker always draws on 0-2"),
    ReasonCode.BANKER_STANDS_ON_7: N_("Banker's total is {banker_total}: the Banker always stands on 7"),
    ReasonCode.BANKER_DRAWS_ON_PLAYER_THIRD: N_(
        "Banker's total is {banker_total} and the Player's third card counts {player_third}: "
        "on {banker_total} the Banker draws when it counts {draws_on}"
    ),
    ReasonCode.BANKER_STANDS_ON_PLAYER_THIRD: N_(
        "Banker's total is {banker_total} and the Player's third card counts {player_third}: "
        "on {banker_total} the Banker draws only when it counts {draws_on}"
    ),
    ReasonCode.INITIAL_DEAL: N_("The first four cards are dealt Player, Banker, Player, Banker"),
    ReasonCode.BOTH_HANDS_DREW: N_("Both hands have drawn their third card: nobody draws a fourth"),
    ReasonCode.PLAYER_HIGHER_TOTAL: N_("Player's {player_total} beats Banker's {banker_total}"),
    ReasonCode.BANKER_HIGHER_TOTAL: N_("Banker's {banker_total} beats Player's {player_total}"),
    ReasonCode.EQUAL_TOTALS: N_("Both hands total {player_total}: a tie"),
}


class NoteCode(StrEnum):
    """A note on the rules as a whole (the ``notes`` of the tableau): one
    code per note, so that a table shows the notes in its own words. A
    note's values are the figures it states (a natural's totals)."""

    DEALING_ORDER = "dealing_order"
    NATURALS_END_THE_ROUND = "naturals_end_the_round"
    PLAYER_ACTS_FIRST = "player_acts_first"
    HIGHER_TOTAL_WINS = "higher_total_wins"


#: Each note's sentence.
NOTE_TEMPLATES: dict[NoteCode, str] = {
    NoteCode.DEALING_ORDER: N_("Cards are dealt Player, Banker, Player, Banker."),
    NoteCode.NATURALS_END_THE_ROUND: N_("A two-card 8 or 9 in either hand is a natural: nobody draws."),
    NoteCode.PLAYER_ACTS_FIRST: N_(
        "The Player acts first; the Banker's rule depends on whether the Player drew "
        "and on the point value of the Player's third card."
    ),
    NoteCode.HIGHER_TOTAL_WINS: N_(
        "Higher total wins; equal totals tie, and player and banker bets push on a tie."
    ),
}

#: The two-card totals that are naturals.
NATURALS = (8, 9)

#: The values a reason may hold, in the order answers write them.
REASON_VALUES = ("player_total", "banker_total", "player_third")


class Reason(str):
    """A rule's sentence in English, knowing the rule's ``code`` and the
    ``values`` it was decided from: it reads as the sentence wherever a
    sentence is wanted, and an answer writes the code and values beside it
    (a platform shows the reason in its own words from those). Reasons are
    made once, into the engine's tables (:mod:`.rulebook.coup`), never per round.

    >>> reason = Reason.of(ReasonCode.PLAYER_DRAWS_ON_0_5, player_total=3)
    >>> reason
    "Player's two-card total is 3: the Player draws on 0-5"
    >>> str(reason.code), reason.values
    ('player_draws_on_0_5', {'player_total': 3})
    """

    code: ReasonCode
    values: dict[str, int]

    @classmethod
    def of(cls, code: ReasonCode, **values: int) -> Reason:
        arguments: dict[str, object] = dict(values)
        if "{draws_on}" in REASON_TEMPLATES[code]:
            arguments["draws_on"] = _ranges(BANKER_DRAWS_ON[values["banker_total"]])
        reason = cls(REASON_TEMPLATES[code].format(**arguments))
        reason.code = code
        reason.values = {name: values[name] for name in REASON_VALUES if name in values}
        return reason


def is_natural(two_card_total: int) -> bool:
    """A two-card 8 or 9 is a natural: it ends the round, nobody draws."""
    return two_card_total >= 8


def nobody_draws(player_total: int, banker_total: int) -> Reason:
    """Why nobody draws in a round a natural ends (the Player's natural is
    named when both hands have one).

    >>> nobody_draws(8, 9)
    'Player has a natural 8: nobody draws'
    """
    code = ReasonCode.PLAYER_NATURAL if is_natural(player_total) else ReasonCode.BANKER_NATURAL
    return Reason.of(code, player_total=player_total, banker_total=banker_total)


def player_draws(total: int) -> tuple[bool, Reason]:
    """The Player draws on 0-5 and stands on 6-7."""
    if total <= 5:
        return True, Reason.of(ReasonCode.PLAYER_DRAWS_ON_0_5, player_total=total)
    return False, Reason.of(ReasonCode.PLAYER_STANDS_ON_6_7, player_total=total)


def banker_draws(total: int, player_third: int | None) -> tuple[bool, Reason]:
    """Whether the Banker draws, given its two-card total and the point value
    of the Player's third card (``None`` when the Player stood)."""
    if player_third is None:
        if total <= 5:
            return True, Reason.of(ReasonCode.BANKER_DRAWS_ON_0_5_PLAYER_STOOD, banker_total=total)
        return False, Reason.of(ReasonCode.BANKER_STANDS_ON_6_7_PLAYER_STOOD, banker_total=total)
    if total <= 2:
        return True, Reason.of(ReasonCode.BANKER_DRAWS_ON_0_2, banker_total=total, player_third=player_third)
    if total == 7:
        return False, Reason.of(ReasonCode.BANKER_STANDS_ON_7, banker_total=total, player_third=player_third)
    draws = player_third in BANKER_DRAWS_ON[total]
    code = ReasonCode.BANKER_DRAWS_ON_PLAYER_THIRD if draws else ReasonCode.BANKER_STANDS_ON_PLAYER_THIRD
    return draws, Reason.of(code, banker_total=total, player_third=player_third)


def outcome_reason(player_total: int, banker_total: int) -> Reason:
    """Why the round ended as it did: the higher final total wins.

    >>> outcome_reason(6, 7)
    "Banker's 7 beats Player's 6"
    """
    if player_total == banker_total:
        code = ReasonCode.EQUAL_TOTALS
    else:
        code = (
            ReasonCode.PLAYER_HIGHER_TOTAL if player_total > banker_total else ReasonCode.BANKER_HIGHER_TOTAL
        )
    return Reason.of(code, player_total=player_total, banker_total=banker_total)


def draws_on(banker_total: int) -> list[str]:
    """The runs of Player third-card values on which the Banker draws on
    ``banker_total`` (3-6), as a sentence lists them: ``["0-7", "9"]``."""
    return _runs(BANKER_DRAWS_ON[banker_total])


def _runs(values: frozenset[int]) -> list[str]:
    runs: list[list[int]] = []
    for value in sorted(values):
        if runs and value == runs[-1][-1] + 1:
            runs[-1].append(value)
        else:
            runs.append([value])
    return [f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs]


def _ranges(values: frozenset[int]) -> str:
    """``{0,1,2,3,9}`` as ``"0-3 or 9"``."""
    parts = _runs(values)
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
    natural_rules = [
        {"hand": hand, "total": total, "reason": Reason.of(code, **{f"{hand}_total": total})}
        for hand, code in (("player", ReasonCode.PLAYER_NATURAL), ("banker", ReasonCode.BANKER_NATURAL))
        for total in NATURALS
    ]
    return {
        "card_points": {rank: parse_card(rank + "S").points for rank in RANKS},
        "naturals": list(NATURALS),
        "natural_rules": natural_rules,
        "player": player,
        "banker": banker,
        "notes": list(NOTE_TEMPLATES.values()),
        "note_codes": [
            {
                "code": code,
                "values": {"naturals": list(NATURALS)} if code is NoteCode.NATURALS_END_THE_ROUND else {},
            }
            for code in NOTE_TEMPLATES
        ],
    }
