"""A table's rules are checked once (``resolve_rules`` ends in ``check_rules``):
every operation that deals, settles, prices or describes a round refuses the
same rules with the same status, code and pointer, and accepts the same rules.
Peek Baccarat adds its fee wherever it is played: at a plain table it also
refuses the limits whose fee is not whole, as its own table does."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from service.baccarat.peek.round import PEEK
from service.baccarat.rulebook.errors import ProblemCode, RulesError
from service.baccarat.tables.rules import (
    PEEK_FEE_BETS,
    PEEK_FEE_RATE,
    TABLES,
    can_win,
    check_rules,
    resolve_rules,
)
from service.cli import main

SEED = {"server_seed": "a" * 64, "client_seed": "c", "nonce": 1}
SLIP = [{"id": "a", "bets": [{"type": "player", "amount": "10"}]}]


def bodies(table: str, rules: dict[str, Any]) -> dict[str, tuple[str, dict[str, Any]]]:
    """Each operation's request at ``table`` with ``rules``, all else plainly valid."""
    at = {"table": table, "rules": rules}
    return {
        "rounds": ("/v1/rounds", {**at, **SEED}),
        "settlements": ("/v1/settlements", {**at, **SEED, "slips": SLIP}),
        "live": ("/v1/rounds/live", {**at, "cards": ["9S"]}),
        "shoes": ("/v1/shoes", {**at, **SEED}),
        "peek": ("/v1/rounds/peek", {**at, **SEED}),
        "odds": ("/v1/odds", at),
        "sheets": ("/v1/rules-sheets", at),
    }


OPERATIONS = tuple(bodies("standard", {}))

#: Rules no table may have, each with the code and pointer every operation answers.
BAD_RULES = {
    "cut card past half a deck": ({"decks": 1, "cut_card": 30}, "cut_card_out_of_range", "/rules/cut_card"),
    "limit finer than the unit": (
        {"minor_unit": 0, "limits": {"tie": {"min": "1.50", "max": "20"}}},
        "limit_finer_than_minor_unit",
        "/rules/limits/tie/min",
    ),
    "commission with ez": (
        {"variant": "ez", "commission": "0.05"},
        "commission_with_variant",
        "/rules/commission",
    ),
    "pay table of another bet": (
        {"pay_tables": {"player": "tie_8_to_1"}},
        "pay_table_not_of_bet",
        "/rules/pay_tables/player",
    ),
    "perfect pair at one deck": (
        {"decks": 1, "limits": {"perfect_pair": {"min": "1.00", "max": "10.00"}}},
        "bet_cannot_win",
        "/rules/limits/perfect_pair",
    ),
    "perfect pair's pay table at one deck": (
        {"decks": 1, "pay_tables": {"perfect_pair": "perfect_pair_25_or_200"}},
        "bet_cannot_win",
        "/rules/pay_tables/perfect_pair",
    ),
}


def refusal(answer: Any) -> tuple[int, list[tuple[str, str]]]:
    body = answer.get_json()
    return answer.status_code, [(error["code"], error["pointer"]) for error in body.get("errors", [])]


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize("case", BAD_RULES)
def test_every_operation_refuses_bad_rules_with_the_same_code_at_the_same_pointer(client, operation, case):
    rules, code, pointer = BAD_RULES[case]
    path, body = bodies("standard", rules)[operation]
    assert refusal(client.post(path, json=body)) == (422, [(code, pointer)])


@pytest.mark.parametrize("case", BAD_RULES)
def test_certify_refuses_bad_rules_as_the_service_does(case, tmp_path, capsys):
    rules, code, pointer = BAD_RULES[case]
    path = tmp_path / "rules.json"
    path.write_text(json.dumps({"table": "standard", "rules": rules}))
    out = tmp_path / "out"
    args = [
        "certify",
        "--rules",
        str(path),
        "--rounds",
        "300",
        "--seed",
        "s",
        "--in-process",
        "--out",
        str(out),
    ]
    assert main(args) == 3
    problem = json.loads(capsys.readouterr().err)
    assert [(error["code"], error["pointer"]) for error in problem["errors"]] == [(code, pointer)]
    assert not Path(out).exists()


