"""Peek Baccarat: the cards shown and never the hidden ones, keep, double
and triple settled exactly with the fee kept, and every misuse refused at
the field that carries it."""

from collections import Counter
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.baccarat.bets.types import Bet, BetType
from service.baccarat.peek.round import (
    PEEK,
    POSITIONS,
    Choice,
    PeekRound,
    PeekView,
    Position,
    fee_of,
    first_four,
    peek,
    shown_masks,
    shown_positions,
)
from service.baccarat.play.round import play_and_settle
from service.baccarat.rulebook.errors import BetError, CardError, MissingCard, SeedError
from service.baccarat.shoes.shuffle import SeedInputs
from service.baccarat.tables.rules import resolve_rules
from tests.conftest import cards

RULES = resolve_rules()
# P 9S 2D 5H = 6, B KH 7C = 7: the Banker wins.
BANKER_WINS = cards("9S KH 2D 7C 5H")
# P 7S 2H = 9, B 7C 7D = 4: a Player natural.
PLAYER_NATURAL = cards("7S 7C 2H 7D")
# P 3S 3H = 6, B 2C 4D = 6: both stand, a tie.
TIE = cards("3S 2C 3H 4D")
FIRST_ONLY = (Position.PLAYER_FIRST,)


def bet(kind: str, amount: str, id: str | None = None) -> Bet:
    return Bet(type=BetType(kind), amount=Decimal(amount), id=id)


@pytest.mark.parametrize(
    ("kind", "stake", "fee"),
    [
        ("player", "5", "1.00"),
        ("banker", "25.00", "5.00"),
        ("banker", "2.55", "0.51"),
        ("tie", "5", "0.00"),
        ("player_pair", "5", "0.00"),
    ],
)
def test_the_fee_is_20_percent_of_the_player_or_banker_stake_only(kind, stake, fee):
    assert fee_of(bet(kind, stake), RULES) == Decimal(fee)


def test_a_5_bet_costs_6():
    view = peek(RULES, cards=BANKER_WINS, shown=FIRST_ONLY, bets=(bet("player", "5"),))
    assert isinstance(view, PeekView)
    assert view.cost == Decimal("6.00")


@pytest.mark.parametrize("count", [1, 2, 3, 4])
def test_the_first_answer_shows_only_the_cards_shown(count):
    shown = POSITIONS[:count]
    view = peek(RULES, cards=BANKER_WINS, shown=shown, bets=(bet("banker", "10"),))
    assert isinstance(view, PeekView)
    four = dict(zip(POSITIONS, first_four(play_and_settle(RULES, (), cards=BANKER_WINS).coup), strict=True))
    assert view.shown == tuple((p, four[p]) for p in shown)
    assert view.hidden == POSITIONS[count:]
    held = {card for _, card in view.shown}
    assert not held & {four[p] for p in view.hidden}
    assert cards("5H")[0] not in held  # nor any third card


@pytest.mark.parametrize("count", [4, 5])
def test_a_live_table_peeks_from_the_cards_dealt_so_far(count):
    """A studio peeks before the third cards are out: the first call from the
    four (or five) cards dealt so far shows what the whole round's would."""
    whole = peek(RULES, cards=BANKER_WINS, shown=POSITIONS[:2], bets=(bet("banker", "10"),))
    so_far = peek(RULES, cards=BANKER_WINS[:count], shown=POSITIONS[:2], bets=(bet("banker", "10"),))
    assert so_far == whole


def test_a_live_peek_needs_the_first_four_cards_each_as_often_as_the_shoe_holds_it():
    with pytest.raises(MissingCard) as missing:
        peek(RULES, cards=BANKER_WINS[:3], shown=POSITIONS[:1])
    assert [problem.path for problem in missing.value.problems] == [("cards", 3)]
    with pytest.raises(CardError) as repeated:
        peek(resolve_rules("standard", {"decks": 1}), cards=cards("9S 9S 2D 7C"), shown=POSITIONS[:1])
    assert [problem.path for problem in repeated.value.problems] == [("cards", 1)]
    with pytest.raises(MissingCard):  # the decision settles the round: it needs every card
        peek(RULES, cards=BANKER_WINS[:4], shown=POSITIONS[:1], bets=(bet("banker", "10"),), decision={})


