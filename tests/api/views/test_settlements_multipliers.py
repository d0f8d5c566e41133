"""Multiplier tables on POST /v1/settlements and POST /v1/rounds/live
(docs/multipliers.md): a table's slips settled by the rule, each with its id
and its own cap, the multiplier cards drawn or given as POST /v1/rounds
takes them, and a live round that ends as POST /v1/rounds' answer."""

import re
from decimal import Decimal, localcontext

import pytest

from service.api.views.rounds import ROUND_EXAMPLES

LIGHTNING = ROUND_EXAMPLES["lightning"]["value"]
STUDIO = {key: LIGHTNING[key] for key in ("cards", "rules", "multiplier_cards")}
SIX_KINGS = ["KS"] * 6  # Player K-K draws K, Banker K-K draws K: a tie of six K♠ (8 decks)
#: Golden Wealth's five multiplier cards, K♠ among them at x8.
GOLDEN_KINGS = [
    {"card": "KS", "multiplier": 8},
    *({"card": f"A{suit}", "multiplier": 2} for suit in "SHDC"),
]


def slip(slip_id, *bets):
    return {"id": slip_id, "bets": [{"type": kind, "amount": amount} for kind, amount in bets]}


def settle(client, body):
    response = client.post("/v1/settlements", json=body)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_table_s_slips_are_each_settled_by_the_rule_with_their_ids(client):
    slips = [slip("seat-1", ("banker", "10.00")), slip("seat-2", ("player", "5.00"), ("tie", "5.00"))]
    answer = settle(client, {**STUDIO, "slips": slips})
    assert "slips" not in answer
    assert answer["multiplier_cards"] == [{"card": "8H", "multiplier": 8}]
    assert "multiplier_algorithm" not in answer
    first, second = answer["multiplier_slips"]
    assert (first["id"], second["id"]) == ("seat-1", "seat-2")
    (banker,) = first["bets"]
    assert (banker["multiplier"], banker["fee"], banker["win"], banker["returned"]) == (
        8,
        "2.00",
        "79.50",
        "89.50",
    )
    assert (first["fees"], first["net"]) == ("2.00", "77.50")
    assert [bet["result"] for bet in second["bets"]] == ["lose", "lose"]
    assert (second["fees"], second["returned"], second["net"]) == ("2.00", "0.00", "-12.00")
    assert answer["totals"] == {
        "slips": 2,
        "bets": 3,
        "staked": "20.00",
        "returned": "89.50",
        "net": "65.50",
        "fees": "4.00",
        "capped": "0.00",
    }


def test_each_slip_is_settled_as_post_v1_rounds_settles_it_alone(client):
    slips = [slip("a", ("banker", "10.00"), ("tie", "5.00")), slip("b", ("player", "2.50"))]
    answer = settle(client, {**STUDIO, "slips": slips})
    for sent, settled in zip(slips, answer["multiplier_slips"], strict=True):
        alone = client.post("/v1/rounds", json={**STUDIO, "bets": sent["bets"]}).get_json()
        assert {**alone["multiplier_settlement"], "id": sent["id"]} == settled


def test_the_cap_is_applied_to_each_slip_on_its_own(client):
    """Golden Wealth caps what one slip wins on a round at 500,000: two seats on the x8 tie each get it."""
    body = {
        "cards": SIX_KINGS,
        "rules": {"multipliers": "golden_wealth"},
        "multiplier_cards": GOLDEN_KINGS,
        "slips": [slip("seat-1", ("tie", "5.00")), slip("seat-2", ("tie", "5.00"), ("player", "5.00"))],
    }
    answer = settle(client, body)
    for settled in answer["multiplier_slips"]:
        assert (settled["bets"][0]["win"], settled["bets"][0]["capped"], settled["capped"]) == (
            "500000.00",
            "6053600.00",
            "6053600.00",
        )
    assert answer["totals"]["capped"] == "12107200.00"


def test_the_fee_is_kept_on_a_push(client):
    """Six K♠ tie: Lightning's player and banker bets push, the stake comes back, the fee does not."""
    body = {
        "cards": SIX_KINGS,
        "rules": {"multipliers": "lightning"},
        "multiplier_cards": [{"card": "KS", "multiplier": 2}],
        "slips": [slip("seat-1", ("player", "10.00"), ("banker", "10.00"))],
    }
    (settled,) = settle(client, body)["multiplier_slips"]
    assert [(bet["result"], bet["fee_kept"], bet["returned"]) for bet in settled["bets"]] == [
        ("push", "2.00", "10.00"),
        ("push", "2.00", "10.00"),
    ]
    assert (settled["fees"], settled["net"]) == ("4.00", "-4.00")


