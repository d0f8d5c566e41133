"""``baccarat simulate``: dealing seeded shoes agrees with the exact odds of POST /v1/odds."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from service.baccarat.bets.catalogue import pay_tables_of
from service.baccarat.bets.types import MAIN_BETS, BetType
from service.baccarat.odds.simulation import simulate
from service.baccarat.tables.rules import SHORTHANDS, TABLES, resolve_rules
from service.cli import main
from service.cli.documents import BAD_INPUT, OK
from service.cli.simulate import LONG_RUN
from service.contract.schemas.rules import RulesOverrideSchema

pytestmark = pytest.mark.slow

SHOES = 1500  # about 120,000 rounds: a few seconds per table
SEED = "simulation-check"
FAMILY_CONFIDENCE = 0.95


#: Rules that offer every side bet, each paid by its last pay table of the
#: catalogue (12:1 pairs, the perfect pair's 200:1 on both hands, Big and
#: Small at 0.53 and 1.45, Lucky 6 at 12/23, ...).
OTHER_PAY_TABLES = {
    "limits": {str(bet): {"min": "1", "max": "100"} for bet in BetType if bet not in MAIN_BETS},
    "pay_tables": {
        str(bet): pay_tables_of(bet)[-1].id
        for bet in BetType
        if bet not in SHORTHANDS and bet not in MAIN_BETS
    },
}


@pytest.mark.parametrize(
    ("table", "overrides"),
    [("standard", {}), ("ez", {}), ("no_commission", {}), ("tiger", {}), ("standard", OTHER_PAY_TABLES)],
    ids=["standard", "ez", "no_commission", "tiger", "other pay tables"],
)
def test_every_bets_return_agrees_with_the_exact_odds_within_its_interval(client, table, overrides):
    rules = resolve_rules(table, RulesOverrideSchema().load(overrides))
    exact = client.post("/v1/odds", json={"table": table, "rules": overrides}).get_json()["bets"]
    simulation = simulate(rules, SEED, SHOES)
    assert [r.bet for r in simulation.returns] == list(rules.bet_types)
    # One interval per bet: each at 1 - 5%/k so that all k hold together with 95% confidence.
    confidence = 1 - (1 - FAMILY_CONFIDENCE) / len(simulation.returns)
    for observed in simulation.returns:
        low, high = observed.interval(confidence)
        expected = float(Fraction(exact[observed.bet]["exact"]["expected_value"]))
        assert low <= expected <= high, (observed.bet, low, expected, high)
        assert 0 < observed.standard_error < 0.1


def test_the_same_seed_deals_the_same_figures():
    rules = TABLES["ez"].rules
    assert simulate(rules, SEED, 3) == simulate(rules, SEED, 3)
    assert simulate(rules, SEED, 3) != simulate(rules, SEED + "-other", 3)


def test_the_rounds_counted_are_those_of_the_shoes_dealt(client):
    simulation = simulate(TABLES["standard"].rules, SEED, 4)
    rounds = 0
    for nonce in range(4):
        body = {"server_seed": SEED, "client_seed": "", "nonce": nonce}
        rounds += client.post("/v1/shoes", json=body).get_json()["round_count"]
    assert simulation.rounds == rounds


def test_the_command_prints_each_bet_with_its_interval_and_the_exact_figure(capsys):
    assert main(["simulate", "--shoes", "20", "--seed", SEED, "--table", "ez", "--no-progress"]) == OK
    out, err = capsys.readouterr()
    assert err == ""
    assert "20 shoes of 8 decks from seed 'simulation-check'" in out
    for bet in TABLES["ez"].rules.bet_types:
        assert f"\n{bet} " in out


def test_the_command_answers_json_and_shows_progress_when_asked(capsys):
    argv = ["simulate", "--shoes", "5", "--seed", SEED, "--decks", "6", "--json", "--progress"]
    assert main(argv) == OK
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert (document["shoes"], document["decks"], document["confidence"]) == (5, 6, 0.95)
    banker = document["bets"]["banker"]
    low, high = banker["interval"]
    assert low < banker["observed"] < high
    assert banker["agrees"] == (low <= banker["exact"] <= high)
    assert "5/5" in err
    assert "shoe" in err
    numerator, denominator = banker["observed_exact"].split("/")
    assert int(numerator) / int(denominator) == pytest.approx(banker["observed"])


def test_a_long_run_shows_no_progress_bar_when_stderr_is_not_a_terminal(capsys):
    argv = ["simulate", "--shoes", str(LONG_RUN), "--seed", SEED, "--shuffle", "numpy"]
    assert main(argv) == OK
    assert capsys.readouterr().err == ""


def test_the_command_deals_numpy_shuffled_shoes_when_asked(capsys):
    argv = ["simulate", "--shoes", "30", "--seed", SEED, "--shuffle", "numpy", "--json"]
    assert main(argv) == OK
    first = json.loads(capsys.readouterr().out)
    assert main(argv) == OK
    assert json.loads(capsys.readouterr().out) == first  # the same seed, the same shoes
    assert first["rounds"] > 30 * 60
    assert first["shuffle"] == "numpy"
    service = main(["simulate", "--shoes", "30", "--seed", SEED, "--json"])
    assert service == OK
    assert json.loads(capsys.readouterr().out)["rounds"] != first["rounds"]
    assert main(argv[:-1]) == OK
    assert "(shuffled by numpy's generator)" in capsys.readouterr().out


def test_the_json_counts_the_rounds_each_pay_table_line_settled(capsys):
    argv = ["simulate", "--shoes", "4", "--seed", SEED, "--table", "standard", "--json"]
    assert main(argv) == OK
    document = json.loads(capsys.readouterr().out)
    for name, figures in document["bets"].items():
        lines = figures["lines"]
        assert lines[-1]["when"] == "no line of its pay table holds"
        assert lines[-1]["nets"] == "-1"
        assert sum(line["rounds"] for line in lines) == document["rounds"]
        paid = sum(Fraction(line["nets"]) * line["rounds"] for line in lines)
        assert paid / document["rounds"] == Fraction(figures["observed_exact"]), name
    dragon = [line["nets"] for line in document["bets"]["dragon_bonus_player"]["lines"]]
    assert {"30", "10", "6", "4", "2", "1", "0", "-1"} <= set(dragon)


@pytest.mark.parametrize(
    ("argv", "detail"),
    [
        (["--shoes", "1"], "--shoes must be 2 to"),
        (["--shoes", "10", "--confidence", "1.5"], "--confidence must be between 0 and 1"),
        (["--shoes", "10", "--decks", "9"], "--decks must be 1 to 8"),
    ],
)
def test_bad_options_are_refused(capsys, argv, detail):
    assert main(["simulate", "--seed", SEED, *argv]) == BAD_INPUT
    _, err = capsys.readouterr()
    assert detail in json.loads(err)["detail"]


@pytest.mark.parametrize("table", ["lightning", "golden_wealth", "prosperity_tree", "peek"])
def test_a_table_of_another_game_is_not_simulated_as_the_plain_game(table, capsys):
    """The run checks the plain game's exact odds: a multiplier game's table
    or the peek table would be reported as what it is not."""
    with pytest.raises(SystemExit) as stopped:
        main(["simulate", "--shoes", "2", "--seed", "s", "--table", table])
    assert stopped.value.code == 2
    assert "invalid choice" in capsys.readouterr().err


def test_a_table_that_reshuffles_after_each_hand_is_simulated_one_hand_a_shuffle(capsys):
    """tie_9 deals each hand from the top of its own shuffle, no burn: N shoes
    are N rounds, and each bet's observed return is judged against the full
    shoe's exact value, which is exactly its odds there."""
    argv = ["simulate", "--table", "tie_9", "--shoes", "4000", "--seed", SEED, "--json"]
    assert main(argv) == OK
    document = json.loads(capsys.readouterr().out)
    assert (document["shoes"], document["rounds"], document["dealing"]) == (4000, 4000, "reshuffle_each_hand")
    for figures in document["bets"].values():
        assert sum(line["rounds"] for line in figures["lines"]) == 4000
        assert figures["agrees"]
    assert main(["simulate", "--table", "tie_9", "--shoes", "3", "--seed", SEED]) == OK
    assert "dealt one round each, reshuffled after each hand" in capsys.readouterr().out
