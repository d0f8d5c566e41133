"""The game's own words: every English sentence an answer may hold about the
game, for the ``game`` catalogue (:mod:`.language`).

They are the engine's data, not literals in calls: the tableau's reason
templates (:data:`~service.baccarat.rulebook.tableau.REASON_TEMPLATES`) and its notes,
the sentence of every line of every pay table of the catalogue (``when``),
with the sentence of a bet that no line covers, what each pay table's bet is
on (its ``description``) and what its source's ``note`` says, the table
presets' and the multiplier games' descriptions and their sources' notes,
the few words a pay table's pays are written with (:func:`pays`), and the
roads picture's words (:data:`~.road_pictures.PICTURE_WORDS`). So
``make translations`` extracts them with :func:`extract`, a Babel extractor
(``babel/game.cfg``), and a pay table or a preset added to the engine brings
its sentences to the translators. A source's title is the name of a
document, quoted as published: it is never translated.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import reduce
from typing import Any

from ..baccarat.bets.catalogue import CATALOGUE
from ..baccarat.bets.paytable import NO_LINE, Payout, PayTable, Result, pay_text, win
from ..baccarat.multipliers.presets import PRESETS
from ..baccarat.rulebook.tableau import REASON_TEMPLATES, tableau
from ..baccarat.tables.rules import TABLES
from .language import Language, catalogued
from .road_pictures import PICTURE_WORDS

#: What a pushing line pays, and a losing one (no line loses: a bet no line covers does).
PUSH = "push"
LOSES = "loses"
#: A win less a commission: ``0.95:1 (1:1 less 5% commission)``.
LESS_COMMISSION = "{net} ({odds} less {rate}% commission)"
#: A line of a pay table's pays: ``Banker wins with a total of 6: 1:2``.
LINE_PAYS = "{when}: {pays}"
#: Lines one after the other: ``a tie: push`` after ``Banker wins: 1:1``.
THEN = "{first}; {then}"
PAY_WORDS = (PUSH, LOSES, LESS_COMMISSION, LINE_PAYS, THEN)


def pay(payout: Payout, language: Language) -> str:
    """What ``payout`` pays, in ``language`` (odds are digits in every one).

    >>> from decimal import Decimal
    >>> pay(win(1, Decimal("0.05")), Language.english())
    '0.95:1 (1:1 less 5% commission)'
    """
    if payout.result is Result.PUSH:
        return language.say(PUSH)
    if payout.result is Result.LOSE:
        return language.say(LOSES)
    if not payout.commission:
        return pay_text(payout)
    rate = format((payout.commission * 100).normalize(), "f")
    return language.say(
        LESS_COMMISSION, net=pay_text(win(payout.net)), odds=pay_text(win(payout.odds)), rate=rate
    )


def pays(table: PayTable, language: Language) -> str:
    """A pay table's pays in a few words, in ``language``: the pay of a
    one-line table, else each line with its pay (in English,
    :func:`~service.baccarat.bets.paytable.pays_text`'s words)."""
    if len(table.lines) == 1:
        return pay(table.lines[0].payout, language)
    lines = [
        language.say(LINE_PAYS, when=language.say(line.when), pays=pay(line.payout, language))
        for line in table.lines
    ]
    return reduce(lambda first, then: language.say(THEN, first=first, then=then), lines)


def game_words() -> list[str]:
    """Every sentence of the game, each once, in a stable order: the
    reasons by code and the tableau's notes, the pay lines, bets and sources
    by pay table, the presets, the multiplier games, the pays' words, then
    the roads picture's."""
    words = dict.fromkeys(REASON_TEMPLATES.values())
    notes = tableau()["notes"]
    assert isinstance(notes, list)
    words.update(dict.fromkeys(notes))
    for table in CATALOGUE.values():
        words.update(dict.fromkeys(line.when for line in table.lines))
        words[table.description] = None
        if table.source.note is not None:
            words[table.source.note] = None
    words[NO_LINE.when] = None
    words.update(dict.fromkeys(preset.description for preset in TABLES.values()))
    for game in PRESETS.values():
        words[game.description] = None
        words.update(dict.fromkeys(source.note for source in game.sources if source.note is not None))
    words.update(dict.fromkeys(PAY_WORDS))
    words.update(dict.fromkeys(PICTURE_WORDS))
    return list(words)


def extract(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extractor interface: the game's words as the catalogue holds
    them (:func:`~.language.catalogued`), whatever file it is given (the
    mapping gives it this module)."""
    for number, sentence in enumerate(game_words(), start=1):
        yield number, None, catalogued(sentence), []
