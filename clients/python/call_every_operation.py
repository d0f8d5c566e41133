"""Call every operation of a running service through the Python client that
openapi-python-client generates from openapi.yaml (docs/clients.md), and
check what comes back. The language and the trace context go through the
generated parameters (``accept_language``, ``traceparent``), and the rules
and a pay table are written in the program's own words from their codes
alone (docs/integration.md, "Reasons in your own words").

    PYTHONPATH=<where baccarat_client was generated> \\
        python clients/python/call_every_operation.py http://127.0.0.1:8000 [API_KEY]

Each answer must parse as the model the contract names, and that model's
``to_dict()`` must give back exactly the JSON the service sent, with no
field the contract does not list. A round with too few cards must come back
as a 422 problem; with an ``API_KEY`` (which the service must hold) every
call carries it, and a call without it must come back as a 401 problem. The
request bodies are the README's. Prints the operation ids called, as JSON.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any, Protocol, TypeVar

import attrs
from baccarat_client import AuthenticatedClient, Client
from baccarat_client.api.audit import get_jwks, replay_exchange
from baccarat_client.api.health import get_livez, get_openapi_yaml, get_readyz
from baccarat_client.api.odds import get_odds
from baccarat_client.api.reference import get_pay_tables, get_rules, get_tables
from baccarat_client.api.roads import draw_roads
from baccarat_client.api.rounds import deal_live_round, play_peek_round, play_round, settle_slips
from baccarat_client.api.sheets import get_rules_sheet, write_rules_sheet
from baccarat_client.api.shoes import deal_shoe, new_seed
from baccarat_client.models import (
    Bet,
    BetResult,
    Jwks,
    LiveRoundInProgress,
    LiveRoundRequest,
    MultiplierCard,
    NewSeed,
    NewSeedRequest,
    OddsRequest,
    OddsResponse,
    Outcome,
    PayLine,
    PayTablesResponse,
    PeekPosition,
    PeekRequest,
    PeekRequestDecision,
    PeekRound,
    PeekView,
    Place,
    Problem,
    RankCounts,
    ReasonValues,
    ReplayRequest,
    ReplayVerdict,
    RoadResult,
    RoadRound,
    Roads,
    RoadsRequest,
    RoundMinimal,
    RoundRequest,
    RoundResponse,
    RoundRulesOverride,
    RulesSheet,
    RulesSheetRequest,
    SettlementRequest,
    SettlementResponse,
    ShoeRequest,
    ShoeResponse,
    ShoeSource,
    Side,
    Slip,
    Status,
    Tableau,
    TablesResponse,
    TaggedCard,
)
from baccarat_client.types import Response, Unset


class Mismatch(Exception):
    """The service or the client did not do what the contract says."""


class Model(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


M = TypeVar("M", bound=Model)
T = TypeVar("T")
Caller = Client | AuthenticatedClient
CALLED: set[str] = set()
#: The caller's span (W3C Trace Context), sent through the generated ``traceparent`` parameter.
TRACEPARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
#: The program's own words for each rule of the tableau, by code: a platform
#: writes the rules from the codes and values, never from the service's sentences.
RULES = {
    "player_natural": "Player natural {player_total}",
    "banker_natural": "Banker natural {banker_total}",
    "player_draws_on_0_5": "Player {player_total}: draws",
    "player_stands_on_6_7": "Player {player_total}: stands",
    "banker_draws_on_0_5_player_stood": "Banker {banker_total}, Player stood: draws",
    "banker_stands_on_6_7_player_stood": "Banker {banker_total}, Player stood: stands",
    "banker_draws_on_0_2": "draws",
    "banker_stands_on_7": "stands",
    "banker_draws_on_player_third": "draws",
    "banker_stands_on_player_third": "stands",
}
#: The notes on the rules as a whole, by code.
NOTES = {
    "dealing_order": "P, B, P, B",
    "naturals_end_the_round": "naturals {naturals}",
    "player_acts_first": "Player first",
    "higher_total_wins": "higher total wins",
}
#: A preset's description in the program's words, by its code, filled with its figures.
PRESETS = {
    "standard": "{decks} decks, Banker {banker_pays}:1, tie {tie_pays}:1",
    "lightning": "Lightning, tie {tie_pays}:1, fee {fee}",
}


def expect(condition: bool, message: str) -> None:
    if not condition:
        raise Mismatch(message)


def present(value: T | Unset, what: str) -> T:
    """A field the answer must have sent."""
    if isinstance(value, Unset):
        raise Mismatch(f"{what} is missing")
    return value


def unlisted(value: object, where: str) -> Iterator[str]:
    """Fields the service sent that the contract does not list: a model with
    properties keeps any other key in ``additional_properties``."""
    kind = type(value)
    if attrs.has(kind):
        names = [field.name for field in attrs.fields(kind) if field.name != "additional_properties"]
        extra: dict[str, Any] = getattr(value, "additional_properties", {})
        if names and extra:
            yield f"{where}: {sorted(extra)}"
        for name in names:
            yield from unlisted(getattr(value, name), f"{where}.{name}")
        for key, item in extra.items():
            yield from unlisted(item, f"{where}[{key!r}]")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from unlisted(item, f"{where}[{index}]")


def answered(operation: str, response: Response[Any], model: type[M], status: int = 200) -> M:
    """The answer of ``operation``, parsed as ``model``, checked against the JSON sent."""
    CALLED.add(operation)
    expect(response.status_code == status, f"{operation}: {response.status_code}, not {status}")
    parsed = response.parsed
    expect(isinstance(parsed, model), f"{operation}: parsed as {type(parsed).__name__}, not {model.__name__}")
    assert isinstance(parsed, model)
    sent = json.loads(response.content)
    expect(parsed.to_dict() == sent, f"{operation}: to_dict() differs from the answer {sent}")
    extra = list(unlisted(parsed, operation))
    expect(not extra, f"{operation}: fields the contract does not list: {extra}")
    return parsed


def lightning(client: Caller) -> None:
    """A Lightning round (the README's): the studio's lightning card 8H x8 lights the Banker's natural."""
    request = RoundRequest(
        cards=["2S", "8H", "5D", "KC"],
        rules=RoundRulesOverride(multipliers="lightning"),
        multiplier_cards=[MultiplierCard(card="8H", multiplier=8)],
        bets=[Bet(type_="banker", amount="10.00"), Bet(type_="tie", amount="5.00")],
    )
    answer = answered("playRound", play_round.sync_detailed(client=client, body=request), RoundResponse)
    slip = present(answer.multiplier_settlement, "playRound: multiplier_settlement")
    banker = slip.bets[0]
    expect(banker.multiplier == 8 and banker.win == "79.50", f"playRound: Lightning's banker bet {banker}")
    expect((slip.fees, slip.net) == ("3.00", "71.50"), f"playRound: Lightning's fees and net {slip}")


def rounds(client: Caller) -> None:
    """POST /v1/rounds with the README's bodies, and a round of too few cards."""
    cases = [
        (
            RoundRequest(
                cards=["9S", "KH", "2D", "7C", "5H"],
                bets=[Bet(id="b1", type_="banker", amount="25.00"), Bet(type_="tie", amount="5")],
            ),
            "18.75",
        ),
        (
            RoundRequest(
                cards=["2S", "KH", "2D", "KC", "4H", "TC"],
                bets=[
                    Bet(type_="player", amount="10"),
                    Bet(type_="player_pair", amount="5"),
                    Bet(type_="either_pair", amount="5"),
                    Bet(type_="dragon_bonus_player", amount="5"),
                    Bet(type_="big", amount="10"),
                    Bet(type_="small", amount="5"),
                ],
            ),
            "140.40",
        ),
        (
            RoundRequest(
                cards=["2S", "3H", "3D", "3C", "KH"],
                table="no_commission",
                bets=[
                    Bet(type_="banker", amount="20"),
                    Bet(type_="super_6", amount="5"),
                    Bet(type_="banker_pair", amount="5"),
                    Bet(type_="player_pair", amount="5"),
                ],
            ),
            "120.00",
        ),
        (
            RoundRequest(
                cards=["2S", "AH", "4D", "AC", "5D"],
                table="ez",
                bets=[
                    Bet(type_="banker", amount="25"),
                    Bet(type_="dragon_7", amount="5"),
                    Bet(type_="panda_8", amount="5"),
                ],
            ),
            "195.00",
        ),
    ]
    for request, net in cases:
        answer = answered("playRound", play_round.sync_detailed(client=client, body=request), RoundResponse)
        settlement = present(answer.settlement, "playRound: settlement")
        expect(settlement.net == net, f"playRound: net {settlement.net}, not {net}")
    reasons(client, cases[0][0])
    lightning(client)
    seeded = answered(
        "playRound",
        play_round.sync_detailed(client=client, body=RoundRequest(seed="table-7/shoe-1")),
        RoundResponse,
    )
    expect(not present(seeded.seed, "playRound: seed").generated, "playRound: a plain seed was not used")
    live = answered("playRound", play_round.sync_detailed(client=client, body=RoundRequest()), RoundResponse)
    expect(
        present(live.seed, "playRound: seed").generated, "playRound: no seed drawn for a round without cards"
    )
    # The first case's minimal answer (Prefer: return=minimal): codes and amounts, the rules by id.
    minimal = answered(
        "playRound",
        play_round.sync_detailed(client=client, body=cases[0][0], prefer="return=minimal"),
        RoundMinimal,
    )
    minimal_net = present(minimal.settlement, "playRound: minimal settlement").net
    expect(minimal_net == cases[0][1], f"playRound: the minimal net {minimal_net}")
    short = play_round.sync_detailed(client=client, body=RoundRequest(cards=["9S", "KH", "2D", "7C"]))
    problem = answered("playRound", short, Problem, status=422)
    expect(problem.type_ == "urn:baccarat:problem:missing-card", f"playRound: {problem.type_}")
    pointers = [error.pointer for error in present(problem.errors, "playRound: errors")]
    expect(pointers == ["/cards/4"], f"playRound: {pointers}, not the missing card")


def reason_codes(round: RoundResponse) -> list[str]:
    """The code of each draw and stand of ``round``, and of its outcome."""
    draws = [draw.code for draw in round.draws]
    return [*draws, *(stand.code for stand in round.stands), round.outcome_reason.code]


def reasons(client: Caller, request: RoundRequest) -> None:
    """A round's reasons as the client types them (``ReasonCode``, ``PayLineCode``),
    and the same round in Traditional Chinese: the same codes, other words."""
    english = answered("playRound", play_round.sync_detailed(client=client, body=request), RoundResponse)
    response = play_round.sync_detailed(
        client=client, body=request, accept_language="zh-TW", traceparent=TRACEPARENT
    )
    expect(response.headers["Content-Language"] == "zh-Hant", "playRound: not answered in zh-Hant")
    chinese = answered("playRound", response, RoundResponse)
    codes = reason_codes(english)
    expect(all(isinstance(code, str) and code for code in codes), "playRound: a reason without a code")
    lines = present(english.settlement, "playRound: settlement").bets
    expect(
        all(isinstance(line.code, str) and line.code for line in lines),
        "playRound: a bet without a line code",
    )
    expect(reason_codes(chinese) == codes, "playRound: other codes in Chinese")
    expect(chinese.outcome_reason.reason != english.outcome_reason.reason, "playRound: no Chinese reason")
    later(json.loads(response.content))


#: Values a later release may add to the open value sets (docs/reference/versioning.md).
ADDED_LATER = {"code": "a_code_added_later", "type": "a_bet_added_later", "variant": "a_variant_added_later"}


def later(answer: dict[str, Any]) -> None:
    """The same answer as a later release might write it, with a reason code, a pay line,
    a bet type, a variant, a pay table and a tie pay this client was not generated with:
    the client parses it, and gives it back as it was sent."""
    answer["outcome_reason"]["code"] = ADDED_LATER["code"]
    for step in (*answer["draws"], *answer["stands"]):
        step["code"] = ADDED_LATER["code"]
    for bet in answer["settlement"]["bets"]:
        bet.update(code=ADDED_LATER["code"], type=ADDED_LATER["type"])
    rules = answer["rules"]
    rules.update(variant=ADDED_LATER["variant"], tie_pays=7)
    rules["pay_tables"]["tie"] = "tie_7_to_1_added_later"
    parsed = RoundResponse.from_dict(answer)
    expect(parsed.to_dict() == answer, "playRound: a later release's answer does not read back as sent")
    expect(parsed.outcome_reason.code == ADDED_LATER["code"], "playRound: a later reason code was lost")


def live_rounds(client: Caller) -> None:
    """POST /v1/rounds/live card by card, as docs/live.md deals it, and a misdeal."""
    cards = ["2S", "KH", "3D", "4C", "5H", "6D"]
    bets = [Bet(id="b1", type_="banker", amount="25.00")]
    for dealt in range(len(cards)):
        request = LiveRoundRequest(cards=list(cards[:dealt]), bets=bets)
        so_far = answered(
            "dealLiveRound", deal_live_round.sync_detailed(client=client, body=request), LiveRoundInProgress
        )
        expect(so_far.next_.position == dealt, f"dealLiveRound: next card at {so_far.next_.position}")
    expect(so_far.next_.place is Place.BANKER_THIRD, f"dealLiveRound: {so_far.next_.place}, not banker_third")
    request = LiveRoundRequest(cards=list(cards), bets=bets)
    whole = answered(
        "dealLiveRound", deal_live_round.sync_detailed(client=client, body=request), RoundResponse
    )
    expect(whole.outcome is Outcome.TIE, f"dealLiveRound: {whole.outcome}, not a tie")
    settlement = present(whole.settlement, "dealLiveRound: settlement")
    expect(settlement.bets[0].result is BetResult.PUSH, "dealLiveRound: the banker bet does not push")
    tagged: list[str | TaggedCard] = [TaggedCard(card=card, hand=Side.PLAYER) for card in ("9S", "KH")]
    misdeal = deal_live_round.sync_detailed(client=client, body=LiveRoundRequest(cards=tagged))
    problem = answered("dealLiveRound", misdeal, Problem, status=422)
    expect(problem.type_ == "urn:baccarat:problem:misdeal", f"dealLiveRound: {problem.type_}")


def peek_rounds(client: Caller) -> None:
    """POST /v1/rounds/peek: the card shown, then the round settled on a triple, as the README plays it."""
    cards = ["9S", "KH", "2D", "7C", "5H"]
    bets = [Bet(id="b1", type_="banker", amount="10")]
    request = PeekRequest(cards=cards, shown=[PeekPosition.BANKER_FIRST], bets=bets)
    view = answered("playPeekRound", play_peek_round.sync_detailed(client=client, body=request), PeekView)
    expect([shown.card for shown in view.shown] == ["KH"], f"playPeekRound: shown {view.shown}")
    expect(view.cost == "12.00", f"playPeekRound: a banker bet of 10 costs {view.cost}")
    decision = PeekRequestDecision.from_dict({"banker": "triple"})
    request = PeekRequest(cards=cards, shown=[PeekPosition.BANKER_FIRST], bets=bets, decision=decision)
    done = answered("playPeekRound", play_peek_round.sync_detailed(client=client, body=request), PeekRound)
    expect(done.peek.fee == "2.00", f"playPeekRound: fee {done.peek.fee}")
    expect(done.peek.net == "26.50", f"playPeekRound: net {done.peek.net}")


def settlements(client: Caller) -> None:
    request = SettlementRequest(
        cards=["9S", "KH", "2D", "7C", "5H"],
        slips=[
            Slip(id="seat-1", bets=[Bet(type_="banker", amount="25.00")]),
            Slip(
                id="seat-2",
                bets=[Bet(type_="player", amount="10"), Bet(type_="tie", amount="2.50")],
            ),
        ],
    )
    answer = answered(
        "settleSlips", settle_slips.sync_detailed(client=client, body=request), SettlementResponse
    )
    expect(answer.outcome is Outcome.BANKER, "settleSlips: the banker did not win")
    seats = present(answer.slips, "settleSlips: slips")
    expect([bet.result for bet in seats[1].bets] == [BetResult.LOSE] * 2, "settleSlips: seat-2 won")
    lightning_slips(client)


def lightning_slips(client: Caller) -> None:
    """A Lightning table's slips (the README's): each settled by the rule, the fees in the totals."""
    request = SettlementRequest(
        cards=["2S", "8H", "5D", "KC"],
        rules=RoundRulesOverride(multipliers="lightning"),
        multiplier_cards=[MultiplierCard(card="8H", multiplier=8)],
        slips=[
            Slip(id="seat-1", bets=[Bet(type_="banker", amount="10.00")]),
            Slip(
                id="seat-2",
                bets=[Bet(type_="player", amount="5.00"), Bet(type_="tie", amount="5.00")],
            ),
        ],
    )
    answer = answered(
        "settleSlips", settle_slips.sync_detailed(client=client, body=request), SettlementResponse
    )
    seat_1 = present(answer.multiplier_slips, "settleSlips: multiplier_slips")[0]
    expect(
        (seat_1.id, seat_1.bets[0].multiplier) == ("seat-1", 8), f"settleSlips: Lightning's seat-1 {seat_1}"
    )
    totals = answer.totals
    expect((totals.fees, totals.net) == ("4.00", "65.50"), f"settleSlips: Lightning's totals {totals}")


def shoes(client: Caller) -> None:
    seed = answered("newSeed", new_seed.sync_detailed(client=client, body=NewSeedRequest()), NewSeed)
    request = ShoeRequest(
        server_seed=seed.server_seed,
        server_seed_hash=seed.server_seed_hash,
        client_seed="lucky-7",
        nonce=1,
        to_round=3,
        include_shoe=True,
        bets=[Bet(type_="banker", amount="10.00")],
    )
    shoe = answered("dealShoe", deal_shoe.sync_detailed(client=client, body=request), ShoeResponse)
    expect([r.number for r in shoe.rounds] == [1, 2, 3], "dealShoe: not rounds 1 to 3")
    expect(
        len(present(shoe.shoe, "dealShoe: shoe")) == shoe.card_counts.total, "dealShoe: not the whole shoe"
    )
    # The seeded shoe's cards up to two cards into its third round, as a physical shoe sends them.
    dealt: list[str | TaggedCard] = [
        *present(shoe.shoe, "dealShoe: shoe")[: shoe.rounds[2].positions.player[0] + 2]
    ]
    physical = ShoeRequest(cards=dealt)
    cut = answered("dealShoe", deal_shoe.sync_detailed(client=client, body=physical), ShoeResponse)
    same = [(r.number, r.outcome, r.positions.to_dict()) for r in cut.rounds] == [
        (r.number, r.outcome, r.positions.to_dict()) for r in shoe.rounds[:2]
    ]
    expect(same, "dealShoe: a physical shoe's rounds differ from the seeded shoe's")
    in_progress = present(cut.round_in_progress, "dealShoe: round_in_progress")
    expect(in_progress.number == 3 and in_progress.cards_dealt == 2, "dealShoe: the round in progress")
    lightning_shoe(client)


def lightning_shoe(client: Caller) -> None:
    """A seeded Lightning shoe: its round 3 shows the multiplier cards and the
    multiplied slip POST /v1/rounds answers for the same seed and round 3."""
    rules = RoundRulesOverride(multipliers="lightning")
    bets = [Bet(type_="banker", amount="10.00")]
    request = ShoeRequest(seed="table-7/lightning-1", rules=rules, to_round=3, bets=bets)
    shoe = answered("dealShoe", deal_shoe.sync_detailed(client=client, body=request), ShoeResponse)
    expect(shoe.multiplier_algorithm == "hmac-sha256-multiplier-cards/v1", "dealShoe: multiplier_algorithm")
    totals = present(shoe.totals, "dealShoe: totals")
    expect((totals.staked, totals.fees) == ("30.00", "6.00"), f"dealShoe: Lightning's totals {totals}")
    alone = RoundRequest(seed="table-7/lightning-1", round_=3, rules=rules, bets=bets)
    round_3 = answered("playRound", play_round.sync_detailed(client=client, body=alone), RoundResponse)
    third = shoe.rounds[2]
    expect(
        present(third.multiplier_cards, "dealShoe: multiplier_cards")
        == present(round_3.multiplier_cards, "playRound: multiplier_cards"),
        "dealShoe: round 3's multiplier cards differ from POST /v1/rounds' round 3",
    )
    expect(
        present(third.multiplier_settlement, "dealShoe: multiplier_settlement").to_dict()
        == present(round_3.multiplier_settlement, "playRound: multiplier_settlement").to_dict(),
        "dealShoe: round 3's multiplied slip differs from POST /v1/rounds' round 3",
    )


def said(code: str, values: ReasonValues) -> str:
    """A rule in the program's words, filled with its values."""
    return RULES[code].format(**values.to_dict())


def tableau_lines(tableau: Tableau) -> list[str]:
    """The whole tableau from its codes and values: the notes, the
    naturals, one line per Player total, one per Banker total (when the
    Player stood, then by the Player's third card)."""
    lines = [NOTES[note.code].format(**note.values.to_dict()) for note in tableau.note_codes]
    lines += [said(rule.code, rule.values) for rule in tableau.natural_rules]
    lines += [said(rule.code, rule.values) for rule in tableau.player]
    for row in tableau.banker:
        drew = ", ".join(f"{rule.player_third}: {said(rule.code, rule.values)}" for rule in row.player_drew)
        lines.append(f"{said(row.player_stood.code, row.player_stood.values)}; after its third card {drew}")
    return lines


def pay_lines(lines: list[PayLine]) -> list[str]:
    """A pay table from its lines' codes and pays."""
    return [f"{line.code}: {'push' if line.result is BetResult.PUSH else line.odds + ':1'}" for line in lines]


def reference(client: Caller) -> None:
    """The rules and the pay tables, asked in Thai: every rule and line carries
    the code rounds answer with, so the program writes them in its own words."""
    rules = get_rules.sync_detailed(client=client, accept_language="th-TH", traceparent=TRACEPARENT)
    expect(rules.headers["Content-Language"] == "th", "getRules: not answered in Thai")
    tableau = answered("getRules", rules, Tableau)
    lines = tableau_lines(tableau)
    expect(lines[:2] == ["P, B, P, B", "naturals [8, 9]"] and len(lines) == 24, f"getRules: {lines[:2]}")
    expect(
        lines[4:9]
        == [
            "Player natural 8",
            "Player natural 9",
            "Banker natural 8",
            "Banker natural 9",
            "Player 0: draws",
        ],
        f"getRules: {lines[4:9]}",
    )
    expect(lines[16 + 3].endswith("7: draws, 8: stands, 9: draws"), f"getRules: Banker 3 is {lines[16 + 3]}")
    listed = get_tables.sync_detailed(client=client, accept_language="th", traceparent=TRACEPARENT)
    expect(listed.headers["Content-Language"] == "th", "getTables: not answered in Thai")
    tables = answered("getTables", listed, TablesResponse)
    presets = [
        PRESETS[table.description_code].format(**table.description_values.to_dict())
        for table in tables.tables
        if table.description_code in PRESETS
    ]
    expect(
        presets == ["8 decks, Banker 0.95:1, tie 8:1", "Lightning, tie 5:1, fee 0.2"], f"getTables: {presets}"
    )
    expect(tables.default == "standard", "getTables: the default is not standard")
    tie_9 = next(table for table in tables.tables if table.name == "tie_9")
    expect(tie_9.rules.tie_pays == 9, "getTables: tie_9 does not pay 9")
    expect({bet.type_ for bet in tie_9.bets} == set(tie_9.rules.limits.additional_keys), "getTables: bets")
    response = get_pay_tables.sync_detailed(
        client=client, decks=6, accept_language="th", traceparent=TRACEPARENT
    )
    expect(response.headers["Content-Language"] == "th", "getPayTables: not answered in Thai")
    catalogue = answered("getPayTables", response, PayTablesResponse)
    expect(catalogue.decks == 6 and len(catalogue.pay_tables) > 20, "getPayTables: not the catalogue")
    dragon = next(table for table in catalogue.pay_tables if table.bet == "dragon_bonus_player")
    expect(
        pay_lines(dragon.lines)[:2]
        == ["player_wins_with_a_natural: 1:1", "a_tie_between_two_naturals: push"],
        f"getPayTables: {pay_lines(dragon.lines)[:2]}",
    )
    # A table built from catalogue entries: the last pay table of each bet a
    # pair round pays, chosen by the ids the catalogue answered.
    chosen = {
        table.bet: table.id for table in catalogue.pay_tables if table.bet in ("player_pair", "either_pair")
    }
    body = RoundRequest.from_dict(
        {
            "cards": ["5S", "2H", "5D", "3C", "4S", "KC"],
            "rules": {"pay_tables": chosen},
            "bets": [{"type": "player_pair", "amount": "10"}],
        }
    )
    paid = answered("playRound", play_round.sync_detailed(client=client, body=body), RoundResponse)
    expect(paid.rules.pay_tables["player_pair"] == "player_pair_12_to_1", "playRound: pay table")
    expect(present(paid.settlement, "settlement").bets[0].win == "120.00", "playRound: not paid 12:1")


def roads(client: Caller) -> None:
    played = answered(
        "playRound",
        play_round.sync_detailed(client=client, body=RoundRequest(cards=["9S", "KH", "2D", "7C", "5H"])),
        RoundResponse,
    )
    results: list[Outcome | RoadResult | RoadRound] = [
        Outcome(name)
        for name in (
            "tie",
            "tie",
            "banker",
            "banker",
            "player",
            "tie",
            "banker",
            "banker",
            "banker",
            "player",
        )
    ]
    results += [RoadResult(outcome=Outcome.PLAYER, player_pair=True), RoadRound.from_dict(played.to_dict())]
    request = RoadsRequest(results=results)
    answer = answered("drawRoads", draw_roads.sync_detailed(client=client, body=request), Roads)
    expect(answer.big_road.cells[0].ties == 2, "drawRoads: the leading ties are not on the first cell")
    expect(answer.big_eye_boy.marks == [cell.colour for cell in answer.big_eye_boy.cells], "drawRoads: marks")


def odds(client: Caller) -> None:
    full = answered(
        "getOdds",
        get_odds.sync_detailed(client=client, body=OddsRequest(table="standard")),
        OddsResponse,
    )
    expect(full.sequences == 4998398275503360, f"getOdds: {full.sequences} sequences")
    counts = RankCounts.from_dict(full.shoe.ranks.to_dict() | {"5": 0})
    request = OddsRequest(counts=counts, rules=RoundRulesOverride(decks=8))
    by_counts = answered("getOdds", get_odds.sync_detailed(client=client, body=request), OddsResponse)
    expect(by_counts.shoe.source is ShoeSource.COUNTS and by_counts.shoe.ranks["5"] == 0, "getOdds: counts")


def sheets(client: Caller) -> None:
    """A table's rules sheet, posted with the operator's clause, and a preset's as it is."""
    request = RulesSheetRequest(table="tie_9", malfunction="under_review")
    sheet = answered(
        "writeRulesSheet", write_rules_sheet.sync_detailed(client=client, body=request), RulesSheet
    )
    expect(sheet.dealing == "reshuffle_each_hand", f"writeRulesSheet: {sheet.dealing}")
    figures = [section.values.to_dict() for section in sheet.sections]
    tie = next(values for values in figures if values.get("bet") == "tie")
    expect(tie["rtp"] == "95.16", f"writeRulesSheet: the tie's return to player is {tie['rtp']}")
    preset = answered("getRulesSheet", get_rules_sheet.sync_detailed("tie_9", client=client), RulesSheet)
    expect(preset.rules.id == sheet.rules.id, "getRulesSheet: other rules")


def audit(client: Caller) -> None:
    """The published keys, and a signed round stored as a platform stores it
    (the exact bytes sent and received), replayed: its signature holds and
    the replay gives the same answer."""
    keys = answered("getJwks", get_jwks.sync_detailed(client=client), Jwks)
    body = json.dumps(
        {"cards": ["9S", "KH", "2D", "7C", "5H"], "bets": [{"type": "banker", "amount": "25.00"}]}
    )
    answer = client.get_httpx_client().post(
        "/v1/rounds", content=body, headers={"Content-Type": "application/json"}
    )
    expect(f'keyid="{keys.keys[0].kid}"' in answer.headers["Signature-Input"], "playRound: not signed")
    stored = {
        "request": {"method": "POST", "url": str(answer.request.url), "body": body},
        "response": {"status": answer.status_code, "headers": dict(answer.headers), "body": answer.text},
    }
    request = ReplayRequest.from_dict(stored)
    verdict = answered(
        "replayExchange", replay_exchange.sync_detailed(client=client, body=request), ReplayVerdict
    )
    expect(verdict.signature.verified, f"replayExchange: {verdict.signature.reason}")
    expect(verdict.replay.identical is True, f"replayExchange: {verdict.replay.reason}")


def health(client: Caller) -> None:
    answered("getLivez", get_livez.sync_detailed(client=client), Status)
    answered("getReadyz", get_readyz.sync_detailed(client=client), Status)
    document = get_openapi_yaml.sync_detailed(client=client)
    CALLED.add("getOpenapiYaml")
    expect(document.status_code == 200 and b"operationId: playRound" in document.content, "getOpenapiYaml")


def unauthorized(base_url: str) -> None:
    """Without a key, an operation behind it answers a 401 problem."""
    response = get_tables.sync_detailed(client=Client(base_url=base_url))
    problem = answered("getTables", response, Problem, status=401)
    expect(
        problem.status == 401 and response.headers["WWW-Authenticate"].startswith("Bearer"), "getTables: 401"
    )


def main(base_url: str, api_key: str | None = None) -> None:
    client: Caller = (
        Client(base_url=base_url)
        if api_key is None
        else AuthenticatedClient(base_url=base_url, token=api_key)
    )
    with client:
        for calls in (
            rounds,
            live_rounds,
            peek_rounds,
            settlements,
            shoes,
            reference,
            roads,
            odds,
            sheets,
            audit,
            health,
        ):
            calls(client)
    if api_key is not None:
        unauthorized(base_url)
    print(json.dumps(sorted(CALLED)))


if __name__ == "__main__":
    main(*sys.argv[1:])
