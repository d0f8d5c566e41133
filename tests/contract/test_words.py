"""The game's words: what the ``game`` catalogue holds."""

from __future__ import annotations

from service.baccarat.bets.catalogue import CATALOGUE
from service.baccarat.bets.paytable import NO_LINE
from service.baccarat.rulebook.tableau import REASON_TEMPLATES
from service.contract.words import extract, game_words


def test_the_game_words_are_every_reason_and_every_pay_line_once():
    words = game_words()
    assert len(words) == len(set(words))
    lines = {line.when for table in CATALOGUE.values() for line in table.lines}
    assert set(words) == {*REASON_TEMPLATES.values(), *lines, NO_LINE.when}


def test_one_sentence_one_code():
    codes: dict[str, str] = {}
    for line in (NO_LINE, *(line for table in CATALOGUE.values() for line in table.lines)):
        assert codes.setdefault(line.code, line.when) == line.when


def test_the_extractor_yields_them_as_babel_reads_them():
    assert [message for _, _, message, _ in extract(None, (), (), {})] == game_words()
