"""The sheet's words: each section and each sentence a code from a closed
set with its English template, and the values it is filled with.

A sentence is a :class:`Line`: its code and its values. A value is a number,
an amount or a figure written in digits (``"0.95:1"``, ``"0-5"``, ``"5%"``:
a template holds no per cent sign of its own), the same in every language,
or a :class:`Term`: a word of the game (a bet's name, a pay line's
condition) that an answer writes by its code among the values and in the
answer's language inside the sentence. The templates are marked
with :func:`N_` for the ``sheet`` catalogue (``make translations``); the
engine itself speaks English.

Why one module of this length: it is the sheet's whole vocabulary, one
closed set of codes with their templates, in the order the sheet says
them; the catalogue's extractor, the translators and the tests that every
code has its sentence in every language read it as one list, which a split
would scatter.

>>> line = Line.of(LineCode.NATURAL, naturals="8, 9")
>>> line.english
'A two-card total of 8, 9 is a natural: the round ends and nobody draws'
>>> str(line.code), dict(line.values)
('natural', {'naturals': '8, 9'})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from types import MappingProxyType

from ..bets.types import BetType
from ..rulebook.errors import N_


@dataclass(frozen=True, slots=True)
class Term:
    """A word of the game: its ``code`` (written among a sentence's values)
    and its English ``words`` (translated inside the sentence)."""

    code: str
    words: str

    def __str__(self) -> str:
        return self.words


#: A value a sentence is filled with.
Value = int | str | Decimal | Term


class SectionCode(StrEnum):
    """The sheet's sections, in the order it writes them."""

    OBJECT = "object"
    CARD_VALUES = "card_values"
    DEAL = "deal"
    NATURALS = "naturals"
    PLAYER_RULE = "player_rule"
    BANKER_RULE = "banker_rule"
    OUTCOMES = "outcomes"
    BET = "bet"
    MULTIPLIERS = "multipliers"
    PEEK = "peek"
    RETURN_TO_PLAYER = "return_to_player"
    LIMITS = "limits"
    SHOE = "shoe"
    MALFUNCTION = "malfunction"
    RULES = "rules"


#: Each section's title.
SECTION_TITLES: Mapping[SectionCode, str] = MappingProxyType(
    {
        SectionCode.OBJECT: N_("The object of the game"),
        SectionCode.CARD_VALUES: N_("Card values"),
        SectionCode.DEAL: N_("The deal"),
        SectionCode.NATURALS: N_("Naturals"),
        SectionCode.PLAYER_RULE: N_("The Player's third card"),
        SectionCode.BANKER_RULE: N_("The Banker's third card"),
        SectionCode.OUTCOMES: N_("Winning, ties and pushes"),
        SectionCode.BET: N_("The {bet} bet"),
        SectionCode.MULTIPLIERS: N_("Multipliers"),
        SectionCode.PEEK: N_("Peek Baccarat: cards shown, keep, double or triple"),
        SectionCode.RETURN_TO_PLAYER: N_("Return to player"),
        SectionCode.LIMITS: N_("Table limits and chips"),
        SectionCode.SHOE: N_("Cards and shuffling"),
        SectionCode.MALFUNCTION: N_("Malfunction"),
        SectionCode.RULES: N_("The rules this sheet states"),
    }
)


class LineCode(StrEnum):
    """Every sentence the sheet writes: a closed set, one code per template."""

    OBJECT = "object"
    HANDS_ARE_NAMES = "hands_are_names"
    ACE = "ace"
    PIPS = "pips"
    TENS_AND_FACES = "tens_and_faces"
    TOTAL = "total"
    EXAMPLE = "example"
    DEAL_ORDER = "deal_order"
    THIRD_CARD = "third_card"
    NATURAL = "natural"
    PLAYER_DRAWS = "player_draws"
    BANKER_PLAYER_STOOD = "banker_player_stood"
    BANKER_ALWAYS_DRAWS = "banker_always_draws"
    BANKER_DRAWS_ON = "banker_draws_on"
    BANKER_ALWAYS_STANDS = "banker_always_stands"
    HIGHER_TOTAL_WINS = "higher_total_wins"
    TIE_PUSHES = "tie_pushes"
    PAYS = "pays"
    PAYS_LESS_COMMISSION = "pays_less_commission"
    PAYS_NO_COMMISSION = "pays_no_commission"
    PUSHES = "pushes"
    OTHERWISE_LOSES = "otherwise_loses"
    MULTIPLIED = "multiplied"
    FEE = "fee"
    FEE_RETURNED_ON_PUSH = "fee_returned_on_push"
    RETURN = "return"
    RETURN_OVER_COST = "return_over_cost"
    STAKE_STEP = "stake_step"
    STAKES_TAKEN = "stakes_taken"
    LARGEST_WIN = "largest_win"
    MULTIPLIER_CARDS = "multiplier_cards"
    MULTIPLIER_MATCH = "multiplier_match"
    MULTIPLIER_CARD_CHANCES = "multiplier_card_chances"
    MULTIPLIER_CHANCES = "multiplier_chances"
    CAP = "cap"
    PEEK_FEE = "peek_fee"
    PEEK_NO_FEE = "peek_no_fee"
    PEEK_SHOWN = "peek_shown"
    PEEK_SHOWN_COUNT = "peek_shown_count"
    PEEK_CHOICE = "peek_choice"
    PEEK_MAXIMUM = "peek_maximum"
    PEEK_RAISE_NO_FEE = "peek_raise_no_fee"
    PEEK_SETTLED = "peek_settled"
    PEEK_RETURN_BEST = "peek_return_best"
    PEEK_RETURN_KEPT = "peek_return_kept"
    PEEK_STAKES_TRIPLED = "peek_stakes_tripled"
    PEEK_STAKES_DOUBLED = "peek_stakes_doubled"
    PEEK_STAKES_KEPT = "peek_stakes_kept"
    EXACT_RETURNS = "exact_returns"
    EXACT_RETURNS_ONE_DECK = "exact_returns_one_deck"
    RETURNS_PER_COST = "returns_per_cost"
    PEEK_RETURNS = "peek_returns"
    BET_LIMITS = "bet_limits"
    CHIPS = "chips"
    ROUNDED = "rounded"
    DECKS = "decks"
    ONE_DECK = "one_deck"
    RESHUFFLED = "reshuffled"
    BURN = "burn"
    CUT_CARD = "cut_card"
    MALFUNCTION = "malfunction"
    WRITTEN_FOR = "written_for"


class Malfunction(StrEnum):
    """What the sheet says happens on a malfunction: the operator's clause,
    one of a closed set (never free text), ``voids_all_pays_and_plays`` by default."""

    VOIDS_ALL_PAYS_AND_PLAYS = "voids_all_pays_and_plays"
    UNDER_REVIEW = "under_review"
    ROUND_VOID_STAKES_RETURNED = "round_void_stakes_returned"


#: The clause a sheet states when the operator names none.
DEFAULT_MALFUNCTION = Malfunction.VOIDS_ALL_PAYS_AND_PLAYS

#: Each clause's sentence.
MALFUNCTION_TEMPLATES: Mapping[Malfunction, str] = MappingProxyType(
    {
        Malfunction.VOIDS_ALL_PAYS_AND_PLAYS: N_("Malfunction voids all pays and plays"),
        Malfunction.UNDER_REVIEW: N_(
            "In the event of unusual activity in the software or outside intervention, "
            "all wagers are placed under review for further determination"
        ),
        Malfunction.ROUND_VOID_STAKES_RETURNED: N_(
            "A malfunction voids the round in play, and every stake on it is returned"
        ),
    }
)

#: Each sentence's template; the malfunction's is its clause's.
LINE_TEMPLATES: Mapping[LineCode, str] = MappingProxyType(
    {
        LineCode.OBJECT: N_(
            "Bet on the hand, Player or Banker, whose total comes closest to 9, or on a tie between them"
        ),
        LineCode.HANDS_ARE_NAMES: N_(
            "Player and Banker are only the names of the two hands: neither is you or the house"
        ),
        LineCode.ACE: N_("An ace counts {points}"),
        LineCode.PIPS: N_("Cards from 2 to 9 count their face value"),
        LineCode.TENS_AND_FACES: N_("Tens, jacks, queens and kings count {points}"),
        LineCode.TOTAL: N_("A hand's total is the last digit of the sum of its cards: 0 to 9"),
        LineCode.EXAMPLE: N_("{cards} make {sum}: a total of {total}"),
        LineCode.DEAL_ORDER: N_("Each hand is dealt two cards, in the order Player, Banker, Player, Banker"),
        LineCode.THIRD_CARD: N_("Then each hand may draw one third card, the Player first"),
        LineCode.NATURAL: N_("A two-card total of {naturals} is a natural: the round ends and nobody draws"),
        LineCode.PLAYER_DRAWS: N_(
            "The Player draws a third card on a two-card total of {draws} and stands on {stands}"
        ),
        LineCode.BANKER_PLAYER_STOOD: N_(
            "When the Player stood, the Banker draws on {draws} and stands on {stands}"
        ),
        LineCode.BANKER_ALWAYS_DRAWS: N_("When the Player drew, the Banker always draws on {totals}"),
        LineCode.BANKER_DRAWS_ON: N_(
            "When the Player drew, the Banker on {total} draws if the Player's third card counts {draws} "
            "and stands if it counts {stands}"
        ),
        LineCode.BANKER_ALWAYS_STANDS: N_("When the Player drew, the Banker always stands on {totals}"),
        LineCode.HIGHER_TOTAL_WINS: N_("The hand with the higher total wins; equal totals are a tie"),
        LineCode.TIE_PUSHES: N_("On a tie, Player and Banker bets push: the stake is returned"),
        LineCode.PAYS: N_("{when}: pays {odds}"),
        LineCode.PAYS_LESS_COMMISSION: N_("{when}: pays {odds} less a {rate} commission, {net} in all"),
        LineCode.PAYS_NO_COMMISSION: N_(
            "{when}: pays {odds}, no commission taken (this table's commission is 0)"
        ),
        LineCode.PUSHES: N_("{when}: push, the stake is returned"),
        LineCode.OTHERWISE_LOSES: N_("Any other result loses the bet"),
        LineCode.MULTIPLIED: N_("With the multipliers of the cards that count, a win pays {pays}"),
        LineCode.FEE: N_("A fee of {rate} of the stake is paid on top of it and kept"),
        LineCode.FEE_RETURNED_ON_PUSH: N_(
            "A fee of {rate} of the stake is paid on top of it, returned on a push"
        ),
        LineCode.RETURN: N_("Return to player: {rtp}"),
        LineCode.STAKE_STEP: N_(
            "Each pay, fee and return stated is exact on stakes in multiples of {step}; on another "
            "stake a win is rounded {rounding} to {minor_unit} decimal places"
        ),
        LineCode.STAKES_TAKEN: N_(
            "Stakes are taken in multiples of {step}, so that the fee of {rate} is a whole amount: "
            "another stake is refused"
        ),
        LineCode.RETURN_OVER_COST: N_(
            "Warning: this bet returns more than it costs ({rtp}), so the house loses on it in the long run"
        ),
        LineCode.LARGEST_WIN: N_("The largest win on this bet is {amount}"),
        LineCode.MULTIPLIER_CARDS: N_(
            "After bets close, {cards} multiplier cards are drawn, each with a multiplier of {multipliers}"
        ),
        LineCode.MULTIPLIER_CARD_CHANCES: N_(
            "How many multiplier cards are drawn, with the chance of each: {chances}"
        ),
        LineCode.MULTIPLIER_CHANCES: N_(
            "Each multiplier card's multiplier, with the chance of each: {chances}"
        ),
        LineCode.MULTIPLIER_MATCH: N_(
            "A card of the round with the rank and suit of a multiplier card multiplies the pay of each bet "
            "it counts for"
        ),
        LineCode.CAP: N_("A slip wins at most {cap} on one round"),
        LineCode.PEEK_FEE: N_(
            "{bet}: a fee of {rate} of the stake is paid on top of it when the bet is placed, "
            "kept whatever the result"
        ),
        LineCode.PEEK_NO_FEE: N_("{bet}: no fee, and the bet cannot be raised"),
        LineCode.PEEK_SHOWN: N_(
            "When each hand has its first two cards, and before any third card, {shown} of those "
            "four cards are shown face up; the others stay hidden"
        ),
        LineCode.PEEK_SHOWN_COUNT: N_(
            "In {chance} of rounds, the cards shown are {count} of the four, "
            "any {count} of them equally likely"
        ),
        LineCode.PEEK_CHOICE: N_("{choice}: the stake on the bet becomes {times} times the stake placed"),
        LineCode.PEEK_MAXIMUM: N_(
            "{bet}: a choice is open only if the stake it makes is at most the table maximum, {max}"
        ),
        LineCode.PEEK_RAISE_NO_FEE: N_(
            "The raise pays no fee: the fee is paid once, on the stake placed before the cards are shown"
        ),
        LineCode.PEEK_SETTLED: N_(
            "The round is then dealt to its end by the third-card rules and each bet settled on its "
            "stake as raised, at its pays"
        ),
        LineCode.PEEK_RETURN_BEST: N_(
            "{bet}: return to player {rtp} with the best choice: triple when the cards shown "
            "favour the bet, keep otherwise (tripled in {tripled} of rounds)"
        ),
        LineCode.PEEK_RETURN_KEPT: N_("{bet}: return to player {rtp} when the bet is always kept"),
        LineCode.PEEK_STAKES_TRIPLED: N_(
            "{bet} stakes of {low} to {high} may be tripled: return to player {rtp} with the best choice"
        ),
        LineCode.PEEK_STAKES_DOUBLED: N_(
            "{bet} stakes of {low} to {high} may be doubled, not tripled (the table maximum): "
            "return to player {rtp} with the best choice"
        ),
        LineCode.PEEK_STAKES_KEPT: N_(
            "{bet} stakes of {low} to {high} can only be kept (the table maximum): return to player {rtp}"
        ),
        LineCode.EXACT_RETURNS: N_(
            "Each return is exact: every ordered sequence of cards a full shoe of {decks} decks can deal "
            "is counted ({sequences} sequences), a pushed stake counts as returned, rounded to two decimals"
        ),
        LineCode.EXACT_RETURNS_ONE_DECK: N_(
            "Each return is exact: every ordered sequence of cards a full one-deck shoe can deal "
            "is counted ({sequences} sequences), a pushed stake counts as returned, rounded to two decimals"
        ),
        LineCode.RETURNS_PER_COST: N_(
            "At this table a return is per unit paid, the stake and its fee, "
            "each multiplier drawn by its weight"
        ),
        LineCode.PEEK_RETURNS: N_(
            "At this table the Player and Banker returns are per unit paid, the stake as raised and "
            "its fee, each set of cards shown drawn by its weight; the best choice triples when the "
            "expected result of the bet given the cards shown is a gain, and keeps otherwise (doubling "
            "is never better)"
        ),
        LineCode.BET_LIMITS: N_("{bet}: from {min} to {max}"),
        LineCode.CHIPS: N_("Chips: {chips}"),
        LineCode.ROUNDED: N_("A win is rounded {rounding} to {minor_unit} decimal places"),
        LineCode.DECKS: N_("The game is played with {decks} decks of 52 cards"),
        LineCode.ONE_DECK: N_("The game is played with one deck of 52 cards"),
        LineCode.RESHUFFLED: N_("The cards are reshuffled after each hand"),
        LineCode.BURN: N_(
            "At the start of a shoe the first card is turned and as many cards as it counts are burned, "
            "tens and faces counting 10"
        ),
        LineCode.CUT_CARD: N_(
            "A cut card is placed {cut_card} cards from the end: when it comes out, the round finishes, "
            "one more is dealt and the shoe ends"
        ),
        LineCode.MALFUNCTION: "{clause}",
        LineCode.WRITTEN_FOR: N_("Written for rules {rules_id} by engine version {version}"),
    }
)

#: A bet's name, as a sentence writes it.
BET_NAMES: Mapping[BetType, str] = MappingProxyType(
    {
        BetType.PLAYER: N_("Player"),
        BetType.BANKER: N_("Banker"),
        BetType.TIE: N_("Tie"),
        BetType.PLAYER_PAIR: N_("Player Pair"),
        BetType.BANKER_PAIR: N_("Banker Pair"),
        BetType.EITHER_PAIR: N_("Either Pair"),
        BetType.PERFECT_PAIR: N_("Perfect Pair"),
        BetType.DRAGON_BONUS_PLAYER: N_("Dragon Bonus Player"),
        BetType.DRAGON_BONUS_BANKER: N_("Dragon Bonus Banker"),
        BetType.DRAGON_7: N_("Dragon 7"),
        BetType.PANDA_8: N_("Panda 8"),
        BetType.BIG: N_("Big"),
        BetType.SMALL: N_("Small"),
        BetType.SUPER_6: N_("Super 6"),
        BetType.LUCKY_6: N_("Lucky 6"),
        BetType.BIG_TIGER: N_("Big Tiger"),
        BetType.SMALL_TIGER: N_("Small Tiger"),
        BetType.TIGER_TIE: N_("Tiger Tie"),
    }
)

#: A peek choice's name, as a sentence writes it (by :class:`.peek.round.Choice`).
CHOICE_NAMES: Mapping[str, str] = MappingProxyType(
    {"keep": N_("Keep"), "double": N_("Double"), "triple": N_("Triple")}
)

#: How a win's rounding is written (``rounded down``), by the rules' ``payout_rounding``.
ROUNDING_WORDS: Mapping[str, str] = MappingProxyType(
    {"down": N_("down"), "half_up": N_("half up"), "half_even": N_("half to even"), "up": N_("up")}
)

#: The words of the chart and of the pages (:mod:`service.contract.sheet_pages`).
DRAW, STAND = N_("Draw"), N_("Stand")
PLAYER_STOOD = N_("Player stood")
CHART_CAPTION = N_("The Banker's action by its two-card total and the Player's third card")
BANKER_TOTAL = N_("Banker's total")
PLAYER_THIRD = N_("Player's third card counts")
SHEET_TITLE = N_("Baccarat: the rules of this table")
WHEN, PAYS, PUSH = N_("When"), N_("Pays"), N_("Push")
PAY_TABLE = N_("Pay table of the {bet} bet")


def bet_term(bet: BetType) -> Term:
    """A bet as a sentence names it."""
    return Term(str(bet), BET_NAMES[bet])


@dataclass(frozen=True, slots=True)
class Line:
    """One sentence of the sheet: its code and the values it is filled with."""

    code: LineCode
    values: Mapping[str, Value]
    #: For :data:`LineCode.MALFUNCTION`: the clause (its template is the clause's).
    template: str

    @classmethod
    def of(cls, code: LineCode, **values: Value) -> Line:
        return cls(code, MappingProxyType(values), LINE_TEMPLATES[code])

    @classmethod
    def clause(cls, malfunction: Malfunction) -> Line:
        """The malfunction clause's sentence; its value is the clause's code."""
        return cls(
            LineCode.MALFUNCTION,
            MappingProxyType({"clause": Term(str(malfunction), MALFUNCTION_TEMPLATES[malfunction])}),
            LINE_TEMPLATES[LineCode.MALFUNCTION],
        )

    @property
    def english(self) -> str:
        """The sentence in English."""
        return self.template.format(**{name: str(value) for name, value in self.values.items()})


@dataclass(frozen=True, slots=True)
class Section:
    """One section of the sheet: its code, the figures it states (``values``:
    numbers, amounts, codes and lists of them) and its sentences. A bet's
    section's title names its bet (``values["bet"]``)."""

    code: SectionCode
    values: Mapping[str, object]
    lines: tuple[Line, ...]
    #: The values of its title: the bet a bet's section is of.
    title_values: Mapping[str, Value] = field(default_factory=dict)

    @property
    def title(self) -> str:
        """The title in English."""
        return SECTION_TITLES[self.code].format(
            **{name: str(value) for name, value in self.title_values.items()}
        )
