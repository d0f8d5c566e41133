"""The game's math in the certification report: the figures GET /v1/paytables
and POST /v1/odds answer, and the GLI-11 check of every award."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from service.baccarat.bets.paytable import NamedPayTable, PayLine, Source, win
from service.baccarat.bets.types import BetType
from service.baccarat.counting.round_counts import count_rounds
from service.baccarat.rulebook.cards import parse_card, shoe
from service.baccarat.rulebook.coup import Coup
from service.baccarat.shoes.composition import after_removing
from service.baccarat.tables.rules import PUNTO_BANCO, TABLES, resolve_rules
from service.certification.exact import (
    GLI11_NEVER,
    GLI11_OK,
    GLI11_SHOW_ODDS,
    bet_math,
    exact_document,
    game_math,
)


@pytest.mark.parametrize("table", PUNTO_BANCO)
def test_every_figure_is_the_one_post_v1_odds_answers(client, table):
    rules = TABLES[table].rules
    document = exact_document(game_math(rules))
    answer = client.post("/v1/odds", json={"table": table}).get_json()
    assert document["sequences"] == answer["sequences"]
    assert list(document["bets"]) == list(answer["bets"])
    for bet, figures in document["bets"].items():
        served = answer["bets"][bet]
        assert figures["pay_table"] == served["pay_table"]
        for name in ("win", "push", "lose", "expected_value", "house_edge"):
            assert figures[name]["decimal"] == served[name], (bet, name)
            assert figures[name]["fraction"] == served["exact"][name], (bet, name)
        lines = [*figures["lines"], figures["loss"]]
        assert [line["when"] for line in lines] == [line["when"] for line in served["lines"]]
        assert [line["probability"]["decimal"] for line in lines] == [
            line["probability"] for line in served["lines"]
        ]
        assert [line["net"]["decimal"] for line in lines] == [line["net"] for line in served["lines"]]


@pytest.mark.parametrize("decks", [8, 6, 1])
def test_house_edges_are_the_ones_get_v1_paytables_answers(client, decks):
    served = {
        table["id"]: table for table in client.get(f"/v1/paytables?decks={decks}").get_json()["pay_tables"]
    }
    rules = resolve_rules("standard", {"decks": decks})
    for bet in game_math(rules).bets:
        table = served[bet.pay_table]
        assert bet.house_edge.decimal == table["house_edge"]
        assert bet.house_edge.fraction == table["exact"]["house_edge"]
        assert bet.win.fraction == table["exact"]["hit_frequency"]


def test_rtp_is_one_less_the_house_edge_and_the_max_win_is_at_the_table_maximum():
    math = game_math(TABLES["standard"].rules)
    banker = math.bet("banker")
    assert banker.rtp.value == 1 - banker.house_edge.value
    assert banker.max_win_per_unit.value == Fraction(19, 20)
    assert banker.max_win == banker.max_stake * Fraction(19, 20).numerator / 20
    tie = math.bet("tie")
    assert tie.lines[0].one_in == "1 in 10.5091"
    assert tie.max_win_per_unit.value == 8


def _perfect_tie_on_4(coup: Coup) -> bool:
    return (
        coup.player.perfect_pair
        and coup.banker.perfect_pair
        and coup.player.total == coup.banker.total == 4
        and len(coup.player.cards) == 3
        and len(coup.banker.cards) == 2
    )


WHEN = "a 4-4 tie, both hands perfect pairs, only the Player drawing"
PROPOSED = NamedPayTable(
    WHEN,
    (PayLine(WHEN, _perfect_tie_on_4, win(100_000)),),
    id="perfect_tie_on_4_100000_to_1",
    bet=BetType.PERFECT_PAIR,
    source=Source("a laboratory's test", "https://example.invalid/proposal"),
)


def test_the_gli11_flag_appears_on_a_line_rarer_than_1_in_10_8():
    # A shoe without 7s whose only 2s are the eight decks' four 2S and whose
    # only ten-value card is one TS: the line then needs all four 2S (a
    # two-card 4 from a pair is 2-2 or 7-7) and the TS as the Player's third
    # card (the Banker stands on 4 only when it counts 0, 1, 8 or 9).
    kept = {"2S", "TS"}
    removed = [card for card in shoe(8) if card.rank in "27TJQK" and card.code not in kept]
    removed += [parse_card("TS")] * 7
    composition = after_removing(8, removed)
    line = bet_math(PROPOSED, count_rounds(composition)).lines[0]
    assert 0 < line.probability.value < Fraction(1, 10**8)
    assert line.gli11 == GLI11_SHOW_ODDS
    # On the full shoe the same award is rare, but within GLI-11's 1 in 10^8.
    full = game_math(TABLES["standard"].rules, extra=(PROPOSED,)).bets[-1]
    assert full.pay_table == PROPOSED.id
    assert Fraction(1, 10**8) < full.lines[0].probability.value < Fraction(1, 10**5)
    assert full.gli11 == GLI11_OK


def test_an_award_no_shoe_of_the_table_can_pay_never_wins():
    # No request gets these rules (resolve_rules leaves a bet that cannot win out); the kit still says so.
    rules = dataclasses.replace(TABLES["standard"].rules, decks=1)
    perfect_pair = game_math(rules).bet("perfect_pair")
    assert perfect_pair.lines[0].probability.value == 0
    assert perfect_pair.lines[0].one_in is None
    assert perfect_pair.gli11 == GLI11_NEVER
    assert exact_document(game_math(rules))["bets"]["perfect_pair"]["gli11"] == GLI11_NEVER
