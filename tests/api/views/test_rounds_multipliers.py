"""Multiplier rounds over HTTP (docs/multipliers.md): a rule chosen by
``rules.multipliers``, its multiplier cards drawn from the seed inputs or
given by a studio, every bet's multiplier and fee in the answer, and the 422s."""

from fractions import Fraction

import pytest

from service.api.views.rounds import ROUND_EXAMPLES
from service.baccarat.multipliers.presets import PRESETS

LIGHTNING = ROUND_EXAMPLES["lightning"]["value"]
SIX_KINGS = ["KS"] * 6  # Player K-K draws K, Banker K-K draws K: a tie of six K♠ (8 decks)


def test_a_seeded_round_draws_the_multiplier_cards_of_docs_multipliers_md(client):
    """The first test vector: Lightning, server seed abc, empty client seed, nonce 0, round 1."""
    body = {"server_seed": "abc", "rules": {"multipliers": "lightning"}}
    answer = client.post("/v1/rounds", json=body).get_json()
    assert answer["multiplier_cards"] == [{"card": "TH", "multiplier": 2}, {"card": "4S", "multiplier": 3}]
    assert answer["multiplier_algorithm"] == "hmac-sha256-multiplier-cards/v1"
    assert answer["rules"]["multipliers"]["id"] == PRESETS["lightning"].rule.id
    assert answer["rules"]["multipliers"]["fee"]["rate"] == "0.2"
    assert "settlement" not in answer
    assert "multiplier_settlement" not in answer


def test_round_2_of_a_seeded_shoe_draws_round_2_s_multiplier_cards(client):
    body = {"server_seed": "abc", "round": 2, "rules": {"multipliers": "lightning"}}
    answer = client.post("/v1/rounds", json=body).get_json()
    drawn = " ".join(f"{lit['card']} x{lit['multiplier']}" for lit in answer["multiplier_cards"])
    assert drawn == "KD x2 AD x2 4C x5 3C x2 6D x2"


def test_a_studio_s_lightning_card_multiplies_the_banker_s_win_and_the_fee_is_kept(client):
    answer = client.post("/v1/rounds", json=LIGHTNING).get_json()
    assert answer["multiplier_cards"] == [{"card": "8H", "multiplier": 8}]
    assert "multiplier_algorithm" not in answer
    banker, tie = answer["multiplier_settlement"]["bets"]
    assert banker == {
        "type": "banker",
        "amount": "10.00",
        "result": "win",
        "fee": "2.00",
        "counted": ["8H", "KC"],
        "lit": [{"card": "8H", "multiplier": 8}],
        "multiplier": 8,
        "win": "79.50",
        "commission": "0.50",
        "capped": "0.00",
        "fee_kept": "2.00",
        "returned": "89.50",
        "code": "banker_wins",
        "reason": "Banker wins",
    }
    assert (tie["result"], tie["fee"], tie["returned"], tie["counted"], tie["code"]) == (
        "lose",
        "1.00",
        "0.00",
        ["2S", "8H", "5D", "KC"],
        "no_line_of_its_pay_table_holds",
    )
    slip = answer["multiplier_settlement"]
    assert (slip["staked"], slip["fees"], slip["returned"], slip["net"]) == (
        "15.00",
        "3.00",
        "89.50",
        "71.50",
    )


@pytest.mark.parametrize(
    ("preset", "multiplier_cards", "win", "capped", "returned"),
    [
        # 5 * 8**6 = 1,310,720:1 on 5.00.
        ("lightning", [("KS", 8)], "6553600.00", "0.00", "6553605.00"),
        # The same tie under Golden Wealth's cap: at most 500,000 won on a round.
        (
            "golden_wealth",
            [("KS", 8), ("AS", 2), ("AH", 2), ("AD", 2), ("AC", 2)],
            "500000.00",
            "6053600.00",
            "500005.00",
        ),
        # 5 * 3**6 = 3,645:1.
        (
            "prosperity_tree",
            [("KS", 3), *((f"{rank}S", 2) for rank in "A234567")],
            "18225.00",
            "0.00",
            "18230.00",
        ),
    ],
)
def test_the_largest_tie_win_of_every_preset(client, preset, multiplier_cards, win, capped, returned):
    body = {
        "cards": SIX_KINGS,
        "rules": {"multipliers": preset},
        "multiplier_cards": [{"card": card, "multiplier": value} for card, value in multiplier_cards],
        "bets": [{"type": "tie", "amount": "5.00"}],
    }
    response = client.post("/v1/rounds", json=body)
    assert response.status_code == 200, response.get_json()
    (tie,) = response.get_json()["multiplier_settlement"]["bets"]
    assert (tie["result"], tie["multiplier"], tie["win"], tie["capped"], tie["returned"]) == (
        "win",
        {"lightning": 8**6, "golden_wealth": 8**6, "prosperity_tree": 3**6}[preset],
        win,
        capped,
        returned,
    )


