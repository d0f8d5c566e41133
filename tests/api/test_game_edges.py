"""Every game at its edges, by Hypothesis: shoes down to a handful of cards,
operator rules at every documented bound, stakes at the table's limits.

Whatever is sent, the answer is a 200 or a 422 with documented codes, never
a 500; every amount is exact and written as a plain decimal at the minor
unit (never rounded, never with an exponent); and what the answers say
holds as docs/multipliers.md and docs/odds.md say it: a bet that cannot
win expects no multiplier, a slip's net is what came back less what it
cost, a settlement's totals are the sum of its slips.
"""

from __future__ import annotations

import re
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.baccarat.bets.types import BetType
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.rulebook.cards import RANKS
from service.contract.schemas.messages import ERROR_TEMPLATES

AMOUNT = re.compile(r"-?[0-9]+\.[0-9]{2}")
EDGES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
GAMES = st.sampled_from([None, "lightning", "golden_wealth", "prosperity_tree"])
#: A whole round of five cards (Player pair, both hands draw to the Banker's third).
CARDS = ["3S", "KD", "3H", "2C", "9C"]
EVERY_CARD = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]


def answered(response: Any) -> dict[str, Any]:
    """The body of a 200, or of a 422 whose codes are all documented."""
    assert response.status_code in (200, 422), (response.status_code, response.get_json())
    body = response.get_json()
    if response.status_code == 422:
        assert body["errors"]
        assert {entry["code"] for entry in body["errors"]} <= set(ERROR_TEMPLATES)
    return body


def amounts(value: Any) -> list[str]:
    """Every amount of an answer: the strings of the keys money is written under."""
    money = {"amount", "win", "commission", "returned", "staked", "net", "fee", "fees", "capped", "fee_kept"}
    found: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            if key in money and isinstance(item, str):
                found.append(item)
            elif key != "rules":  # rates, not amounts
                found += amounts(item)
    elif isinstance(value, list):
        for item in value:
            found += amounts(item)
    return found


@EDGES
@given(
    decks=st.integers(1, 8),
    counts=st.dictionaries(st.sampled_from(RANKS), st.integers(0, 4), max_size=13),
    game=GAMES,
)
def test_odds_of_a_shoe_down_to_a_handful_of_cards(client, decks, counts, game):
    """A shoe of any few cards (one where a bet cannot win or push, or
    fewer than a round needs) is priced or refused with a code, never a 500."""
    rules = {"decks": decks, **({"multipliers": game} if game else {})}
    body = answered(client.post("/v1/odds", json={"rules": rules, "counts": counts}))
    if "errors" in body:
        return
    for line in body.get("multiplier_returns", []):
        assert (line["multiplier"] is None) == (line["win"] == "0"), line
    for odds in body["bets"].values():
        assert sum(Fraction(odds["exact"][key]) for key in ("win", "push", "lose")) == 1


pays = st.sampled_from(["0.01", "1", "9", "10000"])
kept = st.sampled_from(["0", "0.05", "0.5", "0.99"])
operator_rules = st.fixed_dictionaries(
    {
        "cards": st.sampled_from([{"1": 1}, {"6": 1}, {"52": 1}, {"1": 1, "52": 4294967295}]),
        "multipliers": st.sampled_from([{"2": 1}, {"1000": 1}, {"2": 1, "1000": 4294967295}]),
        "pays": st.fixed_dictionaries(
            {
                "tie": st.fixed_dictionaries({"pays": pays, "counted": st.just("all_cards")}),
                "banker": st.fixed_dictionaries(
                    {"pays": pays, "counted": st.just("winning_hand"), "stake_kept": kept}
                ),
            }
        ),
    },
    optional={
        "fee": st.sampled_from([{"rate": "0", "bets": ["tie"]}, {"rate": "1", "bets": ["tie", "banker"]}])
    },
)
stakes = st.sampled_from(["1.00", "999999999999.99", "5.05", "20.00"])


@EDGES
@given(rule=operator_rules, stake=stakes, slips=st.integers(1, 3))
def test_an_operator_rule_at_its_bounds_settles_exactly_or_is_refused(client, rule, stake, slips):
    limits = {bet: {"min": "1", "max": "999999999999.99"} for bet in ("tie", "banker")}
    count = int(max(rule["cards"], key=int)) if len(rule["cards"]) == 1 else 1
    multiplier = int(max(rule["multipliers"], key=int))
    body = {
        "cards": CARDS,
        "rules": {"multipliers": rule, "limits": limits},
        "multiplier_cards": [{"card": card, "multiplier": multiplier} for card in EVERY_CARD[:count]],
        "slips": [
            {
                "id": f"s{index}",
                "bets": [{"type": "tie", "amount": stake}, {"type": "banker", "amount": stake}],
            }
            for index in range(slips)
        ],
    }
    answer = answered(client.post("/v1/settlements", json=body))
    if "errors" in answer:
        return
    written = amounts(answer)
    assert all(AMOUNT.fullmatch(amount) for amount in written), written
    with localcontext(prec=100):
        for slip in answer["multiplier_slips"]:
            cost = Decimal(slip["staked"]) + Decimal(slip["fees"])
            assert Decimal(slip["net"]) == Decimal(slip["returned"]) - cost
            assert Decimal(slip["returned"]) == sum(Decimal(bet["returned"]) for bet in slip["bets"])
        totals = answer["totals"]
        for key in ("staked", "fees", "returned", "capped"):
            assert Decimal(totals[key]) == sum(Decimal(slip[key]) for slip in answer["multiplier_slips"])


@EDGES
@given(
    game=GAMES,
    table=st.sampled_from(["standard", "tiger"]),
    at=st.sampled_from(["min", "max"]),
    extra=st.sampled_from(["0", "0.01", "-0.01"]),
)
def test_a_stake_at_each_limit_is_taken_and_one_past_it_is_refused(client, game, table, at, extra):
    rules = {"multipliers": game} if game else {}
    odds = answered(client.post("/v1/odds", json={"table": table, "rules": rules}))
    if "errors" in odds:
        return
    limits = odds["rules"]["limits"]
    bets = []
    for bet, limit in limits.items():
        amount = Decimal(limit[at]) + Decimal(extra)
        if amount > 0:
            bets.append({"type": bet, "amount": str(amount)})
    lit = {}
    if game:
        rule = PRESETS[game].rule
        count, multiplier = min(rule.cards), min(rule.multipliers)
        lit = {"multiplier_cards": [{"card": card, "multiplier": multiplier} for card in EVERY_CARD[:count]]}
    body = {"table": table, "rules": rules, "cards": CARDS, **lit, "bets": bets}
    answer = answered(client.post("/v1/rounds", json=body))
    outside = (at == "min" and extra == "-0.01") or (at == "max" and extra == "0.01")
    # At a multiplier table a stake whose fee is finer than a cent is refused, never rounded.
    fee_not_whole = game is not None and any(
        (Decimal(bet["amount"]) * PRESETS[game].rule.fee.rate_on(BetType(bet["type"]))) % Decimal("0.01")
        for bet in bets
    )
    assert ("errors" in answer) == ((outside or fee_not_whole) and bool(bets)), answer
    if "errors" not in answer:
        assert all(AMOUNT.fullmatch(amount) for amount in amounts(answer))
