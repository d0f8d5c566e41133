"""The answers of POST /v1/rounds and POST /v1/settlements, written by plain functions.

These two answers carry a table's traffic, up to thousands of settled bets
each; marshmallow spends far longer walking their schemas than the engine
spends dealing and settling. So they are written here, as plain dicts,
exactly as ``RoundResponseSchema().dump(played)`` and
``SettlementResponseSchema().dump(played)`` would write them: those schemas
remain the contract and the OpenAPI document, and tests/web/test_answers.py
holds the two equal, key order included, on generated rounds.

The rules of each table preset are dumped once, when the app is built
(:class:`Answers`); answers share those dicts, so nothing may change an
answer after it is written.
"""

from __future__ import annotations

from typing import Any

from ..baccarat.coup import Decision, Hand
from ..baccarat.live import HandSoFar
from ..baccarat.payouts import table_presets
from ..baccarat.play import PlayedRound, RoundSoFar, SeedRecord
from ..baccarat.settlement import SettledBet, SettledSlip
from ..baccarat.shoe_deal import ShoeRound
from ..baccarat.tableau import tableau
from ..baccarat.tables import TABLES, Rules
from .schemas.reference import TableauSchema, TablesResponseSchema
from .schemas.rounds import ENGINE
from .schemas.rules import RulesSchema

Answer = dict[str, Any]


def hand(hand: Hand) -> Answer:
    return {
        "cards": [card.code for card in hand.cards],
        "total": hand.total,
        "natural": hand.natural,
        "pair": hand.pair,
        "perfect_pair": hand.perfect_pair,
    }


def hand_so_far(hand: HandSoFar) -> Answer:
    return {"cards": [card.code for card in hand.cards], "total": hand.total, "natural": hand.natural}


def draw(decision: Decision) -> Answer:
    assert decision.card is not None  # a draw holds its card
    return {"hand": str(decision.hand), "reason": decision.reason, "card": decision.card.code}


def stand(decision: Decision) -> Answer:
    return {"hand": str(decision.hand), "reason": decision.reason}


def seed(record: SeedRecord) -> Answer:
    inputs = record.inputs
    return {
        "seed": record.seed,
        "server_seed": inputs.server_seed,
        "client_seed": inputs.client_seed,
        "nonce": inputs.nonce,
        "server_seed_hash": inputs.server_seed_hash,
        "generated": record.generated,
        "algorithm": record.algorithm,
        "shoe_hash": record.shoe_hash,
    }


def place(place: ShoeRound) -> Answer:
    positions = place.positions
    return {
        "number": place.number,
        "positions": {"player": list(positions.player), "banker": list(positions.banker)},
        "cut_card_out": place.cut_card_out,
        "last": place.last,
    }


#: The text of each terms of one answer, by the terms' identity: a table's
#: bets share a few terms, and they all live as long as the answer is written.
TermsText = dict[int, dict[str, str]]


def settled_bet(settled: SettledBet, texts: TermsText) -> Answer:
    bet, terms = settled.bet, settled.terms
    answer: Answer = {} if bet.id is None else {"id": bet.id}
    answer["type"] = str(bet.type)
    text = texts.get(id(terms))
    if text is None:
        text = texts[id(terms)] = {
            "amount": str(terms.amount),
            "result": str(terms.result),
            "win": str(terms.win),
            "commission": str(terms.commission),
            "returned": str(terms.returned),
        }
    answer.update(text)
    return answer


def slip(slip: SettledSlip, texts: TermsText) -> Answer:
    return {
        "bets": [settled_bet(bet, texts) for bet in slip.bets],
        "staked": str(slip.staked),
        "returned": str(slip.returned),
        "net": str(slip.net),
    }


def slip_with_id(settled: SettledSlip, texts: TermsText) -> Answer:
    answer = slip(settled, texts)
    answer["id"] = settled.id
    return answer


class Answers:
    """Writes the two answers; holds each preset's rules, and the answers of
    GET /v1/rules and GET /v1/tables, dumped once."""

    def __init__(self) -> None:
        schema = RulesSchema()
        self.rules_schema = schema
        self.presets: tuple[tuple[Rules, Answer], ...] = tuple(
            (table.rules, schema.dump(table.rules)) for table in TABLES.values()
        )
        self.tableau: Answer = TableauSchema().dump(tableau())
        self.tables: Answer = TablesResponseSchema().dump(table_presets())

    def rules(self, rules: Rules) -> Answer:
        """The dumped rules: a preset's as dumped at start, others now."""
        for preset, dumped in self.presets:
            if rules is preset:
                return dumped
        dumped_now: Answer = self.rules_schema.dump(rules)
        return dumped_now

    def round(self, played: PlayedRound) -> Answer:
        """What ``RoundResponseSchema().dump(played)`` writes."""
        answer = self._round(played)
        if played.settlement is not None:
            answer["settlement"] = slip(played.settlement, {})
        return answer

    def live_round(self, played: PlayedRound | RoundSoFar) -> Answer:
        """What POST /v1/rounds/live answers: ``LiveRoundInProgressSchema().dump(played)``
        while the round needs cards, then :meth:`round`."""
        if isinstance(played, PlayedRound):
            return self.round(played)
        so_far = played.round
        next = so_far.next
        return {
            "complete": False,
            "player": hand_so_far(so_far.player),
            "banker": hand_so_far(so_far.banker),
            "cards_dealt": so_far.cards_dealt,
            "next": {
                "hand": str(next.hand),
                "place": str(next.place),
                "position": next.position,
                "reason": next.reason,
            },
            "rules": self.rules(played.rules),
            "engine": ENGINE,
        }

    def settlement(self, played: PlayedRound) -> Answer:
        """What ``SettlementResponseSchema().dump(played)`` writes."""
        answer = self._round(played)
        texts: TermsText = {}
        answer["slips"] = [slip_with_id(settled, texts) for settled in played.slips]
        totals = played.totals
        answer["totals"] = {
            "slips": totals.slips,
            "bets": totals.bets,
            "staked": str(totals.staked),
            "returned": str(totals.returned),
            "net": str(totals.net),
        }
        return answer

    def _round(self, played: PlayedRound) -> Answer:
        coup = played.coup
        answer: Answer = {
            "complete": True,
            "player": hand(coup.player),
            "banker": hand(coup.banker),
            "outcome": str(coup.outcome),
            "natural": coup.natural,
            "draws": [draw(decision) for decision in coup.draws],
            "stands": [stand(decision) for decision in coup.stands],
            "cards_used": coup.cards_used,
            "unused_cards": [card.code for card in played.unused_cards],
            "rules": self.rules(played.rules),
        }
        if played.seed is not None:
            answer["seed"] = seed(played.seed)
        if played.shoe_round is not None:
            answer["round"] = place(played.shoe_round)
        answer["engine"] = ENGINE
        return answer