#: At Peek Baccarat's table, only the peek round and the sheet play: both refuse
#: an override of the Player and Banker pays its fee and returns are priced at.
PEEK_FIXED = {
    "commission": ({"commission": "0.1"}, "/rules/commission"),
    "variant": ({"variant": "ez"}, "/rules/variant"),
    "multipliers": ({"multipliers": "lightning"}, "/rules/multipliers"),
    "banker's pay table": ({"pay_tables": {"banker": "banker_no_commission"}}, "/rules/pay_tables/banker"),
}


@pytest.mark.parametrize("operation", ["peek", "sheets"])
@pytest.mark.parametrize("case", PEEK_FIXED)
def test_the_peek_table_s_operations_refuse_its_pays_changed_alike(client, operation, case):
    rules, pointer = PEEK_FIXED[case]
    path, body = bodies("peek", rules)[operation]
    assert refusal(client.post(path, json=body)) == (422, [("peek_pays_fixed", pointer)])


#: At Peek Baccarat's table, a minimum whose 20% fee is not a whole number of
#: minor units (the money rule, as at a multiplier table): refused alike.
PEEK_FEE_FINER = {
    "whole units": (
        {"minor_unit": 0},
        [("fee_finer_than_minor_unit", "/rules/minor_unit")] * 2,
    ),
    "a minimum of 1.01": (
        {"limits": {"player": {"min": "1.01", "max": "200.00"}}},
        [("fee_finer_than_minor_unit", "/rules/limits/player/min")],
    ),
    "a maximum of 200.01": (
        {"limits": {"banker": {"min": "1.00", "max": "200.01"}}},
        [("fee_finer_than_minor_unit", "/rules/limits/banker/max")],
    ),
}


@pytest.mark.parametrize("operation", ["peek", "sheets"])
@pytest.mark.parametrize("case", PEEK_FEE_FINER)
def test_the_peek_table_s_operations_refuse_a_minimum_whose_fee_is_finer_than_the_unit(
    client, operation, case
):
    rules, problems = PEEK_FEE_FINER[case]
    path, body = bodies("peek", rules)[operation]
    assert refusal(client.post(path, json=body)) == (422, problems)


#: The tables of the plain game: Peek Baccarat may be played at each.
PLAIN_TABLES = [name for name, table in TABLES.items() if not table.peek and table.rules.multipliers is None]


@pytest.mark.parametrize("table", PLAIN_TABLES)
@pytest.mark.parametrize("case", ["a minimum of 1.01", "a maximum of 200.01"])
def test_peek_at_a_plain_table_refuses_a_limit_whose_fee_is_finer_than_the_unit_as_at_its_own(
    client, table, case
):
    """The fee is the game's: peek refuses the rules at the same pointers with
    the same code wherever it is played, never one stake after another; the
    plain game, which takes no fee, plays them."""
    rules, problems = PEEK_FEE_FINER[case]
    path, body = bodies(table, rules)["peek"]
    answer = client.post(path, json=body)
    assert refusal(answer) == (422, problems)
    assert answer.mimetype == "application/problem+json"
    with_bet = {**body, "bets": [{"type": "player", "amount": "5.00"}]}
    assert refusal(client.post(path, json=with_bet)) == (422, problems)
    path, body = bodies(table, rules)["rounds"]
    assert client.post(path, json=body).status_code == 200


def test_peek_at_a_whole_unit_currency_s_plain_table_refuses_its_rules_not_its_stakes(client):
    """At the EZ table in a currency of whole units the plain game pays every
    minimum (no commission, no fee); peek's 20% of a minimum of 1 is 0.2."""
    rules, problems = PEEK_FEE_FINER["whole units"]
    for operation in OPERATIONS:
        path, body = bodies("ez", rules)[operation]
        expected = (422, problems) if operation == "peek" else (200, [])
        assert (
            refusal(
                client.post(
                    path,
                    json={**body, "bets": [{"type": "player", "amount": "1"}]}
                    if operation == "peek"
                    else body,
                )
            )
            == expected
        )
    # A minimum whose fee is whole (tie_9 starts at 5: a fee of 1) is played.
    path, body = bodies("tie_9", rules)["peek"]
    assert client.post(path, json={**body, "bets": [{"type": "banker", "amount": "5"}]}).status_code == 200


