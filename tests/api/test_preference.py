"""``Prefer: return=minimal`` (RFC 7240) on POST /v1/rounds and POST
/v1/settlements: the header read, the minimal answer's shape and headers,
its signature, its language, and its replay."""

from __future__ import annotations

import json

import pytest

from service.api.preference import return_preference
from service.contract.language import TAGS

ROUND = {
    "cards": ["9S", "KH", "2D", "7C", "5H"],
    "bets": [{"id": "b1", "type": "banker", "amount": "25.00"}, {"type": "tie", "amount": "5"}],
}
SETTLEMENT = {
    "cards": ["9S", "KH", "2D", "7C", "5H"],
    "slips": [
        {"id": "seat-1", "bets": [{"type": "banker", "amount": "25.00"}]},
        {"id": "seat-2", "bets": [{"type": "player", "amount": "10"}, {"type": "tie", "amount": "2.50"}]},
    ],
}
LIGHTNING = {
    "cards": ["2S", "8H", "5D", "KC"],
    "rules": {"multipliers": "lightning"},
    "multiplier_cards": [{"card": "8H", "multiplier": 8}],
    "slips": [{"id": "seat-1", "bets": [{"type": "banker", "amount": "10.00"}]}],
}


@pytest.mark.parametrize(
    ("header", "value"),
    [
        (None, None),
        ("", None),
        ("return=minimal", "minimal"),
        ("Return=Minimal", "minimal"),
        ('return="minimal"', "minimal"),
        ("return = minimal ; foo=bar", "minimal"),
        ("respond-async, return=minimal", "minimal"),
        ("return=representation", "representation"),
        ("return=representation, return=minimal", "representation"),  # the first one counts
        ("return=minimal, return=representation", "minimal"),
        ("wait=10", None),
        ("returns=minimal", None),
        ("handling=lenient", None),
    ],
)
def test_the_return_preference_is_read_as_rfc_7240_says(header, value):
    assert return_preference(header) == value


def post(client, path, body, prefer=None, language=None):
    headers = {} if prefer is None else {"Prefer": prefer}
    if language is not None:
        headers["Accept-Language"] = language
    return client.post(path, data=json.dumps(body), content_type="application/json", headers=headers)


@pytest.mark.parametrize(("path", "body"), [("/v1/rounds", ROUND), ("/v1/settlements", SETTLEMENT)])
@pytest.mark.parametrize("prefer", [None, "return=representation", "wait=5", "return=minimal"])
def test_only_return_minimal_gives_the_minimal_answer_and_every_answer_varies_by_prefer(
    client, path, body, prefer
):
    answer = post(client, path, body, prefer)
    assert answer.status_code == 200
    minimal = prefer == "return=minimal"
    assert answer.headers.get("Preference-Applied") == ("return=minimal" if minimal else None)
    assert answer.headers["Vary"] == "Prefer, Accept-Language"
    assert ("minimal" in answer.get_json()) is minimal
    assert "Signature" in answer.headers


def test_the_minimal_round_holds_codes_and_amounts_no_sentences_no_rules(client):
    full = post(client, "/v1/rounds", ROUND).get_json()
    minimal = post(client, "/v1/rounds", ROUND, "return=minimal").get_json()
    assert minimal == {
        "table": "standard",
        "minimal": True,
        "outcome": "banker",
        "outcome_code": "banker_higher_total",
        "player": {"cards": ["9S", "2D", "5H"], "total": 6},
        "banker": {"cards": ["KH", "7C"], "total": 7},
        "natural": False,
        "cards_used": 5,
        "rules_id": full["rules"]["id"],
        "settlement": {
            "bets": [
                {
                    "id": "b1",
                    "type": "banker",
                    "amount": "25.00",
                    "result": "win",
                    "win": "23.75",
                    "commission": "1.25",
                    "returned": "48.75",
                    "code": "banker_wins",
                },
                {
                    "type": "tie",
                    "amount": "5.00",
                    "result": "lose",
                    "win": "0.00",
                    "commission": "0.00",
                    "returned": "0.00",
                    "code": full["settlement"]["bets"][1]["code"],
                },
            ],
            "staked": "30.00",
            "returned": "48.75",
            "net": "18.75",
        },
        "engine": full["engine"],
    }
    for bet, full_bet in zip(minimal["settlement"]["bets"], full["settlement"]["bets"], strict=True):
        assert bet == {key: value for key, value in full_bet.items() if key != "reason"}


