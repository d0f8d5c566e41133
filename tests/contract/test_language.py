"""The seven languages: every message translated with the English
placeholders, ``Accept-Language`` negotiated as RFC 9110 says, and the same
game in every language (only the sentences differ)."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.baccarat.rulebook.tableau import (
    REASON_TEMPLATES,
    ReasonCode,
    banker_draws,
    nobody_draws,
    player_draws,
)
from service.contract.language import DOMAINS, LOCALES, TAGS, Language, Languages, speaking
from tests.strategies import shoe_sequence

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [locale for tag, locale in TAGS.items() if tag != "en"]


@pytest.fixture(scope="module")
def languages() -> Languages:
    return Languages.load()


def placeholders(text: str) -> list[str]:
    """The ``{name}`` fields of a Python format string and the ``%s`` /
    ``%(name)s`` ones of a C or JavaScript one, sorted."""
    braces = [name for _, name, _, _ in string.Formatter().parse(text) if name is not None]
    return sorted([*braces, *re.findall(r"%(?:\([a-z_]+\))?[sd]", text)])


def extracted(domain: str) -> set[str]:
    """The English messages of ``domain`` as ``make translations`` extracts them."""
    with (ROOT / "babel" / f"{domain}.cfg").open(encoding="utf-8") as file:
        method_map, options_map = parse_mapping_cfg(file)
    return {
        message if isinstance(message, str) else message[0]
        for _, _, message, _, _ in extract_from_dir(str(ROOT / "service"), method_map, options_map)
    }


def catalogue(locale: str, domain: str) -> Any:
    with (LOCALES / locale / "LC_MESSAGES" / f"{domain}.po").open("rb") as file:
        return read_po(file, locale=locale)


DOMAINS_WITH_MESSAGES = [domain for domain in DOMAINS if (ROOT / "babel" / f"{domain}.cfg").is_file()]


@pytest.mark.parametrize("domain", DOMAINS_WITH_MESSAGES)
def test_the_template_holds_every_message_the_code_has(domain):
    with (LOCALES / f"{domain}.pot").open("rb") as file:
        template = {message.id for message in read_po(file) if message.id}
    assert template == extracted(domain), "run `make translations`"


@pytest.mark.parametrize("locale", TRANSLATED)
@pytest.mark.parametrize("domain", DOMAINS_WITH_MESSAGES)
def test_every_message_is_translated_with_the_english_placeholders(domain, locale):
    translated = catalogue(locale, domain)
    missing, fuzzy, mismatched = [], [], []
    for english in sorted(extracted(domain)):
        message = translated.get(english)
        if message is None or not message.string:
            missing.append(english)
        elif message.fuzzy:
            fuzzy.append(english)
        elif placeholders(message.string) != placeholders(english):
            mismatched.append((english, message.string))
    assert (missing, fuzzy, mismatched) == ([], [], [])


def test_the_game_catalogue_has_every_reason_in_every_language(languages):
    reasons = [nobody_draws(8, 3), nobody_draws(2, 9)]
    reasons += [player_draws(total)[1] for total in range(8)]
    reasons += [banker_draws(total, third)[1] for total in range(8) for third in (None, *range(10))]
    assert {reason.code for reason in reasons} >= set(REASON_TEMPLATES) - {
        ReasonCode.INITIAL_DEAL,
        ReasonCode.BOTH_HANDS_DREW,
        ReasonCode.PLAYER_HIGHER_TOTAL,
        ReasonCode.BANKER_HIGHER_TOTAL,
        ReasonCode.EQUAL_TOTALS,
    }
    for language in languages.values():
        for reason in reasons:
            sentence = language.reason(reason)
            assert "{" not in sentence
            named = set(placeholders(REASON_TEMPLATES[reason.code])) & set(reason.values)
            assert all(str(reason.values[name]) in sentence for name in named)
            assert (sentence == reason) == (language.tag == "en")


def test_a_catalogue_that_is_not_compiled_stops_the_service(tmp_path):
    with pytest.raises(RuntimeError, match="make translations"):
        Language.load("th", tmp_path)


def without_sentences(answer: Any) -> Any:
    """The answer less its sentences: everything a language may not change."""
    if isinstance(answer, dict):
        return {key: without_sentences(value) for key, value in answer.items() if key != "reason"}
    if isinstance(answer, list):
        return [without_sentences(item) for item in answer]
    return answer


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cards=shoe_sequence(), table=st.sampled_from(["standard", "ez", "no_commission", "tiger"]))
def test_the_same_round_in_every_language(client, cards, table):
    """Codes, values, totals, outcomes and every amount are the same in all
    seven languages; each language writes its own sentences."""
    body = {
        "cards": [card.code for card in cards],
        "table": table,
        "bets": [{"type": "player", "amount": "10.00"}, {"type": "banker", "amount": "25.00"}],
    }
    answers = {}
    for tag in TAGS:
        response = client.post("/v1/rounds", json=body, headers={"Accept-Language": tag})
        assert response.status_code == 200, response.get_json()
        assert response.headers["Content-Language"] == tag
        assert "Accept-Language" in response.headers["Vary"]
        answers[tag] = response.get_json()
    english = answers["en"]
    for tag, answer in answers.items():
        assert without_sentences(answer) == without_sentences(english), tag
        sentences = [
            item["reason"] for item in [*answer["draws"], *answer["stands"], answer["outcome_reason"]]
        ]
        sentences += [bet["reason"] for bet in answer["settlement"]["bets"]]
        if tag != "en":
            originals = [item["reason"] for item in [*english["draws"], *english["stands"]]]
            assert not set(sentences) & set(originals), tag


def test_a_problem_has_the_same_codes_in_every_language(client):
    body = {"cards": ["9S", "KH"], "bets": [{"type": "player", "amount": "10.00"}]}
    problems = {}
    for tag in TAGS:
        response = client.post("/v1/rounds", json=body, headers={"Accept-Language": tag})
        assert response.status_code == 422
        assert response.headers["Content-Language"] == tag
        problems[tag] = response.get_json()
    for problem in problems.values():
        assert (problem["type"], problem["status"]) == (problems["en"]["type"], problems["en"]["status"])
        assert [entry["pointer"] for entry in problem["errors"]] == [
            entry["pointer"] for entry in problems["en"]["errors"]
        ]


def test_the_answer_outside_a_request_is_english(languages):
    with speaking(languages["zh-Hant"]):
        assert "閒" in languages["zh-Hant"].reason(player_draws(3)[1])
    assert (
        Language.english().reason(player_draws(3)[1])
        == "Player's two-card total is 3: the Player draws on 0-5"
    )


def test_the_integration_guide_lists_every_reason_code_with_its_sentence():
    guide = (ROOT / "docs" / "integration.md").read_text(encoding="utf-8")
    for code, template in REASON_TEMPLATES.items():
        assert f"| `{code}` |" in guide, code
        assert template in guide, code


def test_the_integration_guide_renders_the_tableau_and_a_pay_table_from_codes_alone(client, tmp_path):
    """The guide's program ("Reasons in your own words") writes every rule of
    the tableau and every line of a pay table from the codes and values of
    the answers, in any language the answers are written in."""
    guide = (ROOT / "docs" / "integration.md").read_text(encoding="utf-8")
    section = guide.split("## Reasons in your own words", 1)[1].split("\n## ", 1)[0]
    program = re.search(r"```python\n(.*?)```", section, re.DOTALL)
    assert program is not None
    namespace: dict[str, Any] = {}
    code = program.group(1).split("\nwith open(", 1)[0]  # the functions, not the reading of files
    exec(compile(code, "docs/integration.md", "exec"), namespace)
    for tag in ("en", "th"):
        rules = client.get("/v1/rules", headers={"Accept-Language": tag}).get_json()
        lines = namespace["tableau_lines"](rules)
        assert len(lines) == 4 + 4 + 16  # the notes, the naturals, the Player's and the Banker's rows
        assert lines[:2] == ["Dealt Player, Banker, Player, Banker", "Naturals: [8, 9]"]
        assert lines[4:8] == [
            "Player natural 8: nobody draws",
            "Player natural 9: nobody draws",
            "Banker natural 8: nobody draws",
            "Banker natural 9: nobody draws",
        ]
        assert lines[8] == "Player 0: draws"
        assert "8: stands, 9: draws" in lines[8 + 8 + 3]
        presets = client.get("/v1/tables", headers={"Accept-Language": tag}).get_json()["tables"]
        shown = [
            namespace["preset_line"](table) for table in presets if table["name"] in ("standard", "lightning")
        ]
        assert shown == [
            "8 decks, Banker 0.95:1, tie 8:1, bets 1.00-200.00",
            "Lightning: tie 5:1 times the lightning cards, fee 0.2 of the stake",
        ]
        tables = client.get("/v1/paytables", headers={"Accept-Language": tag}).get_json()["pay_tables"]
        dragon = next(table for table in tables if table["id"] == "dragon_bonus_player_30_10_6_4_2_1")
        assert namespace["pay_table_lines"](dragon)[:3] == [
            "Natural win: 1:1",
            "Natural tie: push",
            "Win by 9: 30:1",
        ]
