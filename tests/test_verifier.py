"""The independent JavaScript verifier agrees with the service, and catches tampering.

It needs Node.js. Without it these tests are skipped with a message, unless
``BACCARAT_REQUIRE_ALL_TOOLS=1`` (as in CI), which makes a missing node a failure.
"""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from service.baccarat.shoes.deal import deal_shoe
from service.baccarat.shoes.shuffle import SeedInputs, shuffled_shoe

ROOT = Path(__file__).parents[1]
VERIFIER = ROOT / "verifier" / "verify.js"
SEEDS = [
    {"seed": "abc"},
    {"seed": "table-7/shoe-1"},
    {
        "server_seed": "8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e",
        "client_seed": "lucky-7",
        "nonce": 1,
    },
    {"server_seed": "Zoë's shoe", "client_seed": "joueur-é-🂡", "nonce": 42},
    {"server_seed": "s" * 256, "client_seed": "", "nonce": 2**53 - 1},
]
#: What an operator's own multiplier rule pays: the tie, five to one, times every card's multiplier.
TIE_PAYS = {"tie": {"pays": "5", "counted": "all_cards"}}


@pytest.fixture(scope="module")
def node() -> str:
    path = shutil.which("node")
    if path is None:
        message = "node (Node.js 18 or later) is not on PATH, so the JavaScript verifier cannot run"
        if os.environ.get("BACCARAT_REQUIRE_ALL_TOOLS") == "1":
            pytest.fail(f"{message}; BACCARAT_REQUIRE_ALL_TOOLS=1 requires it")
        pytest.skip(f"{message}: install Node.js to run these checks")
    return path


def verify(node: str, tmp_path: Path, *answers: dict) -> subprocess.CompletedProcess[str]:
    """Run the verifier once over ``answers``, each written to its own file."""
    paths = []
    for index, body in enumerate(answers):
        path = tmp_path / f"answer-{index}.json"
        path.write_text(json.dumps(body, ensure_ascii=False), encoding="utf-8")
        paths.append(str(path))
    return subprocess.run([node, str(VERIFIER), *paths], capture_output=True, text=True, timeout=120)


def answer(client, path: str, body: dict) -> dict:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


