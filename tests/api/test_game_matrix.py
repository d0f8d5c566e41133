"""The game matrix: every table preset crossed with every game (none, each
multiplier preset, an operator's rule, and Peek Baccarat) over every
operation that plays or prices a round.

Each combination is played through POST /v1/rounds (its full and its
minimal answer), /v1/settlements, /v1/rounds/live, /v1/shoes,
/v1/rounds/peek and /v1/odds, its rules sheet written by POST
/v1/rules-sheets, and it is given to `baccarat certify`'s exact math. It either answers
consistently (the same rules id everywhere, the same round and settlement
through every operation that can play it, the odds of the game played), or
every operation refuses it with the same documented 422 code. The matrix is
built from the catalogue (the presets of tables and of multiplier games), so
a new preset or game joins it without a line of test code here. A
multiplier game's table plays its game unless another is sent; Peek
Baccarat's table is played by POST /v1/rounds/peek alone.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from service.baccarat.bets.catalogue import standard
from service.baccarat.bets.types import BetType
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.tables.rules import TABLES, Dealing, resolve_rules
from service.certification.exact import exact_document, game_math
from service.cli import main
from tests.contract.test_problems import ERROR_TEMPLATES

#: An operator's rule that returns less than it costs on every bet (docs/multipliers.md).
OPERATOR_RULE = {
    "cards": {"3": 1, "4": 1},
    "multipliers": {"2": 10, "5": 3, "10": 1},
    "pays": {
        "player": {"pays": "1", "counted": "winning_hand"},
        "banker": {"pays": "1", "counted": "winning_hand", "stake_kept": "0.05"},
        "tie": {"pays": "5", "counted": "all_cards"},
        "player_pair": {"pays": "8", "counted": "paired_cards"},
    },
    "fee": {"rate": "0.2", "bets": ["player", "banker", "tie"]},
}
GAMES: dict[str, Any] = {"plain": None, **{name: name for name in PRESETS}, "operator": OPERATOR_RULE}
#: A whole round, no card to spare: a Player pair (3S 3H) stands on 6, the
#: Banker draws to 2 and takes 9C, and the Player wins 6 to 1.
CARDS = ["3S", "KD", "3H", "2C", "9C"]
#: The round's cards first, lit so that a multiplied bet may be paid by them.
LIT = ["3S", "3H", "KD", "2C", "9C", "AS", "AH", "AD"]
#: A bet every table offers.
PLAYER = {"type": "player", "amount": "5"}
SEED = {"server_seed": "matrix", "client_seed": "grid", "nonce": 3}


def multiplier_cards(game: Any) -> list[dict[str, Any]]:
    """As many lit cards as the game's rule draws (its fewest), each with its smallest multiplier."""
    if isinstance(game, str):
        rule = PRESETS[game].rule
        count, multiplier = min(rule.cards), min(rule.multipliers)
    else:
        count, multiplier = min(map(int, game["cards"])), min(map(int, game["multipliers"]))
    return [{"card": card, "multiplier": multiplier} for card in LIT[:count]]


def bets_of(limits: dict[str, dict[str, str]]) -> list[dict[str, str]]:
    """One bet on each bet the table offers, at its minimum (a whole number of fee steps)."""
    return [
        {"id": f"b{index}", "type": bet, "amount": limit["min"]}
        for index, (bet, limit) in enumerate(limits.items())
    ]


