"""The ``baccarat`` command: the service's answers and problems, offline.

Each command is checked against the HTTP service itself (the Flask test
client): the same input gives the same answer, and the same bad input the
same problem document, with exit code 3.
"""

from __future__ import annotations

import copy
import importlib
import json
import pkgutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

import service.cli
from service.cli import COMMANDS, main
from service.cli.documents import BAD_INPUT, MISMATCH, OK, USAGE

SEED = {
    "server_seed": "8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e",
    "client_seed": "lucky-7",
    "nonce": 1,
}
SLIP = [{"id": "b1", "type": "banker", "amount": "25.00"}, {"type": "tie", "amount": "5"}]


def run(capsys, *argv: str) -> tuple[int, str, str]:
    """``baccarat ARGV...`` in this process: exit code, stdout, stderr."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse: --help, --version, usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def answer(client, path: str, body: dict) -> dict:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def write(tmp_path: Path, name: str, document: object) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


# --- round -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "body"),
    [
        (["--cards", "9S", "KH", "2D", "7C", "5H"], {"cards": ["9S", "KH", "2D", "7C", "5H"]}),
        (["--cards", "9s,kh,2d", "7c", "10H", "AS"], {"cards": ["9S", "KH", "2D", "7C", "TH", "AS"]}),
        (["--seed", "table-7/shoe-1"], {"seed": "table-7/shoe-1"}),
        (
            [
                "--server-seed",
                SEED["server_seed"],
                "--client-seed",
                "lucky-7",
                "--nonce",
                "1",
                "--round",
                "3",
            ],
            {**SEED, "round": 3},
        ),
        (
            [
                "--seed",
                "abc",
                "--server-seed-hash",
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            ],
            {
                "seed": "abc",
                "server_seed_hash": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            },
        ),
        (
            ["--cards", "2S", "AH", "4D", "AC", "5D", "--table", "ez", "--rules", '{"decks": 6}'],
            {"cards": ["2S", "AH", "4D", "AC", "5D"], "table": "ez", "rules": {"decks": 6}},
        ),
    ],
)
def test_round_answers_as_the_service_does(capsys, client, argv, body):
    code, out, err = run(capsys, "round", *argv)
    assert (code, err) == (OK, "")
    assert json.loads(out) == answer(client, "/v1/rounds", body)


@pytest.mark.parametrize("bets", [SLIP, {"bets": SLIP}])
def test_round_settles_the_bets_file(capsys, client, tmp_path, bets):
    code, out, _ = run(
        capsys, "round", "--cards", "9S", "KH", "2D", "7C", "5H", "--bets", write(tmp_path, "b", bets)
    )
    assert code == OK
    settled = json.loads(out)["settlement"]
    assert (
        settled
        == answer(client, "/v1/rounds", {"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": SLIP})["settlement"]
    )
    assert (settled["staked"], settled["returned"], settled["net"]) == ("30.00", "48.75", "18.75")


def test_round_reads_the_bets_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", __import__("io").StringIO(json.dumps(SLIP)))
    code, out, _ = run(capsys, "round", "--seed", "abc", "--bets", "-")
    assert code == OK
    assert [bet["type"] for bet in json.loads(out)["settlement"]["bets"]] == ["banker", "tie"]


@pytest.mark.parametrize(
    ("argv", "body"),
    [
        ([], {"cards": []}),
        (["--cards", "9S", "KH", "2D", "7C"], {"cards": ["9S", "KH", "2D", "7C"]}),
        (
            ["--cards", "player:7S", "banker:KH", "KD", "banker:3C", "--table", "ez"],
            {
                "cards": [
                    {"card": "7S", "hand": "player"},
                    {"card": "KH", "hand": "banker"},
                    "KD",
                    {"card": "3C", "hand": "banker"},
                ],
                "table": "ez",
            },
        ),
        (["--cards", "9S,KH,2D,7C,5H"], {"cards": ["9S", "KH", "2D", "7C", "5H"]}),
    ],
)
def test_a_live_round_answers_as_the_service_does(capsys, client, argv, body):
    code, out, err = run(capsys, "round", "--live", *argv)
    assert (code, err) == (OK, "")
    assert json.loads(out) == answer(client, "/v1/rounds/live", body)


def test_a_live_misdeal_is_the_service_s_problem(capsys, client):
    cards = ["player:7S", "banker:KH", "player:KD", "banker:3C", "player:5H"]
    code, _, err = run(capsys, "round", "--live", "--cards", *cards)
    assert code == BAD_INPUT
    problem = client.post(
        "/v1/rounds/live", json={"cards": [{"card": c.split(":")[1], "hand": c.split(":")[0]} for c in cards]}
    ).get_json()
    del problem["instance"]
    assert json.loads(err) == problem


def test_a_live_round_takes_no_seed(capsys):
    code, _, err = run(capsys, "round", "--live", "--seed", "abc")
    assert code == BAD_INPUT
    assert "--live takes cards, not seed" in json.loads(err)["detail"]


PEEK_CARDS = ["--cards", "9S", "KH", "2D", "7C", "5H", "--shown", "banker_first"]
PEEK_BODY = {"cards": ["9S", "KH", "2D", "7C", "5H"], "shown": ["banker_first"]}


BANKER_10 = [{"type": "banker", "amount": "10"}]


@pytest.mark.parametrize(
    ("bets", "argv", "decision"),
    [
        (BANKER_10, [], None),
        (BANKER_10, ["--decision", "banker=triple"], {"banker": "triple"}),
        ([*BANKER_10, {"type": "player", "amount": "5"}], ["--decision", "player=keep"], {"player": "keep"}),
    ],
)
def test_a_peek_round_answers_as_the_service_does(capsys, client, tmp_path, bets, argv, decision):
    slip = write(tmp_path, "slip.json", bets)
    code, out, err = run(capsys, "round", "--peek", *PEEK_CARDS, "--bets", slip, *argv)
    assert (code, err) == (OK, "")
    body = {**PEEK_BODY, "bets": bets, **({} if decision is None else {"decision": decision})}
    assert json.loads(out) == answer(client, "/v1/rounds/peek", body)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--cards", "9S", "KH", "2D", "7C", "--decision", "banker=keep"], "need --peek"),
        (["--peek", "--live", "--cards", "9S"], "do not go together"),
        (["--peek", *PEEK_CARDS, "--decision", "banker"], "banker=triple"),
    ],
)
def test_peek_options_out_of_place_are_refused(capsys, argv, words):
    code, _, err = run(capsys, "round", *argv)
    assert code == BAD_INPUT
    assert words in json.loads(err)["detail"]


def test_round_without_cards_or_seed_draws_a_seed_that_replays(capsys, client):
    code, out, _ = run(capsys, "round")
    assert code == OK
    dealt = json.loads(out)
    assert dealt["seed"]["generated"] is True
    assert len(dealt["seed"]["seed"]) == 64
    replayed = answer(client, "/v1/rounds", {"seed": dealt["seed"]["seed"]})
    assert (replayed["player"], replayed["banker"]) == (dealt["player"], dealt["banker"])


# --- settle ------------------------------------------------------------------

SETTLEMENT = {
    "cards": ["9S", "KH", "2D", "7C", "5H"],
    "slips": [
        {"id": "seat-1", "bets": [{"type": "banker", "amount": "25.00"}]},
        {"id": "seat-2", "bets": [{"type": "player", "amount": "10"}, {"type": "tie", "amount": "2.50"}]},
    ],
}


#: A Lightning table's slips on the studio's lightning card 8H x8.
LIGHTNING_SETTLEMENT = {
    "cards": ["2S", "8H", "5D", "KC"],
    "rules": {"multipliers": "lightning"},
    "multiplier_cards": [{"card": "8H", "multiplier": 8}],
    "slips": [
        {"id": "seat-1", "bets": [{"type": "banker", "amount": "10.00"}]},
        {"id": "seat-2", "bets": [{"type": "player", "amount": "5"}, {"type": "tie", "amount": "5"}]},
    ],
}


@pytest.mark.parametrize(
    "body",
    [
        SETTLEMENT,
        {**SETTLEMENT, "cards": None, "seed": "abc", "table": "tie_9"},
        LIGHTNING_SETTLEMENT,
        {**LIGHTNING_SETTLEMENT, "cards": None, "multiplier_cards": None, "seed": "abc"},
    ],
    ids=["cards", "seed", "multiplier_cards", "multiplier_seed"],
)
def test_settle_answers_as_the_service_does(capsys, client, tmp_path, body):
    body = {k: v for k, v in body.items() if v is not None}
    if body.get("table") == "tie_9":
        body["slips"] = [{"id": "s", "bets": [{"type": "tie", "amount": "5"}]}]
    code, out, err = run(capsys, "settle", write(tmp_path, "table.json", body))
    assert (code, err) == (OK, "")
    assert json.loads(out) == answer(client, "/v1/settlements", body)


# --- the same problems as the service -----------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        {"cards": ["9S", "KH", "2D", "7C"]},  # missing fifth card
        {"cards": ["AS"] * 9 + ["2D"], "rules": {"decks": 1}},  # more aces than the shoe holds
        {"cards": ["9S", "KH", "ZZ"]},  # not a card
        {"seed": "abc", "slips": [{"id": "s", "bets": [{"type": "banker", "amount": "10.005"}]}]},
        {"seed": "abc", "slips": [{"id": "s", "bets": [{"type": "tie", "amount": "500"}]}]},
        {"seed": "abc", "slips": [{"id": "s", "bets": [{"type": "dragon_7", "amount": "5"}]}]},
        {"seed": "abc", "slips": [{"id": "s", "bets": [{"type": "banker", "amount": "1e3"}]}]},
        {"seed": "abc", "cards": ["9S"], "slips": []},
        {"seed": "abc", "rules": {"variant": "ez", "commission": "0.05"}, "slips": [{"id": "s", "bets": []}]},
    ],
)
def test_bad_input_is_the_service_s_problem_with_exit_code_3(capsys, client, tmp_path, body):
    body.setdefault("slips", [{"id": "s", "bets": [{"type": "player", "amount": "10"}]}])
    response = client.post("/v1/settlements", json=body)
    assert response.status_code == 422
    expected = response.get_json()
    del expected["instance"]
    code, out, err = run(capsys, "settle", write(tmp_path, "bad.json", body))
    assert (code, out) == (BAD_INPUT, "")
    assert json.loads(err) == expected
    assert expected["errors"], "every problem names the offending input"


@pytest.mark.parametrize(
    ("setup", "title"),
    [
        (lambda p: p.write_text("{not json"), "The settlement request is not valid JSON"),
        (lambda p: p.write_text('{"a": 1, "a": 2}'), "The settlement request is not valid JSON"),
        (lambda p: p.write_text('{"x": NaN}'), "The settlement request is not valid JSON"),
        (lambda p: p.write_bytes(b"\xff\xfe"), "Cannot read the settlement request"),
        (lambda p: None, "Cannot read the settlement request"),
    ],
    ids=["not-json", "duplicate-key", "nan", "not-utf8", "missing-file"],
)
def test_an_unreadable_file_is_bad_input(capsys, tmp_path, setup, title):
    path = tmp_path / "request.json"
    setup(path)
    code, out, err = run(capsys, "settle", str(path))
    assert (code, out) == (BAD_INPUT, "")
    problem = json.loads(err)
    assert problem["title"] == title
    assert str(path) in problem["detail"]


def test_a_request_that_is_not_an_object_points_at_the_whole_document(capsys, tmp_path):
    code, _, err = run(capsys, "settle", write(tmp_path, "list.json", [1, 2]))
    assert code == BAD_INPUT
    not_an_object = {"pointer": "", "code": "not_an_object", "detail": "Invalid input type."}
    assert json.loads(err)["errors"] == [not_an_object]


def test_bad_rules_on_the_command_line_are_bad_input(capsys):
    code, _, err = run(capsys, "round", "--seed", "abc", "--rules", "{decks: 6}")
    assert code == BAD_INPUT
    assert json.loads(err)["title"] == "The --rules value is not valid JSON"
    code, _, err = run(capsys, "round", "--seed", "abc", "--rules", '{"decks": 9}')
    assert code == BAD_INPUT
    assert [e["pointer"] for e in json.loads(err)["errors"]] == ["/rules/decks"]


# --- verify ------------------------------------------------------------------

ANSWERS = [
    ("/v1/rounds", {"seed": "table-7/shoe-1", "bets": SLIP}),
    ("/v1/rounds", {**SEED, "round": 20, "table": "ez", "bets": [{"type": "dragon_7", "amount": "5"}]}),
    ("/v1/rounds", {"seed": "abc", "rules": {"decks": 6, "tie_pays": 9, "payout_rounding": "half_up"}}),
    ("/v1/settlements", {**SEED, "slips": SETTLEMENT["slips"]}),
    (
        "/v1/settlements",
        {
            **SEED,
            "round": 2,
            "rules": {"multipliers": "golden_wealth"},
            "slips": LIGHTNING_SETTLEMENT["slips"],
        },
    ),
    ("/v1/shoes", {**SEED, "from_round": 1, "to_round": 3, "bets": [{"type": "banker", "amount": "10.00"}]}),
    (
        "/v1/shoes",
        {
            "seed": "abc",
            "table": "tie_9",
            "rules": {"decks": 1, "cut_card": 26, "dealing": "shoe"},
            "include_shoe": True,
        },
    ),
    (
        "/v1/shoes",
        {
            **SEED,
            "from_round": 5,
            "bets_by_round": [{"round": 6, "bets": [{"type": "player", "amount": "3"}]}],
        },
    ),
    (
        "/v1/shoes",
        {
            **SEED,
            "rules": {"multipliers": "lightning"},
            "to_round": 6,
            "bets_by_round": [{"round": 2, "bets": [{"type": "tie", "amount": "5"}]}],
        },
    ),
]


@pytest.mark.parametrize(("path", "body"), ANSWERS)
def test_verify_matches_every_seeded_answer(capsys, client, tmp_path, path, body):
    saved = answer(client, path, body)
    code, out, err = run(capsys, "verify", write(tmp_path, "answer.json", saved))
    assert (code, err) == (OK, "")
    report = json.loads(out)
    assert report["match"] is True
    assert report["differences"] == []
    assert (
        report["answer"]
        == {"/v1/rounds": "round", "/v1/settlements": "settlement", "/v1/shoes": "shoe"}[path]
    )
    assert report["shoe_hash"] == saved["seed"]["shoe_hash"]


def test_verify_matches_an_answer_to_a_fresh_seed(capsys, client, tmp_path):
    saved = answer(client, "/v1/rounds", {"bets": SLIP})
    assert saved["seed"]["generated"] is True
    code, _, _ = run(capsys, "verify", write(tmp_path, "answer.json", saved))
    assert code == OK


def swap_first_card(a):
    cards = a["player"]["cards"]
    cards[0] = "KS" if cards[0] != "KS" else "QS"


def change_outcome(a):
    a["outcome"] = "tie" if a["outcome"] != "tie" else "banker"


ROUND = ("/v1/rounds", {"seed": "abc", "bets": SLIP})
PLACED_ROUND = ("/v1/rounds", {**SEED, "round": 4})
SETTLED = ("/v1/settlements", {"seed": "abc", "slips": SETTLEMENT["slips"]})
SHOE = ("/v1/shoes", {"seed": "abc", "to_round": 4})
LIGHTNING_SHOE = (
    "/v1/shoes",
    {"seed": "abc", "to_round": 4, "rules": {"multipliers": "lightning"}, "bets": SLIP},
)


@pytest.mark.parametrize(
    ("answered", "change", "pointer"),
    [
        (ROUND, swap_first_card, "/player/cards/0"),
        (ROUND, change_outcome, "/outcome"),
        (ROUND, lambda a: a["settlement"].update(net="99.00"), "/settlement/net"),
        (ROUND, lambda a: a["seed"].update(shoe_hash="0" * 64), "/seed/shoe_hash"),
        (ROUND, lambda a: a["seed"].update(server_seed_hash="0" * 64), "/seed/server_seed_hash"),
        (ROUND, lambda a: a["rules"].update(id="0" * 16), "/rules/id"),
        (PLACED_ROUND, lambda a: a["round"]["positions"]["banker"].reverse(), "/round/positions/banker/0"),
        (SETTLED, lambda a: a["totals"].update(returned="0.00"), "/totals/returned"),
        (SETTLED, lambda a: a["slips"][1]["bets"][0].update(result="void"), "/slips/1/bets/0/result"),
        (SHOE, lambda a: a["burned"].pop(), "/burned"),
        (SHOE, lambda a: a["rounds"][2].update(cut_card_out=True), "/rounds/2/cut_card_out"),
        (SHOE, lambda a: a.update(round_count=3), "/round_count"),
        (
            LIGHTNING_SHOE,
            lambda a: a["rounds"][1]["multiplier_cards"][0].update(card="AS"),
            "/rounds/1/multiplier_cards/0/card",
        ),
        (
            LIGHTNING_SHOE,
            lambda a: a["rounds"][3]["multiplier_settlement"].update(fees="0.00"),
            "/rounds/3/multiplier_settlement/fees",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_verify_names_each_tampered_field_with_exit_code_1(
    capsys, client, tmp_path, answered, change, pointer
):
    saved = answer(client, *answered)
    tampered = copy.deepcopy(saved)
    change(tampered)
    code, out, _ = run(capsys, "verify", write(tmp_path, "answer.json", tampered))
    assert code == MISMATCH
    report = json.loads(out)
    assert report["match"] is False
    assert pointer in [d["pointer"] for d in report["differences"]]


def test_verify_with_the_wrong_revealed_seed_is_a_mismatch(capsys, client, tmp_path):
    saved = write(tmp_path, "answer.json", answer(client, "/v1/rounds", {**SEED}))
    assert run(capsys, "verify", saved, "--server-seed", SEED["server_seed"])[0] == OK
    code, out, _ = run(capsys, "verify", saved, "--server-seed", "not-the-seed")
    assert code == MISMATCH
    assert "/seed/server_seed_hash" in [d["pointer"] for d in json.loads(out)["differences"]]
    assert run(capsys, "verify", saved, "--nonce", "2")[0] == MISMATCH


def test_verify_ignores_only_what_seed_inputs_do_not_determine(capsys, client, tmp_path):
    saved = answer(client, "/v1/rounds", {"seed": "abc"})
    saved["engine"]["version"] = "0.0.1"
    saved["seed"]["generated"] = True
    assert run(capsys, "verify", write(tmp_path, "answer.json", saved))[0] == OK


@pytest.mark.parametrize(
    ("document", "title"),
    [
        ({"cards": ["9S"]}, "The answer has no seed data"),
        ("a string", "The answer is not a service answer"),
    ],
)
def test_verify_refuses_what_it_cannot_re_derive(capsys, tmp_path, document, title):
    code, out, err = run(capsys, "verify", write(tmp_path, "answer.json", document))
    assert (code, out) == (BAD_INPUT, "")
    assert json.loads(err)["title"] == title


def test_verify_refuses_an_answer_dealt_from_cards(capsys, client, tmp_path):
    saved = answer(client, "/v1/rounds", {"cards": ["9S", "KH", "2D", "7C", "5H"]})
    code, _, err = run(capsys, "verify", write(tmp_path, "answer.json", saved))
    assert code == BAD_INPUT
    assert "from cards" in json.loads(err)["detail"]


# --- tables ------------------------------------------------------------------


def test_tables_prints_the_service_s_presets(capsys, client):
    code, out, _ = run(capsys, "tables")
    assert code == OK
    assert json.loads(out) == client.get("/v1/tables").get_json()


def test_tables_text_names_every_preset_and_its_limits(capsys, client):
    code, out, _ = run(capsys, "tables", "--text")
    assert code == OK
    for table in client.get("/v1/tables").get_json()["tables"]:
        assert f"{table['name']}" in out
        assert table["description"] in out
    assert "standard (default)" in out


# --- paytables --------------------------------------------------------------


def test_paytables_prints_the_service_s_catalogue(capsys, client):
    code, out, _ = run(capsys, "paytables", "--decks", "6")
    assert code == OK
    assert json.loads(out) == client.get("/v1/paytables?decks=6").get_json()


def test_paytables_markdown_has_a_row_per_pay_table_with_its_computed_edge(capsys, client):
    code, out, _ = run(capsys, "paytables", "--markdown")
    assert code == OK
    for table in client.get("/v1/paytables").get_json()["pay_tables"]:
        [row] = [line for line in out.splitlines() if line.startswith(f"| `{table['id']}` |")]
        assert f"{Decimal(table['house_edge']) * 100:.4f}%" in row


# --- the command line ---------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["deal"],
        ["round", "--table", "casino"],
        ["round", "--nonce", "one"],
        ["round", "--cards"],
        ["settle"],
        ["verify"],
        ["tables", "--json"],
        ["paytables", "--decks", "9"],
    ],
)
def test_a_wrong_command_line_is_a_usage_error(capsys, argv):
    code, out, err = run(capsys, *argv)
    assert code == USAGE
    assert out == ""
    assert "usage: baccarat" in err


def test_help_lists_every_command_and_the_exit_codes(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == OK
    for name in ("round", "settle", "verify", "tables", "paytables", "odds", "simulate"):
        assert f"\n    {name} " in out or f"\n    {name}\n" in out, name
    for exit_code in (OK, MISMATCH, USAGE, BAD_INPUT):
        assert f"\n  {exit_code}  " in out


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("round", ["--cards CARD", "--seed TEXT", "--bets FILE", "dealing order", "examples:"]),
        ("settle", ["FILE", "POST /v1/settlements", "example FILE:"]),
        ("verify", ["ANSWER", "--server-seed TEXT", "exit code 0 when it matches", "not compared"]),
        ("tables", ["--text", "GET /v1/tables"]),
        # Every part of the answer and request a signature covers (service/contract/audit/signing.py).
        (
            "verify-answer",
            ["status", "Content-Type", "Content-Language", "Content-Digest", "method, URL and digest"],
        ),
    ],
)
def test_help_explains_each_command(capsys, command, says):
    code, out, _ = run(capsys, command, "--help")
    assert code == OK
    assert out.startswith(f"usage: baccarat {command}")
    for text in says:
        assert text in " ".join(out.split()) or text in out, text


def test_every_command_module_is_registered():
    """A command module (one with add_parser and run) that is not in COMMANDS is unreachable."""
    modules = [
        importlib.import_module(f"service.cli.{info.name}")
        for info in pkgutil.iter_modules(service.cli.__path__)
        if not info.name.startswith("_")
    ]
    commands = {m for m in modules if hasattr(m, "add_parser") and hasattr(m, "run")}
    assert commands == set(COMMANDS)


@pytest.mark.parametrize(
    "command",
    [[str(Path(sys.executable).parent / "baccarat")], [sys.executable, "-m", "service.cli"]],
    ids=["console-script", "python-m"],
)
def test_the_installed_command_runs(command):
    result = subprocess.run(
        [*command, "round", "--cards", "9S", "KH", "2D", "7C", "5H"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == OK, result.stderr
    assert json.loads(result.stdout)["outcome"] == "banker"
    bad = subprocess.run([*command, "round", "--cards", "9S"], capture_output=True, text=True, timeout=60)
    assert bad.returncode == BAD_INPUT
    assert json.loads(bad.stderr)["type"] == "urn:baccarat:problem:missing-card"


def test_the_command_line_loads_no_web_framework():
    """The CLI shares the schemas and the engine with the service, not its web stack."""
    web = "{'flask', 'flask_smorest', 'werkzeug', 'webargs', 'prometheus_client', 'gunicorn', 'gevent'}"
    code = f"import sys, service.cli; print(sorted(m for m in sys.modules if m.split('.')[0] in {web}))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


# --- verify-answer ------------------------------------------------------------


@pytest.fixture
def stored_exchange(client, tmp_path) -> tuple[Path, Path]:
    """A signed round of the test app, stored as a platform would, and its JWKS."""
    from service.contract.audit.exchange import Exchange, StoredRequest, StoredResponse, dumps_exchange

    body = json.dumps({"seed": "abc", "bets": [{"type": "banker", "amount": "10"}]})
    answer = client.post("/v1/rounds", data=body, content_type="application/json")
    exchange = Exchange(
        StoredRequest("POST", "http://localhost/v1/rounds", body.encode()),
        StoredResponse(answer.status_code, dict(answer.headers), answer.get_data()),
    )
    (tmp_path / "exchange.json").write_text(dumps_exchange(exchange), encoding="utf-8")
    (tmp_path / "jwks.json").write_text(json.dumps(client.get("/.well-known/jwks.json").get_json()))
    return tmp_path / "exchange.json", tmp_path / "jwks.json"


def test_verify_answer_accepts_a_signed_answer(capsys, stored_exchange):
    exchange, jwks = stored_exchange
    code, out, _ = run(capsys, "verify-answer", str(exchange), "--jwks", str(jwks))
    assert code == OK
    assert json.loads(out)["verified"] is True


@pytest.mark.parametrize(
    ("part", "old", "new"), [("response", "banker", "player"), ("request", "abc", "abd")]
)
def test_verify_answer_refuses_a_changed_byte(capsys, stored_exchange, part, old, new):
    exchange, jwks = stored_exchange
    document = json.loads(exchange.read_text())
    document[part]["body"] = document[part]["body"].replace(old, new, 1)
    exchange.write_text(json.dumps(document))
    code, out, err = run(capsys, "verify-answer", str(exchange), "--jwks", str(jwks))
    assert code == MISMATCH
    assert json.loads(out)["verified"] is False
    assert err.startswith("not verified: ")


def test_verify_answer_refuses_a_jwks_that_is_not_one(capsys, stored_exchange, tmp_path):
    exchange, _ = stored_exchange
    (tmp_path / "bad.json").write_text('{"keys": [{"kty": "RSA"}]}')
    code, _, err = run(capsys, "verify-answer", str(exchange), "--jwks", str(tmp_path / "bad.json"))
    assert code == BAD_INPUT
    assert "not an Ed25519 key" in err


def test_verify_answer_names_a_malformed_exchange(capsys, stored_exchange, tmp_path):
    _, jwks = stored_exchange
    (tmp_path / "bad.json").write_text('{"request": {}}')
    code, _, err = run(capsys, "verify-answer", str(tmp_path / "bad.json"), "--jwks", str(jwks))
    assert code == BAD_INPUT
    assert "/response" in err


def curl_files(stored: Path, folder: Path) -> list[str]:
    """The stored exchange as curl would have left it: its headers (-D) and answer files."""
    document = json.loads(stored.read_text())
    response = document["response"]
    lines = ["HTTP/1.1 100 Continue", "", f"HTTP/1.1 {response['status']} OK"]
    lines += [f"{name}: {value}" for name, value in response["headers"].items()]
    (folder / "answer.headers").write_text("\r\n".join([*lines, "", ""]), encoding="utf-8", newline="")
    (folder / "answer.json").write_text(response["body"], encoding="utf-8", newline="")
    return [
        "--url",
        document["request"]["url"],
        "--data",
        document["request"]["body"],
        "--answer-headers",
        str(folder / "answer.headers"),
        "--answer",
        str(folder / "answer.json"),
    ]


def test_verify_answer_reads_what_curl_saved_and_saves_the_exchange(capsys, stored_exchange, tmp_path):
    exchange, jwks = stored_exchange
    options = curl_files(exchange, tmp_path)
    saved = tmp_path / "saved.json"
    code, out, _ = run(capsys, "verify-answer", "--jwks", str(jwks), *options, "--save", str(saved))
    assert code == OK, out
    assert json.loads(out)["verified"] is True
    assert json.loads(saved.read_text()) == json.loads(exchange.read_text())


def test_verify_answer_from_curl_refuses_a_changed_byte(capsys, stored_exchange, tmp_path):
    exchange, jwks = stored_exchange
    options = curl_files(exchange, tmp_path)
    options[options.index("--data") + 1] = options[options.index("--data") + 1].replace("abc", "abd")
    code, out, _ = run(capsys, "verify-answer", "--jwks", str(jwks), *options)
    assert code == MISMATCH
    assert json.loads(out)["verified"] is False


@pytest.mark.parametrize(
    ("drop", "says"),
    [("--answer", "missing --answer"), ("--url", "missing --url")],
)
def test_verify_answer_names_what_curl_did_not_give(capsys, stored_exchange, tmp_path, drop, says):
    exchange, jwks = stored_exchange
    options = curl_files(exchange, tmp_path)
    at = options.index(drop)
    del options[at : at + 2]
    code, _, err = run(capsys, "verify-answer", "--jwks", str(jwks), *options)
    assert code == BAD_INPUT
    assert says in err


def test_verify_answer_refuses_an_exchange_and_curl_files_together(capsys, stored_exchange, tmp_path):
    exchange, jwks = stored_exchange
    code, _, err = run(
        capsys, "verify-answer", str(exchange), "--jwks", str(jwks), *curl_files(exchange, tmp_path)
    )
    assert code == BAD_INPUT
    assert "not both" in err


@pytest.mark.parametrize("text", ["", "not headers", "HTTP/1.1 200 OK\nno colon here\n"])
def test_verify_answer_refuses_a_file_that_curl_did_not_write(capsys, stored_exchange, tmp_path, text):
    exchange, jwks = stored_exchange
    options = curl_files(exchange, tmp_path)
    (tmp_path / "answer.headers").write_text(text)
    code, _, err = run(capsys, "verify-answer", "--jwks", str(jwks), *options)
    assert code == BAD_INPUT
    assert "Not a header file written by curl -D" in err


@pytest.mark.parametrize(
    ("argv", "body"),
    [
        (
            ["--multipliers", "lightning", "--seed", "abc"],
            {"seed": "abc", "rules": {"multipliers": "lightning"}},
        ),
        (
            [
                *("--multipliers", "golden_wealth", "--cards", "2S 8H 5D KC"),
                *("--multiplier-cards", "8H:8,2S:2", "AS:2", "AD:2", "AC:2"),
            ],
            {
                "cards": ["2S", "8H", "5D", "KC"],
                "rules": {"multipliers": "golden_wealth"},
                "multiplier_cards": [
                    {"card": card, "multiplier": multiplier}
                    for card, multiplier in [("8H", 8), ("2S", 2), ("AS", 2), ("AD", 2), ("AC", 2)]
                ],
            },
        ),
    ],
)
def test_a_multiplier_round_answers_as_the_service_does(capsys, client, tmp_path, argv, body):
    bets = [{"type": "banker", "amount": "10.00"}, {"type": "tie", "amount": "5.00"}]
    code, out, _ = run(capsys, "round", *argv, "--bets", write(tmp_path, "bets.json", bets))
    assert code == OK
    assert json.loads(out) == answer(client, "/v1/rounds", {**body, "bets": bets})
    assert "multiplier_settlement" in json.loads(out)


def test_a_multiplier_the_game_does_not_have_is_the_service_s_problem(capsys, client):
    body = {"cards": ["2S", "8H", "5D", "KC"], "rules": {"multipliers": "lightning"}}
    argv = ["round", "--multipliers", "lightning", "--cards", *body["cards"], "--multiplier-cards", "8H:7"]
    code, out, err = run(capsys, *argv)
    assert (code, out) == (BAD_INPUT, "")
    expected = client.post("/v1/rounds", json={**body, "multiplier_cards": [{"card": "8H", "multiplier": 7}]})
    assert json.loads(err)["errors"] == expected.get_json()["errors"]


@pytest.mark.parametrize("preset", ["lightning", "golden_wealth", "prosperity_tree"])
def test_verify_re_derives_a_multiplier_round_and_names_a_changed_multiplier(
    capsys, client, tmp_path, preset
):
    body = {**SEED, "round": 3, "rules": {"multipliers": preset}, "bets": [{"type": "tie", "amount": "5.00"}]}
    saved = answer(client, "/v1/rounds", body)
    code, out, err = run(capsys, "verify", write(tmp_path, "answer.json", saved))
    assert (code, err, json.loads(out)["match"]) == (OK, "", True)
    first = saved["multiplier_cards"][0]
    first["multiplier"] = 2 if first["multiplier"] != 2 else 3
    code, out, _ = run(capsys, "verify", write(tmp_path, "changed.json", saved))
    assert code == MISMATCH
    assert "/multiplier_cards/0/multiplier" in {d["pointer"] for d in json.loads(out)["differences"]}


# --- verify-build ------------------------------------------------------------------


def test_verify_build_agrees_with_the_published_digest(capsys, client):
    """The digest the service names (its JWKS, every answer) is the one the files give offline."""
    published = client.get("/.well-known/jwks.json").get_json()["engine"]["digest"]
    code, out, err = run(capsys, "verify-build", "--digest", published.upper())
    assert (code, err) == (OK, "")
    report = json.loads(out)
    landing = client.get("/").get_json()
    assert report["engine"] == {key: landing[key] for key in ("name", "version", "digest")}
    assert (report["expected"], report["verified"]) == (published, True)
    assert report["engine"]["digest"] == published
    assert [entry["path"] for entry in report["files"]] == sorted(entry["path"] for entry in report["files"])


def test_verify_build_refuses_another_digest_in_one_line(capsys):
    code, out, err = run(capsys, "verify-build", "--digest", "0" * 64)
    assert code == MISMATCH
    assert json.loads(out)["verified"] is False
    [line] = err.splitlines()
    assert line.startswith("not verified: ")
    assert "0" * 64 in line


def test_verify_build_without_a_digest_checks_the_build_s_own_claim(capsys, monkeypatch):
    from service.provenance import build

    code, _, err = run(capsys, "verify-build")  # a source tree: nothing to compare with
    assert code == MISMATCH
    [line] = err.splitlines()
    assert "records no digest" in line
    monkeypatch.setattr("service.cli.verify_build.claimed", lambda: build.engine()["digest"])
    code, _, err = run(capsys, "verify-build")  # a built package, as built
    assert (code, err) == (OK, "")
    monkeypatch.setattr("service.cli.verify_build.claimed", lambda: "f" * 64)
    code, out, err = run(capsys, "verify-build")
    assert (code, json.loads(out)["recorded"], len(err.splitlines())) == (MISMATCH, "f" * 64, 1)


def test_verify_build_prints_the_manifest_whose_sha256_is_the_digest(capsys):
    code, out, _ = run(capsys, "verify-build", "--manifest", "--digest", "0" * 64)
    assert code == MISMATCH
    digest = subprocess.run(["sha256sum"], input=out, capture_output=True, text=True, check=True).stdout
    code, _, err = run(capsys, "verify-build", "--digest", digest.split()[0])
    assert (code, err) == (OK, "")
    assert all(line.split("  ")[1].startswith("service/baccarat/") for line in out.splitlines())


@pytest.mark.parametrize("digest", ["abc", "g" * 64, "0" * 65])
def test_verify_build_takes_only_a_sha256_digest(capsys, digest):
    code, _, err = run(capsys, "verify-build", "--digest", digest)
    assert code == USAGE
    assert "is not a SHA-256 digest" in err
