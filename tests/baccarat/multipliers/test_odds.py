"""Exact returns of multiplier bets, held to two other methods: an enumeration
over which counted cards are lit (exactly equal, as fractions), every deal of
small shoes played by the engine (exactly equal), and a seeded simulation of
10**6 rounds (within its confidence interval); each preset's return against
the one its operator publishes, and docs/multipliers.md's table of them."""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from fractions import Fraction
from functools import cache
from itertools import product
from math import comb, prod, sqrt
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.baccarat.bets.types import Bet, BetType
from service.baccarat.counting.round_counts import count_rounds
from service.baccarat.multipliers.cards import counted_cards, studio_multiplier_cards
from service.baccarat.multipliers.odds import (
    PARTITIONS,
    _structure,
    bet_return,
    build_structure,
    expected_multiplier,
    largest_pays,
    multiplier_returns,
    pattern_counts,
)
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.multipliers.rule import (
    MULTIPLIED_BETS,
    VIRTUAL_DECK,
    Counted,
    Fee,
    MultipliedPay,
    MultiplierRule,
)
from service.baccarat.multipliers.settlement import settle_multiplier_slip
from service.baccarat.odds.exact import decimal_text
from service.baccarat.play.round import play_and_settle
from service.baccarat.rulebook.cards import DECK, RANKS, Card
from service.baccarat.rulebook.coup import deal
from service.baccarat.rulebook.tableau import banker_draws, player_draws
from service.baccarat.shoes.composition import Composition, after_removing, from_rank_counts, full_shoe
from service.baccarat.tables.rules import resolve_rules
from tests import strategies
from tests.conftest import cards
from tests.multiplier_rounds import most_lit

DOC = Path(__file__).parents[3] / "docs" / "multipliers.md"


@pytest.fixture(scope="module")
def eight_decks():
    return pattern_counts(full_shoe(8))


def lit_enumeration(rule: MultiplierRule, pattern: tuple[int, ...], power: int = 1) -> Fraction:
    """``E[M ** power]`` by going over every way the pattern's distinct cards
    can come out of the multiplier draw: each card unlit, or lit with each
    multiplier. ``K`` cards of 52 are lit, uniformly: ``s`` given cards are
    exactly the lit ones among ``r`` in ``comb(52 - r, K - s)`` of the
    ``comb(52, K)`` draws."""
    r = len(pattern)
    counts = dict(rule.card_weights)
    values = dict(rule.multiplier_weights)
    card_total, value_total = sum(counts.values()), sum(values.values())
    by_lit: Counter[int] = Counter()  # lit cards -> sum of (weights * multiplier) over the ways
    for choice in product([None, *values], repeat=r):
        lit = [(value, times) for value, times in zip(choice, pattern, strict=True) if value is not None]
        by_lit[len(lit)] += prod(values[value] * value ** (times * power) for value, times in lit)
    total = Fraction(0)
    for lit_cards, weighted in by_lit.items():
        exactly = sum(
            Fraction(
                weight * comb(VIRTUAL_DECK - r, count - lit_cards), card_total * comb(VIRTUAL_DECK, count)
            )
            for count, weight in counts.items()
            if count >= lit_cards  # fewer lit cards than that cannot all be among ours
        )
        total += exactly * Fraction(weighted, value_total**lit_cards)
    return total


@pytest.mark.parametrize("name", PRESETS)
def test_the_expected_multiplier_of_every_pattern_is_the_enumeration_s(name):
    rule = PRESETS[name].rule
    for pattern in PARTITIONS:
        for power in (1, 2):
            assert expected_multiplier(rule, pattern, power=power) == lit_enumeration(rule, pattern, power)


@settings(max_examples=30, deadline=None)
@given(
    counts=st.dictionaries(st.integers(1, 52), st.integers(1, 9), min_size=1, max_size=4),
    values=st.dictionaries(st.integers(2, 20), st.integers(1, 9), min_size=1, max_size=3),
    pattern=st.sampled_from(PARTITIONS[:16]),
)
def test_any_weights_give_the_enumeration_s_expected_multiplier(counts, values, pattern):
    rule = MultiplierRule(cards=counts, multipliers=values, pays=PRESETS["lightning"].rule.pays)
    assert expected_multiplier(rule, pattern) == lit_enumeration(rule, pattern)