@pytest.mark.parametrize("table", [name for name in PLAIN_TABLES if name != "tie_9"])
def test_peek_at_a_plain_table_is_checked_once_in_the_engine(table):
    with pytest.raises(RulesError) as refused:
        resolve_rules(table, {"minor_unit": 0}, peek=True)
    fees = [
        (p.code, p.path) for p in refused.value.problems if p.code is ProblemCode.FEE_FINER_THAN_MINOR_UNIT
    ]
    assert fees == [(ProblemCode.FEE_FINER_THAN_MINOR_UNIT, ("rules", "minor_unit"))] * 2
    with pytest.raises(RulesError) as at_peek:
        resolve_rules("peek", {"minor_unit": 0})
    assert fees == [(p.code, p.path) for p in at_peek.value.problems]
    assert resolve_rules(table, peek=True) is TABLES[table].rules


def test_a_catalogue_s_plain_table_whose_minimum_fee_is_finer_is_refused_for_peek_at_the_table():
    odd = replace(TABLES["ez"], rules=replace(TABLES["ez"].rules, minor_unit=0))
    check_rules(odd, odd.rules, {})  # the plain game plays it
    with pytest.raises(RulesError) as refused:
        resolve_rules("ez", tables={"ez": odd}, peek=True)
    assert {(problem.code, problem.path) for problem in refused.value.problems} == {
        (ProblemCode.FEE_FINER_THAN_MINOR_UNIT, ("table",))
    }


@pytest.mark.parametrize("operation", [name for name in OPERATIONS if name != "peek"])
def test_a_multiplier_table_s_maximum_whose_fee_is_finer_than_the_unit_is_refused_alike(client, operation):
    """The sheet's "to 200.01" would not hold: a stake of 200.01 pays a fee of 40.002."""
    path, body = bodies("lightning", {"limits": {"tie": {"min": "1.00", "max": "20.01"}}})[operation]
    assert refusal(client.post(path, json=body)) == (
        422,
        [("fee_finer_than_minor_unit", "/rules/limits/tie/max")],
    )


def test_the_peek_table_takes_a_minimum_whose_fee_is_whole(client):
    rules = {
        "minor_unit": 0,
        "limits": {"player": {"min": "5", "max": "200"}, "banker": {"min": "20", "max": "200"}},
    }
    for operation in ("peek", "sheets"):
        path, body = bodies("peek", rules)[operation]
        assert client.post(path, json=body).status_code == 200


def test_the_peek_game_s_fee_is_the_one_its_table_is_checked_at():
    assert PEEK.fee_rate == PEEK_FEE_RATE
    assert PEEK.fee_bets == frozenset(PEEK_FEE_BETS)


@pytest.mark.parametrize("operation", OPERATIONS)
def test_rules_one_operation_takes_every_operation_takes(client, operation):
    path, body = bodies("standard", {"decks": 1, "cut_card": 26, "minor_unit": 3, "commission": "0.04"})[
        operation
    ]
    assert client.post(path, json=body).status_code == 200


def test_every_preset_holds_the_check():
    for table in TABLES.values():
        check_rules(table, table.rules, {})


def test_a_bet_no_round_can_win_is_not_offered_where_the_preset_offers_it():
    one_deck = resolve_rules("standard", {"decks": 1})
    assert "perfect_pair" not in one_deck.bet_types
    assert all(can_win(one_deck, bet) for bet in one_deck.bet_types)
    assert "perfect_pair" in resolve_rules("standard", {"decks": 2}).bet_types


def test_a_bet_no_round_can_win_is_refused_where_the_request_offers_it():
    with pytest.raises(RulesError) as refused:
        resolve_rules("standard", {"decks": 1, "pay_tables": {"perfect_pair": "perfect_pair_25_to_1"}})
    assert [problem.code for problem in refused.value.problems] == [ProblemCode.BET_CANNOT_WIN]


# --- dealing: what the sheet says of the shoe, every operation that deals holds to --------------


