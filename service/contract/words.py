"""The game's own words: every English sentence an answer may hold about a
round, for the ``game`` catalogue (:mod:`.language`).

They are the engine's data, not literals in calls: the tableau's reason
templates (:data:`~service.baccarat.rulebook.tableau.REASON_TEMPLATES`) and the
sentence of every line of every pay table of the catalogue (``when``), with
the sentence of a bet that no line covers. So ``make translations`` extracts
them with :func:`extract`, a Babel extractor (``babel/game.cfg``), and a
pay table added to the catalogue brings its sentences to the translators.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..baccarat.bets.catalogue import CATALOGUE
from ..baccarat.bets.paytable import NO_LINE
from ..baccarat.rulebook.tableau import REASON_TEMPLATES


def game_words() -> list[str]:
    """Every sentence of the game, each once, in a stable order: the
    reasons by code, then the pay lines by pay table."""
    words = dict.fromkeys(REASON_TEMPLATES.values())
    for table in CATALOGUE.values():
        words.update(dict.fromkeys(line.when for line in table.lines))
    words[NO_LINE.when] = None
    return list(words)


def extract(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel's extractor interface: the game's words, whatever file it is given
    (the mapping gives it this module)."""
    for number, sentence in enumerate(game_words(), start=1):
        yield number, None, sentence, []