@given(st.text(min_size=1, max_size=20), st.text(max_size=10), st.integers(0, 1000))
def test_a_seeded_first_answer_holds_no_hidden_card_nor_the_seed(server, client, nonce):
    seed = SeedInputs(server, client, nonce)
    view = peek(RULES, seed=seed, bets=(bet("player", "10"),))
    assert isinstance(view, PeekView)
    four = dict(zip(POSITIONS, first_four(play_and_settle(RULES, (), seed=seed).coup), strict=True))
    assert [p for p, _ in view.shown] == list(shown_positions(seed))
    assert all(four[p] == card for p, card in view.shown)
    assert not hasattr(view, "seed")
    assert not hasattr(view, "played")


@pytest.mark.parametrize(
    ("choice", "staked", "returned", "cost", "net"),
    [
        # Banker 10 wins 9.50; the fee 2.00 is kept.
        (Choice.KEEP, "10.00", "19.50", "12.00", "7.50"),
        (Choice.DOUBLE, "20.00", "39.00", "22.00", "17.00"),
        (Choice.TRIPLE, "30.00", "58.50", "32.00", "26.50"),
    ],
)
def test_keep_double_and_triple_are_settled_exactly_with_the_fee_kept(choice, staked, returned, cost, net):
    done = peek(
        RULES,
        cards=BANKER_WINS,
        shown=FIRST_ONLY,
        bets=(bet("banker", "10"),),
        decision={BetType.BANKER: choice},
    )
    assert isinstance(done, PeekRound)
    slip = done.played.settlement
    assert slip is not None
    assert (slip.staked, slip.returned) == (Decimal(staked), Decimal(returned))
    assert (done.fee, done.cost, done.net) == (Decimal("2.00"), Decimal(cost), Decimal(net))


def test_a_losing_raise_loses_the_raised_stake_and_the_fee():
    done = peek(
        RULES,
        cards=PLAYER_NATURAL,
        shown=POSITIONS,
        bets=(bet("banker", "10"), bet("tie", "5")),
        decision={BetType.BANKER: Choice.TRIPLE},
    )
    assert isinstance(done, PeekRound)
    assert (done.cost, done.returned, done.net) == (Decimal("37.00"), Decimal("0.00"), Decimal("-37.00"))


def test_a_tie_pushes_the_raised_stake_but_keeps_the_fee():
    done = peek(
        RULES,
        cards=TIE,
        shown=FIRST_ONLY,
        bets=(bet("player", "5"),),
        decision={BetType.PLAYER: Choice.DOUBLE},
    )
    assert isinstance(done, PeekRound)
    assert (done.cost, done.returned, done.net) == (Decimal("11.00"), Decimal("10.00"), Decimal("-1.00"))


def test_a_bet_the_decision_does_not_name_is_kept():
    bets = (bet("player", "10"), bet("banker", "10"), bet("player_pair", "5"))
    done = peek(RULES, cards=TIE, shown=FIRST_ONLY, bets=bets, decision={BetType.PLAYER: Choice.TRIPLE})
    assert isinstance(done, PeekRound)
    assert done.played.settlement is not None
    assert [b.amount for b in done.played.settlement.bets] == [
        Decimal("30.00"),
        Decimal("10.00"),
        Decimal("5.00"),
    ]


@pytest.mark.parametrize(
    "source", [{"cards": BANKER_WINS, "shown": FIRST_ONLY}, {"seed": SeedInputs("s", "c", 3)}]
)
def test_the_second_call_settles_the_round_the_first_showed(source):
    bets = (bet("banker", "10"),)
    view = peek(RULES, bets=bets, **source)
    done = peek(RULES, bets=bets, decision={BetType.BANKER: Choice.DOUBLE}, **source)
    assert isinstance(view, PeekView)
    assert isinstance(done, PeekRound)
    four = dict(zip(POSITIONS, first_four(done.played.coup), strict=True))
    assert all(four[p] == card for p, card in view.shown)
    assert done.shown == tuple(p for p, _ in view.shown)
    assert (
        done.played.coup
        == play_and_settle(RULES, (), **{k: v for k, v in source.items() if k != "shown"}).coup
    )


