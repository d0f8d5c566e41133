"""Multiplier cards: drawn from the seed inputs by hmac-sha256-multiplier-cards/v1
(held to an independent implementation written from docs/multipliers.md and
to the document's test vectors), given by a studio and checked, and which of
a bet's cards they light."""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.baccarat.bets.types import BetType
from service.baccarat.multipliers.cards import (
    ALGORITHM,
    MultiplierCard,
    MultiplierCards,
    below,
    counted_cards,
    draw_multiplier_cards,
    multiplier_words,
    studio_multiplier_cards,
)
from service.baccarat.multipliers.presets import PRESETS
from service.baccarat.multipliers.rule import Counted, FaultCode, MultiplierCardError, MultiplierRule
from service.baccarat.rulebook.cards import DECK
from service.baccarat.rulebook.coup import deal
from service.baccarat.shoes.shuffle import SeedInputs, byte_blocks, shuffled_shoe
from tests.conftest import cards

DOC = Path(__file__).parents[3] / "docs" / "multipliers.md"
LIGHTNING, GOLDEN_WEALTH, PROSPERITY_TREE = (
    PRESETS[name].rule for name in ("lightning", "golden_wealth", "prosperity_tree")
)


def independent(server_seed: str, client_seed: str, nonce: int, round_: int, rule: MultiplierRule) -> str:
    """The multiplier cards as docs/multipliers.md says to draw them, written
    from the document alone: ``"TH x2 4S x3"``."""

    def words():
        k = 0
        while True:
            message = f"{client_seed}:{nonce}:{round_}:multipliers:{k}".encode()
            block = hmac.new(server_seed.encode(), message, hashlib.sha256).digest()
            for at in range(0, 32, 4):
                yield int.from_bytes(block[at : at + 4], "big")
            k += 1

    stream = words()

    def below_(n):
        limit = 2**32 - 2**32 % n
        x = next(stream)
        while x >= limit:
            x = next(stream)
        return x % n

    def by_weight(weights):
        divisor = math.gcd(*weights.values())
        keys = sorted(weights)
        if len(keys) == 1:
            return keys[0]
        x = below_(sum(weights[key] // divisor for key in keys))
        for key in keys:
            if x < weights[key] // divisor:
                return key
            x -= weights[key] // divisor
        raise AssertionError("x is below the total")

    count = by_weight(dict(rule.cards))
    deck = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]
    for i in range(count):
        j = i + below_(52 - i)
        deck[i], deck[j] = deck[j], deck[i]
    return " ".join(f"{card} x{by_weight(dict(rule.multipliers))}" for card in deck[:count])


def drawn(rule: MultiplierRule, *inputs, round_: int = 1) -> str:
    return " ".join(
        str(card) for card in draw_multiplier_cards(rule, SeedInputs(*inputs), round_number=round_).cards
    )


def vectors() -> list[dict]:
    block = re.search(r"<!-- vectors -->\n```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert block, "docs/multipliers.md has no JSON block of test vectors after <!-- vectors -->"
    return json.loads(block.group(1))


def test_the_document_s_vectors_are_what_the_engine_and_the_document_draw():
    found = vectors()
    assert len(found) >= 6
    assert {vector["rule"] for vector in found} == set(PRESETS)
    for vector in found:
        rule = PRESETS[vector["rule"]].rule
        inputs = (vector["server_seed"], vector["client_seed"], vector["nonce"])
        message = f"{inputs[1]}:{inputs[2]}:{vector['round']}:multipliers:0".encode()
        assert hmac.new(inputs[0].encode(), message, hashlib.sha256).hexdigest() == vector["block_0"]
        first = next(multiplier_words(SeedInputs(*inputs), vector["round"]))
        assert first == int(vector["block_0"][:8], 16)
        assert drawn(rule, *inputs, round_=vector["round"]) == vector["cards"]
        assert independent(*inputs, vector["round"], rule) == vector["cards"]


#: Fixed vectors, also in docs/multipliers.md: a change to the derivation fails here first.
@pytest.mark.parametrize(
    ("rule", "inputs", "round_", "expected"),
    [
        (LIGHTNING, ("abc", "", 0), 1, "TH x2 4S x3"),
        (LIGHTNING, ("abc", "", 0), 2, "KD x2 AD x2 4C x5 3C x2 6D x2"),
        (GOLDEN_WEALTH, ("abc", "", 0), 1, "KC x3 TS x3 AH x2 7D x5 9S x3"),
        (
            GOLDEN_WEALTH,
            ("8a1f3c0e9b7d4a2f6e5c1b0a9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f4a3b2c1d0e", "lucky-7", 1),
            12,
            "2S x5 6D x3 4C x3 KD x3 QD x2",
        ),
        (PROSPERITY_TREE, ("abc", "", 0), 1, "KC x2 TS x2 AH x2 7D x2 9S x2 TH x2 8D x2 4C x2"),
        (
            PROSPERITY_TREE,
            ("Zoë's shoe", "joueur-é-🂡", 42),
            1,
            "7H x2 KH x2 6H x2 7S x2 2S x2 AC x2 2D x2 3H x3",
        ),
    ],
)
def test_fixed_vectors(rule, inputs, round_, expected):
    assert drawn(rule, *inputs, round_=round_) == expected
    assert (
        draw_multiplier_cards(rule, SeedInputs(*inputs), round_number=round_).algorithm
        == ALGORITHM
        == ("hmac-sha256-multiplier-cards/v1")
    )


@given(
    server_seed=st.text(max_size=20),
    client_seed=st.text(max_size=20),
    nonce=st.integers(0, 10**6),
    round_=st.integers(1, 100),
    preset=st.sampled_from(sorted(PRESETS)),
)
def test_any_inputs_draw_what_the_document_says(server_seed, client_seed, nonce, round_, preset):
    rule = PRESETS[preset].rule
    assert drawn(rule, server_seed, client_seed, nonce, round_=round_) == independent(
        server_seed, client_seed, nonce, round_, rule
    )


def test_the_multiplier_stream_leaves_the_shoe_s_untouched():
    inputs = SeedInputs("abc", "lucky-7", 1)
    shoe = shuffled_shoe(8, inputs)
    draw_multiplier_cards(LIGHTNING, inputs)
    assert shuffled_shoe(8, inputs) == shoe
    shoe_blocks = byte_blocks(inputs)
    shoe_first = [next(shoe_blocks) for _ in range(4)]
    ours = multiplier_words(inputs)
    our_first = b"".join(next(ours).to_bytes(4, "big") for _ in range(32))
    assert not any(our_first[at : at + 32] in shoe_first for at in range(0, 128, 32))


@pytest.mark.parametrize(
    ("client_seed", "nonce"),
    [("c", 3), ("c:3", 1), ("c:3:1", 0), ("c:3:1:multipliers", 0), ("", 0)],
)
def test_no_seed_inputs_give_a_shoe_message_that_is_a_multiplier_message(client_seed, nonce):
    """A shoe's message ends ``:{nonce}:{k}``, two numbers; a multiplier
    message has ``multipliers`` before its counter, so none is the other."""
    shoe = re.compile(r"^(.*):(0|[1-9][0-9]*):(0|[1-9][0-9]*)$", re.DOTALL)
    for k in range(3):
        message = f"{client_seed}:{nonce}:1:multipliers:{k}"
        assert not shoe.match(message)


def test_each_round_of_a_shoe_draws_its_own_cards():
    inputs = SeedInputs("abc")
    rounds = {drawn(PROSPERITY_TREE, "abc", round_=round_) for round_ in range(1, 41)}
    assert len(rounds) == 40
    assert draw_multiplier_cards(PROSPERITY_TREE, inputs) == draw_multiplier_cards(
        PROSPERITY_TREE, inputs, round_number=1
    )
    with pytest.raises(ValueError, match="numbered from 1"):
        next(multiplier_words(inputs, 0))


def test_rejection_sampling_reads_past_a_word_that_would_favour_small_results():
    # 2**32 % 52 = 48: the 48 largest words are refused.
    limit = 2**32 - 2**32 % 52
    words = iter([limit, limit + 47, 2**32 - 1, limit - 1, 5])
    assert below(words, 52) == (limit - 1) % 52
    assert next(words) == 5  # every refused word was read, and nothing more
    assert below(iter([2**32 - 1]), 1) == 0


def test_the_draw_follows_the_weights():
    """Over many seeds, Lightning draws each count and each multiplier about
    as often as its weight says (a loose check: the exact returns rest on the
    weights, the vectors on the bytes)."""
    counts: Counter[int] = Counter()
    multipliers: Counter[int] = Counter()
    suits: Counter[str] = Counter()
    for nonce in range(3000):
        cards_ = draw_multiplier_cards(LIGHTNING, SeedInputs("weights", "", nonce)).cards
        counts[len(cards_)] += 1
        multipliers.update(card.multiplier for card in cards_)
        suits.update(card.card.suit for card in cards_)
        assert len({card.card for card in cards_}) == len(cards_)  # distinct cards
    assert all(abs(counts[k] / 3000 - w / 9) < 0.03 for k, w in LIGHTNING.cards.items())
    total = sum(multipliers.values())
    assert all(abs(multipliers[v] / total - w / 44) < 0.03 for v, w in LIGHTNING.multipliers.items())
    assert all(abs(suits[suit] / total - 1 / 4) < 0.03 for suit in "SHDC")


def test_a_studio_s_cards_are_taken_as_given():
    given_ = [(card, 2) for card in cards("7S KH AD 2C 9H")]
    studio = studio_multiplier_cards(GOLDEN_WEALTH, given_)
    assert studio.cards == tuple(MultiplierCard(card, 2) for card, _ in given_)
    assert studio.algorithm is None


COUNT, REPEATED, NOT_OF_RULE = (
    FaultCode.MULTIPLIER_CARD_COUNT,
    FaultCode.MULTIPLIER_CARD_REPEATED,
    FaultCode.MULTIPLIER_NOT_OF_RULE,
)


@pytest.mark.parametrize(
    ("given_", "faults"),
    [
        ([("7S", 2)] * 2 + [("KH", 2), ("AD", 3), ("2C", 5)], [(("multiplier_cards", 1, "card"), REPEATED)]),
        (
            [("7S", 2), ("KH", 4), ("AD", 3), ("2C", 5), ("9H", 8)],
            [(("multiplier_cards", 1, "multiplier"), NOT_OF_RULE)],
        ),
        ([("7S", 2), ("KH", 2)], [(("multiplier_cards",), COUNT)]),
        ([("7S", 1)], [(("multiplier_cards",), COUNT), (("multiplier_cards", 0, "multiplier"), NOT_OF_RULE)]),
        ([(card.code, 2) for card in DECK] * 2, [(("multiplier_cards",), COUNT)]),  # too many: items not read
    ],
)
def test_a_studio_s_cards_the_rule_cannot_draw_are_refused_naming_each(given_, faults):
    with pytest.raises(MultiplierCardError) as raised:
        studio_multiplier_cards(GOLDEN_WEALTH, [(cards(code)[0], value) for code, value in given_])
    assert [(fault.path, fault.code) for fault in raised.value.faults] == faults
    assert raised.value.within("round").faults[0].path[0] == "round"


def test_lightning_takes_one_to_five_cards_from_a_studio():
    for count in range(1, 6):
        assert len(studio_multiplier_cards(LIGHTNING, [(card, 8) for card in DECK[:count]]).cards) == count
    with pytest.raises(MultiplierCardError):
        studio_multiplier_cards(LIGHTNING, [(card, 8) for card in DECK[:6]])


@pytest.mark.parametrize(
    ("sequence", "bet", "counted", "expected"),
    [
        ("9S KH 2D 7C 5H", BetType.PLAYER, Counted.WINNING_HAND, "9S 2D 5H"),
        ("9S KH 2D 7C 5H", BetType.BANKER, Counted.WINNING_HAND, "KH 7C"),
        ("9S KH 2D 7C 5H", BetType.TIE, Counted.ALL_CARDS, "9S KH 2D 7C 5H"),
        ("9S KH 2D 7C 5H", BetType.PLAYER, Counted.ALL_CARDS, "9S KH 2D 7C 5H"),
        ("2S AH 3D KC KH 5D", BetType.TIE, Counted.ALL_CARDS, "2S AH 3D KC KH 5D"),
        ("2S AH 3D KC KH 5D", BetType.BANKER, Counted.WINNING_HAND, "AH KC 5D"),
        ("2S AH 4D AC 5D", BetType.BANKER, Counted.WINNING_HAND, "AH AC 5D"),  # the Player stood
        ("5S 2H 5D 3C 4S KC", BetType.PLAYER_PAIR, Counted.PAIRED_CARDS, "5S 5D"),
        ("TS 9H JD 9C", BetType.BANKER_PAIR, Counted.PAIRED_CARDS, "9H 9C"),
        ("TS 9H JD 9C", BetType.BANKER, Counted.NONE, ""),
    ],
)
def test_the_cards_that_count_for_a_bet(sequence, bet, counted, expected):
    assert counted_cards(deal(cards(sequence)), bet, counted) == tuple(cards(expected))


def test_a_card_counted_twice_is_lit_twice():
    lit = MultiplierCards((MultiplierCard(cards("7S")[0], 3), MultiplierCard(cards("KH")[0], 2)))
    counted = cards("7S 2D 7S")
    assert lit.lit(counted) == (MultiplierCard(cards("7S")[0], 3), MultiplierCard(cards("7S")[0], 3))
    assert lit.multiplier(counted) == 9
    assert lit.multiplier(cards("2D 3D")) == 1
    assert lit.multiplier_of(cards("7H")[0]) is None


def test_the_last_swap_of_a_52_card_draw_reads_a_word_and_one_weight_reads_none():
    """As docs/multipliers.md says: step 2 reads a word even below 1; a pick
    by weight among one choice reads none."""
    from service.baccarat.multipliers.cards import _by_weight, below

    words = iter([7, 8])
    assert below(words, 1) == 0
    assert next(words) == 8  # one word was read
    words = iter([7])
    assert _by_weight(words, ((5, 1),)) == 5
    assert next(words) == 7  # none was read