@pytest.mark.parametrize("round_number", [None, 2])
def test_a_seeded_table_draws_the_multiplier_cards_post_v1_rounds_draws(client, round_number):
    seed = {"server_seed": "abc", "rules": {"multipliers": "lightning"}}
    if round_number is not None:
        seed["round"] = round_number
    answer = settle(client, {**seed, "slips": [slip("a", ("tie", "5"))]})
    played = client.post("/v1/rounds", json={**seed, "bets": [{"type": "tie", "amount": "5"}]}).get_json()
    assert answer["multiplier_cards"] == played["multiplier_cards"]
    assert (
        answer["multiplier_algorithm"] == played["multiplier_algorithm"] == "hmac-sha256-multiplier-cards/v1"
    )
    assert answer["player"] == played["player"]
    assert {**played["multiplier_settlement"], "id": "a"} == answer["multiplier_slips"][0]


def test_a_plain_table_s_answer_has_no_multiplier_keys(client):
    answer = settle(client, {"cards": LIGHTNING["cards"], "slips": [slip("a", ("banker", "10"))]})
    assert [key for key in answer if key.startswith("multiplier")] == []
    assert list(answer)[-2:] == ["slips", "totals"]
    assert sorted(answer["totals"]) == ["bets", "net", "returned", "slips", "staked"]


@pytest.mark.parametrize(
    ("changes", "fields_and_codes"),
    [
        (
            {"slips": [slip("a", ("banker", "10")), slip("b", ("player", "1.01"), ("dragon_7", "5"))]},
            [("/slips/1/bets/1/type", "bet_not_offered")],
        ),
        (
            {"slips": [slip("a", ("banker", "10")), slip("b", ("player", "1.01"))]},
            [("/slips/1/bets/0/amount", "fee_finer_than_minor_unit")],
        ),
        (
            {"slips": [slip("a", ("tie", "15"), ("tie", "10")), slip("b", ("tie", "2.50"))]},
            [
                ("/slips/0/bets/0/amount", "slip_over_maximum"),
                ("/slips/0/bets/1/amount", "slip_over_maximum"),
            ],
        ),
        ({"multiplier_cards": None}, [("/multiplier_cards", "null_not_allowed")]),
        ({"multiplier_cards": ...}, [("/multiplier_cards", "multiplier_cards_missing")]),
        ({"rules": {}}, [("/multiplier_cards", "multiplier_cards_without_rule")]),
        (
            {"multiplier_cards": [{"card": "8H", "multiplier": 8}, {"card": "8H", "multiplier": 7}]},
            [
                ("/multiplier_cards/1/card", "multiplier_card_repeated"),
                ("/multiplier_cards/1/multiplier", "multiplier_not_of_rule"),
            ],
        ),
        ({"rules": {"multipliers": "golden_wealth"}}, [("/multiplier_cards", "multiplier_card_count")]),
        ({"rules": {"multipliers": "thunder"}}, [("/rules/multipliers", "not_one_of")]),
    ],
)
def test_bad_inputs_are_422s_at_their_pointers_and_settle_nothing(client, changes, fields_and_codes):
    body = {**STUDIO, "slips": [slip("a", ("banker", "10"))], **changes}
    body = {key: value for key, value in body.items() if value is not ...}
    response = client.post("/v1/settlements", json=body)
    assert response.status_code == 422
    assert response.content_type == "application/problem+json"
    assert [(error["pointer"], error["code"]) for error in response.get_json()["errors"]] == fields_and_codes


def test_a_seeded_multiplier_settlement_replays_byte_for_byte(client):
    body = {
        "server_seed": "abc",
        "rules": {"multipliers": "golden_wealth"},
        "slips": [slip("a", ("tie", "5")), slip("b", ("banker", "10"))],
    }
    first, second = (client.post("/v1/settlements", json=body) for _ in range(2))
    assert first.status_code == 200, first.get_json()
    assert first.get_data() == second.get_data()


# --- POST /v1/rounds/live ------------------------------------------------------

LIVE = {**STUDIO, "bets": LIGHTNING["bets"]}


@pytest.mark.parametrize("dealt", [0, 1, 2, 3])
def test_a_live_round_in_progress_checks_the_multiplier_cards_and_the_slip(client, dealt):
    response = client.post("/v1/rounds/live", json={**LIVE, "cards": LIGHTNING["cards"][:dealt]})
    assert response.status_code == 200, response.get_json()
    answer = response.get_json()
    assert (answer["complete"], answer["cards_dealt"]) == (False, dealt)
    assert answer["rules"]["multipliers"]["fee"]["rate"] == "0.2"


