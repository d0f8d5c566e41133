"""What a caller asks of the engine, as frozen objects, and the one call that
answers each: every call gives the answer of the engine function it names.

What those functions answer is tested with them: test_play.py (rounds and
slips), test_live.py (live rounds), test_physical_shoe.py and
test_shoe_play.py (shoes), test_odds.py (odds). Loading these objects from
JSON is tested in tests/contract/schemas/test_rounds.py.
"""

from dataclasses import FrozenInstanceError
from decimal import Decimal

import pytest

from service.baccarat.bets.types import Bet, BetType
from service.baccarat.odds.exact import shoe_odds
from service.baccarat.play.round import RoundSoFar, play_and_settle, play_and_settle_slips
from service.baccarat.play.shoe import ShoeReport, play_physical_shoe, play_shoe
from service.baccarat.requests import (
    CardSource,
    LiveRoundRequest,
    OddsRequest,
    RoundRequest,
    SettlementRequest,
    ShoeRequest,
    Slip,
    odds_of,
    play_live_round,
    play_round,
    play_whole_shoe,
    settle_table,
)
from service.baccarat.rulebook.cards import RANKS
from service.baccarat.rulebook.coup import Outcome, Side
from service.baccarat.rulebook.errors import BetError
from service.baccarat.shoes.shuffle import SeedInputs
from service.baccarat.tables.rules import TABLES
from tests.conftest import cards

STANDARD = TABLES["standard"].rules
DESIGN_ROUND = tuple(cards("9S KH 2D 7C 5H"))  # 6 v 7: the Banker wins
SEED = SeedInputs("requests-seed", "client", 2)
BANKER_25 = (Bet(type=BetType.BANKER, amount=Decimal("25.00")),)


@pytest.mark.parametrize(
    "source",
    [
        CardSource(cards=DESIGN_ROUND),
        CardSource(seed=SEED),
        CardSource(seed=SEED, round_number=3),
        CardSource(seed=SEED, round_number=3, commitment=SEED.server_seed_hash),
    ],
    ids=["cards", "seed", "round of a seeded shoe", "with its commitment"],
)
def test_a_round_request_is_answered_as_play_and_settle_answers_its_source(source):
    answer = play_round(RoundRequest(rules=STANDARD, source=source, bets=BANKER_25))
    assert answer == play_and_settle(
        STANDARD,
        BANKER_25,
        cards=source.cards,
        seed=source.seed,
        round_number=source.round_number,
        commitment=source.commitment,
    )


def test_a_round_request_with_no_source_draws_a_fresh_seed_and_settles_no_slip():
    answer = play_round(RoundRequest(rules=STANDARD))
    assert answer.seed is not None
    assert answer.seed.generated
    assert answer.settlement is None


def test_a_settlement_request_settles_every_slip_keeping_its_reference():
    slips = (Slip("a", BANKER_25), Slip(None, (Bet(type=BetType.PLAYER, amount=Decimal(10)),)))
    answer = settle_table(
        SettlementRequest(rules=STANDARD, source=CardSource(cards=DESIGN_ROUND), slips=slips)
    )
    assert answer == play_and_settle_slips(
        STANDARD, [("a", BANKER_25), (None, slips[1].bets)], cards=DESIGN_ROUND
    )
    assert [(s.id, str(s.net)) for s in answer.slips] == [("a", "23.75"), (None, "-10.00")]


def test_a_settlement_request_is_refused_whole_naming_the_slip():
    slips = (Slip("a", BANKER_25), Slip("b", (Bet(type=BetType.TIE, amount=Decimal(50)),)))
    with pytest.raises(BetError) as caught:
        settle_table(SettlementRequest(rules=STANDARD, source=CardSource(cards=DESIGN_ROUND), slips=slips))
    assert [p.path for p in caught.value.problems] == [("slips", 1, "bets", 0, "amount")]


def test_a_live_request_is_the_round_so_far_then_the_round_request_answer():
    tags = (Side.PLAYER, Side.BANKER, Side.PLAYER, Side.BANKER)
    so_far = play_live_round(LiveRoundRequest(rules=STANDARD, cards=DESIGN_ROUND[:4], hands=tags))
    assert isinstance(so_far, RoundSoFar)
    assert so_far.round.next.hand is Side.PLAYER
    done = play_live_round(LiveRoundRequest(rules=STANDARD, cards=DESIGN_ROUND, bets=BANKER_25))
    assert done == play_round(
        RoundRequest(rules=STANDARD, source=CardSource(cards=DESIGN_ROUND), bets=BANKER_25)
    )
    assert done.coup.outcome is Outcome.BANKER


def test_a_shoe_request_with_seed_inputs_plays_the_seeded_shoe():
    report = ShoeReport(from_round=2, to_round=4, bets=BANKER_25)
    request = ShoeRequest(rules=STANDARD, seed=SEED, commitment=SEED.server_seed_hash, report=report)
    assert play_whole_shoe(request) == play_shoe(
        STANDARD, seed=SEED, commitment=SEED.server_seed_hash, report=report
    )


def test_a_shoe_request_with_cards_plays_the_physical_shoe():
    sent = tuple(cards("AS 2H 9S KH 2D 7C 5H KS"))  # burn AS 2H, one round, one card of the next
    answer = play_whole_shoe(ShoeRequest(rules=STANDARD, cards=sent))
    assert answer == play_physical_shoe(STANDARD, sent)
    assert answer.round_count == 1
    assert answer.in_progress is not None
    assert answer.in_progress.number == 2


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"removed": tuple(cards("AS KH 9D"))},
        {"counts": dict.fromkeys(RANKS, 32) | {"9": 20}},
        {"seed": SEED, "round_number": 5},
    ],
    ids=["full", "removed", "counts", "seeded"],
)
def test_an_odds_request_is_answered_as_shoe_odds_answers_it(kwargs):
    assert odds_of(OddsRequest(rules=STANDARD, **kwargs)) == shoe_odds(STANDARD, **kwargs)


def test_requests_are_frozen_and_take_keywords_only():
    request = RoundRequest(rules=STANDARD)
    assert request.source == CardSource()
    with pytest.raises(FrozenInstanceError):
        request.bets = BANKER_25  # type: ignore[misc]
    with pytest.raises(TypeError):
        RoundRequest(STANDARD)  # type: ignore[misc]
