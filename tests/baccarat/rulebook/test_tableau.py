"""The tableau, cell by cell, written from the rulebook (DESIGN §2) rather
than from the engine's own table, and played through real deals."""

import pytest

from service.baccarat.rulebook.coup import Outcome, Side, deal
from service.baccarat.rulebook.tableau import banker_draws, player_draws, tableau
from tests.conftest import cards

# Banker's two-card total -> for the Player's third card 0..9, D(raw) or S(tand).
BANKER_WHEN_PLAYER_DREW = {
    0: "DDDDDDDDDD",
    1: "DDDDDDDDDD",
    2: "DDDDDDDDDD",
    3: "DDDDDDDDSD",  # draws on anything but 8
    4: "SSDDDDDDSS",  # draws on 2-7
    5: "SSSSDDDDSS",  # draws on 4-7
    6: "SSSSSSDDSS",  # draws on 6-7
    7: "SSSSSSSSSS",  # always stands
}
BANKER_WHEN_PLAYER_STOOD = "DDDDDDSS"  # totals 0-7: draws on 0-5
PLAYER = "DDDDDDSS"  # totals 0-7: draws on 0-5

CELLS = [(total, p3, row[p3] == "D") for total, row in BANKER_WHEN_PLAYER_DREW.items() for p3 in range(10)]


def rank(points: int) -> str:
    return {0: "K", 1: "A"}.get(points, str(points))


@pytest.mark.parametrize(("total", "draws"), [(t, PLAYER[t] == "D") for t in range(8)])
def test_player_draws_on_0_to_5_and_stands_on_6_and_7(total, draws):
    assert player_draws(total)[0] is draws


@pytest.mark.parametrize(("total", "draws"), [(t, BANKER_WHEN_PLAYER_STOOD[t] == "D") for t in range(8)])
def test_banker_when_the_player_stood_draws_on_0_to_5(total, draws):
    assert banker_draws(total, None)[0] is draws


@pytest.mark.parametrize(("total", "p3", "draws"), CELLS)
def test_banker_when_the_player_drew(total, p3, draws):
    decision, reason = banker_draws(total, p3)
    assert decision is draws
    assert f"total is {total}" in reason


@pytest.mark.parametrize(("total", "p3", "draws"), CELLS)
def test_every_banker_cell_played_through_a_real_deal(total, p3, draws):
    # Player 0 (draws), Banker `total`, Player's third card counts p3, Banker's third a 2.
    sequence = cards(f"KS {rank(total)}H KD KC {rank(p3)}D 2S")
    coup = deal(sequence)
    assert len(coup.player.cards) == 3
    assert len(coup.banker.cards) == (3 if draws else 2)
    assert coup.cards_used == (6 if draws else 5)
    assert [d.hand for d in coup.decisions] == [Side.PLAYER, Side.BANKER]


@pytest.mark.parametrize("player_total", [6, 7])
@pytest.mark.parametrize("banker_total", range(8))
def test_player_stands_then_banker_follows_the_stood_column(player_total, banker_total):
    coup = deal(cards(f"KS {rank(banker_total)}H {rank(player_total)}D KC 3S"))
    assert len(coup.player.cards) == 2
    assert len(coup.banker.cards) == (3 if banker_total <= 5 else 2)


@pytest.mark.parametrize(
    "sequence",
    [
        "9S KH KD 2C 5H 5D",  # Player natural 9
        "KH 8S KD KC 5H 5D",  # Banker natural 8
        "4S 4H 4D 5C 5H 5D",  # both natural: 8 v 9
        "8S 8H KD KC 5H 5D",
    ],  # natural tie
)
def test_a_natural_ends_the_round_and_nobody_draws(sequence):
    coup = deal(cards(sequence))
    assert coup.cards_used == 4
    assert coup.natural
    assert coup.draws == ()
    assert all("natural" in d.reason for d in coup.stands)


def test_tableau_data_matches_the_rulebook():
    data = tableau()
    assert [row["action"] == "draw" for row in data["player"]] == [c == "D" for c in PLAYER]
    for row in data["banker"]:
        expected = BANKER_WHEN_PLAYER_DREW[row["total"]]
        assert row["draws_when_player_third_is"] == [p for p in range(10) if expected[p] == "D"]
        assert row["stands_when_player_third_is"] == [p for p in range(10) if expected[p] == "S"]
        assert row["when_player_stood"] == (
            "draw" if BANKER_WHEN_PLAYER_STOOD[row["total"]] == "D" else "stand"
        )
    assert data["card_points"] == {
        "A": 1,
        "2": 2,
        "3": 3,
        "4": 4,
        "5": 5,
        "6": 6,
        "7": 7,
        "8": 8,
        "9": 9,
        "T": 0,
        "J": 0,
        "Q": 0,
        "K": 0,
    }


def test_outcome_is_the_higher_total():
    assert deal(cards("9S KH 2D 7C 5H")).outcome is Outcome.BANKER
