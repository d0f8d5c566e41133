"""``Content-Language`` is a claim about every sentence of the answer
(docs/integration.md, "Reasons in your own words"): for every operation of
``openapi.yaml`` and every language, each sentence of the answer is written
in the script of the language it names, and is a sentence of that language's
catalogues (a template filled with values), never English left over.

Every operation is asked with each example its request body documents (and
a problem), so a new operation is checked as soon as it is in the document;
one this module cannot ask fails the test until it is added to ``ASKED``.
"""

from __future__ import annotations

import json
import string
import unicodedata
from collections.abc import Iterator
from functools import cache
from typing import Any
from xml.etree import ElementTree

import pytest
import yaml
from babel.messages.pofile import read_po

from service.api.language import ENGLISH_ONLY
from service.contract.language import LOCALES, TAGS, Languages
from tests.test_openapi import COMMITTED

#: The catalogues an answer's sentences come from (the table page's are its own).
DOMAINS = ("game", "problems", "sheet")
#: Texts an answer quotes, never translates: a source's title (the name of a
#: document, as published) and a replay's differences (JSON text of the two
#: answers compared).
QUOTED = ("/source/title", "/sources/*/title", "/differences/*/stored", "/differences/*/replayed")


def spec() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMMITTED.read_text())
    return loaded


def operations() -> list[tuple[str, str]]:
    return [
        (method, path)
        for path, item in spec()["paths"].items()
        for method in item
        if method in ("get", "post", "put", "patch", "delete")
    ]


def examples(method: str, path: str) -> list[Any]:
    """The request bodies the operation documents, each example once."""
    operation = spec()["paths"][path][method]
    media = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    found = [media["example"]] if "example" in media else []
    return found + [example["value"] for example in media.get("examples", {}).values()]


# --- what a language's catalogues can say ------------------------------------------------


def pieces(template: str) -> list[str]:
    """A template's literal text between its placeholders (one more piece
    than placeholders)."""
    literals = [""]
    for literal, name, _, _ in string.Formatter().parse(template):
        literals[-1] += literal
        if name is not None:
            literals.append("")
    return literals


class Catalogue:
    """The sentences one language can write: each template of its catalogues
    with its placeholders filled by a value (a number, a code, a name: text
    with no space, or a list of them) or by another of its sentences."""

    def __init__(self, templates: set[str], atoms: set[str]) -> None:
        self.templates = [pieces(template) for template in templates]
        self.atoms = atoms

    @cache  # noqa: B019 - one Catalogue per language, for the module's life
    def holds(self, text: str) -> bool:
        return text in self.atoms or any(self._fills(text, parts) for parts in self.templates)

    def _value(self, text: str) -> bool:
        """A placeholder's value: a word with no space, a sentence, or a list of them."""
        if not text:
            return False
        if not any(char.isspace() for char in text) or self.holds(text):
            return True
        items = text.split(", ")
        return len(items) > 1 and all(self._value(item) for item in items)

    def _fills(self, text: str, parts: list[str]) -> bool:
        if not text.startswith(parts[0]):
            return False
        if len(parts) == 1:
            return text == parts[0]
        return self._rest(text[len(parts[0]) :], parts[1:])

    def _rest(self, text: str, parts: list[str]) -> bool:
        """``text`` is a value, then ``parts[0]``, then the rest."""
        literal, rest = parts[0], parts[1:]
        if not rest:
            return text.endswith(literal) and self._value(text[: len(text) - len(literal)])
        if not literal:
            return False  # no template writes two placeholders side by side
        found = text.find(literal, 1)
        while found != -1:
            if self._value(text[:found]) and self._rest(text[found + len(literal) :], rest):
                return True
            found = text.find(literal, found + 1)
        return False


@cache
def catalogue(tag: str) -> Catalogue:
    languages = Languages.load()
    atoms = set(languages[tag].draws_on.values())
    templates: set[str] = set()
    for domain in DOMAINS:
        if tag == "en":
            with (LOCALES / f"{domain}.pot").open("rb") as file:
                templates |= {message.id for message in read_po(file) if message.id}
            continue
        with (LOCALES / TAGS[tag] / "LC_MESSAGES" / f"{domain}.po").open("rb") as file:
            templates |= {message.string for message in read_po(file) if message.id and message.string}
    # A catalogue writes a per cent sign as "%%" (service/contract/language.py).
    return Catalogue({template.replace("%%", "%") for template in templates}, atoms)