def test_nothing_lit_is_a_multiplier_of_one():
    rule = PRESETS["golden_wealth"].rule
    assert expected_multiplier(rule, ()) == 1
    # One card, lit by one of 5 of the 52 cards, with a multiplier of 2.9 on average.
    assert expected_multiplier(rule, (1,)) == 1 + Fraction(5, 52) * (
        Fraction(2 * 50 + 3 * 42 + 5 * 7 + 8, 100) - 1
    )


@pytest.mark.parametrize("name", PRESETS)
def test_every_bet_returns_what_the_enumeration_returns(name, eight_decks):
    """The second method: each pattern's probability times what the lit
    enumeration expects of it, summed bet by bet, exactly."""
    rule = PRESETS[name].rule
    for bet in rule.bet_types:
        pay = rule.pays[bet]
        expected = Fraction(eight_decks.pushes.get(bet, 0), eight_decks.sequences)
        for pattern, count in eight_decks.wins[bet, pay.counted].items():
            multiplier = lit_enumeration(rule, pattern)
            back = 1 - Fraction(pay.stake_kept) + Fraction(pay.pays) * multiplier
            expected += Fraction(count, eight_decks.sequences) * back
        assert bet_return(rule, bet, eight_decks).returned == expected


def test_the_patterns_count_every_round_once(eight_decks):
    """Outcomes and pairs as the odds engine counts them, over the same
    ordered six-card sequences (DESIGN §8)."""
    assert eight_decks.sequences == 4_998_398_275_503_360
    assert sum(eight_decks.wins[BetType.BANKER, Counted.WINNING_HAND].values()) == 2_292_252_566_437_888
    assert sum(eight_decks.wins[BetType.PLAYER, Counted.WINNING_HAND].values()) == 2_230_518_282_592_256
    assert sum(eight_decks.wins[BetType.TIE, Counted.ALL_CARDS].values()) == 475_627_426_473_216
    assert eight_decks.pushes == {BetType.PLAYER: 475_627_426_473_216, BetType.BANKER: 475_627_426_473_216}
    for bet in (BetType.PLAYER, BetType.BANKER, BetType.TIE):
        by_all = eight_decks.wins[bet, Counted.ALL_CARDS]
        assert sum(by_all.values()) == eight_decks.wins[bet, Counted.NONE][()]
        assert {sum(pattern) for pattern in by_all} == {4, 5, 6}
    assert {sum(pattern) for pattern in eight_decks.wins[BetType.PLAYER, Counted.WINNING_HAND]} == {2, 3}
    pairs = eight_decks.wins[BetType.PLAYER_PAIR, Counted.PAIRED_CARDS]
    assert set(pairs) == {(1, 1), (2,)}
    # 8 decks: the second card is the first's rank in 31 of 415 cards, its very card in 7.
    assert Fraction(pairs[(2,)], eight_decks.sequences) == Fraction(7, 415)
    assert Fraction(sum(pairs.values()), eight_decks.sequences) == Fraction(31, 415)


@pytest.mark.parametrize(
    "composition",
    [
        after_removing(8, cards("AS AS 7H 7H 7H KD 2C 9S 9S 5D")),
        from_rank_counts(6, {rank: 24 - index % 5 for index, rank in enumerate(RANKS)}),
        full_shoe(1),
    ],
    ids=["removed", "rank_counts", "one_deck"],
)
def test_a_depleted_shoe_s_patterns_count_its_rounds(composition):
    counts, rounds = pattern_counts(composition), count_rounds(composition)
    assert counts.sequences == rounds.sequences
    for bet in (BetType.PLAYER, BetType.BANKER, BetType.TIE):
        won = sum(count for signature, count in rounds.items() if signature.outcome == bet)
        assert sum(counts.wins[bet, Counted.ALL_CARDS].values()) == won
    if composition.decks == 1:  # one deck: no card twice
        assert all(max(pattern) == 1 for where, by in counts.wins.items() for pattern in by if pattern)


#: Small shoes whose every deal the engine plays: ties, pairs, perfect pairs,
#: third cards and the same card twice in a hand all happen.
SMALL_SHOES = {
    "aces_and_nines": "AS AS AH 9S KS KS 5D 2C 3H",
    "threes_and_courts": "3S 3S 3S 3H KH KH QD 4C 6S",
}


