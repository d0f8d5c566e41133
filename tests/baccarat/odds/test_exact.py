"""Exact odds for any shoe: DESIGN's figures for full shoes, a brute force
over every ordering of small shoes, and the shoes that cannot be analysed."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.baccarat.bets.catalogue import CATALOGUE
from service.baccarat.bets.types import Bet, BetType
from service.baccarat.counting.round_counts import Signature, count_rounds, signature_coup
from service.baccarat.odds.exact import (
    EVENTS,
    Odds,
    analyse,
    catalogue_odds,
    decimal_text,
    shoe_odds,
    table_odds,
)
from service.baccarat.rulebook.cards import DECK, RANKS, Card, parse_card, shoe
from service.baccarat.rulebook.coup import Coup, deal
from service.baccarat.rulebook.errors import BaccaratError, CardError, MissingCard, SeedError, ShoeError
from service.baccarat.shoes.composition import (
    MIN_CARDS,
    Composition,
    after_removing,
    before_round,
    from_rank_counts,
    full_shoe,
)
from service.baccarat.shoes.deal import deal_shoe
from service.baccarat.shoes.shuffle import SeedInputs, seeded_shoe
from service.baccarat.tables.payouts import payout
from service.baccarat.tables.rules import TABLES, Rules
from service.baccarat.tables.settlement import settle_bet
from tests.baccarat.tables.test_settlement import engine_state
from tests.baccarat.test_house_edge import DESIGN_FIGURES, percent
from tests.strategies import card, shoe_sequence

#: The plain game's tables: a multiplier game's returns are its own room's
#: (tests/baccarat/multipliers/test_odds.py).
PLAIN = [name for name, table in TABLES.items() if table.rules.multipliers is None]
ALL_RULES = [TABLES[name].rules for name in PLAIN]
STAKE = Decimal("100.00")  # every bet's pay is exact in cents at this stake


def cards(text: str) -> list[Card]:
    return [parse_card(code) for code in text.split()]


def composition_of(held: list[Card], decks: int = 8) -> Composition:
    """A shoe holding exactly ``held``."""
    counter = Counter(held)
    return Composition(decks, tuple(counter[c] for c in DECK))


# --- DESIGN's figures ----------------------------------------------------------


def test_eight_decks_count_the_sequences_of_design_section_8():
    odds = analyse(full_shoe(8), TABLES["standard"].rules)
    assert odds.sequences == 4_998_398_275_503_360
    assert (odds.counts["banker"], odds.counts["player"], odds.counts["tie"]) == (
        2_292_252_566_437_888,
        2_230_518_282_592_256,
        475_627_426_473_216,
    )


@pytest.mark.parametrize(
    ("decks", "banker", "player", "tie"),
    [(8, "0.458597", "0.446247", "0.095156"), (6, "0.458653", "0.446279", "0.095069")],
)
def test_probabilities_match_design_to_the_last_printed_digit(decks, banker, player, tie):
    odds = analyse(full_shoe(decks), TABLES["standard"].rules)
    for outcome, printed in (("banker", banker), ("player", player), ("tie", tie)):
        assert round(odds.probabilities[outcome], 6) == Fraction(printed)


#: The pay tables whose computed house edge differs from the one their source
#: prints by more than the source's rounding, and why (docs/bets.md says so too).
PUBLISHED_DIFFERS = {
    "dragon_7_40_to_1": "the source prints 7.6110%; the exact figure is 7.6113% (the Wizard of Odds' EZ "
    "Baccarat analysis prints the return -0.076113)",
    "small_1_5_to_1": "the source prints 5.27% for six decks; with eight the edge is 5.28%",
}


def published_digits(printed: str) -> tuple[Decimal, int]:
    """A printed percentage and its decimals: ``"10.361%"`` is (10.361, 3)."""
    number = printed.rstrip("%")
    return Decimal(number), len(number.partition(".")[2])


@pytest.mark.parametrize("table", [t for t in CATALOGUE.values() if t.source.house_edge], ids=lambda t: t.id)
def test_every_pay_table_s_edge_is_the_one_its_source_prints_or_says_why_not(table):
    odds = table_odds(table, count_rounds(full_shoe(8)))
    printed, digits = published_digits(table.source.house_edge)
    computed = Decimal(percent(odds.house_edge, digits))
    assert (computed == printed) is (table.id not in PUBLISHED_DIFFERS), (table.id, computed, printed)


def test_the_catalogue_s_odds_are_each_table_s_odds_on_a_full_shoe():
    answer = catalogue_odds(6)
    counts = count_rounds(full_shoe(6))
    assert [odds.pay_table for odds in answer.tables] == list(CATALOGUE.values())
    assert answer.sequences == counts.sequences
    for odds in answer.tables:
        assert odds == table_odds(odds.pay_table, counts)
        assert odds.hit_frequency == odds.win


@pytest.mark.parametrize(("label", "figure"), DESIGN_FIGURES.items())
def test_house_edges_match_design_section_5(label, figure):
    bet, rules, printed = figure
    odds = analyse(full_shoe(8), rules)
    digits = len(printed.split(".")[1])
    assert percent(odds.bets[bet].house_edge, digits) == printed


def test_the_answer_covers_every_bet_the_table_offers_and_no_other():
    for rules in ALL_RULES:
        assert tuple(analyse(full_shoe(8), rules).bets) == rules.bet_types


def test_probabilities_are_written_with_eighteen_significant_digits():
    odds = analyse(full_shoe(8), TABLES["standard"].rules)
    assert decimal_text(odds.probabilities["banker"]) == "0.458597422632762973"
    assert decimal_text(odds.probabilities["tie"]) == "0.0951559680236401914"
    assert decimal_text(odds.bets[BetType.BANKER].expected_value) == "-0.0105790578424720118"


# --- a brute force over every ordering of small shoes -------------------------


def brute_force(held: list[Card], rules: Rules) -> tuple[int, Counter[str], dict[BetType, Counter[str]]]:
    """Deal every ordering of the physical cards ``held`` one card at a time
    until the round ends, and settle every bet on each round with the
    engine's settlement. A round that ends after ``k`` cards stands for the
    ways to put any of the cards left in the other ``6 - k`` places."""
    events: Counter[str] = Counter()
    bets: dict[BetType, Counter[str]] = {bet: Counter() for bet in rules.bet_types}
    sequences = 0

    def walk(dealt: list[Card], left: list[Card]) -> None:
        nonlocal sequences
        try:
            coup = deal(dealt)
        except MissingCard:
            for index, next_card in enumerate(left):
                walk([*dealt, next_card], left[:index] + left[index + 1 :])
            return
        weight = 1
        for place in range(6 - len(dealt)):
            weight *= len(left) - place
        sequences += weight
        for event in EVENTS:
            events[event.name] += weight * event.applies(coup)
        for bet in rules.bet_types:
            settled = settle_bet(Bet(type=bet, amount=STAKE), coup, rules)
            bets[bet][settled.result] += weight
            bets[bet]["net"] += weight * int((settled.returned - settled.amount) * 100)

    walk([], list(held))
    return sequences, events, bets


def assert_matches_brute_force(held: list[Card], rules: Rules) -> None:
    odds = analyse(composition_of(held), rules)
    sequences, events, bets = brute_force(held, rules)
    assert odds.sequences == sequences
    assert dict(odds.counts) == {event.name: events[event.name] for event in EVENTS}
    for bet, tally in bets.items():
        found = odds.bets[bet]
        assert found.win == Fraction(tally["win"], sequences), bet
        assert found.push == Fraction(tally["push"], sequences), bet
        assert found.lose == Fraction(tally["lose"], sequences), bet
        assert found.expected_value == Fraction(tally["net"], sequences * 100 * 100), bet


# Ten cards with every kind of pair: two identical cards, a rank in two suits, two ten-valued ranks.
DEPLETED = "9S 9S 9H KD QD 2C 6H 6H 3S AD"


@pytest.mark.parametrize("rules", ALL_RULES, ids=PLAIN)
def test_a_depleted_shoe_matches_dealing_every_ordering(rules):
    assert_matches_brute_force(cards(DEPLETED), rules)


@settings(max_examples=25, deadline=None)
@given(held=shoe_sequence(min_size=MIN_CARDS, max_size=9), table=st.sampled_from(PLAIN))
def test_any_small_shoe_matches_dealing_every_ordering(held, table):
    assert_matches_brute_force(held, TABLES[table].rules)


@settings(max_examples=200, deadline=None)
@given(dealt=shoe_sequence(min_size=6, max_size=6))
def test_a_signature_stands_for_every_round_that_has_it(dealt):
    coup = deal(dealt)
    example: Coup = signature_coup(Signature.of(coup))
    assert Signature.of(example) == Signature.of(coup)
    for rules in ALL_RULES:
        for bet in BetType:
            assert payout(bet, example, rules) == payout(bet, coup, rules)
    assert [event.applies(example) for event in EVENTS] == [event.applies(coup) for event in EVENTS]


# --- invariants over any shoe ------------------------------------------------

shoe_counts = st.lists(st.integers(0, 8), min_size=52, max_size=52).filter(lambda c: sum(c) >= MIN_CARDS)


@settings(max_examples=60, deadline=None)
@given(counts=shoe_counts, table=st.sampled_from(list(TABLES)))
def test_each_bets_results_and_lines_add_up_to_exactly_one(counts, table):
    odds = analyse(Composition(8, tuple(counts)), TABLES[table].rules)
    for bet in odds.bets.values():
        assert bet.win + bet.push + bet.lose == 1
        assert sum(line.probability for line in bet.lines) == 1
        assert bet.house_edge == -bet.expected_value
    assert odds.counts["banker"] + odds.counts["player"] + odds.counts["tie"] == odds.sequences
    assert odds.counts["four_cards"] + odds.counts["five_cards"] + odds.counts["six_cards"] == odds.sequences


@settings(max_examples=60, deadline=None)
@given(counts=shoe_counts)
def test_pairs_follow_the_closed_form_and_both_hands_alike(counts):
    composition = Composition(8, tuple(counts))
    odds = analyse(composition, TABLES["standard"].rules)
    total = composition.total
    same_rank = sum(n * (n - 1) for n in composition.by_rank.values())
    same_card = sum(n * (n - 1) for n in composition.counts)
    # The Player's first two cards are any two of the shoe's cards.
    assert odds.probabilities["player_pair"] == Fraction(same_rank, total * (total - 1))
    assert odds.probabilities["player_perfect_pair"] == Fraction(same_card, total * (total - 1))
    for event in ("pair", "perfect_pair", "natural", "wins_with_natural"):
        assert odds.counts[f"player_{event}"] == odds.counts[f"banker_{event}"]


@settings(max_examples=30, deadline=None)
@given(counts=shoe_counts)
def test_the_counts_are_the_sequences_of_six_cards(counts):
    composition = Composition(8, tuple(counts))
    total = composition.total
    counted = count_rounds(composition)
    assert counted.sequences == total * (total - 1) * (total - 2) * (total - 3) * (total - 4) * (total - 5)
    assert sum(count for _, count in counted.items()) == counted.sequences


def test_six_cards_are_enough_to_finish_any_round():
    held = cards("AS 2S 3S 4S 5S 6S")
    odds = analyse(composition_of(held), TABLES["standard"].rules)
    assert odds.sequences == 720
    assert_matches_brute_force(held, TABLES["ez"].rules)


# --- compositions ---------------------------------------------------------------


def test_removing_cards_equals_counting_what_is_left():
    removed = cards("9S KH 2D 7C 5H 9S")
    left = list(shoe(8))
    for dealt in removed:
        left.remove(dealt)
    assert after_removing(8, removed) == composition_of(left)


def test_rank_counts_spread_each_rank_over_the_suits():
    counts = dict.fromkeys(RANKS, 32) | {"A": 30, "K": 1}
    composition = from_rank_counts(8, counts)
    assert composition.suits_of("A") == (8, 8, 7, 7)
    assert composition.suits_of("K") == (1, 0, 0, 0)
    assert composition.by_rank == counts


def test_full_rank_counts_are_the_full_shoe():
    assert from_rank_counts(6, dict.fromkeys(RANKS, 24)) == full_shoe(6)


@pytest.mark.parametrize("number", [1, 2, 30])
def test_a_seeded_shoe_before_a_round_holds_what_that_round_and_later_ones_deal_from(number):
    inputs = SeedInputs("odds-seed", "client", 3)
    seeded = before_round(8, inputs, number)
    dealt = deal_shoe(seeded_shoe(8, inputs)[0])
    start = dealt.rounds[number - 1].start
    assert seeded.place.position == start
    assert seeded.composition == composition_of(list(dealt.cards[start:]))
    assert seeded.composition.total == 416 - dealt.burn_count - sum(
        r.coup.cards_used for r in dealt.rounds[: number - 1]
    )


def test_shoe_odds_reads_each_kind_of_shoe():
    rules = TABLES["standard"].rules
    assert shoe_odds(rules).shoe.source == "full"
    assert shoe_odds(rules, removed=cards("AS")).shoe.cards == 415
    assert shoe_odds(rules, counts=dict.fromkeys(RANKS, 4)).shoe.cards == 52
    seeded = shoe_odds(rules, seed="odds-seed", round_number=2)
    assert (seeded.shoe.source, seeded.shoe.place and seeded.shoe.place.round) == ("seed", 2)


# --- shoes that cannot be analysed ----------------------------------------------


def problems(error: BaccaratError) -> list[tuple[tuple[str | int, ...], str]]:
    return [(problem.path, problem.detail) for problem in error.problems]


def test_a_card_removed_more_often_than_the_shoe_holds_it_is_refused():
    with pytest.raises(CardError) as caught:
        after_removing(1, cards("AS KH AS"))
    assert [path for path, _ in problems(caught.value)] == [("removed", 2)]


@pytest.mark.parametrize("left", [0, 1, MIN_CARDS - 1])
def test_fewer_than_six_cards_left_is_refused(left):
    removed = list(shoe(1))[left:]
    with pytest.raises(ShoeError) as caught:
        after_removing(1, removed)
    [(path, detail)] = problems(caught.value)
    assert path == ("removed",)
    assert f"leaves {left} card(s)" in detail


def test_exactly_six_cards_left_is_accepted():
    assert after_removing(1, list(shoe(1))[MIN_CARDS:]).total == MIN_CARDS


@pytest.mark.parametrize(
    ("counts", "error", "path"),
    [
        ({"A": 33}, CardError, ("counts", "A")),
        ({"7": -1}, CardError, ("counts", "7")),
        (dict.fromkeys(RANKS, 0) | {"5": 5}, ShoeError, ("counts",)),
    ],
)
def test_impossible_rank_counts_are_refused(counts, error, path):
    with pytest.raises(error) as caught:
        from_rank_counts(8, dict.fromkeys(RANKS, 32) | counts)
    assert path in [p for p, _ in problems(caught.value)]


def test_counts_over_what_the_decks_hold_are_refused():
    with pytest.raises(CardError) as caught:
        from_rank_counts(6, dict.fromkeys(RANKS, 24) | {"Q": 25})
    assert problems(caught.value) == [(("counts", "Q"), "25 is more Qs than a 6-deck shoe holds (24)")]


def test_a_round_past_the_seeded_shoes_end_is_refused():
    with pytest.raises(ShoeError) as caught:
        before_round(1, "short", 40, cut_card=14)
    assert [path for path, _ in problems(caught.value)] == [("round",)]


@pytest.mark.parametrize(
    ("kwargs", "error", "path"),
    [
        ({"removed": cards("AS"), "counts": dict.fromkeys(RANKS, 4)}, ShoeError, ("counts",)),
        ({"round_number": 3}, ShoeError, ("round",)),
        ({"seed": "abc", "commitment": "0" * 64}, SeedError, ("server_seed_hash",)),
    ],
)
def test_a_shoe_described_inconsistently_is_refused(kwargs, error, path):
    with pytest.raises(error) as caught:
        shoe_odds(TABLES["standard"].rules, **kwargs)
    assert path in [p for p, _ in problems(caught.value)]


@settings(max_examples=20, deadline=None)
@given(removed=st.lists(card, max_size=30))
def test_removed_cards_are_refused_exactly_when_one_is_removed_too_often(removed):
    too_often = any(count > 1 for count in Counter(removed).values())
    if too_often:
        with pytest.raises(CardError):
            after_removing(1, removed)
    else:
        odds: Odds = shoe_odds(Rules(decks=1, limits=TABLES["standard"].rules.limits), removed=removed)
        assert odds.shoe.cards == 52 - len(removed)


def test_odds_leave_nothing_behind_in_the_engine():
    shoe_odds(TABLES["standard"].rules)
    before = engine_state()
    for index, commission in enumerate(("0.04", "0.045", "0.05")):
        rules = replace(TABLES["standard"].rules, commission=Decimal(commission))
        shoe_odds(rules, removed=DECK[index : index + 3])
        shoe_odds(rules, counts=dict.fromkeys(RANKS, 32) | {"A": 30 - index})
    assert engine_state() == before
