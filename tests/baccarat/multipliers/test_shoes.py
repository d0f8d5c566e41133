"""A shoe's multiplier cards: drawn for each round of a seeded shoe, or
given by the studio for each round of a physical shoe, checked as a
round's are, and each offending entry named."""

from decimal import Decimal

import pytest

from service.baccarat.bets.types import Bet, BetType
from service.baccarat.multipliers.cards import draw_multiplier_cards
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.multipliers.shoes import RoundMultiplierCards
from service.baccarat.play.round import play_and_settle
from service.baccarat.play.shoe import RoundBets, ShoeReport, play_physical_shoe, play_shoe
from service.baccarat.rulebook.errors import CardError, SeedError, ShoeError
from service.baccarat.tables.rules import resolve_rules
from tests.conftest import cards

RULE = PRESETS["lightning"].rule
LIGHTNING = resolve_rules("standard", {"multipliers": RULE})
SEEDED = play_shoe(LIGHTNING, seed="studio-7/shoe-2")
#: The first six rounds of the seeded shoe, dealt as a physical shoe with a studio's multiplier cards.
SENT = SEEDED.dealt.cards[: SEEDED.dealt.rounds[5].end]
STUDIO = tuple(
    RoundMultiplierCards(n, ((card, 8),)) for n, card in enumerate(cards("AS KH 2D 9C 5H 7S"), start=1)
)
BANKER_10 = (Bet(type=BetType.BANKER, amount=Decimal(10)),)


def test_a_seeded_shoe_draws_each_round_s_multiplier_cards_for_its_number():
    for r in SEEDED.rounds[:10]:
        number = r.round.number
        assert r.multiplier_cards == draw_multiplier_cards(RULE, SEEDED.seed.inputs, round_number=number)


def test_a_physical_shoe_s_round_settles_as_post_rounds_with_its_cards_and_multiplier_cards():
    report = ShoeReport(bets=BANKER_10)
    physical = play_physical_shoe(LIGHTNING, SENT, report=report, multiplier_cards=STUDIO)
    assert physical.multiplier_algorithm is None
    assert [r.round for r in physical.rounds] == list(SEEDED.dealt.rounds[:6])
    for r, given in zip(physical.rounds, STUDIO, strict=True):
        coup = r.round.coup
        alone = play_and_settle(
            LIGHTNING, BANKER_10, cards=SENT[r.round.start : r.round.end], multiplier_cards=given.cards
        )
        assert alone.coup.outcome == coup.outcome
        assert r.multiplier_cards == alone.multiplier_cards
        assert r.multiplied == alone.multiplied


def test_the_round_in_progress_may_have_its_multiplier_cards_checked_not_answered():
    in_progress = SENT + SEEDED.dealt.cards[len(SENT) : len(SENT) + 2]
    seventh = RoundMultiplierCards(7, ((cards("QD")[0], 2),))
    played = play_physical_shoe(LIGHTNING, in_progress, multiplier_cards=(*STUDIO, seventh))
    assert played.in_progress is not None
    assert len(played.rounds) == 6


@pytest.mark.parametrize(
    ("given", "error", "paths"),
    [
        (STUDIO[:4], CardError, [("multiplier_cards_by_round",)] * 2),
        (
            (*STUDIO, RoundMultiplierCards(9, STUDIO[0].cards)),
            ShoeError,
            [("multiplier_cards_by_round", 6, "round")],
        ),
        (
            (RoundMultiplierCards(1, STUDIO[0].cards * 2), *STUDIO[1:]),
            CardError,
            [("multiplier_cards_by_round", 0, "cards", 1, "card")],
        ),
        (
            (*STUDIO[:5], RoundMultiplierCards(6, ((cards("7S")[0], 7),))),
            CardError,
            [("multiplier_cards_by_round", 5, "cards", 0, "multiplier")],
        ),
        ((), CardError, [("multiplier_cards_by_round",)] * 6),
    ],
)
def test_the_studio_s_multiplier_cards_are_checked_entry_by_entry(given, error, paths):
    with pytest.raises(error) as caught:
        play_physical_shoe(LIGHTNING, SENT, multiplier_cards=given)
    assert [p.path for p in caught.value.problems] == paths


def test_only_a_slice_s_rounds_need_their_multiplier_cards():
    report = ShoeReport(from_round=5, to_round=6, bets_by_round=(RoundBets(6, BANKER_10),))
    played = play_physical_shoe(LIGHTNING, SENT, report=report, multiplier_cards=STUDIO[4:])
    assert [r.multiplier_cards is not None for r in played.rounds] == [True, True]
    assert played.rounds[1].multiplied is not None


@pytest.mark.parametrize(
    "play",
    [
        lambda: play_shoe(LIGHTNING, seed="s", multiplier_cards=STUDIO),
        lambda: play_physical_shoe(resolve_rules(), SENT, multiplier_cards=STUDIO),
    ],
    ids=["seeded shoe", "plain table"],
)
def test_multiplier_cards_are_given_only_for_a_physical_shoe_at_a_multiplier_table(play):
    with pytest.raises(SeedError) as caught:
        play()
    assert [str(p.code) for p in caught.value.problems] == ["multiplier_cards_without_rule"]
