"""POST /v1/shoes at a multiplier table (``rules.multipliers``, docs/multipliers.md):
each round's multiplier cards are those POST /v1/rounds draws for the same
seed inputs and ``round``, its slip is settled by the rule, and the cards
and roads are the plain shoe's."""

from decimal import Decimal

import pytest

from service.api.views.shoes import SHOE_EXAMPLES
from tests.api.views.test_shoes import FAIR, PHYSICAL, pointers, problem, shoe

LIGHTNING = {"multipliers": "lightning"}
BETS = [{"id": "b", "type": "banker", "amount": "10.00"}, {"type": "tie", "amount": "5"}]
#: An operator's own rule: three or four multiplier cards, every card's count multiplies the tie.
OWN_RULE = {
    "cards": {"3": 1, "4": 1},
    "multipliers": {"2": 10, "5": 3, "10": 1},
    "pays": {
        "tie": {"pays": "5", "counted": "all_cards"},
        "player": {"pays": "1", "counted": "winning_hand"},
    },
}
#: What a round says of its cards, the same at any table.
DEALT = (
    "number",
    "player",
    "banker",
    "outcome",
    "natural",
    "positions",
    "cards_used",
    "cut_card_out",
    "last",
)


@pytest.mark.parametrize("multipliers", ["lightning", "golden_wealth", "prosperity_tree", OWN_RULE])
def test_round_n_of_a_multiplier_shoe_is_post_rounds_with_round_n(client, multipliers):
    rules = {"multipliers": multipliers}
    bets = [{"type": "tie", "amount": "5.00"}]
    body = shoe(client, **FAIR, rules=rules, bets=bets)
    assert body["multiplier_algorithm"] == "hmac-sha256-multiplier-cards/v1"
    count = body["round_count"]
    for played in [body["rounds"][n - 1] for n in (1, 2, 3, count // 2, count - 1, count)]:
        sent = {**FAIR, "round": played["number"], "rules": rules, "bets": bets}
        alone = client.post("/v1/rounds", json=sent).get_json()
        assert played["multiplier_cards"] == alone["multiplier_cards"]
        assert played["multiplier_settlement"] == alone["multiplier_settlement"]
        assert {k: played[k] for k in ("player", "banker", "outcome")} == {
            k: alone[k] for k in ("player", "banker", "outcome")
        }
        assert "settlement" not in played


def test_a_multiplier_shoe_deals_the_plain_shoe_s_cards_and_roads(client):
    plain = shoe(client, **FAIR)
    lightning = shoe(client, **FAIR, rules=LIGHTNING)
    assert lightning["roads"] == plain["roads"]
    assert [{k: r[k] for k in DEALT} for r in lightning["rounds"]] == [
        {k: r[k] for k in DEALT} for r in plain["rounds"]
    ]
    same = ("round_count", "burned", "cut_card_position", "card_counts", "shoe_hash", "algorithm", "seed")
    assert {k: lightning[k] for k in same} == {k: plain[k] for k in same}
    assert all(len(r["multiplier_cards"]) in range(1, 6) for r in lightning["rounds"])
    assert all("multiplier_settlement" not in r for r in lightning["rounds"])
    assert lightning["rules"]["multipliers"]["id"] != plain["rules"].get("multipliers")


def test_a_plain_shoe_says_nothing_of_multipliers(client):
    body = shoe(client, **FAIR, to_round=3, bets=BETS)
    assert "multiplier_algorithm" not in body
    assert all("multiplier_cards" not in r and "multiplier_settlement" not in r for r in body["rounds"])
    assert "fees" not in body["totals"]
    assert "capped" not in body["totals"]


def test_the_totals_of_a_multiplier_shoe_count_its_fees_and_what_the_cap_took(client):
    body = shoe(client, **FAIR, to_round=8, rules=LIGHTNING, bets=BETS)
    slips = [r["multiplier_settlement"] for r in body["rounds"]]
    totals = body["totals"]
    assert (totals["slips"], totals["bets"]) == (8, 16)
    for key in ("staked", "fees", "returned", "capped", "net"):
        assert Decimal(totals[key]) == sum(Decimal(slip[key]) for slip in slips), key
    assert Decimal(totals["fees"]) == 8 * (Decimal("2.00") + Decimal("1.00"))  # Lightning's 20%


def test_bets_by_round_at_a_multiplier_table_settle_only_their_rounds(client):
    entries = [
        {"round": 2, "bets": [{"type": "player", "amount": "5"}]},
        {"round": 4, "bets": [{"type": "tie", "amount": "1"}]},
    ]
    body = shoe(client, **FAIR, to_round=5, rules=LIGHTNING, bets_by_round=entries)
    assert [r["number"] for r in body["rounds"] if "multiplier_settlement" in r] == [2, 4]
    assert all("multiplier_cards" in r for r in body["rounds"])
    assert body["totals"]["fees"] == "1.20"


@pytest.mark.parametrize(
    ("body", "pointer", "code"),
    [
        ({"bets": [{"type": "dragon_7", "amount": "5"}]}, "/bets/0/type", "bet_not_offered"),
        ({"bets": [{"type": "banker", "amount": "10.01"}]}, "/bets/0/amount", "fee_finer_than_minor_unit"),
        (
            {"bets_by_round": [{"round": 3, "bets": [BETS[0], {"type": "tie", "amount": "25"}]}]},
            "/bets_by_round/0/bets/1/amount",
            "slip_over_maximum",
        ),
        (
            {"bets_by_round": [{"round": 3, "bets": [{"type": "player", "amount": "1.03"}]}]},
            "/bets_by_round/0/bets/0/amount",
            "fee_finer_than_minor_unit",
        ),
        ({"rules": {"multipliers": "thunder"}}, "/rules/multipliers", None),
        ({"rules": {"multipliers": {**OWN_RULE, "cards": {"0": 1}}}}, "/rules/multipliers/cards/0", None),
    ],
)
def test_bets_a_multiplier_shoe_cannot_take_are_named(client, body, pointer, code):
    sent = {**FAIR, "rules": LIGHTNING, **body}
    found = problem(client, "/v1/shoes", sent)
    assert pointer in pointers(found), found
    if code is not None:
        assert code in [error["code"] for error in found["errors"]]


#: A studio's multiplier cards for the physical shoe's two complete rounds.
STUDIO = [
    {"round": 1, "cards": [{"card": "KH", "multiplier": 8}]},
    {"round": 2, "cards": [{"card": "2S", "multiplier": 3}, {"card": "6D", "multiplier": 2}]},
]


def test_a_physical_shoe_s_rounds_settle_as_post_rounds_with_their_cards_and_multiplier_cards(client):
    bets = [{"type": "banker", "amount": "10"}, {"type": "player", "amount": "5"}]
    body = shoe(client, cards=PHYSICAL, rules=LIGHTNING, multiplier_cards_by_round=STUDIO, bets=bets)
    assert "multiplier_algorithm" not in body  # the studio drew them
    assert body["round_in_progress"]["number"] == 3
    round_cards = [PHYSICAL[4:9], PHYSICAL[9:15]]
    for played, sent, given in zip(body["rounds"], round_cards, STUDIO, strict=True):
        request = {"cards": sent, "rules": LIGHTNING, "multiplier_cards": given["cards"], "bets": bets}
        alone = client.post("/v1/rounds", json=request).get_json()
        assert played["multiplier_cards"] == given["cards"]
        assert played["multiplier_settlement"] == alone["multiplier_settlement"]
    assert body["totals"]["fees"] == "6.00"
    assert body["roads"] == shoe(client, cards=PHYSICAL)["roads"]


@pytest.mark.parametrize(
    ("body", "errors"),
    [
        (
            {"multiplier_cards_by_round": STUDIO[:1]},
            [("/multiplier_cards_by_round", "round_multiplier_cards_missing")],
        ),
        (
            {"multiplier_cards_by_round": [*STUDIO, {"round": 4, "cards": STUDIO[0]["cards"]}]},
            [("/multiplier_cards_by_round/2/round", "round_not_answered")],
        ),
        (
            {
                "multiplier_cards_by_round": [
                    STUDIO[0],
                    {"round": 2, "cards": [{"card": "2S", "multiplier": 7}]},
                ]
            },
            [("/multiplier_cards_by_round/1/cards/0/multiplier", "multiplier_not_of_rule")],
        ),
        (
            {"multiplier_cards_by_round": [STUDIO[0], STUDIO[0]]},
            [("/multiplier_cards_by_round/1/round", "round_twice")],
        ),
        (
            {"multiplier_cards_by_round": STUDIO, "rules": {}},
            [("/multiplier_cards_by_round", "multiplier_cards_without_rule")],
        ),
    ],
)
def test_a_physical_shoe_s_multiplier_cards_are_checked_at_their_pointers(client, body, errors):
    found = problem(client, "/v1/shoes", {"cards": PHYSICAL, "rules": LIGHTNING, **body})
    assert [(e["pointer"], e["code"]) for e in found["errors"]] == errors


def test_a_seeded_shoe_draws_its_own_multiplier_cards(client):
    found = problem(client, "/v1/shoes", {**FAIR, "rules": LIGHTNING, "multiplier_cards_by_round": STUDIO})
    assert [(e["pointer"], e["code"]) for e in found["errors"]] == [
        ("/multiplier_cards_by_round", "multiplier_cards_without_rule")
    ]


@pytest.mark.parametrize("name", sorted(SHOE_EXAMPLES))
def test_every_documented_shoe_example_is_answered(client, name):
    """The OpenAPI examples of POST /v1/shoes, plain and multiplier, work as shown."""
    body = shoe(client, **SHOE_EXAMPLES[name]["value"])
    slips = [r.get("settlement", r.get("multiplier_settlement")) for r in body["rounds"]]
    assert [slip for slip in slips if slip is not None]
    multiplier_table = "multipliers" in SHOE_EXAMPLES[name]["value"].get("rules", {})
    assert all(("multiplier_cards" in r) == multiplier_table for r in body["rounds"])