@cache
def only_in(tag: str, other: str) -> frozenset[str]:
    """The Han characters the ``tag`` catalogues write and the ``other``
    ones never do: a Simplified sentence holds none of Traditional's."""

    def han(locale: str) -> set[str]:
        chars: set[str] = set()
        for domain in DOMAINS:
            with (LOCALES / locale / "LC_MESSAGES" / f"{domain}.po").open("rb") as file:
                for message in read_po(file):
                    chars |= {char for char in str(message.string) if "CJK" in unicodedata.name(char, "")}
        return chars

    return frozenset(han(TAGS[tag]) - han(TAGS[other]))


def script(char: str) -> str:
    name = unicodedata.name(char, "")
    for script_name in ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "THAI", "LATIN"):
        if name.startswith(script_name) or f" {script_name}" in name:
            return script_name
    return ""


def in_script(tag: str, sentence: str) -> bool:
    """Whether ``sentence`` is written in the script of the language ``tag``."""
    scripts = {script(char) for char in sentence if char.isalpha()}
    latin_marks = any(script(char) == "LATIN" and ord(char) > 0x7F for char in sentence)
    if tag == "en":
        return not latin_marks and scripts <= {"LATIN"}
    if tag in ("zh-Hans", "zh-Hant"):
        other = "zh-Hant" if tag == "zh-Hans" else "zh-Hans"
        return (
            "CJK" in scripts
            and not scripts & {"HIRAGANA", "KATAKANA", "HANGUL", "THAI"}
            and not (set(sentence) & only_in(other, tag))
        )
    wanted = {"ja": {"HIRAGANA", "KATAKANA", "CJK"}, "ko": {"HANGUL"}, "th": {"THAI"}}.get(tag)
    if wanted is not None:
        return bool(scripts & wanted)
    assert tag == "vi"
    return latin_marks and scripts <= {"LATIN"}


# --- the answers ---------------------------------------------------------------------------


