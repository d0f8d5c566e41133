"""Rounds of a certification run, re-dealt: each with the command and the
``POST /v1/rounds`` request that deal it again, byte for byte, and what
they must show.

The rounds are chosen from the run's seed, so the report names the same
ones whoever makes it: the first round of the first shoe, the last round
of the last shoe, and a few in between picked by SHA-256 of the seed; and,
as a game recall screen must show them (AGCO Registrar's Standards for
Gaming 13.1.1), the run's last game and the nine before it
(:func:`last_games`), back into the shoe before when the last one dealt
fewer than ten. Each
is dealt here by the scalar engine (:func:`.shuffle.shuffled_shoe`,
:func:`.shoe_deal.deal_shoe`) and held to the vectorised simulator's deal
of the same shoe (:func:`.simulation.deal_as_table`): where it starts and
how many rounds the shoe has.

At a table that reshuffles after each hand, each shoe deals one round, from
its top with no burn: round 1 of each chosen shoe is recalled, and the last
ten games are the last ten shoes' rounds; the request and the command that
deal one again send no round number (that table refuses one:
``dealt_each_hand``), as ``POST /v1/rounds`` deals a seeded round there.
"""

from __future__ import annotations

import hashlib
import json
import shlex
from typing import Any

from ..baccarat.counting import batch
from ..baccarat.odds.simulation import deal_as_table
from ..baccarat.rulebook.cards import Card
from ..baccarat.rulebook.coup import Coup, deal
from ..baccarat.shoes.deal import deal_shoe
from ..baccarat.shoes.shuffle import ALGORITHM, SeedInputs, shoe_hash, shuffled_shoe
from ..baccarat.tables.rules import Dealing, Rules

#: Rounds picked between the first and the last.
BETWEEN = 3


def chosen(seed: str, shoes: int) -> list[int]:
    """The shoes whose rounds are recalled: the first, the last, and
    :data:`BETWEEN` picked by SHA-256 of the seed."""
    picks = [0]
    for index in range(BETWEEN):
        digest = hashlib.sha256(f"{seed}:recall:{index}".encode()).digest()
        picks.append(int.from_bytes(digest[:8], "big") % shoes)
    picks.append(shoes - 1)
    return picks


def recall(
    seed: str, shoes: int, rules: Rules, table: str, overrides: dict[str, Any]
) -> list[dict[str, Any]]:
    """The recalled rounds of a run of ``shoes`` shoes of ``seed``."""
    recalled = []
    for position, nonce in enumerate(chosen(seed, shoes)):
        rounds = len(_rounds(shuffled_shoe(rules.decks, SeedInputs(seed, "", nonce)), rules))
        if position == 0:
            number = 1
        elif position == BETWEEN + 1:
            number = rounds
        else:
            digest = hashlib.sha256(f"{seed}:recall-round:{position}".encode()).digest()
            number = 1 + int.from_bytes(digest[:8], "big") % rounds
        recalled.append(recalled_round(seed, nonce, number, rules, table, overrides))
    return recalled


def last_games(
    seed: str, shoes: int, rules: Rules, table: str, overrides: dict[str, Any], *, games: int = 10
) -> list[dict[str, Any]]:
    """The run's last ``games`` rounds, the last first (``games_ago`` 0), from
    the last shoe back into the shoes before it while it dealt fewer."""
    found: list[dict[str, Any]] = []
    nonce = shoes - 1
    while len(found) < games and nonce >= 0:
        rounds = len(_rounds(shuffled_shoe(rules.decks, SeedInputs(seed, "", nonce)), rules))
        for number in range(rounds, max(0, rounds - (games - len(found))), -1):
            entry = recalled_round(seed, nonce, number, rules, table, overrides)
            found.append({"games_ago": len(found), **entry})
        nonce -= 1
    return found


def _rounds(cards: list[Card], rules: Rules) -> list[tuple[int, Coup]]:
    """The rounds the scalar engine deals from a shuffled shoe at the table,
    each with the position of its first card: the whole shoe's, or at a table
    that reshuffles after each hand its one round from the top."""
    if rules.dealing is Dealing.RESHUFFLE_EACH_HAND:
        return [(0, deal(cards))]
    return [(played.start, played.coup) for played in deal_shoe(cards, cut_card=rules.cut_card).rounds]


def recalled_round(
    seed: str, nonce: int, number: int, rules: Rules, table: str, overrides: dict[str, Any]
) -> dict[str, Any]:
    """Round ``number`` of shoe ``nonce`` of ``seed``: how to deal it again and what it shows."""
    inputs = SeedInputs(seed, "", nonce)
    cards = shuffled_shoe(rules.decks, inputs)
    dealt = _rounds(cards, rules)
    start, coup = dealt[number - 1]
    vectorised = deal_as_table(batch.seeded_shoes(seed, nonce, 1, rules.decks), rules)
    whole = rules.dealing is not Dealing.RESHUFFLE_EACH_HAND
    body: dict[str, Any] = {"table": table}
    if overrides:
        body["rules"] = overrides
    body.update({"server_seed": seed, "client_seed": "", "nonce": nonce})
    if whole:
        body["round"] = number
    command = [
        "baccarat",
        "round",
        "--table",
        table,
        "--server-seed",
        seed,
        "--client-seed",
        "",
        "--nonce",
        str(nonce),
        *(["--round", str(number)] if whole else []),
    ]
    if overrides:
        command += ["--rules", json.dumps(overrides, separators=(",", ":"))]
    return {
        "shoe": nonce,
        "round": number,
        "rounds_in_shoe": len(dealt),
        "command": shlex.join(command),
        "request": {"method": "POST", "path": "/v1/rounds", "body": body},
        "algorithm": ALGORITHM,
        "shoe_hash": shoe_hash(cards),
        "player": [card.code for card in coup.player.cards],
        "banker": [card.code for card in coup.banker.cards],
        "outcome": str(coup.outcome),
        "agrees_with_simulator": bool(
            int(vectorised.rounds[0]) == len(dealt)
            and int(vectorised.starts[0, number - 1]) == start
            and int(vectorised.cards_used[0, number - 1]) == coup.cards_used
        ),
    }
