"""The languages answers are written in, and the words they are written with.

The service speaks seven languages (:data:`TAGS`): English, the language its
code and rulebook are written in, and six more from gettext catalogues
(``service/locales/<locale>/LC_MESSAGES/<domain>.po``, compiled to ``.mo``
when the service is built: ``make translations`` extracts and updates them,
docs/glossary.md holds the game's own words in each).

A catalogue writes a per cent sign as ``%%``, gettext's own escape
(:func:`catalogued`): Babel reads ``5% commission`` as holding a
%-placeholder (``% c``) and refuses to compile any translation without it,
though every template here is a ``str.format`` one (``{name}``).

A language only changes words: each reason and problem carries a code and
the values it was made from, and the sentence is that code's template in
the language, filled with the values (numbers are digits in every language,
money is the answer's decimal strings). So codes, numbers, amounts and
outcomes are the same in every language.

The language of the request being answered is a context variable, set by
the web layer for one answer (:func:`speaking`) and English everywhere
else (the command line, the tests, the engine's own messages).

>>> english = Language.english()
>>> with speaking(english):
...     say("Player's two-card total is {player_total}: the Player draws on 0-5", player_total=3)
"Player's two-card total is 3: the Player draws on 0-5"
"""

from __future__ import annotations

import contextlib
import contextvars
import gettext
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from babel import Locale
from babel.core import get_global
from babel.lists import format_list
from babel.support import Translations

from ..baccarat.rulebook.tableau import BANKER_DRAWS_ON, REASON_TEMPLATES, Reason, draws_on

#: The catalogues' home: one folder per locale, one ``.mo`` per domain.
LOCALES = Path(__file__).resolve().parent.parent / "locales"
#: The catalogues' domains: the game's words (reasons, outcomes, bet lines),
#: the problems' titles and details, the table page's words, and the rules
#: sheet's (docs/rules-sheet.md).
DOMAINS = ("game", "problems", "table", "sheet")
#: Each language by its BCP 47 tag (what ``Content-Language`` says), with
#: the Babel locale its catalogue lives under.
TAGS: Mapping[str, str] = MappingProxyType(
    {
        "en": "en",
        "zh-Hans": "zh_Hans",
        "zh-Hant": "zh_Hant",
        "ko": "ko",
        "ja": "ja",
        "th": "th",
        "vi": "vi",
    }
)
ENGLISH = "en"


class MissingCatalogue(RuntimeError):
    """A language's compiled catalogue is not where the service looks for it."""