def every_deal(composition: Composition):
    """Each ordered six-card sequence ``composition`` can deal, as cards, with
    the ordered ways to deal it (a product of falling counts)."""
    counts = list(composition.counts)

    def deals(prefix, ways):
        if len(prefix) == 6:
            yield prefix, ways
            return
        for index, count in enumerate(counts):
            if count:
                counts[index] -= 1
                yield from deals((*prefix, DECK[index]), ways * count)
                counts[index] += 1

    yield from deals((), 1)


@pytest.mark.parametrize("shoe", SMALL_SHOES)
def test_every_deal_of_a_small_shoe_returns_what_the_counts_say(shoe):
    """The whole method against the engine's own play: every deal dealt by
    the tableau (:func:`.coup.deal`), each bet settled on its counted cards
    (:func:`.counted_cards`), its multiplier expected by the lit enumeration."""
    composition = Composition(8, tuple(Counter(cards(SMALL_SHOES[shoe]))[card] for card in DECK))
    rule = MultiplierRule(
        cards={1: 2, 3: 1},
        multipliers={2: 3, 5: 1},
        pays={
            **PRESETS["lightning"].rule.pays,
            BetType.PLAYER: MultipliedPay(pays=Decimal(1), counted=Counted.ALL_CARDS),
        },
        fee=Fee(rate=Decimal("0.2"), bets=MULTIPLIED_BETS, returned_on_push=True),
    )
    multiplier = cache(lambda pattern: lit_enumeration(rule, pattern))
    returned: Counter[BetType] = Counter()
    total = 0
    for dealt, ways in every_deal(composition):
        coup = deal(dealt)
        total += ways
        for bet, pay in rule.pays.items():
            won = {
                BetType.PLAYER: coup.outcome == "player",
                BetType.BANKER: coup.outcome == "banker",
                BetType.TIE: coup.outcome == "tie",
                BetType.PLAYER_PAIR: coup.player.pair,
                BetType.BANKER_PAIR: coup.banker.pair,
            }[bet]
            if won:
                counted = counted_cards(coup, bet, pay.counted)
                pattern = tuple(sorted(Counter(counted).values(), reverse=True))
                returned[bet] += ways * (
                    1 - Fraction(pay.stake_kept) + Fraction(pay.pays) * multiplier(pattern)
                )
            elif coup.outcome == "tie" and bet in (BetType.PLAYER, BetType.BANKER):
                returned[bet] += ways * (1 + Fraction(rule.fee.rate))  # the fee comes back on a push here
    answers = multiplier_returns(rule, composition)
    assert answers.sequences == total
    for bet in rule.bet_types:
        assert answers.bets[bet].returned == Fraction(returned[bet]) / total, bet


def test_what_a_bet_return_says():
    rule = PRESETS["prosperity_tree"].rule
    player = multiplier_returns(rule).bets[BetType.PLAYER]
    assert player.cost == Fraction(6, 5)
    assert player.win == Fraction(2_230_518_282_592_256, 4_998_398_275_503_360)
    assert player.push == Fraction(475_627_426_473_216, 4_998_398_275_503_360)
    assert player.rtp == player.returned / player.cost
    assert player.house_edge == 1 - player.rtp
    assert 1 < player.multiplier < 27
    assert [sum(line.pattern) for line in player.lines] == [
        3,
        3,
        3,
        2,
        2,
    ]  # (3,), (2, 1), (1, 1, 1), (2,), (1, 1)


def published(text: str) -> Fraction:
    return Fraction(Decimal(text.rstrip("%"))) / 100


@pytest.mark.parametrize("name", PRESETS)
def test_each_preset_returns_within_a_tenth_of_a_point_of_what_its_operator_publishes(name):
    preset = PRESETS[name]
    answers = multiplier_returns(preset.rule)
    assert preset.published
    for bet, figure in preset.published.items():
        assert abs(answers.bets[bet].rtp - published(figure)) < Fraction(1, 1000), (bet, figure)


