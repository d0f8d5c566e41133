"""The game's words: what the ``game`` catalogue holds."""

from __future__ import annotations

from service.baccarat.bets.catalogue import CATALOGUE
from service.baccarat.bets.paytable import NO_LINE, pays_text
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.rulebook.tableau import REASON_TEMPLATES, tableau
from service.baccarat.tables.rules import TABLES
from service.contract.language import Language
from service.contract.road_pictures import PICTURE_WORDS
from service.contract.words import PAY_WORDS, extract, game_words, pays


def test_the_game_words_are_every_sentence_of_the_game_once():
    """The reasons and the tableau's notes, each pay line, what each bet is
    on and each source's note, the presets and the multiplier games, the
    words of the pays and the roads picture's; never a source's title (a name)."""
    words = game_words()
    assert len(words) == len(set(words))
    lines = {line.when for table in CATALOGUE.values() for line in table.lines}
    bets = {table.description for table in CATALOGUE.values()}
    notes = {table.source.note for table in CATALOGUE.values()} - {None}
    games = {game.description for game in PRESETS.values()}
    games |= {source.note for game in PRESETS.values() for source in game.sources} - {None}
    presets = {table.description for table in TABLES.values()}
    rules = set(tableau()["notes"])  # type: ignore[call-overload]
    expected = {*REASON_TEMPLATES.values(), *rules, *lines, NO_LINE.when, *bets, *notes, *games, *presets}
    assert set(words) == expected | set(PAY_WORDS) | set(PICTURE_WORDS)
    titles = {table.source.title for table in CATALOGUE.values()}
    assert not titles & set(words)


def test_the_pays_in_english_are_the_engine_s_words():
    for table in CATALOGUE.values():
        assert pays(table, Language.english()) == pays_text(table), table.id


def test_one_sentence_one_code():
    codes: dict[str, str] = {}
    for line in (NO_LINE, *(line for table in CATALOGUE.values() for line in table.lines)):
        assert codes.setdefault(line.code, line.when) == line.when


def test_the_extractor_yields_them_as_babel_reads_them():
    extracted = [message for _, _, message, _ in extract(None, (), (), {})]
    assert extracted == [word.replace("%", "%%") for word in game_words()]
