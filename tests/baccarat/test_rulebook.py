"""The engine's fast path against the rulebook written out plainly.

:func:`service.baccarat.rulebook.coup.deal` and :func:`service.baccarat.shoes.deal.deal_shoe`
look a round's hands, decisions and outcome up in tables made at import, and
:class:`service.baccarat.tables.settlement.Settler` pays from figures worked out
once per pay table. Here every round is also dealt step by step as a dealer
would, asking the tableau's rules (:mod:`service.baccarat.rulebook.tableau`) at each
step, and every bet is paid by DESIGN §4's arithmetic, and the two must
agree on everything: each hand, draw and stand with its reason, the outcome,
the cards used, each round's place in its shoe, and each settled amount as
written (``str``, so ``10.0`` and ``10.00`` differ).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from service.baccarat.bets.money import to_minor_unit
from service.baccarat.bets.paytable import Result
from service.baccarat.bets.types import Bet
from service.baccarat.rulebook.cards import RANKS, SUITS, Card, parse_card
from service.baccarat.rulebook.coup import Coup, Decision, Hand, Outcome, Side, deal
from service.baccarat.rulebook.tableau import banker_draws, is_natural, nobody_draws, player_draws
from service.baccarat.shoes.deal import deal_shoe
from service.baccarat.shoes.shuffle import SeedInputs, shuffled_shoe
from service.baccarat.tables.rules import Rules
from service.baccarat.tables.settlement import Settler
from tests import strategies


def hand(cards: Sequence[Card]) -> Hand:
    """A hand's facts from its cards, as the rulebook says them (DESIGN §2, §5)."""
    total = sum(min(RANKS.index(card.rank) + 1, 10) % 10 for card in cards) % 10
    first, second = cards[0], cards[1]
    pair = first.rank == second.rank
    return Hand(
        cards=tuple(cards),
        total=total,
        natural=len(cards) == 2 and total in (8, 9),
        pair=pair,
        perfect_pair=pair and first.suit == second.suit,
    )


def by_the_rulebook(cards: Sequence[Card], start: int = 0) -> Coup:
    """The round dealt from ``cards[start:]`` one step at a time, each step
    asked of the tableau's rules, nothing looked up."""
    player, banker = [cards[start], cards[start + 2]], [cards[start + 1], cards[start + 3]]
    position = start + 4
    p_total, b_total = hand(player).total, hand(banker).total
    decisions: list[Decision] = []
    if is_natural(p_total) or is_natural(b_total):
        reason = nobody_draws(p_total, b_total)
        decisions = [Decision(Side.PLAYER, False, reason), Decision(Side.BANKER, False, reason)]
    else:
        player_third = None
        draw, reason = player_draws(p_total)
        if draw:
            player.append(cards[position])
            player_third = cards[position].points
            position += 1
        decisions.append(Decision(Side.PLAYER, draw, reason, player[2] if draw else None))
        draw, reason = banker_draws(b_total, player_third)
        if draw:
            banker.append(cards[position])
            position += 1
        decisions.append(Decision(Side.BANKER, draw, reason, banker[2] if draw else None))
    p, b = hand(player), hand(banker)
    winner = Outcome.PLAYER if p.total > b.total else Outcome.BANKER
    return Coup(
        player=p,
        banker=b,
        decisions=tuple(decisions),
        outcome=Outcome.TIE if p.total == b.total else winner,
        natural=p.natural or b.natural,
        cards_used=position - start,
        draws=tuple(d for d in decisions if d.draw),
        stands=tuple(d for d in decisions if not d.draw),
    )


def assert_same_round(dealt: Coup, expected: Coup) -> None:
    """Field by field (a named tuple's ``==`` would also say so, but not where)."""
    for name in Coup._fields:
        assert getattr(dealt, name) == getattr(expected, name), name
    for side in ("player", "banker"):
        for name in Hand._fields:
            assert getattr(getattr(dealt, side), name) == getattr(getattr(expected, side), name), (side, name)
    assert [tuple(d) for d in dealt.decisions] == [tuple(d) for d in expected.decisions]
    assert dealt.outcome is expected.outcome


@given(strategies.shoe_sequence(min_size=6, max_size=18), st.integers(0, 12))
def test_a_round_is_dealt_as_the_rulebook_deals_it(sequence, start):
    start = min(start, len(sequence) - 6)
    assert_same_round(deal(sequence, offset=start), by_the_rulebook(sequence, start))