def test_docs_multipliers_md_gives_each_preset_s_exact_returns():
    """The table between the markers: each preset's return per bet, to four
    decimals of a percent, as :func:`multiplier_returns` computes it."""
    text = DOC.read_text(encoding="utf-8")
    table = re.search(r"<!-- returns -->\n(.*?)<!-- /returns -->", text, re.DOTALL)
    assert table, "docs/multipliers.md has no <!-- returns --> table"
    rows = [line for line in table.group(1).splitlines() if line.startswith("| `")]
    shown = {}
    for row in rows:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        shown[cells[0].strip("`"), cells[1].strip("`")] = cells[2]
    expected = {}
    for name, preset in PRESETS.items():
        for bet, answer in multiplier_returns(preset.rule).bets.items():
            expected[name, str(bet)] = decimal_text(answer.rtp * 100, 6) + "%"
    assert shown == expected


# The simulation: rounds dealt by numpy from an 8-deck shoe, the tableau
# applied by table lookup, the multiplier cards drawn as the rules say.

_POINTS = np.array([card.points for card in DECK])
_RANKS = np.array([RANKS.index(card.rank) for card in DECK])
_PLAYER_DRAWS = np.array([t < 8 and player_draws(t)[0] for t in range(10)])
_BANKER_DRAWS_STOOD = np.array([t < 8 and banker_draws(t, None)[0] for t in range(10)])
_BANKER_DRAWS = np.array([[t < 8 and banker_draws(t, x)[0] for x in range(10)] for t in range(10)])