@pytest.mark.parametrize(
    ("changes", "fields_and_codes"),
    [
        ({"multiplier_cards": ...}, [("/multiplier_cards", "multiplier_cards_missing")]),
        ({"rules": {}}, [("/multiplier_cards", "multiplier_cards_without_rule")]),
        ({"rules": {"multipliers": "golden_wealth"}}, [("/multiplier_cards", "multiplier_card_count")]),
        (
            {"multiplier_cards": [{"card": "8H", "multiplier": 8}, {"card": "8H", "multiplier": 7}]},
            [
                ("/multiplier_cards/1/card", "multiplier_card_repeated"),
                ("/multiplier_cards/1/multiplier", "multiplier_not_of_rule"),
            ],
        ),
        ({"bets": [{"type": "banker", "amount": "1.01"}]}, [("/bets/0/amount", "fee_finer_than_minor_unit")]),
        ({"bets": [{"type": "dragon_7", "amount": "5"}]}, [("/bets/0/type", "bet_not_offered")]),
    ],
)
@pytest.mark.parametrize("dealt", [0, 3, 4])
def test_a_live_round_s_bad_multiplier_inputs_are_422s_in_progress_and_complete(
    client, changes, fields_and_codes, dealt
):
    body = {**LIVE, "cards": LIGHTNING["cards"][:dealt], **changes}
    body = {key: value for key, value in body.items() if value is not ...}
    response = client.post("/v1/rounds/live", json=body)
    assert response.status_code == 422
    assert [(error["pointer"], error["code"]) for error in response.get_json()["errors"]] == fields_and_codes


@pytest.mark.parametrize(
    ("cards", "multiplier_cards", "bets"),
    [
        (LIGHTNING["cards"], LIGHTNING["multiplier_cards"], LIGHTNING["bets"]),
        (LIGHTNING["cards"], LIGHTNING["multiplier_cards"], []),
        (SIX_KINGS, [{"card": "KS", "multiplier": 8}], [{"type": "tie", "amount": "5.00"}]),
        (
            ["9S", "KH", "2D", "7C", "5H"],
            [{"card": "5H", "multiplier": 5}, {"card": "KH", "multiplier": 2}],
            [{"type": "player", "amount": "10"}, {"type": "banker", "amount": "10"}],
        ),
    ],
)
def test_a_complete_live_round_is_post_v1_rounds_answer(client, cards, multiplier_cards, bets):
    body = {
        "cards": cards,
        "rules": {"multipliers": "lightning"},
        "multiplier_cards": multiplier_cards,
        "bets": bets,
    }
    live = client.post("/v1/rounds/live", json=body)
    whole = client.post("/v1/rounds", json=body)
    assert live.status_code == whole.status_code == 200, live.get_json()
    assert live.get_json()["complete"] is True
    assert live.get_data() == whole.get_data()


#: The largest stake the amounts allow (12 integer digits).
LARGEST = "999999999999.99"
#: An operator rule at the documented bounds: a base pay of 10,000, every card lit at x1000.
BOUNDS_RULE = {
    "cards": {"52": 1},
    "multipliers": {"1000": 1},
    "pays": {
        "tie": {"pays": "10000", "counted": "all_cards"},
        "player": {"pays": "10000", "counted": "winning_hand"},
    },
}
EVERY_CARD = [{"card": rank + suit, "multiplier": 1000} for suit in "SHDC" for rank in "A23456789TJQK"]


def test_the_largest_amounts_are_exact_and_plain(client):
    """Six kings make a tie lit 1000**6 times: each tie bet at the largest
    stake wins 10**34 and more; 10,000 slips sum to 10**38, written exactly
    and never in exponent notation (Decimal's 28 digits would round them)."""
    limits = {bet: {"min": "1", "max": LARGEST} for bet in ("tie", "player")}
    slip = [{"type": "tie", "amount": LARGEST}, {"type": "player", "amount": LARGEST}]
    answer = client.post(
        "/v1/settlements",
        json={
            "cards": ["KS"] * 6,
            "rules": {"multipliers": BOUNDS_RULE, "limits": limits},
            "multiplier_cards": EVERY_CARD,
            "slips": [{"id": f"s{i}", "bets": slip} for i in range(10_000)],
        },
    )
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    with localcontext(prec=80):  # the test's own sums, exactly
        stake = Decimal(LARGEST)
        tie_returned = stake + stake * (10_000 * 1000**6)
        expected = {
            "slip returned": tie_returned + stake,
            "slip net": tie_returned - stake,
            "returned": (tie_returned + stake) * 10_000,
            "net": (tie_returned - stake) * 10_000,
        }
    one, totals = body["multiplier_slips"][0], body["totals"]
    answered = {
        "slip returned": one["returned"],
        "slip net": one["net"],
        "returned": totals["returned"],
        "net": totals["net"],
    }
    assert answered == {name: format(amount, "f") for name, amount in expected.items()}
    amounts = [value for value in totals.values() if isinstance(value, str)]
    assert all(re.fullmatch(r"[0-9]+\.[0-9]{2}", amount) for amount in amounts), amounts
