"""POST /v1/rounds, POST /v1/settlements, GET /v1/rules and /v1/tables."""

import pytest

from service.api.views.rounds import ROUND_EXAMPLES

DESIGN_REQUEST = {
    "cards": ["9S", "KH", "2D", "7C", "5H"],
    "table": "standard",
    "rules": {"decks": 8, "tie_pays": 8},
    "bets": [{"id": "b1", "type": "banker", "amount": "25.00"}, {"type": "tie", "amount": "5"}],
}


def test_the_design_example_round_trip(client):
    response = client.post("/v1/rounds", json=DESIGN_REQUEST)
    assert response.status_code == 200
    body = response.get_json()
    assert body["player"] == {
        "cards": ["9S", "2D", "5H"],
        "total": 6,
        "natural": False,
        "pair": False,
        "perfect_pair": False,
    }
    assert body["banker"]["cards"] == ["KH", "7C"]
    assert body["banker"]["total"] == 7
    assert body["outcome"] == "banker"
    assert body["draws"] == [
        {
            "hand": "player",
            "code": "player_draws_on_0_5",
            "values": {"player_total": 1},
            "reason": "Player's two-card total is 1: the Player draws on 0-5",
            "card": "5H",
        }
    ]
    assert body["stands"][0]["hand"] == "banker"
    assert body["cards_used"] == 5
    assert body["settlement"] == {
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
                "reason": "Banker wins",
            },
            {
                "type": "tie",
                "amount": "5.00",
                "result": "lose",
                "win": "0.00",
                "commission": "0.00",
                "returned": "0.00",
                "code": "no_line_of_its_pay_table_holds",
                "reason": "no line of its pay table holds",
            },
        ],
        "staked": "30.00",
        "returned": "48.75",
        "net": "18.75",
    }
    assert len(body["rules"]["id"]) == 16
    assert body["engine"]["name"] == "baccarat-service"
    assert "seed" not in body


def test_codes_are_canonical_out_and_extra_cards_are_unused(client):
    body = client.post("/v1/rounds", json={"cards": ["9s", "kh", "10d", "7c", "as", "2h"]}).get_json()
    assert body["player"]["cards"] == ["9S", "TD"]
    assert body["banker"]["cards"] == ["KH", "7C"]
    assert body["unused_cards"] == ["AS", "2H"]
    assert "settlement" not in body


def test_json_numbers_are_exact_decimals(client):
    body = client.post(
        "/v1/rounds",
        data='{"cards": ["9S","KH","2D","7C","5H"], "bets": '
        '[{"type": "banker", "amount": 1.10}, {"type": "player", "amount": 3}]}',
        content_type="application/json",
    ).get_json()
    assert [b["win"] for b in body["settlement"]["bets"]] == ["1.04", "0.00"]


def test_a_seed_deals_the_same_round_every_time(client):
    first = client.post("/v1/rounds", json={"seed": "table-7/shoe-1"}).get_json()
    second = client.post(
        "/v1/rounds", json={"seed": "table-7/shoe-1", "bets": [{"type": "player", "amount": "10"}]}
    ).get_json()
    assert first["seed"]["seed"] == "table-7/shoe-1"
    assert first["seed"]["generated"] is False
    assert first["seed"]["algorithm"] == "hmac-sha256-fisher-yates/v1"
    for key in ("player", "banker", "outcome", "draws"):
        assert first[key] == second[key]  # the bets never change the cards
    assert first["seed"]["shoe_hash"] == second["seed"]["shoe_hash"]


def test_without_cards_or_seed_a_fresh_seed_is_drawn_and_replays(client):
    first = client.post("/v1/rounds", json={}).get_json()
    assert first["seed"]["generated"] is True
    assert len(first["seed"]["seed"]) == 64
    replay = client.post("/v1/rounds", json={"seed": first["seed"]["seed"]}).get_json()
    assert replay["player"] == first["player"]
    assert replay["banker"] == first["banker"]
    other = client.post("/v1/rounds", json={}).get_json()
    assert other["seed"]["seed"] != first["seed"]["seed"]