def simulated_returns(rules: dict[str, MultiplierRule], rounds: int, seed: int, chunk: int = 100_000):
    """The mean return per unit of cost of each bet of each rule over ``rounds`` simulated rounds."""
    rng = np.random.default_rng(seed)
    sums = {name: Counter() for name in rules}
    rows = np.arange(chunk)[:, None]
    for _ in range(rounds // chunk):
        positions = rng.integers(0, 52 * 8, size=(chunk, 6))
        while True:  # six different cards of the shoe
            ordered = np.sort(positions, axis=1)
            repeated = (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)
            if not repeated.any():
                break
            positions[repeated] = rng.integers(0, 52 * 8, size=(int(repeated.sum()), 6))
        card = positions % 52  # the shoe holds 8 copies of the deck
        value = _POINTS[card]
        player, banker = (value[:, 0] + value[:, 2]) % 10, (value[:, 1] + value[:, 3]) % 10
        natural = (player >= 8) | (banker >= 8)
        player_drew = ~natural & _PLAYER_DRAWS[player]
        banker_drew = ~natural & np.where(
            player_drew, _BANKER_DRAWS[banker, value[:, 4]], _BANKER_DRAWS_STOOD[banker]
        )
        banker_third = np.where(player_drew, 5, 4)
        player = np.where(player_drew, (player + value[:, 4]) % 10, player)
        banker = np.where(banker_drew, (banker + value[rows[:, 0], banker_third]) % 10, banker)
        in_player = np.zeros((chunk, 6), dtype=bool)
        in_player[:, [0, 2]] = True
        in_player[:, 4] = player_drew
        in_banker = np.zeros((chunk, 6), dtype=bool)
        in_banker[:, [1, 3]] = True
        in_banker[rows[:, 0], banker_third] |= banker_drew
        dealt = in_player | in_banker
        won = {
            BetType.PLAYER: player > banker,
            BetType.BANKER: banker > player,
            BetType.TIE: player == banker,
            BetType.PLAYER_PAIR: _RANKS[card[:, 0]] == _RANKS[card[:, 2]],
            BetType.BANKER_PAIR: _RANKS[card[:, 1]] == _RANKS[card[:, 3]],
        }
        # A random order of the 52 cards: the first K of it are lit.
        place = np.empty((chunk, 52), dtype=np.int64)
        place[rows, rng.random((chunk, 52)).argsort(axis=1)] = np.arange(52)
        for name, rule in rules.items():
            counts, count_weights = zip(*rule.card_weights, strict=True)
            values, value_weights = zip(*rule.multiplier_weights, strict=True)
            lit_cards = rng.choice(counts, p=np.array(count_weights) / sum(count_weights), size=chunk)
            drawn = rng.choice(values, p=np.array(value_weights) / sum(value_weights), size=(chunk, 52))
            by_card = np.where(place < lit_cards[:, None], drawn, 1)
            on_table = np.take_along_axis(by_card, card, axis=1).astype(np.float64)
            counted = {
                Counted.WINNING_HAND: {
                    BetType.PLAYER: in_player,
                    BetType.BANKER: in_banker,
                },
                Counted.ALL_CARDS: dealt,
            }
            for bet, pay in rule.pays.items():
                if pay.counted is Counted.PAIRED_CARDS:
                    mask = np.zeros((chunk, 6), dtype=bool)
                    mask[:, [0, 2] if bet is BetType.PLAYER_PAIR else [1, 3]] = True
                elif pay.counted is Counted.WINNING_HAND:
                    mask = counted[Counted.WINNING_HAND][bet]
                else:
                    mask = dealt
                multiplier = np.where(mask, on_table, 1.0).prod(axis=1)
                back = np.where(won[bet], 1 - float(pay.stake_kept) + float(pay.pays) * multiplier, 0.0)
                if bet in (BetType.PLAYER, BetType.BANKER):
                    back = np.where(player == banker, 1.0, back)
                sums[name][bet] += float(back.sum()) / (1 + float(rule.fee.rate_on(bet)))
    return {name: {bet: total / rounds for bet, total in by_bet.items()} for name, by_bet in sums.items()}


@pytest.mark.slow
def test_a_million_simulated_rounds_return_what_the_counts_say():
    """Each bet's mean return over 10**6 rounds within 4 standard errors of
    the exact return (the standard error from the exact variance)."""
    rounds = 1_000_000
    rules = {name: preset.rule for name, preset in PRESETS.items()}
    simulated = simulated_returns(rules, rounds, seed=20_250_601)
    for name, rule in rules.items():
        for bet, answer in multiplier_returns(rule).bets.items():
            error = sqrt(answer.variance / rounds)
            assert abs(simulated[name][bet] - float(answer.rtp)) < 4 * error, (name, bet)


def test_a_small_simulation_runs_the_same_code():
    """The simulation itself, briefly (its 10**6 rounds are a slow test)."""
    rules = {"prosperity_tree": PRESETS["prosperity_tree"].rule}
    simulated = simulated_returns(rules, 20_000, seed=7, chunk=10_000)["prosperity_tree"]
    answers = multiplier_returns(rules["prosperity_tree"]).bets
    for bet, mean in simulated.items():
        assert abs(mean - float(answers[bet].rtp)) < 5 * sqrt(answers[bet].variance / 20_000), bet


def test_a_bet_the_shoe_can_no_longer_win_expects_no_multiplier():
    """A single deck of clubs down to 7C..KC deals no pair: the pairs return
    nothing and no win expects a multiplier (0/0 is not a number)."""
    from service.baccarat.rulebook.cards import parse_card
    from service.baccarat.shoes.composition import after_removing

    removed = [parse_card(rank + suit) for suit in "SHD" for rank in "A23456789TJQK"]
    removed += [parse_card(rank + "C") for rank in "A23456"]
    returns = multiplier_returns(PRESETS["lightning"].rule, after_removing(1, removed))
    pair = returns.bets[BetType.PLAYER_PAIR]
    assert (pair.win, pair.multiplier, pair.rtp) == (0, None, 0)
    assert returns.bets[BetType.PLAYER].multiplier > 1


@pytest.mark.parametrize(
    ("preset", "bet", "pays"),
    [
        ("lightning", BetType.TIE, Decimal(5)),
        ("lightning", BetType.BANKER, Decimal("0.95")),
        ("lightning", BetType.PLAYER_PAIR, Decimal(9)),
        ("prosperity_tree", BetType.BANKER_PAIR, Decimal(10)),
        ("golden_wealth", BetType.PLAYER, Decimal(1)),
    ],
)
def test_the_base_pay_table_pays_the_rule_s_base_pay_less_the_stake_kept(preset, bet, pays):
    from service.baccarat.bets.catalogue import standard
    from service.baccarat.bets.paytable import Result
    from service.baccarat.multipliers.odds import base_pay_table

    table = base_pay_table(PRESETS[preset].rule, bet)
    assert table.id == standard(bet).id
    wins = [line.payout for line in table.lines if line.payout.result is Result.WIN]
    assert wins
    assert {payout.net for payout in wins} == {pays}


def test_the_shipped_structure_is_the_one_the_tableau_builds():
    """structure.npz is :func:`build_structure`'s: after a change to the
    tableau, ``python -m service.baccarat.multipliers.odds`` writes it again."""
    shipped, built = _structure(), build_structure()
    for name in ("sizes", "many", "keys", "starts"):
        stored, worked_out = getattr(shipped, name), getattr(built, name)
        assert stored.dtype == worked_out.dtype, name
        assert np.array_equal(stored, worked_out), name


# The largest pay: reached by a round the table deals, and by no other exceeded.


def holds_its_largest_pays(rule: MultiplierRule, decks: int) -> None:
    """Each bet's largest pay at ``decks`` decks is the one the richest
    round of an exhaustive search lights (no round lights more), and that
    round, dealt at a table of the rule at ``decks`` decks with its
    multiplier cards, is paid exactly that."""
    uncapped = MultiplierRule(cards=rule.cards, multipliers=rule.multipliers, pays=rule.pays)
    rules = resolve_rules("standard", {"multipliers": uncapped, "decks": decks})
    largest = largest_pays(rule, full_shoe(decks))
    assert set(largest) == set(rule.pays)
    for bet, pay in rule.pays.items():
        richest = most_lit(rule, bet, decks)
        assert largest[bet] == pay.pays * max(rule.multipliers) ** richest.lit - pay.stake_kept, bet
        stake = rules.limits[bet].min
        played = play_and_settle(
            rules,
            [Bet(type=bet, amount=stake)],
            cards=richest.cards,
            multiplier_cards=richest.multiplier_cards,
        )
        assert played.multiplied is not None
        settled = played.multiplied.bets[0]
        assert (settled.result, settled.win, len(settled.lit)) == ("win", stake * largest[bet], richest.lit)


@pytest.mark.parametrize("decks", [1, 2, 6, 8])
@pytest.mark.parametrize("name", PRESETS)
def test_each_preset_s_largest_pay_is_dealt_at_each_deck_count_and_never_exceeded(name, decks):
    holds_its_largest_pays(PRESETS[name].rule, decks)


def test_lightning_s_top_tie_at_one_deck_lights_five_different_cards():
    # Six cards of one deck are six different cards; Lightning draws at most five.
    assert largest_pays(PRESETS["lightning"].rule, full_shoe(1))[BetType.TIE] == 5 * 8**5
    assert largest_pays(PRESETS["lightning"].rule, full_shoe(2))[BetType.TIE] == 5 * 8**6


@settings(max_examples=25, deadline=None)
@given(rule=strategies.multiplier_rule(), decks=st.sampled_from([1, 2, 6, 8]))
def test_an_operator_rule_s_largest_pay_is_dealt_and_never_exceeded(rule, decks):
    holds_its_largest_pays(rule, decks)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), name=st.sampled_from(list(PRESETS)), decks=st.sampled_from([1, 2, 6, 8]))