@pytest.mark.parametrize("operation", ["rounds", "settlements", "peek", "odds"])
def test_a_table_that_reshuffles_after_each_hand_deals_no_shoe_s_round(client, operation):
    path, body = bodies("tie_9", {})[operation]
    if operation == "odds":
        body = {**body, **SEED}
    assert refusal(client.post(path, json={**body, "round": 3})) == (422, [("dealt_each_hand", "/round")])
    assert client.post(path, json=body).status_code == 200


@pytest.mark.parametrize(
    ("table", "rules", "pointer"),
    [("tie_9", {}, "/table"), ("standard", {"dealing": "reshuffle_each_hand"}, "/rules/dealing")],
)
def test_a_table_that_reshuffles_after_each_hand_deals_no_whole_shoe(client, table, rules, pointer):
    path, body = bodies(table, rules)["shoes"]
    assert refusal(client.post(path, json=body)) == (422, [("dealt_each_hand", pointer)])


def test_a_table_dealt_from_a_shoe_by_its_rules_deals_one_and_its_sheet_says_so(client):
    path, body = bodies("tie_9", {"dealing": "shoe"})["shoes"]
    assert client.post(path, json=body).status_code == 200
    sheet = client.post("/v1/rules-sheets", json={"table": "tie_9", "rules": {"dealing": "shoe"}}).get_json()
    shoe = next(section for section in sheet["sections"] if section["code"] == "shoe")
    assert shoe["values"]["dealing"] == "shoe"
    assert "cut_card" in shoe["values"]
    assert "dealing" not in sheet["rules"]


def test_the_sheet_s_dealing_is_the_rules_dealing(client):
    sheet = client.post("/v1/rules-sheets", json={"table": "tie_9"}).get_json()
    assert sheet["dealing"] == sheet["rules"]["dealing"] == "reshuffle_each_hand"
    by_field = client.post("/v1/rules-sheets", json={"table": "tie_9", "dealing": "shoe"}).get_json()
    by_rules = client.post(
        "/v1/rules-sheets", json={"table": "tie_9", "rules": {"dealing": "shoe"}}
    ).get_json()
    assert by_field == by_rules
    both = {"table": "tie_9", "dealing": "shoe", "rules": {"dealing": "reshuffle_each_hand"}}
    assert refusal(client.post("/v1/rules-sheets", json=both)) == (422, [("not_one_of", "/dealing")])


def test_a_reshuffled_hand_is_dealt_from_the_top_of_a_fresh_shoe(client):
    """No burn: the hand's first card is the shuffled shoe's first card."""
    answer = client.post("/v1/rounds", json={"table": "tie_9", **SEED}).get_json()
    shoe = client.post("/v1/shoes", json={"rules": {"decks": 8}, **SEED, "include_shoe": True}).get_json()
    first_four = [answer["player"]["cards"][0], answer["banker"]["cards"][0]]
    first_four += [answer["player"]["cards"][1], answer["banker"]["cards"][1]]
    assert first_four == shoe["shoe"][:4]


# --- GET /v1/tables names the game and the operations each table is taken by ---------------------

OPERATION_IDS = {
    "rounds": "playRound",
    "settlements": "settleSlips",
    "live": "dealLiveRound",
    "shoes": "dealShoe",
    "peek": "playPeekRound",
    "odds": "getOdds",
    "sheets": "writeRulesSheet",
}


def test_each_table_names_its_game_and_the_operations_that_take_it(client):
    """A program routes by ``operations`` alone: each operation listed takes the
    table, each one not listed refuses it at ``/table``."""
    for table in client.get("/v1/tables").get_json()["tables"]:
        name = table["name"]
        assert table["game"] == {True: "peek"}.get(
            name == "peek", "multipliers" if "multipliers" in table["rules"] else "punto_banco"
        )
        for operation, (path, body) in bodies(name, {}).items():
            if operation == "live" and table["game"] == "multipliers":
                body = {**body, "multiplier_cards": [{"card": "8H", "multiplier": 8}]}
            answer = client.post(path, json=body)
            refused_at_table = answer.status_code == 422 and any(
                error["pointer"] == "/table" for error in answer.get_json()["errors"]
            )
            listed = OPERATION_IDS[operation] in table["operations"]
            assert refused_at_table is not listed, (name, operation, answer.get_json())
