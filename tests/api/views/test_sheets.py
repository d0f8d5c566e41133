"""POST /v1/rules-sheets and GET /v1/tables/{table}/rules-sheet: the sheet as
JSON, HTML or Markdown by ``Accept``, in the language asked, signed, and
replayed in the form and language it was written in."""

from __future__ import annotations

import json
import re

import pytest

from service.baccarat.tables.rules import TABLES
from service.contract.language import TAGS

PATH = "/v1/rules-sheets"
FORMS = [
    ("application/json", "application/json"),
    ("text/html", "text/html"),
    ("text/markdown", "text/markdown"),
]


@pytest.mark.parametrize(
    ("accept", "media"), [*FORMS, (None, "application/json"), ("*/*", "application/json")]
)
def test_the_sheet_comes_in_the_form_accept_asks(client, accept, media):
    headers = {} if accept is None else {"Accept": accept}
    answer = client.post(PATH, json={"table": "tie_9"}, headers=headers)
    assert answer.status_code == 200
    assert answer.mimetype == media
    assert answer.headers["Vary"] == "Accept, Accept-Language"
    assert "Signature" in answer.headers


def test_an_accept_that_names_none_of_its_forms_is_refused(client):
    for answer in (
        client.post(PATH, json={}, headers={"Accept": "image/png"}),
        client.get("/v1/tables/standard/rules-sheet", headers={"Accept": "application/pdf"}),
    ):
        assert answer.status_code == 406
        assert answer.mimetype == "application/problem+json"
        assert "text/html" in answer.get_json()["detail"]


def test_an_unknown_preset_is_not_found(client):
    answer = client.get("/v1/tables/roulette/rules-sheet")
    assert answer.status_code == 404
    assert answer.mimetype == "application/problem+json"


@pytest.mark.parametrize("name", list(TABLES))
def test_every_preset_s_sheet_is_the_one_posting_it_writes(client, name):
    got = client.get(f"/v1/tables/{name}/rules-sheet")
    posted = client.post(PATH, json={"table": name})
    assert got.status_code == posted.status_code == 200
    assert got.get_json() == posted.get_json()
    assert got.get_json()["rules"]["id"] == TABLES[name].rules.id
    assert got.get_json()["dealing"] == str(TABLES[name].dealing)


@pytest.mark.parametrize("name", list(TABLES))
@pytest.mark.parametrize(("accept", "media"), FORMS)
def test_every_preset_has_a_sheet_in_every_form_and_language(client, name, accept, media):
    """GET /v1/tables lists it, so its sheet is there: never a 500, whatever
    the request schema takes."""
    assert name in [table["name"] for table in client.get("/v1/tables").get_json()["tables"]]
    for tag in TAGS:
        answer = client.get(
            f"/v1/tables/{name}/rules-sheet", headers={"Accept": accept, "Accept-Language": tag}
        )
        assert answer.status_code == 200, (tag, answer.get_data(as_text=True)[:300])
        assert answer.mimetype == media
        assert answer.headers["Content-Language"] == tag


def sections_of(sheet: dict, code: str) -> list[dict]:
    return [section for section in sheet["sections"] if section["code"] == code]


def test_the_peek_table_s_sheet_is_peek_baccarat_s(client):
    sheet = client.post(PATH, json={"table": "peek"}).get_json()
    plain = client.post(PATH, json={"table": "standard"}).get_json()
    [peek] = sections_of(sheet, "peek")
    assert peek["values"]["fee"] == "20%"
    assert peek["values"]["fee_bets"] == "player, banker"
    assert peek["values"]["choices"] == "keep: 1, double: 2, triple: 3"
    codes = [line["code"] for line in peek["sentences"]]
    for code in (
        "peek_fee",
        "peek_shown",
        "peek_choice",
        "peek_maximum",
        "peek_raise_no_fee",
        "peek_return_best",
    ):
        assert code in codes
    player = next(section for section in sheet["sections"] if section["values"].get("bet") == "player")
    assert player["values"]["rtp"] == peek["values"]["rtp_player"]
    assert player["values"]["rtp_kept"] == peek["values"]["rtp_kept_player"]
    [method] = sections_of(sheet, "return_to_player")
    assert method["values"]["method"] == "exact_enumeration_peek"
    assert sheet["id"] != plain["id"]
    assert sections_of(plain, "peek") == []


