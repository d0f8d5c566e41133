"""The answers that carry a table's traffic, written by plain functions.

POST /v1/rounds, its live form and POST /v1/settlements answer up to
thousands of settled bets each; marshmallow spends far longer walking their
schemas than the engine spends dealing and settling. So each answer is
written here, as a plain dict, exactly as marshmallow would dump it with
its schema, and each of those schemas' own ``dump`` is the function here
(:class:`.schemas.base.PlainDump`): a view returns the engine's object and
``@blp.response`` dumps it, so the schema stays the one way out, the
contract and the OpenAPI document. tests/contract/test_answers.py holds
every function equal to marshmallow's dump, key order included, on
generated rounds (docs/adr/0003-plain-paths-for-hot-requests-and-answers.md).

Answers share the preset rules' canonical dicts (:attr:`Rules.canonical`),
so nothing may change an answer after it is written.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..baccarat.bets.types import BetType
from ..baccarat.multipliers.cards import MultiplierCard
from ..baccarat.multipliers.settlement import MultipliedBet, MultipliedSlip, MultipliedTerms
from ..baccarat.play.round import PlayedRound, RoundSoFar, SlipTotals
from ..baccarat.rulebook.coup import Decision, Hand
from ..baccarat.rulebook.live import HandSoFar
from ..baccarat.rulebook.tableau import Reason
from ..baccarat.shoes.deal import ShoeRound
from ..baccarat.shoes.shuffle import SeedRecord
from ..baccarat.tables.rules import Rules
from ..baccarat.tables.settlement import SettledBet, SettledSlip, Terms
from ..provenance.build import engine
from .language import current
from .scope import dealt_at

Answer = dict[str, Any]


def rules(rules: Rules) -> Answer:
    """What ``RulesSchema().dump(rules)`` writes."""
    return {"id": rules.id, **rules.canonical}


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


def reason(reason: Reason) -> Answer:
    """A rule's code, the values it was decided from, and its sentence in the
    answer's language. The values are the engine's own dict: nothing changes
    an answer once written."""
    return {"code": str(reason.code), "values": reason.values, "reason": current().reason(reason)}


def draw(decision: Decision) -> Answer:
    assert decision.card is not None  # a draw holds its card
    return {"hand": str(decision.hand), **reason(decision.reason), "card": decision.card.code}


def stand(decision: Decision) -> Answer:
    return {"hand": str(decision.hand), **reason(decision.reason)}


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


#: What each bet type's terms write in one answer, by the type and the
#: terms' identity: a table's bets share a few terms, and they all live as
#: long as the answer is written.
TermsText = dict[tuple[BetType, int], Answer]


def _bets(
    settled: Iterable[SettledBet | MultipliedBet], texts: TermsText, text_of: Callable[[Any], Answer]
) -> list[Answer]:
    """Each settled bet's answer: its id and type, then the text of its
    terms, written by ``text_of`` once for all the bets that share them. The
    bets without an id that share them share one dict, as nothing changes an
    answer once written."""
    answers = []
    for one in settled:
        bet, terms = one.bet, one.terms
        key = (bet.type, id(terms))
        shared = texts.get(key)
        if shared is None:
            shared = texts[key] = {"type": str(bet.type), **text_of(terms)}
        answers.append(shared if bet.id is None else {"id": bet.id, **shared})
    return answers


def _terms_text(terms: Terms) -> Answer:
    return {**_minimal_terms_text(terms), "reason": current().say(terms.line.when)}


def slip(slip: SettledSlip, texts: TermsText) -> Answer:
    return {
        "bets": _bets(slip.bets, texts, _terms_text),
        "staked": str(slip.staked),
        "returned": str(slip.returned),
        "net": str(slip.net),
    }


def slip_with_id(settled: SettledSlip, texts: TermsText) -> Answer:
    answer = slip(settled, texts)
    answer["id"] = settled.id
    return answer


def multiplier_card(lit: MultiplierCard) -> Answer:
    return {"card": lit.card.code, "multiplier": lit.multiplier}


def _multiplied_terms_text(terms: MultipliedTerms) -> Answer:
    return {
        "amount": str(terms.stake),
        "result": str(terms.result),
        "fee": str(terms.fee),
        "counted": [card.code for card in terms.counted],
        "lit": [multiplier_card(lit) for lit in terms.lit],
        "multiplier": terms.multiplier,
        "win": str(terms.win),
        "commission": str(terms.commission),
        "capped": str(terms.capped),
        "fee_kept": str(terms.fee_kept),
        "returned": str(terms.returned),
        "code": terms.line.code,
        "reason": current().say(terms.line.when),
    }


def multiplied_slip(slip: MultipliedSlip, texts: TermsText) -> Answer:
    return {
        "bets": _bets(slip.bets, texts, _multiplied_terms_text),
        "staked": str(slip.staked),
        "fees": str(slip.fees),
        "returned": str(slip.returned),
        "capped": str(slip.capped),
        "net": str(slip.net),
    }


def round_answer(played: PlayedRound) -> Answer:
    """What ``RoundResponseSchema().dump(played)`` writes."""
    answer = _round(played)
    if played.settlement is not None:
        answer["settlement"] = slip(played.settlement, {})
    lit = played.multiplier_cards
    if lit is not None:
        answer["multiplier_cards"] = [multiplier_card(card) for card in lit.cards]
        if lit.algorithm is not None:
            answer["multiplier_algorithm"] = lit.algorithm
    if played.multiplied is not None:
        answer["multiplier_settlement"] = multiplied_slip(played.multiplied, {})
    return answer


def live_round_answer(played: PlayedRound | RoundSoFar) -> Answer:
    """What POST /v1/rounds/live answers: ``LiveRoundInProgressSchema().dump(played)``
    while the round needs cards, then :func:`round_answer`."""
    if isinstance(played, PlayedRound):
        return round_answer(played)
    so_far = played.round
    next = so_far.next
    return {
        **dealt_at(),  # first, as the schemas write it (DealtAtSchema is their base)
        "complete": False,
        "player": hand_so_far(so_far.player),
        "banker": hand_so_far(so_far.banker),
        "cards_dealt": so_far.cards_dealt,
        "next": {
            "hand": str(next.hand),
            "place": str(next.place),
            "position": next.position,
            **reason(next.reason),
        },
        "rules": rules(played.rules),
        "engine": engine(),
    }


def multiplied_slip_with_id(settled: MultipliedSlip, texts: TermsText) -> Answer:
    answer = multiplied_slip(settled, texts)
    answer["id"] = settled.id
    return answer


def settlement_answer(played: PlayedRound) -> Answer:
    """What ``SettlementResponseSchema().dump(played)`` writes: ``slips`` at
    a plain table; at a multiplier table the multiplier cards and
    ``multiplier_slips``."""
    answer = _round(played)
    lit = played.multiplier_cards
    texts: TermsText = {}
    if played.rules.multipliers is None:
        answer["slips"] = [slip_with_id(settled, texts) for settled in played.slips]
    if lit is not None:
        answer["multiplier_cards"] = [multiplier_card(card) for card in lit.cards]
        if lit.algorithm is not None:
            answer["multiplier_algorithm"] = lit.algorithm
    if played.rules.multipliers is not None:
        answer["multiplier_slips"] = [
            multiplied_slip_with_id(settled, texts) for settled in played.multiplied_slips
        ]
    totals = played.totals
    answer["totals"] = slip_totals(totals)
    return answer


def slip_totals(totals: SlipTotals) -> Answer:
    """What ``TotalsSchema().dump(totals)`` writes."""
    answer: Answer = {
        "slips": totals.slips,
        "bets": totals.bets,
        "staked": str(totals.staked),
        "returned": str(totals.returned),
        "net": str(totals.net),
    }
    if totals.fees is not None:
        answer["fees"] = str(totals.fees)
    if totals.capped is not None:
        answer["capped"] = str(totals.capped)
    return answer


def _round(played: PlayedRound) -> Answer:
    coup = played.coup
    answer: Answer = {
        **dealt_at(),  # first, as the schemas write it (DealtAtSchema is their base)
        "complete": True,
        "player": hand(coup.player),
        "banker": hand(coup.banker),
        "outcome": str(coup.outcome),
        "outcome_reason": reason(coup.reason),
        "natural": coup.natural,
        "draws": [draw(decision) for decision in coup.draws],
        "stands": [stand(decision) for decision in coup.stands],
        "cards_used": coup.cards_used,
        "unused_cards": [card.code for card in played.unused_cards],
        "rules": rules(played.rules),
    }
    if played.seed is not None:
        answer["seed"] = seed(played.seed)
    if played.shoe_round is not None:
        answer["round"] = place(played.shoe_round)
    answer["engine"] = engine()
    return answer


# --- the minimal answers (``Prefer: return=minimal``) ------------------------------


@dataclass(frozen=True, slots=True)
class Minimal:
    """A round to be answered in its minimal form (RFC 7240 ``return=minimal``,
    docs/integration.md): codes and amounts, no sentences, the rules by id."""

    played: PlayedRound


#: The preference's value, and the key by which every minimal answer says
#: ``"minimal": true``: the signed body names its form, so a replay
#: (service/api/replay.py) writes the same form again.
MINIMAL = "minimal"


def _minimal_terms_text(terms: Terms) -> Answer:
    return {
        "amount": str(terms.amount),
        "result": str(terms.result),
        "win": str(terms.win),
        "commission": str(terms.commission),
        "returned": str(terms.returned),
        "code": terms.line.code,
    }


def _minimal_multiplied_terms_text(terms: MultipliedTerms) -> Answer:
    return {
        "amount": str(terms.stake),
        "result": str(terms.result),
        "fee": str(terms.fee),
        "multiplier": terms.multiplier,
        "win": str(terms.win),
        "commission": str(terms.commission),
        "capped": str(terms.capped),
        "fee_kept": str(terms.fee_kept),
        "returned": str(terms.returned),
        "code": terms.line.code,
    }


def minimal_slip(slip: SettledSlip, texts: TermsText) -> Answer:
    return {
        "bets": _bets(slip.bets, texts, _minimal_terms_text),
        "staked": str(slip.staked),
        "returned": str(slip.returned),
        "net": str(slip.net),
    }


def minimal_multiplied_slip(slip: MultipliedSlip, texts: TermsText) -> Answer:
    return {
        "bets": _bets(slip.bets, texts, _minimal_multiplied_terms_text),
        "staked": str(slip.staked),
        "fees": str(slip.fees),
        "returned": str(slip.returned),
        "capped": str(slip.capped),
        "net": str(slip.net),
    }


def _minimal_round(played: PlayedRound) -> Answer:
    coup = played.coup
    answer: Answer = {
        **dealt_at(),  # first, as the schemas write it (DealtAtSchema is their base)
        MINIMAL: True,
        "outcome": str(coup.outcome),
        "outcome_code": str(coup.reason.code),
        "player": {"cards": [card.code for card in coup.player.cards], "total": coup.player.total},
        "banker": {"cards": [card.code for card in coup.banker.cards], "total": coup.banker.total},
        "natural": coup.natural,
        "cards_used": coup.cards_used,
        "rules_id": played.rules.id,
    }
    if played.seed is not None:
        answer["seed"] = seed(played.seed)
    if played.shoe_round is not None:
        answer["round"] = place(played.shoe_round)
    lit = played.multiplier_cards
    if lit is not None:
        answer["multiplier_cards"] = [multiplier_card(card) for card in lit.cards]
        if lit.algorithm is not None:
            answer["multiplier_algorithm"] = lit.algorithm
    return answer


def minimal_round_answer(played: PlayedRound) -> Answer:
    """What ``MinimalRoundSchema().dump(played)`` writes."""
    answer = _minimal_round(played)
    if played.settlement is not None:
        answer["settlement"] = minimal_slip(played.settlement, {})
    if played.multiplied is not None:
        answer["multiplier_settlement"] = minimal_multiplied_slip(played.multiplied, {})
    answer["engine"] = engine()
    return answer


def minimal_settlement_answer(played: PlayedRound) -> Answer:
    """What ``MinimalSettlementSchema().dump(played)`` writes."""
    answer = _minimal_round(played)
    texts: TermsText = {}
    if played.rules.multipliers is None:
        answer["slips"] = [{**minimal_slip(settled, texts), "id": settled.id} for settled in played.slips]
    else:
        answer["multiplier_slips"] = [
            {**minimal_multiplied_slip(settled, texts), "id": settled.id}
            for settled in played.multiplied_slips
        ]
    answer["totals"] = slip_totals(played.totals)
    answer["engine"] = engine()
    return answer
