"""An operator's own multiplier rule over HTTP (docs/multipliers.md): sent
as an object in ``rules.multipliers``, played, answered with its canonical
form and id, its exact returns on POST /v1/odds, and every field the engine
refuses a 422 at its pointer with its code."""

from decimal import Decimal
from fractions import Fraction

import pytest

from service.baccarat.bets.types import BetType
from service.baccarat.multipliers.odds import multiplier_returns
from service.baccarat.multipliers.rule import Counted, Fee, MultipliedPay, MultiplierRule

#: Three or four multiplier cards of x2 (weight 10), x5 (3) or x10 (1); a 20% fee on the tie.
RULE = {
    "cards": {"3": 1, "4": 1},
    "multipliers": {"2": 10, "5": 3, "10": 1},
    "pays": {
        "player": {"pays": "1", "counted": "winning_hand"},
        "banker": {"pays": "1", "counted": "winning_hand", "stake_kept": "0.05"},
        "tie": {"pays": "5", "counted": "all_cards"},
    },
    "fee": {"rate": "0.2", "bets": ["tie"], "returned_on_push": True},
    "cap": "100000",
}
ENGINE_RULE = MultiplierRule(
    cards={3: 1, 4: 1},
    multipliers={2: 10, 5: 3, 10: 1},
    pays={
        BetType.PLAYER: MultipliedPay(pays=Decimal(1), counted=Counted.WINNING_HAND),
        BetType.BANKER: MultipliedPay(
            pays=Decimal(1), counted=Counted.WINNING_HAND, stake_kept=Decimal("0.05")
        ),
        BetType.TIE: MultipliedPay(pays=Decimal(5), counted=Counted.ALL_CARDS),
    },
    fee=Fee(rate=Decimal("0.2"), bets=(BetType.TIE,), returned_on_push=True),
    cap=Decimal(100000),
)


def test_an_operator_s_rule_is_played_and_answered_with_its_canonical_form_and_id(client):
    body = {"server_seed": "abc", "rules": {"multipliers": RULE}, "bets": [{"type": "tie", "amount": "10"}]}
    answer = client.post("/v1/rounds", json=body).get_json()
    assert answer["rules"]["multipliers"] == {"id": ENGINE_RULE.id, **ENGINE_RULE.canonical}
    assert len(answer["multiplier_cards"]) in (3, 4)
    assert {lit["multiplier"] for lit in answer["multiplier_cards"]} <= {2, 5, 10}
    (tie,) = answer["multiplier_settlement"]["bets"]
    assert tie["fee"] == "2.00"
    assert sorted(answer["rules"]["limits"]) == ["banker", "player", "tie"]


def test_weights_with_a_common_divisor_are_the_same_rule(client):
    doubled = {**RULE, "multipliers": {"2": 20, "5": 6, "10": 2}}
    answer = client.post(
        "/v1/rounds", json={"server_seed": "abc", "rules": {"multipliers": doubled}}
    ).get_json()
    assert answer["rules"]["multipliers"]["id"] == ENGINE_RULE.id


def test_a_fixed_count_of_cards_is_one_count_with_any_weight(client):
    fixed = {**RULE, "cards": {"5": 7}}
    answer = client.post(
        "/v1/rounds", json={"server_seed": "abc", "rules": {"multipliers": fixed}}
    ).get_json()
    assert answer["rules"]["multipliers"]["cards"] == {"5": 1}
    assert len(answer["multiplier_cards"]) == 5


def test_the_odds_of_an_operator_s_rule_are_the_engine_s_exact_returns(client):
    answer = client.post("/v1/odds", json={"rules": {"multipliers": RULE}}).get_json()
    engine = multiplier_returns(ENGINE_RULE)
    lines = {line["bet"]: line for line in answer["multiplier_returns"]}
    assert list(lines) == ["player", "banker", "tie"]
    for bet, returned in engine.bets.items():
        assert Fraction(lines[str(bet)]["exact_rtp"]) == returned.rtp
    assert lines["tie"]["cost"] == "1.2"