def test_table_and_rule_overrides(client):
    tie = {"cards": ["8S", "8H", "KD", "KC"], "bets": [{"type": "tie", "amount": "5"}]}
    assert client.post("/v1/rounds", json=tie).get_json()["settlement"]["net"] == "40.00"
    nine = client.post("/v1/rounds", json={**tie, "table": "tie_9"}).get_json()
    assert nine["settlement"]["net"] == "45.00"
    assert nine["rules"]["tie_pays"] == 9
    override = client.post("/v1/rounds", json={**tie, "rules": {"tie_pays": 9}}).get_json()
    assert override["settlement"]["net"] == "45.00"
    assert override["rules"]["id"] != nine["rules"]["id"]  # same pays, other limits
    same = client.post("/v1/rounds", json={**tie, "rules": {"tie_pays": 8, "decks": 8}}).get_json()
    assert same["rules"]["id"] == client.post("/v1/rounds", json=tie).get_json()["rules"]["id"]
    limits = client.post("/v1/rounds", json={**tie, "rules": {"limits": {"tie": {"min": "10", "max": "50"}}}})
    assert limits.status_code == 422
    assert limits.get_json()["errors"][0]["pointer"] == "/bets/0/amount"


def test_settlements_many_slips(client):
    slips = [
        {
            "id": f"seat-{i}",
            "bets": [
                {"type": "banker", "amount": "25.00"},
                {"type": "player", "amount": "10"},
                {"type": "tie", "amount": "1"},
            ],
        }
        for i in range(10_000)
    ]
    response = client.post("/v1/settlements", json={"cards": ["9S", "KH", "2D", "7C", "5H"], "slips": slips})
    assert response.status_code == 200
    body = response.get_json()
    assert len(body["slips"]) == 10_000
    assert body["slips"][7]["id"] == "seat-7"
    assert body["slips"][0]["net"] == "12.75"  # +23.75 - 10 - 1
    assert body["totals"] == {
        "slips": 10_000,
        "bets": 30_000,
        "staked": "360000.00",
        "returned": "487500.00",
        "net": "127500.00",
    }
    assert "settlement" not in body


def test_settlements_refuse_every_offending_bet_and_settle_nothing(client):
    slips = [
        {"id": "ok", "bets": [{"type": "banker", "amount": "10"}]},
        {"id": "big", "bets": [{"type": "tie", "amount": "21"}]},
        {"id": "small", "bets": [{"type": "player", "amount": "0.50"}]},
    ]
    response = client.post("/v1/settlements", json={"cards": ["9S", "KH", "2D", "7C", "5H"], "slips": slips})
    assert response.status_code == 422
    assert [e["pointer"] for e in response.get_json()["errors"]] == [
        "/slips/1/bets/0/amount",
        "/slips/2/bets/0/amount",
    ]


def test_rules_endpoint_is_the_tableau(client):
    body = client.get("/v1/rules").get_json()
    assert body["naturals"] == [8, 9]
    assert body["banker"][3]["stands_when_player_third_is"] == [8]
    assert body["banker"][6]["draws_when_player_third_is"] == [6, 7]


def test_tables_endpoint_lists_the_presets(client):
    body = client.get("/v1/tables").get_json()
    assert body["default"] == "standard"
    tables = {t["name"]: t for t in body["tables"]}
    standard = tables["standard"]["rules"]
    assert (standard["decks"], standard["commission"], standard["tie_pays"]) == (8, "0.05", 8)
    assert standard["payout_rounding"] == "down"
    assert standard["limits"]["banker"] == {"min": "1.00", "max": "200.00"}
    assert standard["limits"]["tie"] == {"min": "1.00", "max": "20.00"}
    nine = tables["tie_9"]["rules"]
    assert nine["tie_pays"] == 9
    assert nine["limits"]["player"] == {"min": "5.00", "max": "100.00"}
    assert tables["standard"]["chips"] == ["1", "5", "10", "25", "100"]


@pytest.mark.parametrize("path", ["/livez", "/readyz"])
def test_probes(client, path):
    response = client.get(path)
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok"}


@pytest.mark.parametrize("name", sorted(ROUND_EXAMPLES))
def test_every_documented_example_is_answered(client, name):
    """The OpenAPI examples of POST /v1/rounds work as shown."""
    response = client.post("/v1/rounds", json=ROUND_EXAMPLES[name]["value"])
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["outcome"] in ("banker", "player", "tie")
    if "bets" in ROUND_EXAMPLES[name]["value"]:
        assert body.get("settlement", body.get("multiplier_settlement"))["staked"]