@pytest.mark.parametrize(
    ("bets", "decision", "path", "words"),
    [
        ((bet("tie", "5"),), {BetType.TIE: Choice.DOUBLE}, ("decision", "tie"), "only the Player and Banker"),
        ((bet("banker", "5"),), {BetType.PLAYER_PAIR: Choice.KEEP}, ("decision", "player_pair"), "only"),
        ((bet("banker", "5"),), {BetType.PLAYER: Choice.DOUBLE}, ("decision", "player"), "no player bet"),
        ((bet("banker", "80"),), {BetType.BANKER: Choice.TRIPLE}, ("decision", "banker"), "240.00, over"),
        (
            (bet("banker", "60"), bet("banker", "50")),
            {BetType.BANKER: Choice.DOUBLE},
            ("decision", "banker"),
            "220.00, over the table maximum of 200.00",
        ),
    ],
)
def test_a_decision_that_cannot_be_applied_is_refused_at_its_key(bets, decision, path, words):
    with pytest.raises(BetError) as raised:
        peek(RULES, cards=BANKER_WINS, shown=FIRST_ONLY, bets=bets, decision=decision)
    (problem,) = raised.value.problems
    assert problem.path == path
    assert words in problem.detail


def test_a_double_up_to_the_maximum_is_allowed_and_the_choices_say_so():
    bets = (bet("banker", "80"),)
    view = peek(RULES, cards=BANKER_WINS, shown=FIRST_ONLY, bets=bets)
    assert isinstance(view, PeekView)
    assert view.fees[0].choices == (Choice.KEEP, Choice.DOUBLE)
    done = peek(
        RULES, cards=BANKER_WINS, shown=FIRST_ONLY, bets=bets, decision={BetType.BANKER: Choice.DOUBLE}
    )
    assert isinstance(done, PeekRound)


def test_a_stake_whose_fee_is_not_whole_minor_units_is_refused_not_rounded():
    with pytest.raises(BetError) as raised:
        peek(RULES, cards=BANKER_WINS, shown=FIRST_ONLY, bets=(bet("banker", "1.01"),))
    (problem,) = raised.value.problems
    assert problem.path == ("bets", 0, "amount")
    assert "0.202" in problem.detail


def test_the_slip_is_checked_against_the_table_as_on_any_round():
    with pytest.raises(BetError) as raised:
        peek(RULES, cards=BANKER_WINS, shown=FIRST_ONLY, bets=(bet("banker", "0.50"),))
    assert raised.value.problems[0].path[:2] == ("bets", 0)


def test_cards_need_the_positions_shown_and_a_round_needs_cards_or_a_seed():
    with pytest.raises(SeedError) as raised:
        peek(RULES, cards=BANKER_WINS)
    assert raised.value.problems[0].path == ("shown",)
    with pytest.raises(SeedError) as raised:
        peek(RULES, shown=FIRST_ONLY)
    assert raised.value.problems[0].path == ("cards",)


def test_the_masks_weigh_each_count_as_the_rule_says_and_each_subset_of_a_count_alike():
    by_count: Counter[int] = Counter()
    for mask, weight in shown_masks(PEEK.shown_weights):
        by_count[mask.bit_count()] += weight
    assert {count: weight // 12 for count, weight in by_count.items()} == dict(PEEK.shown_weights)
    weights = dict(shown_masks(PEEK.shown_weights))
    assert weights[0b0001] == weights[0b1000]
    assert weights[0b0011] == weights[0b1100]


def test_the_cards_shown_depend_on_the_seed_inputs_and_the_round_only():
    seed = SeedInputs("table-7/shoe-1", "lucky-7", 1)
    assert shown_positions(seed) == shown_positions(SeedInputs("table-7/shoe-1", "lucky-7", 1))
    drawn = {shown_positions(seed, n) for n in range(1, 60)}
    assert len(drawn) > 5
    assert all(1 <= len(s) <= 4 for s in drawn)
