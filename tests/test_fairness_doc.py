"""The golden vectors and the statements of docs/fairness.md hold for the code."""

import hashlib
import hmac
import json
import re
from pathlib import Path

import pytest

from service.baccarat.multipliers.cards import ALGORITHM as MULTIPLIER_ALGORITHM
from service.baccarat.multipliers.cards import draw_multiplier_cards
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.shoes.deal import DEFAULT_CUT_CARD, MAX_CUT_CARD, MIN_CUT_CARD, deal_shoe
from service.baccarat.shoes.shuffle import ALGORITHM, SeedInputs, shoe_hash, shuffled_shoe, words

DOC = Path(__file__).parents[1] / "docs" / "fairness.md"
WORD = 2**32


def golden_vectors() -> list[dict]:
    """The JSON block of the page's golden test vectors section."""
    section = re.split(r"^## .*Golden test vectors.*$", DOC.read_text(), flags=re.MULTILINE)[1]
    block = re.search(r"```json\n(.*?)```", section, flags=re.DOTALL)
    assert block, "docs/fairness.md has no JSON block of golden vectors"
    return json.loads(block.group(1))


VECTORS = golden_vectors()


def draws(inputs: SeedInputs, decks: int) -> tuple[list[list[int]], list[list[int]]]:
    """Every Fisher-Yates draw ``[i, word, j]`` and every rejected word ``[i, word]``."""
    stream, taken, rejected = words(inputs), [], []
    for i in range(52 * decks - 1, 0, -1):
        limit = WORD - WORD % (i + 1)
        x = next(stream)
        while x >= limit:
            rejected.append([i, x])
            x = next(stream)
        taken.append([i, x, x % (i + 1)])
    return taken, rejected


@pytest.mark.parametrize(
    "vector", VECTORS, ids=lambda v: f"{v['server_seed'][:12]}/{v['nonce']}/{v['decks']}"
)
def test_golden_vector(vector):
    inputs = SeedInputs(vector["server_seed"], vector["client_seed"], vector["nonce"])
    order = shuffled_shoe(vector["decks"], inputs)
    assert inputs.server_seed_hash == vector["server_seed_hash"]
    message = f"{inputs.client_seed}:{inputs.nonce}:0".encode()
    assert hmac.new(inputs.server_seed.encode(), message, hashlib.sha256).hexdigest() == vector["block_0"]
    taken, rejected = draws(inputs, vector["decks"])
    assert taken[:3] == vector["first_draws"]
    assert rejected == vector["rejected"]
    assert " ".join(card.code for card in order[:20]) == vector["first_20"]
    assert shoe_hash(order) == vector["shoe_sha256"]
    dealt = deal_shoe(order, cut_card=DEFAULT_CUT_CARD)
    assert " ".join(card.code for card in dealt.burned) == vector["burned"]
    assert len(dealt.rounds) == vector["rounds"]
    first = dealt.rounds[0].coup
    assert vector["round_1"] == {
        "player": " ".join(card.code for card in first.player.cards),
        "banker": " ".join(card.code for card in first.banker.cards),
        "outcome": str(first.outcome),
    }


def test_the_vectors_cover_both_shoe_sizes_provably_fair_inputs_and_a_rejection():
    assert {8, 6} <= {v["decks"] for v in VECTORS}
    assert any(v["client_seed"] and v["nonce"] for v in VECTORS)
    assert any(v["rejected"] for v in VECTORS)
    assert any(not v["server_seed"].isascii() and not v["client_seed"].isascii() for v in VECTORS)
    plain = [v for v in VECTORS if v["client_seed"] == "" and v["nonce"] == 0]
    assert {8, 6} <= {v["decks"] for v in plain}


def test_the_rejection_example_states_the_right_limit():
    text = DOC.read_text()
    for vector in VECTORS:
        for i, word in vector["rejected"]:
            limit = WORD - WORD % (i + 1)
            assert word >= limit
            assert f"*i* = {i}, where *limit* = {limit}" in text


def test_the_page_names_the_algorithm_and_the_cut_card_settings():
    text = DOC.read_text()
    assert f"**`{ALGORITHM}`**" in text
    assert f"(default **{DEFAULT_CUT_CARD}**)" in text
    assert f"It may be {MIN_CUT_CARD} to {MAX_CUT_CARD}" in text


def test_the_reference_code_on_the_page_gives_the_golden_shoes():
    """The Python listing of section 2 is itself a re-implementation: run it."""
    listing = re.search(r"```python\n(.*?)```", DOC.read_text(), flags=re.DOTALL)
    assert listing
    namespace: dict = {}
    exec(compile(listing.group(1), str(DOC), "exec"), namespace)
    for vector in VECTORS:
        cards = namespace["shoe_order"](
            vector["server_seed"], vector["client_seed"], vector["nonce"], vector["decks"]
        )
        assert namespace["shoe_hash"](cards) == vector["shoe_sha256"]


def multiplier_vectors() -> list[dict]:
    """The JSON block of the page's multiplier cards section."""
    section = re.split(r"^## .*Multiplier cards.*$", DOC.read_text(), flags=re.MULTILINE)[1]
    block = re.search(r"```json\n(.*?)```", section, flags=re.DOTALL)
    assert block, "docs/fairness.md has no JSON block of multiplier card vectors"
    return json.loads(block.group(1))


@pytest.mark.parametrize("vector", multiplier_vectors(), ids=lambda v: f"{v['rule']}-{v['round']}")
def test_the_multiplier_card_vectors_are_what_the_engine_draws(vector):
    inputs = SeedInputs(vector["server_seed"], vector["client_seed"], vector["nonce"])
    drawn = draw_multiplier_cards(PRESETS[vector["rule"]].rule, inputs, round_number=vector["round"])
    assert drawn.algorithm == MULTIPLIER_ALGORITHM
    assert " ".join(str(lit) for lit in drawn.cards) == vector["multiplier_cards"]