def texts(answer: Any, where: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(answer, dict):
        for key, value in answer.items():
            yield from texts(value, f"{where}/{key}")
    elif isinstance(answer, list):
        for item in answer:
            yield from texts(item, f"{where}/*")
    elif isinstance(answer, str):
        yield where, answer


def sentences(answer: Any, request: Any) -> set[str]:
    """The answer's sentences: its texts with a space or a letter beyond
    ASCII in them, less a reason's or a problem's values (data, not words),
    those it quotes (a source's title) and those it echoes from the request
    (an id, a seed)."""
    sent = {text for _, text in texts(request)}
    return {
        text
        for where, text in texts(answer)
        if (any(char.isspace() for char in text) or any(ord(char) > 0x7F and char.isalpha() for char in text))
        and text not in sent
        and "/values/" not in where
        and not any(where.endswith(quoted) for quoted in QUOTED)
    }


def stored(client: Any, tag: str, path: str, body: Any) -> dict[str, Any]:
    """A stored exchange (docs/audit.md) of a signed answer in ``tag``."""
    text = json.dumps(body)
    answer = client.post(path, data=text, content_type="application/json", headers={"Accept-Language": tag})
    assert answer.status_code == 200, answer.get_json()
    return {
        "request": {"method": "POST", "url": f"http://localhost{path}", "body": text},
        "response": {"status": 200, "headers": dict(answer.headers), "body": answer.get_data(as_text=True)},
    }


def replays(client: Any, tag: str) -> list[Any]:
    """Stored exchanges whose verdicts say every reason they can: one that
    holds and replays identically, one altered, one not replayed."""
    played = stored(client, tag, "/v1/rounds", {"cards": ["9S", "KH", "2D", "7C", "5H"]})
    altered = json.loads(json.dumps(played))
    altered["response"]["body"] = altered["response"]["body"].replace('"banker"', '"player"')
    seeds = stored(client, tag, "/v1/seeds", {})
    unsigned = json.loads(json.dumps(played))
    del unsigned["response"]["headers"]["Signature"]
    elsewhere = json.loads(json.dumps(played))
    elsewhere["request"]["body"] = json.dumps({"cards": ["9S", "KH"]})
    return [played, altered, seeds, unsigned, elsewhere]


#: The requests this module asks of an operation beyond its documented
#: examples (each method and path of ``openapi.yaml`` must be here or have one).
ASKED: dict[tuple[str, str], Any] = {
    ("get", "/v1/rules"): [None],
    ("get", "/v1/tables"): [None],
    ("get", "/v1/paytables"): [None, {"decks": "6"}, {"decks": "9"}],
    ("get", "/v1/tables/{table}/rules-sheet"): [None],
    # Peek Baccarat's sheet: its section's sentences, beside the example's plain ones.
    ("post", "/v1/rules-sheets"): [{"table": "peek"}],
    ("get", "/.well-known/jwks.json"): [None],
    ("get", "/livez"): [None],
    ("get", "/readyz"): [None],
    ("get", "/openapi.yaml"): [None],
    ("post", "/v1/replays"): replays,
}
#: A path with variable parts, as this module asks it.
PATHS = {"/v1/tables/{table}/rules-sheet": "/v1/tables/tie_9/rules-sheet"}
#: A body every operation that reads one refuses, for its problem's sentences.
REFUSED = {"cards": "9S", "bets": [{"type": "nothing", "amount": "-1"}], "unknown": True}


def requests_of(client: Any, tag: str, method: str, path: str) -> Iterator[tuple[dict[str, Any], Any]]:
    asked = ASKED.get((method, path), [])
    asked = asked(client, tag) if callable(asked) else asked
    bodies = [*examples(method, path), *asked] if method == "post" else []
    for body in bodies:
        yield {"json": body}, body
    if method == "post":
        yield {"json": REFUSED}, REFUSED
    else:
        for query in asked:
            yield ({} if query is None else {"query_string": query}), query


def test_every_operation_is_asked():
    unasked = [
        (method, path)
        for method, path in operations()
        if not examples(method, path) and (method, path) not in ASKED
    ]
    assert unasked == []


@pytest.mark.parametrize("tag", list(TAGS))
@pytest.mark.parametrize(("method", "path"), operations())
def test_every_sentence_is_in_the_language_content_language_names(client, method, path, tag):
    for request, sent in requests_of(client, tag, method, path):
        answer = getattr(client, method)(PATHS.get(path, path), headers={"Accept-Language": tag}, **request)
        assert answer.status_code < 500, answer.get_data(as_text=True)[:300]
        said = answer.headers["Content-Language"]
        if path in ENGLISH_ONLY:
            assert said == "en", path
            continue
        assert said == tag, (path, request)
        if not answer.is_json:
            continue
        language = catalogue(said)
        wrong = sorted(
            sentence
            for sentence in sentences(answer.get_json(), sent)
            if not (in_script(said, sentence) and language.holds(sentence))
        )
        assert wrong == [], (path, request, wrong[:10], len(wrong))


#: Roads that give every text of the picture: pairs and naturals, ties, an
#: ask road with marks and without, and a whole shoe's.
PICTURED = [
    ("/v1/roads", {"results": ["banker", "player", "tie"]}),
    (
        "/v1/roads",
        {
            "results": [
                {"outcome": "banker", "banker_pair": True, "natural": True},
                "banker",
                "tie",
                "tie",
                "player",
                {"outcome": "player", "player_pair": True},
                "banker",
                "player",
                "player",
                "banker",
            ]
        },
    ),
    ("/v1/roads", {"results": []}),
    ("/v1/shoes", {"seed": "abc", "to_round": 2}),
]


def picture_texts(svg: str) -> list[str]:
    """The words of a roads picture: its titles, descriptions and labels
    (not the marks' letters and counts)."""
    root = ElementTree.fromstring(svg)
    return [
        element.text
        for element in root.iter()
        if element.tag.rsplit("}", 1)[-1] in ("title", "desc", "text")
        and element.text
        and len(element.text) > 1
        and not element.text.isdigit()
    ]


@pytest.mark.parametrize("tag", list(TAGS))
@pytest.mark.parametrize(("path", "body"), PICTURED)
def test_a_roads_picture_is_in_the_language_content_language_names(client, path, body, tag):
    """The picture's titles, labels and text alternatives are sentences of
    the language asked, as the JSON answer's are, and its answer says so."""
    headers = {"Accept-Language": tag}
    picture = client.post(path, json=body, headers={**headers, "Accept": "image/svg+xml"})
    assert picture.mimetype == "image/svg+xml"
    assert picture.headers["Content-Language"] == tag
    texts = picture_texts(picture.get_data(as_text=True))
    assert len(texts) == 2 + 3 * 5  # the document's title and desc; each road's title, desc and label
    language = catalogue(tag)
    wrong = [text for text in texts if not (in_script(tag, text) and language.holds(text))]
    assert wrong == [], (path, tag, wrong)
    assert client.post(path, json=body, headers=headers).headers["Content-Language"] == tag
