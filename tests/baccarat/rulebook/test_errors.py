"""The engine's domain errors: the tree its docstring draws, each kind's slug,
and problems located by a path into the request.

Which input raises which error is tested with the module that raises it
(test_cards, test_coup, test_settlement, test_shoe_deal, test_odds, ...);
the answer the web layer makes of each is in tests/api/test_errors.py.
"""

from dataclasses import FrozenInstanceError

import pytest

from service.baccarat.rulebook.errors import (
    PROBLEM_TEMPLATES,
    BaccaratError,
    BetError,
    CardError,
    Misdeal,
    MissingCard,
    Problem,
    ProblemCode,
    RulesError,
    SeedError,
    ShoeError,
)

#: The tree of the module docstring, with the slug each kind is answered under.
KINDS = [
    (CardError, "invalid-cards"),
    (MissingCard, "missing-card"),
    (Misdeal, "misdeal"),
    (SeedError, "invalid-seed"),
    (ShoeError, "invalid-shoe"),
    (BetError, "invalid-bets"),
    (RulesError, "invalid-rules"),
]


def test_the_tree_is_one_base_with_the_kinds_the_docstring_draws():
    assert set(BaccaratError.__subclasses__()) == {kind for kind, _ in KINDS}
    assert BaccaratError.slug == "invalid-input"


@pytest.mark.parametrize(("kind", "slug"), KINDS)
def test_each_kind_has_its_own_slug_and_a_title(kind, slug):
    assert kind.slug == slug
    assert kind.title
    assert kind.title != BaccaratError.title


def test_no_two_kinds_share_a_slug_or_a_title():
    assert len({kind.slug for kind, _ in KINDS}) == len(KINDS)
    assert len({kind.title for kind, _ in KINDS}) == len(KINDS)


UNDER = Problem.of(
    ("bets", 0, "amount"), ProblemCode.AMOUNT_UNDER_MINIMUM, amount="0.5", minimum="1", type="tie"
)


def test_an_error_carries_its_detail_and_its_problems_as_a_tuple():
    error = BetError("Some bets cannot be accepted", [UNDER])
    assert str(error) == error.detail == "Some bets cannot be accepted"
    assert error.problems == (UNDER,)
    assert ShoeError("no problems listed").problems == ()


def test_a_detail_is_its_template_filled_with_its_values():
    error = ShoeError("This shoe ends after round {rounds}", rounds=61)
    assert error.detail == "This shoe ends after round 61"
    assert (error.detail.template, error.detail.values) == (
        "This shoe ends after round {rounds}",
        {"rounds": 61},
    )


def test_a_problem_s_detail_is_its_code_s_template_filled_with_its_values():
    assert UNDER.detail == "0.5 is under the table minimum of 1 for tie bets"
    assert UNDER.detail.template == PROBLEM_TEMPLATES[ProblemCode.AMOUNT_UNDER_MINIMUM]


def test_every_code_has_a_template_and_each_template_one_code():
    assert set(PROBLEM_TEMPLATES) == set(ProblemCode)
    assert len(set(PROBLEM_TEMPLATES.values())) == len(ProblemCode)


@pytest.mark.parametrize(
    ("path", "prefix", "located"),
    [
        (("amount",), ("bets", 2), ("bets", 2, "amount")),
        (("bets", 0, "type"), ("slips", 1), ("slips", 1, "bets", 0, "type")),
        ((), ("round",), ("round",)),
        (("cards", 4), (), ("cards", 4)),
    ],
)
def test_a_problem_within_a_prefix_is_located_under_it(path, prefix, located):
    problem = Problem.of(path, ProblemCode.ROUND_PAST_SHOE, round=70, rounds=61)
    assert problem.within(*prefix) == Problem.of(located, ProblemCode.ROUND_PAST_SHOE, round=70, rounds=61)
    assert problem.path == path  # the original is unchanged


def test_an_error_within_a_prefix_keeps_its_kind_and_detail_and_moves_every_problem():
    a = Problem.of(("bets", 0), ProblemCode.ROUND_NEEDS_SEED)
    b = Problem.of(("bets", 3), ProblemCode.ROUND_WITH_CARDS)
    error = BetError("Bets on {count} slips cannot be accepted", [a, b], count=2)
    moved = error.within("slips", 1)
    assert type(moved) is BetError
    assert moved.detail == error.detail == "Bets on 2 slips cannot be accepted"
    assert moved.detail.values == {"count": 2}
    assert [p.path for p in moved.problems] == [("slips", 1, "bets", 0), ("slips", 1, "bets", 3)]
    assert [p.code for p in moved.problems] == [ProblemCode.ROUND_NEEDS_SEED, ProblemCode.ROUND_WITH_CARDS]
    assert [p.path for p in error.problems] == [("bets", 0), ("bets", 3)]


@pytest.mark.parametrize("kind", [kind for kind, _ in KINDS])
def test_every_kind_is_caught_as_a_baccarat_error_after_moving(kind):
    with pytest.raises(BaccaratError) as caught:
        raise kind("detail", [Problem.of(("x",), ProblemCode.ROUND_NEEDS_SEED)]).within("body")
    assert type(caught.value) is kind
    assert caught.value.problems[0].path == ("body", "x")


def test_a_problem_cannot_be_changed():
    problem = Problem.of(("cards", 0), ProblemCode.RANK_COUNT_MISSING)
    with pytest.raises(FrozenInstanceError):
        problem.code = ProblemCode.ROUND_NEEDS_SEED  # type: ignore[misc]