def play(client, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    answer = client.post(path, json=body)
    assert answer.status_code in (200, 422), (path, answer.status_code, answer.get_json())
    return answer.status_code, answer.get_json()


def certified(tmp_path, table_rules: dict[str, Any], capsys) -> tuple[int, dict[str, Any] | None]:
    """`baccarat certify --rules` on the combination, stopped before any
    simulation: its exit code, and its problem when it refused."""
    path = tmp_path / "rules.json"
    path.write_text(json.dumps(table_rules))
    code = main(
        ["certify", "--rules", str(path), "--rounds", "0", "--seed", "m", "--out", str(tmp_path / "o")]
    )
    err = capsys.readouterr().err
    return code, json.loads(err) if code == 3 and err.startswith("{") else None


def codes(problem: dict[str, Any]) -> list[str]:
    return sorted({entry["code"] for entry in problem.get("errors", [])})


def amounts(settled: dict[str, Any]) -> tuple[dict[str, Any], list[tuple[str, ...]]]:
    """A settlement's totals and each bet's stake, result and return: what
    the full and the minimal answer both state."""
    totals = {key: value for key, value in settled.items() if key != "bets"}
    return totals, [(bet["type"], bet["amount"], bet["result"], bet["returned"]) for bet in settled["bets"]]


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("table", list(TABLES))
def test_every_game_at_every_table_answers_alike_everywhere_or_is_refused_alike(
    client, table, game, tmp_path, capsys
):
    sent = GAMES[game]
    rules = {} if sent is None else {"multipliers": sent}
    table_rules = {"table": table, "rules": rules}
    # The game played: the one sent, else a multiplier table's own (its name is its game's).
    at_multiplier_table = TABLES[table].rules.multipliers is not None
    spec = sent if sent is not None or not at_multiplier_table else table
    lit = {} if spec is None else {"multiplier_cards": multiplier_cards(spec)}

    if TABLES[table].peek:
        # Peek Baccarat's table: played by peek alone, every other operation refuses the table.
        for path, body in [
            ("/v1/odds", table_rules),
            ("/v1/rounds", {**table_rules, "cards": CARDS, **lit}),
            (
                "/v1/settlements",
                {**table_rules, "cards": CARDS, **lit, "slips": [{"id": "s", "bets": [PLAYER]}]},
            ),
            ("/v1/rounds/live", {**table_rules, "cards": CARDS[:4], **lit}),
            ("/v1/shoes", {**table_rules, **SEED, "to_round": 2}),
        ]:
            refused_status, refused = play(client, path, body)
            assert refused_status == 422, path
            assert [e["code"] for e in refused["errors"] if e["pointer"] == "/table"] == ["not_one_of"], path
        code, problem = certified(tmp_path, table_rules, capsys)
        assert code == 3
        assert problem is not None
        assert problem["title"] == "Peek Baccarat cannot be certified"
        peek_body = {
            **table_rules,
            "cards": CARDS,
            "shown": ["banker_first"],
            "bets": [PLAYER],
            "decision": {},
        }
        peek_status, peeked = play(client, "/v1/rounds/peek", peek_body)
        sheet_status, sheet = play(client, "/v1/rules-sheets", table_rules)
        if sent is None:
            assert peek_status == 200, peeked
            assert peeked["rules"]["id"] == TABLES[table].rules.id
            # Its rules sheet is Peek Baccarat's, for the rules peek plays.
            assert sheet_status == 200, sheet
            assert sheet["rules"]["id"] == peeked["rules"]["id"]
            assert "peek" in [section["code"] for section in sheet["sections"]]
        else:
            # Peek's fee and returns are priced at the table's Player and Banker pays: its
            # round and its sheet refuse a multiplier rule alike.
            assert (peek_status, codes(peeked)) == (422, ["peek_pays_fixed"])
            assert (sheet_status, codes(sheet)) == (422, ["peek_pays_fixed"])
        return

    status, odds = play(client, "/v1/odds", table_rules)
    if status == 422:
        # Refused: with a documented code, and by every operation alike.
        assert codes(odds) == ["multipliers_with_other_pays"]
        assert set(codes(odds)) <= set(ERROR_TEMPLATES)
        # The certification kit refuses it before any work, as the service does.
        assert certified(tmp_path, table_rules, capsys)[0] == 3
        for path, body in [
            ("/v1/rounds", {**table_rules, "cards": CARDS, **lit}),
            (
                "/v1/settlements",
                {**table_rules, "cards": CARDS, **lit, "slips": [{"id": "s", "bets": [PLAYER]}]},
            ),
            ("/v1/rounds/live", {**table_rules, "cards": CARDS[:4], **lit}),
            ("/v1/shoes", {**table_rules, **SEED, "to_round": 2}),
            ("/v1/rules-sheets", table_rules),
        ]:
            refused_status, refused = play(client, path, body)
            assert (refused_status, codes(refused)) == (422, codes(odds)), path
        return

    rules_id = odds["rules"]["id"]
    bets = bets_of(odds["rules"]["limits"])
    round_status, played = play(client, "/v1/rounds", {**table_rules, "cards": CARDS, **lit, "bets": bets})
    assert round_status == 200, played
    assert played["rules"]["id"] == rules_id
    settled_key = "settlement" if spec is None else "multiplier_settlement"
    slips_key = "slips" if spec is None else "multiplier_slips"

    # The minimal answer (Prefer: return=minimal) settles alike, its sentences and rules aside.
    minimal = client.post(
        "/v1/rounds",
        json={**table_rules, "cards": CARDS, **lit, "bets": bets},
        headers={"Prefer": "return=minimal"},
    ).get_json()
    assert minimal["rules_id"] == rules_id
    assert amounts(minimal[settled_key]) == amounts(played[settled_key])

    # The rules sheet is written for the rules played.
    sheet_status, sheet = play(client, "/v1/rules-sheets", table_rules)
    assert sheet_status == 200, sheet
    assert sheet["rules"]["id"] == rules_id

    # The table's slips settle as the round settles the one slip.
    _, settlements = play(
        client,
        "/v1/settlements",
        {**table_rules, "cards": CARDS, **lit, "slips": [{"id": "s", "bets": bets}]},
    )
    assert settlements["rules"]["id"] == rules_id
    (slip,) = settlements[slips_key]
    assert {key: value for key, value in slip.items() if key != "id"} == played[settled_key]

    # Dealt live, the complete round is the round's answer.
    _, live = play(client, "/v1/rounds/live", {**table_rules, "cards": CARDS, **lit, "bets": bets})
    assert live == played

    # A seeded shoe's round 2 is POST /v1/rounds with the seed and round 2; a
    # table that reshuffles after each hand deals neither (its sheet says so).
    shoe_status, shoe = play(
        client, "/v1/shoes", {**table_rules, **SEED, "from_round": 2, "to_round": 2, "bets": bets}
    )
    seeded_status, seeded = play(client, "/v1/rounds", {**table_rules, **SEED, "round": 2, "bets": bets})
    if TABLES[table].dealing is Dealing.RESHUFFLE_EACH_HAND:
        assert (shoe_status, codes(shoe), seeded_status, codes(seeded)) == (
            422,
            ["dealt_each_hand"],
            422,
            ["dealt_each_hand"],
        )
        table_rules = {"table": table, "rules": {**rules, "dealing": "shoe"}}
        _, shoe = play(
            client, "/v1/shoes", {**table_rules, **SEED, "from_round": 2, "to_round": 2, "bets": bets}
        )
        _, seeded = play(client, "/v1/rounds", {**table_rules, **SEED, "round": 2, "bets": bets})
    (second,) = shoe["rounds"]
    assert shoe["rules"]["id"] == seeded["rules"]["id"] == rules_id
    assert (second["player"], second["banker"], second["outcome"]) == (
        seeded["player"],
        seeded["banker"],
        seeded["outcome"],
    )
    assert second[settled_key] == seeded[settled_key]
    if spec is not None:
        assert second["multiplier_cards"] == seeded["multiplier_cards"]

    # The odds are those of the game played: its bets, and its own returns at a multiplier table.
    assert set(odds["bets"]) == {bet["type"] for bet in bets}
    if spec is None:
        assert "multiplier_returns" not in odds
    else:
        assert [line["bet"] for line in odds["multiplier_returns"]] == list(odds["bets"])
        assert odds["warnings"] == []
        # The rules echoed are those the rule settles by: its bets at their standard pays.
        echoed = odds["rules"]
        assert echoed["pay_tables"] == {bet: standard(BetType(bet)).id for bet in echoed["pay_tables"]}
        assert (echoed["variant"], echoed["commission"]) == ("standard", "0.05")

    # The certification kit's exact math is the odds of the game played, or it refuses a game it has none for.
    if spec is None:
        math = exact_document(game_math(resolve_rules(table)))
        assert {bet: figures["house_edge"]["decimal"] for bet, figures in math["bets"].items()} == {
            bet: figures["house_edge"] for bet, figures in odds["bets"].items()
        }
    else:
        code, problem = certified(tmp_path, table_rules, capsys)
        assert code == 3
        assert problem is not None
        assert problem["title"] == "A multiplier game cannot be certified"

    # Peek: the same cards and slip, kept, settle as the round; a multiplier rule is not a peek table's.
    peek_body = {**table_rules, "cards": CARDS, "shown": ["banker_first"], "bets": bets, "decision": {}}
    peek_status, peeked = play(client, "/v1/rounds/peek", peek_body)
    if spec is None:
        assert peek_status == 200, peeked
        assert peeked["rules"]["id"] == rules_id
        assert peeked["settlement"] == played["settlement"]
    else:
        # A multiplier rule sent is no field of peek's rules; a multiplier table is no peek table.
        refused = ["unknown_field"] * (sent is not None) + ["not_one_of"] * at_multiplier_table
        assert (peek_status, codes(peeked)) == (422, sorted(refused))