def test_the_peek_table_s_choices_are_limited_by_the_maximum_asked(client):
    body = {"table": "peek", "rules": {"limits": {"player": {"min": "1", "max": "90"}}}}
    sheet = client.post(PATH, json=body).get_json()
    [peek] = sections_of(sheet, "peek")
    limits = [line["values"] for line in peek["sentences"] if line["code"] == "peek_maximum"]
    assert {"bet": "player", "max": "90.00"} in limits


def test_a_sheet_takes_a_round_s_rules_and_the_table_s_chips_dealing_and_clause(client):
    body = {
        "table": "standard",
        "rules": {"tie_pays": 9, "limits": {"tie": {"min": "5", "max": "50"}}},
        "chips": ["5", "25", "100"],
        "dealing": "reshuffle_each_hand",
        "malfunction": "under_review",
    }
    sheet = client.post(PATH, json=body).get_json()
    assert sheet["chips"] == ["5.00", "25.00", "100.00"]
    assert (sheet["dealing"], sheet["malfunction"]) == ("reshuffle_each_hand", "under_review")
    sentences = {line["code"]: line for section in sheet["sections"] for line in section["sentences"]}
    assert sentences["malfunction"]["values"] == {"clause": "under_review"}
    assert sentences["reshuffled"]["sentence"] == "The cards are reshuffled after each hand"
    tie = next(section for section in sheet["sections"] if section["values"].get("bet") == "tie")
    assert tie["values"]["min"] == "5.00"
    assert tie["values"]["max"] == "50.00"
    assert tie["values"]["rtp"] == "95.16"
    assert tie["sentences"][0]["values"] == {"when": "the_totals_are_equal", "odds": "9:1"}


def test_a_multiplier_game_s_sheet_states_its_fee_ranges_and_returns(client):
    sheet = client.post(PATH, json={"rules": {"multipliers": "lightning"}}).get_json()
    player = next(section for section in sheet["sections"] if section["values"].get("bet") == "player")
    codes = [line["code"] for line in player["sentences"]]
    assert "multiplied" in codes
    assert "fee" in codes
    assert sheet["rules"]["multipliers"]["id"]
    method = next(section for section in sheet["sections"] if section["code"] == "return_to_player")
    assert method["values"]["method"] == "exact_enumeration_per_cost"


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"table": "ez", "rules": {"commission": "0.05"}}, "/rules/commission"),
        ({"chips": ["0.001"]}, "/chips/0"),
        ({"malfunction": "free text"}, "/malfunction"),
        ({"rules": {"multipliers": "lightning", "tie_pays": 9}}, "/rules/tie_pays"),
        ({"table": "peek", "rules": {"variant": "ez"}}, "/rules/variant"),
        ({"table": "peek", "rules": {"multipliers": "lightning"}}, "/rules/multipliers"),
        (
            {"table": "peek", "rules": {"pay_tables": {"banker": "banker_no_commission"}}},
            "/rules/pay_tables/banker",
        ),
    ],
)
def test_rules_a_round_refuses_a_sheet_refuses_the_same_way(client, body, pointer):
    answer = client.post(PATH, json=body)
    assert answer.status_code == 422
    assert [error["pointer"] for error in answer.get_json()["errors"]] == [pointer]


def figures(sheet: dict) -> list:
    """Everything but the words: codes and values, section by section."""
    return [
        (
            section["code"],
            section["values"],
            [(line["code"], line["values"]) for line in section["sentences"]],
        )
        for section in sheet["sections"]
    ] + [sheet["id"], sheet["chips"], sheet["chart"], sheet["rules"]]


@pytest.mark.parametrize(
    "body",
    [{"table": "standard"}, {"table": "ez"}, {"rules": {"multipliers": "golden_wealth"}}, {"table": "peek"}],
)
def test_every_language_s_sheet_carries_the_english_figures(client, body):
    english = client.post(PATH, json=body).get_json()
    for tag in TAGS:
        answer = client.post(PATH, json=body, headers={"Accept-Language": tag})
        assert answer.headers["Content-Language"] == tag
        sheet = answer.get_json()
        assert figures(sheet) == figures(english), tag
        if tag != "en":
            assert sheet["title"] != english["title"]