def test_the_golden_vectors_of_the_page_pass_in_javascript(node):
    result = subprocess.run(
        [node, str(VERIFIER), "--vectors", str(ROOT / "docs" / "fairness.md")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("OK:")


@pytest.mark.parametrize("decks", [8, 6])
def test_whole_shoes_verify(node, tmp_path, client, decks):
    bodies = [
        answer(client, "/v1/shoes", {**seed, "rules": {"decks": decks}, "include_shoe": True})
        for seed in SEEDS
    ]
    result = verify(node, tmp_path, *bodies)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(SEEDS)
    for line, body in zip(lines, bodies, strict=True):
        assert line.startswith("OK:")
        assert f"{body['round_count']} of {body['round_count']} rounds" in line


def test_slices_and_table_settings_verify(node, tmp_path, client):
    extras = [
        {"from_round": 7, "to_round": 12},
        {"rules": {"cut_card": 80}},
        {"rules": {"decks": 1, "cut_card": 26}},
        {"rules": {"decks": 6, "cut_card": 14}, "bets": [{"type": "tie", "amount": "1"}]},
    ]
    result = verify(node, tmp_path, *(answer(client, "/v1/shoes", {**SEEDS[2], **extra}) for extra in extras))
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("OK:") == len(extras)


@pytest.mark.parametrize("decks", [8, 6])
def test_rounds_verify(node, tmp_path, client, decks):
    bodies, summaries = [], []
    for seed in SEEDS:
        seed = {**seed, "rules": {"decks": decks}}
        last = answer(client, "/v1/shoes", {**seed, "to_round": 1})["round_count"]
        bodies.append(answer(client, "/v1/rounds", seed))  # from the top, no burn
        summaries.append(f"round from the top of a shoe of {decks} decks")
        for number in (1, 20, last):
            bodies.append(answer(client, "/v1/rounds", {**seed, "round": number}))
            summaries.append(f"round {number} of {last} in a shoe of {decks} decks")
    result = verify(node, tmp_path, *bodies)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(bodies)
    for line, summary in zip(lines, summaries, strict=True):
        assert line.startswith("OK:")
        assert summary in line


def tamper_card(body):
    hand = body["rounds"][3]["player"]["cards"]
    hand[0] = "KS" if hand[0] != "KS" else "QS"


def tamper_positions(body):
    body["rounds"][0]["positions"]["banker"].reverse()


def tamper_outcome(body):
    played = body["rounds"][5]
    played["outcome"] = "tie" if played["outcome"] != "tie" else "banker"


def tamper_burn(body):
    body["burned"] = body["burned"][1:]


def tamper_cut_card(body):
    body["rounds"][-1]["last"] = False


def tamper_commitment(body):
    body["seed"]["server_seed_hash"] = "0" * 64


def tamper_shoe(body):
    body["shoe"][100], body["shoe"][200] = body["shoe"][200], body["shoe"][100]


@pytest.mark.parametrize(
    ("tamper", "field"),
    [
        (tamper_card, "rounds[3].player.cards"),
        (tamper_positions, "rounds[0].banker.positions"),
        (tamper_outcome, "rounds[5].outcome"),
        (tamper_burn, "burned"),
        (tamper_cut_card, ".last"),
        (tamper_commitment, "seed.server_seed_hash"),
        (tamper_shoe, "shoe"),
    ],
)
def test_a_tampered_answer_fails_naming_what_differs(node, tmp_path, client, tamper, field):
    body = answer(client, "/v1/shoes", {**SEEDS[0], "include_shoe": True})
    tamper(body)
    result = verify(node, tmp_path, body)
    assert result.returncode == 1
    assert f"MISMATCH {field}" in result.stderr or f"{field}:" in result.stderr


def test_derive_gives_the_engine_s_shoe_and_rounds(node):
    inputs = SeedInputs("derive", "client", 9)
    result = subprocess.run(
        [node, str(VERIFIER), "--derive", "derive", "client", "9", "6", "20"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    derived = json.loads(result.stdout)
    order = shuffled_shoe(6, inputs)
    dealt = deal_shoe(order, cut_card=20)
    assert derived["shoe"] == [card.code for card in order]
    assert derived["burned"] == [card.code for card in dealt.burned]
    assert [(r["player"], r["banker"], r["outcome"]) for r in derived["rounds"]] == [
        ([c.code for c in r.coup.player.cards], [c.code for c in r.coup.banker.cards], str(r.coup.outcome))
        for r in dealt.rounds
    ]


def test_unseeded_answers_and_bad_usage_are_refused(node, tmp_path, client):
    body = answer(client, "/v1/rounds", {"cards": ["9S", "KH", "2D", "7C", "5H"]})
    result = verify(node, tmp_path, body)
    assert result.returncode == 1
    assert "no seed data" in result.stderr
    usage = subprocess.run([node, str(VERIFIER)], capture_output=True, text=True, timeout=60)
    assert usage.returncode == 2
    assert "usage" in usage.stderr


# --- signed answers (verifier/verify-answer.js) ----------------------------------

ANSWER_VERIFIER = ROOT / "verifier" / "verify-answer.js"


def signed_exchange(client) -> tuple[dict, dict]:
    from service.contract.audit.exchange import Exchange, StoredRequest, StoredResponse, exchange_document

    body = json.dumps({"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "banker", "amount": "10"}]})
    answer = client.post("/v1/rounds", data=body, content_type="application/json")
    exchange = Exchange(
        StoredRequest("POST", "http://localhost/v1/rounds", body.encode()),
        StoredResponse(answer.status_code, dict(answer.headers), answer.get_data()),
    )
    return exchange_document(exchange), client.get("/.well-known/jwks.json").get_json()


def verify_answer(node: str, tmp_path: Path, exchange: dict, jwks: dict) -> subprocess.CompletedProcess[str]:
    (tmp_path / "exchange.json").write_text(json.dumps(exchange, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "jwks.json").write_text(json.dumps(jwks), encoding="utf-8")
    command = [node, str(ANSWER_VERIFIER), str(tmp_path / "exchange.json"), str(tmp_path / "jwks.json")]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_a_signed_answer_verifies_in_javascript(node, tmp_path, client):
    exchange, jwks = signed_exchange(client)
    result = verify_answer(node, tmp_path, exchange, jwks)
    assert result.returncode == 0, result.stdout + result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["verified"] is True
    assert verdict["keyid"] == jwks["keys"][0]["kid"]


def _set(document: dict, path: tuple[str, ...], change) -> None:
    for key in path[:-1]:
        document = document[key]
    document[path[-1]] = change(document[path[-1]])


TAMPERINGS = {
    "answer byte": (("response", "body"), lambda body: body.replace("banker", "player", 1)),
    "request byte": (("request", "body"), lambda body: body.replace('"10"', '"11"')),
    "method": (("request", "method"), lambda _: "PUT"),
    "url": (("request", "url"), lambda url: url.replace("rounds", "shoes")),
    "status": (("response", "status"), lambda _: 201),
    "content type": (("response", "headers", "Content-Type"), lambda _: "text/plain"),
    "created": (
        ("response", "headers", "Signature-Input"),
        lambda text: text.replace("created=", "created=1"),
    ),
}


@pytest.mark.parametrize("tampering", TAMPERINGS.values(), ids=TAMPERINGS.keys())
def test_a_changed_exchange_fails_in_javascript(node, tmp_path, client, tampering):
    exchange, jwks = signed_exchange(client)
    _set(exchange, *tampering)
    result = verify_answer(node, tmp_path, exchange, jwks)
    assert result.returncode == 1, result.stdout + result.stderr
    assert json.loads(result.stdout)["verified"] is False


def test_another_key_fails_in_javascript(node, tmp_path, client):
    from service.contract.audit.keys import SigningKey, jwks

    exchange, _ = signed_exchange(client)
    result = verify_answer(node, tmp_path, exchange, jwks(SigningKey.generate().published))
    assert result.returncode == 1
    assert "not in the JWK Set" in json.loads(result.stdout)["reason"]


@pytest.mark.parametrize("preset", ["lightning", "golden_wealth", "prosperity_tree"])
@pytest.mark.parametrize("round_number", [None, 12])
def test_a_multiplier_round_s_multiplier_cards_verify(node, tmp_path, client, preset, round_number):
    """The verifier re-derives the multiplier cards from the seed inputs and the rule's weights."""
    where = {} if round_number is None else {"round": round_number}
    bodies = [
        answer(client, "/v1/rounds", {**seed, **where, "rules": {"multipliers": preset}}) for seed in SEEDS
    ]
    result = verify(node, tmp_path, *bodies)
    assert result.returncode == 0, result.stderr
    assert all("multiplier card(s)" in line for line in result.stdout.splitlines())


@pytest.mark.parametrize("round_number", [None, 5])
def test_a_multiplier_table_s_settlement_verifies_as_its_round(node, tmp_path, client, round_number):
    """A settlement at a multiplier table carries the round's multiplier cards as a round's answer does."""
    where = {} if round_number is None else {"round": round_number}
    slips = [{"id": "seat-1", "bets": [{"type": "tie", "amount": "5.00"}]}]
    bodies = [
        answer(
            client,
            "/v1/settlements",
            {**seed, **where, "rules": {"multipliers": "golden_wealth"}, "slips": slips},
        )
        for seed in SEEDS
    ]
    result = verify(node, tmp_path, *bodies)
    assert result.returncode == 0, result.stderr
    assert all("multiplier card(s)" in line for line in result.stdout.splitlines())


def test_a_changed_multiplier_card_is_caught(node, tmp_path, client):
    body = answer(client, "/v1/rounds", {"seed": "abc", "rules": {"multipliers": "lightning"}})
    body["multiplier_cards"][0]["multiplier"] = 8 if body["multiplier_cards"][0]["multiplier"] != 8 else 2
    result = verify(node, tmp_path, body)
    assert result.returncode == 1
    assert "MISMATCH multiplier_cards" in result.stderr


@pytest.mark.parametrize(
    "multipliers",
    ["lightning", {"cards": {"3": 1, "4": 1}, "multipliers": {"2": 10, "5": 3}, "pays": TIE_PAYS}],
    ids=["preset", "operator's rule"],
)
def test_each_round_of_a_multiplier_shoe_verifies_with_its_multiplier_cards(
    node, tmp_path, client, multipliers
):
    body = answer(client, "/v1/shoes", {"seed": "abc", "rules": {"multipliers": multipliers}})
    sliced = answer(
        client, "/v1/shoes", {"seed": "abc", "rules": {"multipliers": multipliers}, "from_round": 40}
    )
    result = verify(node, tmp_path, body, sliced)
    assert result.returncode == 0, result.stderr
    assert all("each with its multiplier cards" in line for line in result.stdout.splitlines())


def test_a_changed_multiplier_card_of_a_shoe_s_round_is_caught(node, tmp_path, client):
    body = answer(client, "/v1/shoes", {"seed": "abc", "rules": {"multipliers": "lightning"}, "to_round": 5})
    lit = body["rounds"][3]["multiplier_cards"][0]
    lit["multiplier"] = 8 if lit["multiplier"] != 8 else 2
    result = verify(node, tmp_path, body)
    assert result.returncode == 1
    assert "MISMATCH rounds[3].multiplier_cards" in result.stderr