@dataclass(frozen=True)
class Language:
    """One language the service speaks: its tag, its CLDR locale (for lists
    and numbers) and its catalogues' translations (all domains merged)."""

    tag: str
    locale: Locale
    translations: gettext.NullTranslations
    #: The Banker's draws on 3-6 (``"0-7 or 9"``) as the language lists them,
    #: by the Banker's total: CLDR's list patterns, read once, here.
    draws_on: Mapping[int, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        lists = {total: format_list(draws_on(total), "or", self.locale) for total in BANKER_DRAWS_ON}
        object.__setattr__(self, "draws_on", MappingProxyType(lists))

    @classmethod
    def english(cls) -> Language:
        """English: the templates themselves, no catalogue."""
        return cls(ENGLISH, Locale.parse("en"), gettext.NullTranslations())

    @classmethod
    def load(cls, tag: str, directory: Path = LOCALES) -> Language:
        """The language ``tag`` with its compiled catalogues, read from
        ``directory``; :class:`MissingCatalogue` when one is not there."""
        if tag == ENGLISH:
            return cls.english()
        locale = TAGS[tag]
        merged: Translations | None = None
        for domain in DOMAINS:
            path = directory / locale / "LC_MESSAGES" / f"{domain}.mo"
            if not path.is_file():
                raise MissingCatalogue(f"{path} is missing: `make translations` compiles the catalogues")
            with path.open("rb") as file:
                translations = Translations(file, domain=domain)
            merged = translations if merged is None else merged.merge(translations)
        assert merged is not None
        return cls(tag, Locale.parse(locale), merged)

    def say(self, template: str, **values: Any) -> str:
        """``template`` in this language, filled with ``values``."""
        return self.translate(template).format(**values)

    def translate(self, text: str) -> str:
        """``text`` (English) in this language, as its catalogues hold it
        (itself when they do not hold it).

        >>> Language.english().translate("0.95:1 (1:1 less 5% commission)")
        '0.95:1 (1:1 less 5% commission)'
        """
        return self.translations.gettext(catalogued(text)).replace("%%", "%")

    def reason(self, reason: Reason) -> str:
        """A rule's sentence in this language (English is the sentence itself)."""
        if self.tag == ENGLISH:
            return str(reason)
        template = REASON_TEMPLATES[reason.code]
        if "{draws_on}" in template:
            return self.say(template, **reason.values, draws_on=self.draws_on[reason.values["banker_total"]])
        return self.say(template, **reason.values)


def catalogued(text: str) -> str:
    """``text`` as a catalogue's message: each per cent sign doubled.

    >>> catalogued("5% commission")
    '5%% commission'
    """
    return text.replace("%", "%%")


class Languages(Mapping[str, Language]):
    """Every language the service speaks, by tag, loaded once when the app is built."""

    def __init__(self, languages: Mapping[str, Language]) -> None:
        self._languages = dict(languages)

    @classmethod
    def load(cls, directory: Path = LOCALES) -> Languages:
        return cls({tag: Language.load(tag, directory) for tag in TAGS})

    def __getitem__(self, tag: str) -> Language:
        return self._languages[tag]

    def __iter__(self) -> Iterator[str]:
        return iter(self._languages)

    def __len__(self) -> int:
        return len(self._languages)

    def best_of(self, requested: Iterable[str], offered: Sequence[str]) -> Language:
        """The first language of ``requested`` that is one of ``offered``
        (tags), else the first offered: a table's rules sheet is written in
        the languages the table is offered in.

        >>> languages = Languages({"en": Language.english()})
        >>> languages.best_of(["ko", "en-GB"], ["en"]).tag
        'en'
        """
        for tag in requested:
            spoken = speaks(tag)
            if spoken is not None and spoken in offered:
                return self._languages[spoken]
        return self._languages[offered[0]]

    def best(self, requested: Iterable[str]) -> Language:
        """The first language of ``requested`` (tags in the caller's order of
        preference) that the service speaks, else English."""
        for tag in requested:
            spoken = speaks(tag)
            if spoken is not None:
                return self._languages[spoken]
        return self._languages[ENGLISH]


_LIKELY = get_global("likely_subtags")


def speaks(tag: str) -> str | None:
    """Which of :data:`TAGS` answers a caller asking for ``tag`` (a BCP 47
    language tag), or None. Chinese goes by script: an explicit one
    (``zh-Hant-HK``), else the one CLDR's likely subtags give its region
    (``zh-TW`` and ``zh-HK`` write Traditional, ``zh`` and ``zh-CN``
    Simplified). Any other language by its primary tag (``ko-KR`` is ``ko``).

    >>> speaks("zh-TW"), speaks("zh"), speaks("zh-Hant-CN"), speaks("en-GB"), speaks("fr"), speaks("*")
    ('zh-Hant', 'zh-Hans', 'zh-Hant', 'en', None, None)
    """
    parts = tag.replace("_", "-").split("-")
    language = parts[0].lower()
    if language != "zh":
        return language if language in TAGS else None
    script = next((part.title() for part in parts[1:] if len(part) == 4 and part.isalpha()), None)
    if script is None:
        region = next((part.upper() for part in parts[1:] if len(part) == 2 and part.isalpha()), None)
        likely = _LIKELY.get(f"zh_{region}") or _LIKELY["zh"]
        script = likely.split("_")[1]
    spoken = f"zh-{script}"
    return spoken if spoken in TAGS else None


_current: contextvars.ContextVar[Language | None] = contextvars.ContextVar("language", default=None)
_ENGLISH = Language.english()


def current() -> Language:
    """The language of the answer being written (English outside a request)."""
    return _current.get() or _ENGLISH


@contextlib.contextmanager
def speaking(language: Language) -> Iterator[Language]:
    """Write what is written inside this block in ``language``."""
    token = _current.set(language)
    try:
        yield language
    finally:
        _current.reset(token)


def answer_in(language: Language) -> None:
    """Write the rest of the answer being written in ``language``: within a
    request's :func:`speaking` block, which restores the language it found
    when the answer is done."""
    _current.set(language)


def say(template: str, **values: Any) -> str:
    """``template`` in the current language, filled with ``values``."""
    return current().say(template, **values)