def test_the_minimal_settlement_keeps_every_amount_and_the_totals(client):
    full = post(client, "/v1/settlements", SETTLEMENT).get_json()
    minimal = post(client, "/v1/settlements", SETTLEMENT, "return=minimal").get_json()
    assert minimal["totals"] == full["totals"]
    for slip, full_slip in zip(minimal["slips"], full["slips"], strict=True):
        assert {key: slip[key] for key in ("id", "staked", "returned", "net")} == {
            key: full_slip[key] for key in ("id", "staked", "returned", "net")
        }
        for bet, full_bet in zip(slip["bets"], full_slip["bets"], strict=True):
            assert bet == {key: value for key, value in full_bet.items() if key != "reason"}


def test_a_minimal_multiplier_settlement_gives_each_bet_s_multiplier_not_its_cards(client):
    full = post(client, "/v1/settlements", LIGHTNING).get_json()
    minimal = post(client, "/v1/settlements", LIGHTNING, "return=minimal").get_json()
    assert minimal["multiplier_cards"] == full["multiplier_cards"]
    (bet,) = minimal["multiplier_slips"][0]["bets"]
    (full_bet,) = full["multiplier_slips"][0]["bets"]
    assert bet == {key: value for key, value in full_bet.items() if key not in ("counted", "lit", "reason")}
    assert (bet["multiplier"], bet["returned"]) == (8, "89.50")


@pytest.mark.parametrize(("path", "body"), [("/v1/rounds", ROUND), ("/v1/settlements", SETTLEMENT)])
def test_the_minimal_answer_is_the_same_bytes_in_every_language_and_says_the_language_negotiated(
    client, path, body
):
    """No sentence: the bytes are the same whatever the language; the answer
    still says (and its signature covers) the language negotiated, as every answer does."""
    answers = {tag: post(client, path, body, "return=minimal", tag) for tag in TAGS}
    assert len({answer.get_data() for answer in answers.values()}) == 1
    for tag, answer in answers.items():
        assert answer.headers["Content-Language"] == tag


@pytest.mark.parametrize(
    ("path", "body"), [("/v1/rounds", ROUND), ("/v1/settlements", SETTLEMENT), ("/v1/settlements", LIGHTNING)]
)
@pytest.mark.parametrize("language", ["en", "th"])
def test_a_minimal_answer_is_signed_and_replays_identical(client, path, body, language):
    text = json.dumps(body)
    answer = client.post(
        path,
        data=text,
        content_type="application/json",
        headers={"Prefer": "return=minimal", "Accept-Language": language},
    )
    stored = {
        "request": {"method": "POST", "url": f"http://localhost{path}", "body": text},
        "response": {"status": 200, "headers": dict(answer.headers), "body": answer.get_data(as_text=True)},
    }
    verdict = client.post("/v1/replays", json=stored).get_json()
    assert verdict["signature"]["verified"] is True
    assert verdict["replay"]["identical"] is True, verdict["replay"]
    tampered = json.loads(json.dumps(stored))
    tampered["response"]["body"] = tampered["response"]["body"].replace('"minimal":true,', "")
    verdict = client.post("/v1/replays", json=tampered).get_json()
    assert verdict["signature"]["verified"] is False
    assert verdict["replay"]["identical"] is False


def test_the_live_round_ignores_the_preference(client):
    answer = post(client, "/v1/rounds/live", {"cards": ["9S", "KH", "2D", "7C"]}, "return=minimal")
    assert answer.status_code == 200
    assert "Preference-Applied" not in answer.headers
    assert "minimal" not in answer.get_json()