def test_every_cell_of_the_tableau_is_dealt_as_the_rulebook_deals_it():
    # Every pair of two-card totals, then every point value of the Player's
    # third card (when there is one), the Banker's third a 5.
    rank = {0: "K", 1: "A"} | {points: str(points) for points in range(2, 10)}
    for p_total in range(10):
        for b_total in range(10):
            for p3 in range(10):
                codes = ["K", rank[b_total], rank[p_total], "K", rank[p3], "5"]
                sequence = [parse_card(code + SUITS[i % 4]) for i, code in enumerate(codes)]
                assert_same_round(deal(sequence), by_the_rulebook(sequence))


def shoe_by_the_rulebook(cards: Sequence[Card], cut_card: int) -> list[tuple[int, int, bool, bool, Coup]]:
    """A whole shoe as DESIGN §6 deals it: burn, rounds until the one after
    the round the cut card comes out in; each round's number, start, whether
    the cut card came out in it, whether it is the last, and the round."""
    turned = cards[0]
    position = 1 + min(RANKS.index(turned.rank) + 1, 10)
    cut_position = len(cards) - cut_card
    rounds = []
    came_out = False
    while True:
        coup = by_the_rulebook(cards, position)
        end = position + coup.cards_used
        out_now = not came_out and end > cut_position
        rounds.append((len(rounds) + 1, position, out_now, came_out, coup))
        if came_out:
            return rounds
        came_out, position = out_now, end


def assert_same_shoe(cards: Sequence[Card], cut_card: int) -> None:
    dealt = deal_shoe(cards, cut_card=cut_card)
    expected = shoe_by_the_rulebook(cards, cut_card)
    assert len(dealt.rounds) == len(expected)
    for played, (number, start, cut_card_out, last, coup) in zip(dealt.rounds, expected, strict=True):
        assert (played.number, played.start, played.cut_card_out, played.last) == (
            number,
            start,
            cut_card_out,
            last,
        )
        assert_same_round(played.coup, coup)


@settings(max_examples=30, deadline=None)
@given(strategies.whole_shoe())
def test_a_shoe_in_any_order_is_dealt_as_the_rulebook_deals_it(shoe_and_cut):
    assert_same_shoe(*shoe_and_cut)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 8), st.text(max_size=8), st.integers(0, 10**6), st.integers(14, 26))
def test_a_seeded_shoe_is_dealt_as_the_rulebook_deals_it(decks, client_seed, nonce, cut_card):
    assert_same_shoe(shuffled_shoe(decks, SeedInputs("rulebook", client_seed, nonce)), cut_card)


def settled_by_the_rulebook(bet: Bet, coup: Coup, rules: Rules) -> tuple[str, str, str, str, str]:
    """A bet's amount, result, win, commission and returned, as written:
    the first line of its pay table that holds, then DESIGN §4's arithmetic."""
    table = rules.chosen[bet.type]
    pay = next((line.payout for line in table.lines if line.applies(coup)), None)

    def to_unit(amount: Decimal) -> Decimal:
        return to_minor_unit(amount, rules.minor_unit, rules.payout_rounding)

    stake, zero = to_unit(bet.amount), to_unit(Decimal(0))
    if pay is None:
        return str(stake), str(Result.LOSE), str(zero), str(zero), str(zero)
    if pay.result is Result.PUSH:
        return str(stake), str(Result.PUSH), str(zero), str(zero), str(stake)
    gross = to_unit(stake * pay.odds)
    win = to_unit(stake * pay.odds * (1 - pay.commission))
    return str(stake), str(Result.WIN), str(win), str(gross - win), str(stake + win)


@given(strategies.shoe_sequence(), st.data())
def test_every_bet_is_settled_as_the_rulebook_settles_it(sequence, data):
    rules = data.draw(strategies.table_rules())
    slip = data.draw(strategies.table_slip(rules))
    coup = deal(sequence)
    settled = Settler(coup, rules).slip(slip)
    for bet, got in zip(slip, settled.bets, strict=True):
        written = (str(got.amount), str(got.result), str(got.win), str(got.commission), str(got.returned))
        assert written == settled_by_the_rulebook(bet, by_the_rulebook(sequence), rules), bet.type
