"""The game's value sets (outcomes, bet types, table presets, ...), each one
named component of the OpenAPI document.

The same set of values appears in many requests and answers: an outcome in
a round, a road cell and a road request; a bet type in a bet, a settled bet
and an offered bet. A field made by :func:`value_of` names its set, and the
document refers to the set's component wherever it appears
(:mod:`service.contract.document`), so that a generated client has one type per
set, ``Outcome``, that stands for the value anywhere, instead of one
look-alike type per field.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from marshmallow import fields, validate

from ...baccarat.bets.catalogue import CATALOGUE, pay_tables_of, standard
from ...baccarat.bets.money import Rounding
from ...baccarat.bets.paytable import NO_LINE, Result, pays_text
from ...baccarat.bets.types import BetType, Variant
from ...baccarat.multipliers.odds import WarningCode
from ...baccarat.multipliers.presets import PRESETS as MULTIPLIER_PRESETS
from ...baccarat.multipliers.rule import Counted
from ...baccarat.peek.round import Choice, Position
from ...baccarat.rulebook.coup import Outcome, Place, Side
from ...baccarat.rulebook.tableau import NoteCode, ReasonCode
from ...baccarat.sheets.words import LineCode, Malfunction, SectionCode
from ...baccarat.shoes.roads import Colour
from ...baccarat.tables.rules import SHORTHANDS, SUPER_6_PAYS, TABLES, TIE_PAYS, Dealing, Game
from .messages import ERROR_TEMPLATES

#: The metadata key of a field documented by a component of its own (a value
#: set's, or one written by hand): the component's name.
COMPONENT = "component"


def _bet_type_description() -> str:
    """What each bet is on and what each of its pay tables pays, written from
    the catalogue, so that the contract never restates a pay by hand."""
    lines = [
        "What a bet is on, and what each of its pay tables pays (`rules.pay_tables` chooses one, "
        "GET /v1/paytables has their lines and house edges). Player and banker push on a tie; pairs "
        "go by rank on each hand's first two cards, even when it draws a third.",
        "",
    ]
    for bet in BetType:
        tables = "; ".join(f"`{table.id}` ({pays_text(table)})" for table in pay_tables_of(bet))
        shorthand = f", also chosen by `{SHORTHANDS[bet]}`" if bet in SHORTHANDS else ""
        lines.append(f"- `{bet}`: {standard(bet).description}. Pay tables{shorthand}: {tables}.")
    return "\n".join(lines)


BET_TYPE_DESCRIPTION = _bet_type_description()

VARIANT_DESCRIPTION = (
    "How the banker bet is paid: `standard` (1:1 less `commission`, 0.95:1 at 5%), "
    "`no_commission` (1:1, but a banker win with a total of 6 pays 1:2) or `ez` (EZ Baccarat: "
    "1:1, but a banker win with a three-card 7 pushes). `no_commission` and `ez` take no "
    "commission: their rules say `commission` 0 (docs/bets.md)"
)


#: The extension that lists an open set's values today (Zalando's RESTful API guidelines):
#: documentation for people and tools, not a promise that no other value comes.
EXTENSIBLE_ENUM = "x-extensible-enum"

#: What an open set's description says of the values it may gain (docs/reference/versioning.md).
MAY_GROW = (
    "Values may be added in any release of this major version: a caller treats a value "
    "it does not know as one more of the set, never as an error. The values today are "
    "listed in `x-extensible-enum`."
)


@dataclass(frozen=True)
class ValueSet:
    """The values a field may take. A nullable set also takes null: it is a
    set of its own (OpenAPI 3.0 cannot make a reference nullable), titled so
    that generators name its type after it (``Mark | None``).

    A set is closed (an ``enum``) only where the game fixes it for good: who
    won, a hand, a card's place, a bet's result, a road's colour. Every other
    set is ``open``: it grows with the catalogue (a bet, a pay table, a table,
    a reason, a problem code), so the contract lists its values in
    :data:`EXTENSIBLE_ENUM` and types it as a plain string or integer, and a
    client generated from this release still reads an answer that carries a
    value added since. The service still checks a request's value against
    the set it knows."""

    values: tuple[str, ...] | tuple[int, ...]
    description: str
    nullable: bool = False
    open: bool = True

    def component(self, name: str) -> dict[str, Any]:
        """The set as an OpenAPI schema."""
        kind = "integer" if isinstance(self.values[0], int) else "string"
        if self.open:
            description = f"{self.description}\n\n{MAY_GROW}"
            return {"type": kind, "description": description, EXTENSIBLE_ENUM: [*self.values]}
        schema: dict[str, Any] = {"type": kind, "enum": [*self.values], "description": self.description}
        if self.nullable:
            schema.update(title=name, enum=[*self.values, None], nullable=True)
        return schema


def names(values: Iterable[str]) -> tuple[str, ...]:
    """The values as plain strings (an engine enum's members are ``StrEnum``)."""
    return tuple(str(value) for value in values)


VALUE_SETS: Mapping[str, ValueSet] = MappingProxyType(
    {
        "Outcome": ValueSet(names(Outcome), "Who won the round, or a tie", open=False),
        "Side": ValueSet(names(Side), "One of the two hands", open=False),
        "Place": ValueSet(
            names(Place),
            "Which card of a round a card is: each hand's first and second cards, dealt Player, "
            "Banker, Player, Banker, then each hand's third card if the tableau calls for it",
            open=False,
        ),
        "BetType": ValueSet(names(BetType), BET_TYPE_DESCRIPTION),
        "BetResult": ValueSet(
            names(Result), "What a bet does: wins, loses, or pushes (its stake returned)", open=False
        ),
        "TablePreset": ValueSet(
            names(TABLES),
            "A table preset (GET /v1/tables): `standard` (5% commission; pairs, perfect pair, dragon "
            "bonus, big, small), `tie_9` (tie 9:1), `no_commission` (banker 6 pays 1:2; pairs, "
            "super 6), `ez` (EZ Baccarat; dragon 7, panda 8), `tiger` (banker 6 pays 1:2; lucky 6, "
            "big tiger, small tiger, tiger tie), `peek` (Peek Baccarat's table, POST /v1/rounds/peek's "
            "alone: a 20% fee on player and banker, raised 2 or 3 times), or a multiplier game: "
            "`lightning` (tie 5:1, pairs 9:1, times the multipliers; a 20% fee), `golden_wealth` or "
            "`prosperity_tree`, each the "
            'rules `{"multipliers": NAME}` at the standard table (docs/multipliers.md)',
        ),
        "TableNow": ValueSet(
            ("same_rules", "other_rules", "not_in_catalogue"),
            "What the deployment's catalogue holds now under the name of the table a stored answer "
            "names: `same_rules` (the rules the answer recorded), `other_rules` (the table was "
            "changed since), `not_in_catalogue` (removed, or not the replaying key's); the stored "
            "request is replayed by the recorded rules in every case",
        ),
        "MultiplierPreset": ValueSet(
            names(MULTIPLIER_PRESETS),
            "A multiplier game (docs/multipliers.md): "
            + "; ".join(f"`{name}`, {preset.description}" for name, preset in MULTIPLIER_PRESETS.items()),
        ),
        "Counted": ValueSet(
            names(Counted),
            "Which of a round's cards count for a multiplied bet: `winning_hand` (the hand the bet "
            "is on), `all_cards` (both hands), `paired_cards` (the first two cards of the pair "
            "bet's hand) or `none` (the base pay, never multiplied)",
        ),
        "Variant": ValueSet(names(Variant), VARIANT_DESCRIPTION),
        "Game": ValueSet(
            names(Game),
            "The game a table plays (GET /v1/tables' `game`): `punto_banco`, by the tableau and the "
            "table's pay tables; `multipliers`, a multiplier game whose rule pays its bets; `peek`, Peek "
            "Baccarat, played by POST /v1/rounds/peek alone",
        ),
        "Dealing": ValueSet(
            names(Dealing),
            "How the table deals: `shoe`, from a whole shoe (burn, then rounds until the cut card "
            "comes out and one more; POST /v1/shoes, or POST /v1/rounds with `round`), or "
            "`reshuffle_each_hand`, the decks reshuffled after each hand (each round a seeded "
            "POST /v1/rounds without `round`)",
        ),
        "PayoutRounding": ValueSet(
            names(Rounding),
            "How a payout with more digits than the minor unit is rounded: `down` (the house's "
            "favour), `half_up`, `half_even` or `up`",
        ),
        "PayTableId": ValueSet(
            tuple(CATALOGUE),
            "A pay table of the catalogue by its id (GET /v1/paytables has each one's lines, source "
            "and house edge); the `BetType` description lists each bet's",
        ),
        "TiePays": ValueSet(TIE_PAYS, "The tie pays this many to 1"),
        "Super6Pays": ValueSet(SUPER_6_PAYS, "Super 6 pays this many to 1"),
        "PayLineCode": ValueSet(
            tuple(sorted({line.code for table in CATALOGUE.values() for line in (*table.lines, NO_LINE)})),
            "The line of a bet's pay table that settled it: its sentence (`when` in GET /v1/paytables) "
            "in lower case words joined by `_`; `no_line_of_its_pay_table_holds` for a bet that lost",
        ),
        "ReasonCode": ValueSet(
            names(ReasonCode),
            "Why a hand draws or stands, why a round needs the next card or no more, and why the "
            "round ended as it did: one code per rule of the tableau (docs/integration.md, "
            '"Reasons in your own words", has each code\'s sentence and values)',
        ),
        "NoteCode": ValueSet(
            names(NoteCode),
            "A note on the rules as a whole in GET /v1/rules (`note_codes`): the order of the deal, "
            "naturals end the round, the Player acts first, the higher total wins "
            '(docs/integration.md, "Reasons in your own words", has each code\'s sentence)',
        ),
        "ErrorCode": ValueSet(
            names(ERROR_TEMPLATES),
            "What is wrong with one input of a request (`errors[].code` of a problem): the same in "
            "every language; docs/errors.md has each code's sentence and values",
        ),
        "Action": ValueSet(("draw", "stand"), "Whether a hand draws a third card or stands", open=False),
        "Colour": ValueSet(names(Colour), "A mark of a derived road", open=False),
        "Mark": ValueSet(
            names(Colour), "The mark a derived road would add, or null for none", nullable=True, open=False
        ),
        "PeekPosition": ValueSet(
            names(Position),
            "One of a peek round's first four cards, in dealing order (Player, Banker, Player, Banker)",
            open=False,
        ),
        "PeekChoice": ValueSet(
            names(Choice),
            "What the player does with a peek round's Player or Banker bet once cards are shown: keep "
            "it, double it or triple it (no fee on the raise)",
            open=False,
        ),
        "ReturnWarningCode": ValueSet(
            names(WarningCode),
            "What is worth a warning in a multiplier rule's returns: `return_over_cost`, a bet that "
            "returns more than it costs",
        ),
        "Malfunction": ValueSet(
            names(Malfunction),
            "What a rules sheet says happens on a malfunction (docs/rules-sheet.md): "
            '`voids_all_pays_and_plays` (the default: "Malfunction voids all pays and plays"), '
            "`under_review` (all wagers are placed under review for further determination) or "
            "`round_void_stakes_returned` (the round in play is void and its stakes returned)",
        ),
        "SheetSectionCode": ValueSet(
            names(SectionCode),
            "A section of a rules sheet, in the order the sheet writes them (docs/rules-sheet.md); "
            "`bet` is one offered bet's, once per bet",
        ),
        "SheetSentenceCode": ValueSet(
            names(LineCode),
            "A sentence of a rules sheet: one code per template, filled with its values "
            "(docs/rules-sheet.md lists each code's sentence)",
        ),
        "ShoeSource": ValueSet(
            ("full", "removed", "counts", "seed"),
            "How the request gave the shoe: in full, less the cards `removed`, by `counts`, or seeded",
            open=False,
        ),
    }
)


def value_of(
    name: str,
    *,
    description: str | None = None,
    example: Any = None,
    checked: bool = True,
    documented_default: str | None = None,
    **kwargs: Any,
) -> fields.Field[Any]:
    """A field taking one value of the set ``name``: checked on load, and
    documented as a reference to the set's component (with the field's own
    description, if any, beside it). With ``checked`` false, the engine checks
    the value instead, where it can say more than "one of" the whole set
    (which of a bet's pay tables it may be); the field bounds its length."""
    value_set = VALUE_SETS[name]
    metadata: dict[str, Any] = {COMPONENT: name}
    if description is not None:
        metadata["description"] = description
    if example is not None:
        metadata["example"] = example
    if documented_default is not None:  # a default the request's scope gives (service/contract/scope.py)
        metadata["default"] = documented_default
    choices: validate.Validator = validate.OneOf(value_set.values)
    if not checked:
        choices = validate.Length(max=max(len(str(value)) for value in value_set.values))
    if isinstance(value_set.values[0], int):
        return fields.Integer(strict=True, validate=choices, metadata=metadata, **kwargs)
    return fields.String(validate=choices, metadata=metadata, **kwargs)