@pytest.mark.parametrize(
    ("change", "pointer", "code"),
    [
        ({"cards": {"53": 1}}, "/rules/multipliers/cards/53", "multiplier_card_count_out_of_range"),
        ({"cards": {}}, "/rules/multipliers/cards", "multiplier_weights_missing"),
        ({"multipliers": {"1001": 1}}, "/rules/multipliers/multipliers/1001", "multiplier_out_of_range"),
        ({"multipliers": {"2": -1}}, "/rules/multipliers/multipliers/2", "multiplier_weight_not_whole"),
        ({"multipliers": {"2": 2**32}, "cards": {"1": 1}}, None, None),
        (
            {"multipliers": {"2": 2**32, "3": 1}},
            "/rules/multipliers/multipliers",
            "multiplier_weights_too_heavy",
        ),
        ({"pays": {}}, "/rules/multipliers/pays", "multiplier_no_bet_paid"),
        (
            {"pays": {"big": {"pays": "1", "counted": "none"}}},
            "/rules/multipliers/pays/big",
            "multiplier_bet_not_multiplied",
        ),
        (
            {"pays": {"tie": {"pays": "10001", "counted": "all_cards"}}},
            "/rules/multipliers/pays/tie/pays",
            "multiplier_base_pay_out_of_range",
        ),
        (
            {"pays": {"tie": {"pays": "5", "counted": "winning_hand"}}},
            "/rules/multipliers/pays/tie/counted",
            "multiplier_counted_not_allowed",
        ),
        (
            {"pays": {"player": {"pays": "1", "counted": "none", "stake_kept": "-0.1"}}},
            "/rules/multipliers/pays/player/stake_kept",
            "multiplier_stake_kept_out_of_range",
        ),
        (
            {"pays": {"banker": {"pays": "0.01", "counted": "none", "stake_kept": "0.05"}}},
            "/rules/multipliers/pays/banker/stake_kept",
            "multiplier_win_below_nothing",
        ),
        (
            {"fee": {"rate": "1.5", "bets": []}},
            "/rules/multipliers/fee/rate",
            "multiplier_fee_rate_out_of_range",
        ),
        (
            {"fee": {"rate": "0.1", "bets": ["tie", "player_pair"]}},
            "/rules/multipliers/fee/bets/1",
            "multiplier_fee_on_bet_not_paid",
        ),
        ({"cap": "0"}, "/rules/multipliers/cap", "multiplier_cap_not_positive"),
        ({"cap": "10.005"}, "/rules/multipliers/cap", "multiplier_cap_finer_than_minor_unit"),
    ],
)
@pytest.mark.parametrize("language", ["en", "zh-Hans", "zh-Hant", "ko", "ja", "th", "vi"])
def test_each_field_the_engine_refuses_is_a_422_at_its_pointer_with_its_code(
    client, change, pointer, code, language
):
    feeless = {
        **RULE,
        "fee": {"rate": "0.2", "bets": []},
    }  # so that a change of pays charges no fee on a bet it drops
    body = {"server_seed": "abc", "rules": {"multipliers": {**feeless, **change}}}
    answer = client.post("/v1/rounds", json=body, headers={"Accept-Language": language})
    if code is None:  # 2**32 alone is a weight the rule may have
        assert answer.status_code == 200
        return
    assert answer.status_code == 422
    problem = answer.get_json()
    assert problem["type"] == "urn:baccarat:problem:invalid-rules"
    assert [(entry["pointer"], entry["code"]) for entry in problem["errors"]] == [(pointer, code)]
    (entry,) = problem["errors"]
    assert "{" not in entry["detail"]
    assert answer.headers["Content-Language"] == language


def test_a_name_that_is_no_preset_is_refused_by_the_schema(client):
    answer = client.post("/v1/rounds", json={"server_seed": "abc", "rules": {"multipliers": "thunder"}})
    assert answer.status_code == 422
    assert [(e["pointer"], e["code"]) for e in answer.get_json()["errors"]] == [
        ("/rules/multipliers", "not_one_of")
    ]


def test_a_rule_returning_more_than_it_costs_is_answered_with_a_warning(client):
    """The rule above charges no fee on the Player and Banker: each returns
    about 117% of what it costs, which POST /v1/odds says with a code."""
    odds = client.post("/v1/odds", json={"rules": {"multipliers": RULE}}).get_json()
    returns = {line["bet"]: line["rtp"] for line in odds["multiplier_returns"]}
    over = [(warning["code"], warning["bet"], warning["rtp"]) for warning in odds["warnings"]]
    assert over == [("return_over_cost", bet, returns[bet]) for bet in ("player", "banker")]
    assert all(float(returns[bet]) > 1 for bet in ("player", "banker"))
    for preset in ("lightning", "golden_wealth", "prosperity_tree"):
        assert client.post("/v1/odds", json={"rules": {"multipliers": preset}}).get_json()["warnings"] == []
    assert "warnings" not in client.post("/v1/odds", json={}).get_json()
