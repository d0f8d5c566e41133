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

from ...baccarat.coup import Outcome, Side
from ...baccarat.live import Place
from ...baccarat.money import Rounding
from ...baccarat.paytable import Result
from ...baccarat.roads import Colour
from ...baccarat.tables import SUPER_6_PAYS, TABLES, TIE_PAYS, BetType, Variant

#: The metadata key of a field documented by a component of its own (a value
#: set's, or one written by hand): the component's name.
COMPONENT = "component"

BET_TYPE_DESCRIPTION = """What a bet is on, and what it pays (docs/bets.md has the house edges).

Main bets (player and banker push on a tie):
- `player`: the Player wins, 1:1.
- `banker`: the Banker wins; by the table's `variant`: `standard` 1:1 less the commission \
(0.95:1), `no_commission` 1:1 but 1:2 on a win with 6 (6 v 5), `ez` 1:1 but a push on a win \
with a three-card 7 (A-A-5 v 6).
- `tie`: equal totals, `tie_pays`:1 (8 or 9).

Side bets (pairs by rank on each hand's first two cards, even when it draws a third):
- `player_pair`, `banker_pair`: that hand's first two cards share a rank (5S 5D; 10-J is not \
a pair), 11:1.
- `either_pair`: either hand's first two cards share a rank, 5:1.
- `perfect_pair`: either hand's first two cards share rank and suit (9H 9H), 25:1.
- `dragon_bonus_player`, `dragon_bonus_banker`: that side wins; 1:1 with a natural (9 v 7), \
push on a tie between naturals (8 v 8); without a natural by the margin: 9 points 30:1 \
(9 v 0), 8 10:1, 7 6:1, 6 4:1, 5 2:1, 4 1:1, less loses.
- `dragon_7`: the Banker wins with a three-card 7 (A-A-5 v 6), 40:1.
- `panda_8`: the Player wins with a three-card 8 (2-3-3 v 7), 25:1.
- `big`: 5 or 6 cards are dealt, 0.54:1; `small`: 4 cards are dealt, 1.5:1.
- `super_6`: the Banker wins with a total of 6 (3-3 v 5), `super_6_pays`:1 (12 or 15)."""

VARIANT_DESCRIPTION = (
    "How the banker bet is paid: `standard` (1:1 less `commission`, 0.95:1 at 5%), "
    "`no_commission` (1:1, but a banker win with a total of 6 pays 1:2) or `ez` (EZ Baccarat: "
    "1:1, but a banker win with a three-card 7 pushes). `no_commission` and `ez` take no "
    "commission: their rules say `commission` 0 (docs/bets.md)"
)


@dataclass(frozen=True)
class ValueSet:
    """The values a field may take. A nullable set also takes null: it is a
    set of its own (OpenAPI 3.0 cannot make a reference nullable), titled so
    that generators name its type after it (``Mark | None``)."""

    values: tuple[str, ...] | tuple[int, ...]
    description: str
    nullable: bool = False

    def component(self, name: str) -> dict[str, Any]:
        """The set as an OpenAPI schema."""
        kind = "integer" if isinstance(self.values[0], int) else "string"
        schema: dict[str, Any] = {"type": kind, "enum": [*self.values], "description": self.description}
        if self.nullable:
            schema.update(title=name, enum=[*self.values, None], nullable=True)
        return schema


def names(values: Iterable[str]) -> tuple[str, ...]:
    """The values as plain strings (an engine enum's members are ``StrEnum``)."""
    return tuple(str(value) for value in values)


VALUE_SETS: Mapping[str, ValueSet] = MappingProxyType(
    {
        "Outcome": ValueSet(names(Outcome), "Who won the round, or a tie"),
        "Side": ValueSet(names(Side), "One of the two hands"),
        "Place": ValueSet(
            names(Place),
            "Which card of a round a card is: each hand's first and second cards, dealt Player, "
            "Banker, Player, Banker, then each hand's third card if the tableau calls for it",
        ),
        "BetType": ValueSet(names(BetType), BET_TYPE_DESCRIPTION),
        "BetResult": ValueSet(names(Result), "What a bet does: wins, loses, or pushes (its stake returned)"),
        "TablePreset": ValueSet(
            names(TABLES),
            "A table preset (GET /v1/tables): `standard` (5% commission; pairs, perfect pair, dragon "
            "bonus, big, small), `tie_9` (tie 9:1), `no_commission` (banker 6 pays 1:2; pairs, "
            "super 6) or `ez` (EZ Baccarat; dragon 7, panda 8)",
        ),
        "Variant": ValueSet(names(Variant), VARIANT_DESCRIPTION),
        "PayoutRounding": ValueSet(
            names(Rounding),
            "How a payout with more digits than the minor unit is rounded: `down` (the house's "
            "favour), `half_up`, `half_even` or `up`",
        ),
        "TiePays": ValueSet(TIE_PAYS, "The tie pays this many to 1"),
        "Super6Pays": ValueSet(SUPER_6_PAYS, "Super 6 pays this many to 1"),
        "Action": ValueSet(("draw", "stand"), "Whether a hand draws a third card or stands"),
        "Colour": ValueSet(names(Colour), "A mark of a derived road"),
        "Mark": ValueSet(names(Colour), "The mark a derived road would add, or null for none", nullable=True),
        "ShoeSource": ValueSet(
            ("full", "removed", "counts", "seed"),
            "How the request gave the shoe: in full, less the cards `removed`, by `counts`, or seeded",
        ),
    }
)


def value_of(
    name: str, *, description: str | None = None, example: Any = None, **kwargs: Any
) -> fields.Field[Any]:
    """A field taking one value of the set ``name``: checked on load, and
    documented as a reference to the set's component (with the field's own
    description, if any, beside it)."""
    value_set = VALUE_SETS[name]
    metadata: dict[str, Any] = {COMPONENT: name}
    if description is not None:
        metadata["description"] = description
    if example is not None:
        metadata["example"] = example
    choices = validate.OneOf(value_set.values)
    if isinstance(value_set.values[0], int):
        return fields.Integer(strict=True, validate=choices, metadata=metadata, **kwargs)
    return fields.String(validate=choices, metadata=metadata, **kwargs)