def test_a_multiplier_table_offers_only_the_bets_its_rule_pays(client):
    body = {**LIGHTNING, "bets": [{"type": "dragon_bonus_player", "amount": "5.00"}]}
    problem = client.post("/v1/rounds", json=body).get_json()
    (error,) = problem["errors"]
    assert (error["pointer"], error["code"]) == ("/bets/0/type", "bet_not_offered")
    assert problem["errors"][0]["values"]["offered"] == [
        "player",
        "banker",
        "tie",
        "player_pair",
        "banker_pair",
    ]


@pytest.mark.parametrize(
    ("body", "fields_and_codes"),
    [
        ({**LIGHTNING, "multiplier_cards": None}, [("/multiplier_cards", "null_not_allowed")]),
        (
            {key: value for key, value in LIGHTNING.items() if key != "multiplier_cards"},
            [("/multiplier_cards", "multiplier_cards_missing")],
        ),
        (
            {**LIGHTNING, "rules": {}},
            [("/multiplier_cards", "multiplier_cards_without_rule")],
        ),
        (
            {
                **LIGHTNING,
                "multiplier_cards": [{"card": "8H", "multiplier": 8}, {"card": "8H", "multiplier": 7}],
            },
            [
                ("/multiplier_cards/1/card", "multiplier_card_repeated"),
                ("/multiplier_cards/1/multiplier", "multiplier_not_of_rule"),
            ],
        ),
        (
            {**LIGHTNING, "rules": {"multipliers": "golden_wealth"}},
            [("/multiplier_cards", "multiplier_card_count")],
        ),
        (
            {**LIGHTNING, "bets": [{"type": "player", "amount": "1.01"}]},
            [("/bets/0/amount", "fee_finer_than_minor_unit")],
        ),
        ({**LIGHTNING, "rules": {"multipliers": "thunder"}}, [("/rules/multipliers", "not_one_of")]),
    ],
)
def test_bad_multiplier_inputs_are_422s_naming_the_field(client, body, fields_and_codes):
    response = client.post("/v1/rounds", json=body)
    assert response.status_code == 422
    assert response.content_type == "application/problem+json"
    errors = response.get_json()["errors"]
    assert [(error["pointer"], error["code"]) for error in errors] == fields_and_codes


def test_a_seeded_multiplier_round_replays_byte_for_byte(client):
    """The multiplier cards come from the seed inputs: asking again answers the same bytes."""
    body = {
        "server_seed": "abc",
        "rules": {"multipliers": "golden_wealth"},
        "bets": [{"type": "tie", "amount": "5"}],
    }
    first, second = (client.post("/v1/rounds", json=body) for _ in range(2))
    assert first.status_code == 200, first.get_json()
    assert first.get_data() == second.get_data()
    assert "Signature" in first.headers


@pytest.mark.parametrize(
    ("preset", "bet", "rtp"),
    [
        ("lightning", "player", "0.987663"),
        ("golden_wealth", "tie", "0.934641"),
        ("prosperity_tree", "banker", "0.987492"),
    ],
)
def test_the_odds_give_each_multiplier_game_s_exact_return_as_docs_multipliers_md_does(
    client, preset, bet, rtp
):
    answer = client.post("/v1/odds", json={"rules": {"multipliers": preset}}).get_json()
    returns = {line["bet"]: line for line in answer["multiplier_returns"]}
    assert list(returns) == ["player", "banker", "tie", "player_pair", "banker_pair"]
    assert returns[bet]["rtp"].startswith(rtp[:-1])
    assert abs(Fraction(returns[bet]["exact_rtp"]) - Fraction(rtp)) < Fraction(1, 10**6)
    assert returns[bet]["cost"] == "1.2"


def test_a_depleted_shoe_s_multiplier_returns_differ_from_a_full_one_s(client):
    full = client.post("/v1/odds", json={"rules": {"multipliers": "lightning"}}).get_json()
    body = {"rules": {"multipliers": "lightning"}, "removed": ["KS", "KH", "KD", "KC", "QS", "QH"]}
    depleted = client.post("/v1/odds", json=body).get_json()
    assert full["multiplier_returns"][2]["rtp"] != depleted["multiplier_returns"][2]["rtp"]
    assert "multiplier_returns" not in client.post("/v1/odds", json={}).get_json()


def test_the_paytables_give_every_multiplier_game_with_its_sources_and_exact_returns(client):
    games = client.get("/v1/paytables").get_json()["multiplier_games"]
    assert [game["name"] for game in games] == list(PRESETS)
    for game in games:
        preset = PRESETS[game["name"]]
        assert game["rule"]["id"] == preset.rule.id
        assert [source["url"] for source in game["sources"]] == [source.url for source in preset.sources]
        assert [line["bet"] for line in game["returns"]] == [str(bet) for bet in preset.rule.bet_types]
    golden = {line["bet"]: line for line in games[1]["returns"]}
    assert golden["tie"]["rtp"].startswith("0.93464")  # docs/multipliers.md: 93.4641%
    assert games[1]["published"]["tie"] == "93.4%"