def test_no_round_of_the_shoe_pays_more_than_the_largest_pay(data, name, decks):
    """Rounds drawn at random, their cards mostly from a few (so that they
    repeat as often as the shoe allows) and lit mostly among them: no bet is
    paid more than its largest pay at that shoe."""
    rule = PRESETS[name].rule
    uncapped = MultiplierRule(cards=rule.cards, multipliers=rule.multipliers, pays=rule.pays)
    largest = largest_pays(rule, full_shoe(decks))
    pool = data.draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=6, unique=True))
    dealt: Counter[Card] = Counter()
    sequence = []
    for _ in range(6):
        open_pool = [card for card in pool if dealt[card] < decks]
        open_deck = [card for card in DECK if dealt[card] < decks]
        card = data.draw(st.sampled_from(open_pool) if open_pool else st.sampled_from(open_deck))
        if not data.draw(st.integers(0, 4)):
            card = data.draw(st.sampled_from(open_deck))
        dealt[card] += 1
        sequence.append(card)
    count = data.draw(st.sampled_from(sorted(rule.cards)))
    candidates = list(dict.fromkeys([*pool, *sequence, *DECK]))
    lit = data.draw(st.lists(st.sampled_from(candidates), min_size=count, max_size=count, unique=True))
    given_cards = [(card, data.draw(st.sampled_from(sorted(rule.multipliers)))) for card in lit]
    coup = deal(sequence)
    slip = settle_multiplier_slip(
        [Bet(type=bet, amount=Decimal(1)) for bet in rule.pays],
        coup,
        studio_multiplier_cards(uncapped, given_cards),
        uncapped,
    )
    for settled in slip.bets:
        assert settled.win <= largest[settled.bet.type], (settled.bet.type, settled.multiplier)