def test_every_language_s_page_shows_every_figure_and_the_same_chart(client):
    """Only the words differ: each figure a sentence is filled with (other than
    the game's words) is on every language's page, and the chart's cells are
    the same cells."""
    sheet = client.post(PATH, json={"table": "ez"}).get_json()
    wanted = {
        str(value)
        for section in sheet["sections"]
        for line in section["sentences"]
        for name, value in line["values"].items()
        if name not in ("when", "bet", "clause", "rounding")
    }
    for tag in TAGS:
        page = client.post(
            PATH, json={"table": "ez"}, headers={"Accept": "text/html", "Accept-Language": tag}
        ).get_data(as_text=True)
        assert [value for value in sorted(wanted) if value not in page] == [], tag
        assert re.findall(r'<td class="(draw|stand)">', page) == [
            action for row in sheet["chart"]["rows"] for action in (row["player_stood"], *row["player_drew"])
        ]


def stored(client, path: str, body: dict, headers: dict[str, str]) -> dict:
    text = json.dumps(body)
    answer = client.post(path, data=text, content_type="application/json", headers=headers)
    assert answer.status_code == 200
    return {
        "request": {"method": "POST", "url": f"http://localhost{path}", "body": text},
        "response": {"status": 200, "headers": dict(answer.headers), "body": answer.get_data(as_text=True)},
    }


@pytest.mark.parametrize(("accept", "_"), FORMS)
@pytest.mark.parametrize("tag", ["en", "th"])
@pytest.mark.parametrize("table", ["tie_9", "peek"])
def test_a_stored_sheet_replays_identically_in_its_form_and_language(client, accept, _, tag, table):
    exchange = stored(client, PATH, {"table": table}, {"Accept": accept, "Accept-Language": tag})
    verdict = client.post("/v1/replays", json=exchange).get_json()
    assert verdict["signature"]["verified"], verdict
    assert verdict["replay"]["identical"] is True, verdict


def test_an_altered_sheet_does_not_replay_identically(client):
    exchange = stored(client, PATH, {"table": "tie_9"}, {"Accept": "text/html"})
    exchange["response"]["body"] = exchange["response"]["body"].replace("9:1", "10:1")
    verdict = client.post("/v1/replays", json=exchange).get_json()
    assert verdict["signature"]["verified"] is False
    assert verdict["replay"]["identical"] is False


@pytest.mark.parametrize(
    ("chips", "pointers"),
    [
        (["1", "1", "5"], ["/chips/1"]),
        (["5", "1"], ["/chips/1"]),
        (["1", "5", "2", "2"], ["/chips/2", "/chips/3"]),
    ],
)
def test_chips_are_each_given_once_smallest_first(client, chips, pointers):
    answer = client.post(PATH, json={"chips": chips})
    assert answer.status_code == 422
    errors = answer.get_json()["errors"]
    assert [error["pointer"] for error in errors] == pointers
    assert {error["code"] for error in errors} == {"chip_not_above_previous"}


def test_chips_are_read_as_every_amount_of_the_contract_is(client):
    """A chip is an amount like a bet's: a decimal string or a plain JSON
    number read as that exact decimal; the same number with an exponent, or
    a value that is no number, is refused at its index with the code a
    bet's amount gets."""
    as_text = client.post(PATH, json={"chips": ["1", "5", "25.5"]}).get_json()
    raw = '{"chips": [1, 5, 25.5]}'
    as_numbers = client.post(PATH, data=raw, content_type="application/json").get_json()
    assert as_numbers["chips"] == as_text["chips"] == ["1.00", "5.00", "25.50"]
    assert as_numbers["id"] == as_text["id"]
    for chip, code in (("2.5E+1", "amount_with_exponent"), ("true", "amount_not_a_string")):
        sheet = client.post(PATH, data=f'{{"chips": [1, {chip}]}}', content_type="application/json")
        bet = client.post(
            "/v1/rounds",
            data=f'{{"seed": "s", "bets": [{{"type": "player", "amount": {chip}}}]}}',
            content_type="application/json",
        )
        assert sheet.status_code == bet.status_code == 422
        assert [(e["code"], e["pointer"]) for e in sheet.get_json()["errors"]] == [(code, "/chips/1")]
        assert [e["code"] for e in bet.get_json()["errors"]] == [code]
