"""Variants and side bets over HTTP: the presets in GET /v1/tables, slips with
side bets on each variant (the README's examples), and the 422s."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.api.views.rounds import ROUND_EXAMPLES
from service.app import create_app
from service.baccarat.bets.catalogue import pay_tables_of
from service.baccarat.bets.types import BetType
from service.baccarat.tables.rules import TABLES

# The README's examples, also the OpenAPI examples of POST /v1/rounds: a
# slip with side bets on each variant.
STANDARD_SLIP = ROUND_EXAMPLES["standard_side_bets"]["value"]
NO_COMMISSION_SLIP = ROUND_EXAMPLES["no_commission"]["value"]
EZ_SLIP = ROUND_EXAMPLES["ez"]["value"]


@pytest.mark.parametrize(
    ("body", "wins", "results", "totals"),
    [
        # P 2-2 drew 4 = 8 beats B K-K drew 10 = 0 by 8, six cards dealt.
        (
            STANDARD_SLIP,
            ["10.00", "55.00", "25.00", "50.00", "5.40", "0.00"],
            ["win", "win", "win", "win", "win", "lose"],
            ("40.00", "180.40", "140.40"),
        ),
        # B 3-3 = 6 beats P 2-3 drew K = 5: no-commission banker pays 1:2.
        (
            NO_COMMISSION_SLIP,
            ["10.00", "60.00", "55.00", "0.00"],
            ["win", "win", "win", "lose"],
            ("35.00", "155.00", "120.00"),
        ),
        # B A-A drew 5 = 7 beats P 6: EZ pushes the banker bet, Dragon 7 pays 40:1.
        (EZ_SLIP, ["0.00", "200.00", "0.00"], ["push", "win", "lose"], ("35.00", "230.00", "195.00")),
    ],
    ids=["standard", "no_commission", "ez"],
)
def test_a_slip_with_side_bets_on_each_variant(client, body, wins, results, totals):
    response = client.post("/v1/rounds", json=body)
    assert response.status_code == 200
    settlement = response.get_json()["settlement"]
    assert [bet["win"] for bet in settlement["bets"]] == wins
    assert [bet["result"] for bet in settlement["bets"]] == results
    assert all(bet["commission"] == "0.00" for bet in settlement["bets"])
    assert (settlement["staked"], settlement["returned"], settlement["net"]) == totals


def test_settlements_take_side_bets_too(client):
    slips = [{"id": f"seat-{i}", "bets": EZ_SLIP["bets"]} for i in range(3)]
    response = client.post("/v1/settlements", json={"cards": EZ_SLIP["cards"], "table": "ez", "slips": slips})
    assert response.status_code == 200
    body = response.get_json()
    assert [slip["net"] for slip in body["slips"]] == ["195.00"] * 3
    assert body["totals"]["net"] == "585.00"


def test_tables_list_every_preset_with_its_variant_and_pay_tables(client):
    body = client.get("/v1/tables").get_json()
    tables = {table["name"]: table for table in body["tables"]}
    assert set(tables) == set(TABLES)
    assert {name: table["rules"]["variant"] for name, table in tables.items()} == {
        "standard": "standard",
        "tie_9": "standard",
        "no_commission": "no_commission",
        "ez": "ez",
        "tiger": "no_commission",
        "peek": "standard",
        "lightning": "standard",
        "golden_wealth": "standard",
        "prosperity_tree": "standard",
    }
    for table in tables.values():
        assert [bet["type"] for bet in table["bets"]] == list(table["rules"]["limits"])
        for bet in table["bets"]:
            assert table["rules"]["limits"][bet["type"]] == {"min": bet["min"], "max": bet["max"]}
    ez_banker = next(bet for bet in tables["ez"]["bets"] if bet["type"] == "banker")
    assert ez_banker["pays"][0] == {
        "when": "Banker wins with a three-card 7",
        "code": "banker_wins_with_a_three_card_7",
        "result": "push",
        "odds": "0",
        "commission": "0",
    }
    dragon = next(bet for bet in tables["standard"]["bets"] if bet["type"] == "dragon_bonus_player")
    assert [line["odds"] for line in dragon["pays"]] == ["1", "0", "30", "10", "6", "4", "2", "1"]
    assert tables["no_commission"]["rules"]["commission"] == "0"


@pytest.mark.parametrize(
    ("overrides", "bet", "win"),
    [({"super_6_pays": 15}, "super_6", "75.00"), ({"tie_pays": 9}, "tie", "45.00")],
)
def test_pays_a_request_may_choose(client, overrides, bet, win):
    cards = NO_COMMISSION_SLIP["cards"] if bet == "super_6" else ["3S", "3H", "3D", "3C"]
    body = {
        "cards": cards,
        "table": "no_commission",
        "rules": overrides,
        "bets": [{"type": bet, "amount": "5"}],
    }
    answer = client.post("/v1/rounds", json=body).get_json()
    assert answer["settlement"]["bets"][0]["win"] == win
    assert all(answer["rules"][key] == value for key, value in overrides.items())


@pytest.mark.parametrize(
    ("body", "pointer", "words"),
    [
        ({"bets": [{"type": "dragon_7", "amount": "5"}]}, "/bets/0/type", "does not offer 'dragon_7'"),
        ({"table": "ez", "bets": [{"type": "super_6", "amount": "5"}]}, "/bets/0/type", "'super_6'"),
        ({"bets": [{"type": "dragon_8", "amount": "5"}]}, "/bets/0/type", "Must be one of"),
        ({"rules": {"super_6_pays": 13}}, "/rules/super_6_pays", "12, 15"),
        ({"rules": {"variant": "mini"}}, "/rules/variant", "standard, no_commission, ez"),
        ({"rules": {"variant": "ez"}}, "/rules/variant", "send commission 0 with variant ez"),
        ({"table": "ez", "rules": {"commission": "0.05"}}, "/rules/commission", "only to the standard"),
        (
            {"table": "ez", "bets": [{"type": "dragon_7", "amount": "5.01"}]},
            "/bets/0/amount",
            "maximum of 5.00",
        ),
    ],
)
def test_what_a_table_does_not_take_is_a_422_naming_it(client, body, pointer, words):
    response = client.post("/v1/rounds", json={"cards": EZ_SLIP["cards"], **body})
    assert response.status_code == 422
    assert response.mimetype == "application/problem+json"
    [error] = response.get_json()["errors"]
    assert error["pointer"] == pointer
    assert words in error["detail"]


def test_a_variant_override_with_no_commission_is_played(client):
    body = {**EZ_SLIP, "table": "standard", "rules": {"variant": "ez", "commission": "0"}}
    body["bets"] = [EZ_SLIP["bets"][0]]
    answer = client.post("/v1/rounds", json=body).get_json()
    assert answer["rules"]["variant"] == "ez"
    assert answer["settlement"]["bets"][0]["result"] == "push"


# --- a table built from any choice of the catalogue's pay tables ---------------------

CLIENT = create_app({"TESTING": True}).test_client()  # one app for every generated table
CARDS = ["9S", "KH", "2D", "7C", "5H"]
choices = st.fixed_dictionaries(
    {str(bet): st.sampled_from([str(table.id) for table in pay_tables_of(bet)]) for bet in BetType}
)


def offering_every_bet(choice: dict[str, str]) -> dict[str, object]:
    """Rules that offer every bet type, each at the chosen pay table (a banker
    pay table other than the commission one takes no commission)."""
    return {
        "pay_tables": choice,
        "limits": {bet: {"min": "1", "max": "100"} for bet in choice},
        "commission": "0.05" if choice["banker"] == "banker_commission" else "0",
    }


@settings(max_examples=25, deadline=None)
@given(choice=choices)
def test_a_table_of_any_catalogue_choice_settles_every_bet_and_has_exact_odds_on_a_depleted_shoe(choice):
    rules = offering_every_bet(choice)
    bets = [{"type": bet, "amount": "10"} for bet in choice]
    round_ = CLIENT.post("/v1/rounds", json={"cards": CARDS, "rules": rules, "bets": bets})
    assert round_.status_code == 200, round_.get_json()
    answer = round_.get_json()
    assert answer["rules"]["pay_tables"] == choice
    assert [bet["type"] for bet in answer["settlement"]["bets"]] == list(choice)
    odds = CLIENT.post("/v1/odds", json={"removed": CARDS, "rules": rules})
    assert odds.status_code == 200, odds.get_json()
    figures = odds.get_json()["bets"]
    assert {bet: figures[bet]["pay_table"] for bet in figures} == choice
    assert odds.get_json()["shoe"] == {**odds.get_json()["shoe"], "source": "removed", "cards": 411}


@pytest.mark.parametrize(
    ("pay_tables", "pointer", "says"),
    [
        (
            {"player_pair": "pair_13_to_1"},
            "/rules/pay_tables/player_pair",
            "is not a pay table of the player_pair bet",
        ),
        ({"banker": "tie_8_to_1"}, "/rules/pay_tables/banker", "is not a pay table of the banker bet"),
    ],
)
@pytest.mark.parametrize("path", ["/v1/rounds", "/v1/odds"])
def test_an_unknown_pay_table_for_an_offered_bet_is_a_422_naming_it(client, path, pay_tables, pointer, says):
    body = {"rules": {"pay_tables": pay_tables}, **({"cards": CARDS} if path == "/v1/rounds" else {})}
    answer = client.post(path, json=body)
    assert answer.status_code == 422
    [error] = answer.get_json()["errors"]
    assert error["pointer"] == pointer
    assert says in error["detail"]


def studio_cards(name: str) -> list[dict[str, object]]:
    """As many multiplier cards as the game draws, 8H lit by its largest multiplier."""
    rule = TABLES[name].rules.multipliers
    assert rule is not None
    count, most = max(rule.cards), max(rule.multipliers)
    others = ["AS", "2C", "3D", "4H", "5S", "6C", "7D"][: count - 1]
    return [{"card": "8H", "multiplier": most}] + [{"card": card, "multiplier": 2} for card in others]


#: Each operation that takes a ``table``, asked of a multiplier game by its
#: rule at the standard table: the same body with ``"table": NAME`` instead.
BY_RULE = [
    (
        "/v1/rounds",
        {
            "cards": ["2S", "8H", "5D", "KC"],
            "bets": [{"type": "banker", "amount": "10.00"}, {"type": "tie", "amount": "5.00"}],
        },
    ),
    ("/v1/rounds", {"seed": "table-7/game-9", "bets": [{"type": "player_pair", "amount": "5.00"}]}),
    (
        "/v1/rounds/live",
        {
            "cards": ["2S", "8H", "5D"],
            "bets": [{"type": "banker", "amount": "10.00"}],
        },
    ),
    (
        "/v1/settlements",
        {
            "seed": "table-7/game-10",
            "slips": [
                {"id": "seat-1", "bets": [{"type": "banker", "amount": "10.00"}]},
                {"id": "seat-2", "bets": [{"type": "tie", "amount": "5.00"}]},
            ],
        },
    ),
    ("/v1/shoes", {"seed": "table-7/shoe-3", "to_round": 3, "bets": [{"type": "banker", "amount": "10.00"}]}),
    ("/v1/odds", {}),
    ("/v1/odds", {"removed": ["9S", "KH", "2D"]}),
]


@pytest.mark.parametrize("name", ["lightning", "golden_wealth", "prosperity_tree"])
@pytest.mark.parametrize(
    ("path", "body"), BY_RULE, ids=[f"{path} {i}" for i, (path, _) in enumerate(BY_RULE)]
)
def test_a_multiplier_table_answers_as_its_rule_at_the_standard_table(client, name, path, body):
    if "cards" in body:
        body = {**body, "multiplier_cards": studio_cards(name)}
    at_table = client.post(path, json={**body, "table": name})
    by_rule = client.post(path, json={**body, "rules": {"multipliers": name}})
    assert at_table.status_code == by_rule.status_code == 200, at_table.get_json()
    answered, ruled = at_table.get_json(), by_rule.get_json()
    # The same answer but for the table each signed answer names.
    named = (answered.pop("table", None), ruled.pop("table", None))
    assert named == ((None, None) if path == "/v1/odds" else (name, "standard"))
    assert answered == ruled
    assert answered["rules"]["id"] == TABLES[name].rules.id
    assert answered["rules"]["multipliers"]["id"] == TABLES[name].rules.multipliers.id


@pytest.mark.parametrize("name", ["lightning", "golden_wealth", "prosperity_tree"])
def test_a_multiplier_table_is_listed_with_its_bets_fee_limits_and_rule(client, name):
    table = next(table for table in client.get("/v1/tables").get_json()["tables"] if table["name"] == name)
    rule = table["rules"]["multipliers"]
    assert [bet["type"] for bet in table["bets"]] == ["player", "banker", "tie", "player_pair", "banker_pair"]
    assert rule["fee"] == {
        "rate": "0.2",
        "bets": ["player", "banker", "tie", "player_pair", "banker_pair"],
        "returned_on_push": False,
    }
    assert set(rule["pays"]) == {bet["type"] for bet in table["bets"]}
    assert table["rules"]["limits"]["tie"] == {"min": "1.00", "max": "20.00"}
    assert table["rules"]["id"] == TABLES[name].rules.id


def test_peek_is_not_played_at_a_multiplier_table(client):
    body = {"cards": ["9S", "KH", "2D", "7C", "5H"], "shown": ["banker_first"], "table": "lightning"}
    answer = client.post("/v1/rounds/peek", json=body)
    assert answer.status_code == 422
    assert [error["pointer"] for error in answer.get_json()["errors"]] == ["/table"]


#: Each operation that plays the plain game or a multiplier game, with a body it plays.
NOT_PEEK = [
    ("/v1/rounds", {"cards": ["9S", "KH", "2D", "7C", "5H"]}),
    ("/v1/rounds", {"seed": "table-7/game-9"}),
    ("/v1/rounds/live", {"cards": ["9S", "KH", "2D"]}),
    (
        "/v1/settlements",
        {"seed": "table-7/game-10", "slips": [{"id": "s", "bets": [{"type": "tie", "amount": "5"}]}]},
    ),
    ("/v1/shoes", {"seed": "table-7/shoe-3", "to_round": 1}),
    ("/v1/odds", {}),
]


@pytest.mark.parametrize(
    ("path", "body"), NOT_PEEK, ids=[f"{path} {i}" for i, (path, _) in enumerate(NOT_PEEK)]
)
def test_the_peek_table_is_played_by_peek_alone(client, path, body):
    """Another operation would play the peek table's rounds without its fee
    and choices: it refuses the table, naming those it plays at."""
    answer = client.post(path, json={**body, "table": "peek"})
    assert answer.status_code == 422
    (error,) = [error for error in answer.get_json()["errors"] if error["pointer"] == "/table"]
    assert error["code"] == "not_one_of"
    assert "peek" not in error["values"]["choices"].split(", ")
    assert "standard" in error["values"]["choices"].split(", ")
    assert client.post(path, json=body).status_code == 200


PEEK_BODIES = [
    {
        "cards": ["9S", "KH", "2D", "7C", "5H"],
        "shown": ["banker_first"],
        "bets": [{"type": "banker", "amount": "5"}],
    },
    {
        "cards": ["9S", "KH", "2D", "7C", "5H"],
        "shown": ["banker_first"],
        "bets": [{"type": "banker", "amount": "5"}, {"type": "player_pair", "amount": "5"}],
        "decision": {"banker": "triple"},
    },
    {
        "seed": "table-7/peek-1",
        "bets": [{"type": "player", "amount": "10"}],
        "decision": {"player": "double"},
    },
]


@pytest.mark.parametrize("body", PEEK_BODIES)
def test_a_peek_round_at_the_peek_table_is_the_peek_round_of_the_standard_table(client, body):
    """The peek table is the standard table's main bets and pairs at its
    limits: a peek round there is answered as at the standard table, but
    for the rules (its own id, fewer bets offered)."""
    at_peek = client.post("/v1/rounds/peek", json={**body, "table": "peek"})
    at_standard = client.post("/v1/rounds/peek", json=body)
    assert at_peek.status_code == at_standard.status_code == 200, at_peek.get_json()
    peeked, standard_ = at_peek.get_json(), at_standard.get_json()
    assert peeked.pop("rules")["id"] == TABLES["peek"].rules.id
    standard_.pop("rules")
    assert (peeked.pop("table"), standard_.pop("table")) == ("peek", "standard")
    assert peeked == standard_


def test_the_peek_table_is_listed_with_its_fee_and_choices(client):
    table = next(table for table in client.get("/v1/tables").get_json()["tables"] if table["name"] == "peek")
    assert table["peek"] == {
        "fee": "0.2",
        "fee_bets": ["player", "banker"],
        "choices": {"keep": 1, "double": 2, "triple": 3},
    }
    assert [bet["type"] for bet in table["bets"]] == ["player", "banker", "tie", "player_pair", "banker_pair"]
    assert table["description_values"]["fee"] == "0.2"
    assert "multipliers" not in table["rules"]
