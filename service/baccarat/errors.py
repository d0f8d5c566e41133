"""Domain errors raised by the rules engine.

The web layer turns each of them into one ``application/problem+json`` answer
(422): the engine never speaks HTTP. Every error carries the list of
offending inputs, each located by a path into the request document::

    BaccaratError
     +-- CardError           a card the shoe cannot hold (too many copies)
     +-- MissingCard         the sequence ended before a card the rules require
     +-- Misdeal             a card dealt to a hand that must not receive it, or after the round
     +-- SeedError           seed inputs that do not fit together
     +-- ShoeError           a shoe that cannot be dealt as asked (cut card, round number)
     +-- BetError            a bet slip that cannot be settled as sent
     +-- RulesError          rule overrides that do not fit together
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Problem:
    """One offending input: where it is in the request, and what is wrong."""

    path: Path
    detail: str

    def within(self, *prefix: str | int) -> Problem:
        """The same problem, located under ``prefix``."""
        return Problem((*prefix, *self.path), self.detail)


class BaccaratError(Exception):
    """Base of every rule the input breaks; ``slug`` names the kind."""

    slug = "invalid-input"
    title = "The request breaks the rules of the game"

    def __init__(self, detail: str, problems: Sequence[Problem] = ()) -> None:
        super().__init__(detail)
        self.detail = detail
        self.problems = tuple(problems)

    def within(self, *prefix: str | int) -> BaccaratError:
        """The same error with every problem located under ``prefix``."""
        return type(self)(self.detail, [p.within(*prefix) for p in self.problems])


class CardError(BaccaratError):
    slug = "invalid-cards"
    title = "The cards cannot come from this shoe"


class MissingCard(BaccaratError):
    slug = "missing-card"
    title = "Too few cards for the draws the rules require"


class Misdeal(BaccaratError):
    slug = "misdeal"
    title = "A card was dealt where the rules do not put it"


class SeedError(BaccaratError):
    slug = "invalid-seed"
    title = "The seed inputs do not fit together"


class ShoeError(BaccaratError):
    slug = "invalid-shoe"
    title = "The shoe cannot be dealt as asked"


class BetError(BaccaratError):
    slug = "invalid-bets"
    title = "The bet slip cannot be settled as sent"


class RulesError(BaccaratError):
    slug = "invalid-rules"
    title = "The rules asked for do not fit together"
