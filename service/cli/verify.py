"""``baccarat verify``: re-derive a seeded answer from its seed inputs and compare.

Give it an answer saved from ``POST /v1/rounds``, ``POST /v1/settlements``
or ``POST /v1/shoes`` that was dealt from a seed. The seed inputs (server
seed, client seed, nonce), the rules in force, the round number or slice and
the bets are read from the answer itself (``--server-seed`` and the others
replace them, e.g. with the server seed revealed after play); the engine then
deals and settles again and every field must come out the same. Two fields
are not compared, because seed inputs do not determine them: ``engine`` (the
version that answered) and ``seed.generated`` (whether the service drew the
seed).

Exit code 0 when everything matches, 1 when anything differs (each
difference is listed as a JSON Pointer into the answer), 3 when the answer
cannot be verified (not JSON, no seed data, fields that do not validate).
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from ..baccarat.bets.types import BetType
from ..baccarat.multipliers.presets import PRESETS as MULTIPLIER_PRESETS
from ..baccarat.multipliers.rule import MultiplierRule
from ..baccarat.requests import play_round, play_whole_shoe, settle_table
from ..baccarat.tables.rules import SHORTHANDS, Rules
from ..contract.problems import pointer
from ..contract.schemas.rounds import RoundRequestSchema, RoundResponseSchema
from ..contract.schemas.rules import RulesOverrideSchema
from ..contract.schemas.settlements import SettlementRequestSchema, SettlementResponseSchema
from ..contract.schemas.shoes import ShoeRequestSchema, ShoeResponseSchema
from .documents import MISMATCH, OK, load, read_json, refuse, write_json

DESCRIPTION = """\
Re-derive a seeded round, settlement or shoe from its seed inputs with this
engine, and compare it field by field with an answer the service gave.
Prints a JSON report; exit code 0 when it matches, 1 when it does not."""

EPILOG = """\
examples:
  curl -s http://127.0.0.1:8000/v1/shoes -H 'Content-Type: application/json' \\
    -d '{"server_seed": "abc", "client_seed": "lucky-7", "nonce": 1}' > shoe.json
  baccarat verify shoe.json
  baccarat verify round.json --server-seed "$REVEALED_SERVER_SEED"

not compared: engine (the version that answered), seed.generated, table and
operator (where it was dealt: the answer's rules say how)"""

#: Parts of an answer that seed inputs do not determine.
NOT_DERIVED = (("engine",), ("seed", "generated"), ("table",), ("operator",))


def add_parser(subparsers: Any) -> None:
    """``baccarat verify``."""
    parser = subparsers.add_parser(
        "verify",
        help="re-derive a seeded answer from its seed inputs and compare (exit 1 on a mismatch)",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "answer", metavar="ANSWER", help="a saved answer of POST /v1/rounds, /v1/settlements or /v1/shoes"
    )
    parser.add_argument("--server-seed", metavar="TEXT", help="the server seed (default: the answer's)")
    parser.add_argument("--client-seed", metavar="TEXT", help="the client seed (default: the answer's)")
    parser.add_argument("--nonce", type=int, metavar="N", help="the nonce (default: the answer's)")


def seed_inputs(answer: Mapping[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """The seed inputs to derive from: the answer's, replaced by any given on the command line."""
    seed = answer.get("seed")
    if not isinstance(seed, Mapping):
        refuse(
            "The answer has no seed data",
            "Only answers dealt from a seed can be re-derived; a round dealt from cards has no 'seed'",
        )
    inputs = {
        "server_seed": args.server_seed if args.server_seed is not None else seed.get("server_seed"),
        "client_seed": args.client_seed if args.client_seed is not None else seed.get("client_seed"),
        "nonce": args.nonce if args.nonce is not None else seed.get("nonce"),
    }
    return {name: value for name, value in inputs.items() if value is not None}


def rules_of(answer: Mapping[str, Any]) -> Rules:
    """The rules the answer says were in force, exactly (not merged into a preset's)."""
    stated = answer.get("rules")
    if not isinstance(stated, Mapping):
        refuse("The answer has no rules", "A service answer states the rules in force as 'rules'")
    settings = load(
        RulesOverrideSchema(), {k: v for k, v in stated.items() if k not in ("id", "multipliers")}
    )
    multipliers = multiplier_rule_of(stated.get("multipliers"))
    if multipliers is not None:
        settings["multipliers"] = multipliers
    limits = settings.pop("limits", {})
    # The banker's, the tie's and Super 6's pay tables are the answer's
    # `variant`, `tie_pays` and `super_6_pays`, which the rules hold instead.
    chosen = {bet: table for bet, table in settings.pop("pay_tables", {}).items() if bet not in SHORTHANDS}
    return replace(
        Rules(),
        **settings,
        limits=MappingProxyType({BetType(k): v for k, v in limits.items()}),
        pay_tables=MappingProxyType(chosen),
    )


def multiplier_rule_of(stated: Any) -> MultiplierRule | None:
    """The multiplier game the answer's rules name by their ``id``: one of the presets."""
    if stated is None:
        return None
    rule_id = stated.get("id") if isinstance(stated, Mapping) else None
    for preset in MULTIPLIER_PRESETS.values():
        if preset.rule.id == rule_id:
            return preset.rule
    refuse("The answer's multiplier rule is not a preset", f"no multiplier preset has the id {rule_id!r}")


def slip(settled: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The bets of a settled slip, as they were sent."""
    return [
        {key: bet[key] for key in ("id", "type", "amount") if key in bet} for bet in settled.get("bets", [])
    ]


def derive_shoe(answer: Mapping[str, Any], inputs: dict[str, Any], rules: Rules) -> Any:
    rounds = answer["rounds"]
    if not isinstance(rounds, list) or not rounds or not all(isinstance(r, Mapping) for r in rounds):
        refuse("The shoe answer has no rounds", "'rounds' must list the rounds the answer dealt")
    request = load(
        ShoeRequestSchema(),
        {
            **inputs,
            "from_round": rounds[0].get("number"),
            "to_round": rounds[-1].get("number"),
            "include_shoe": "shoe" in answer,
            "bets_by_round": [
                {"round": r.get("number"), "bets": slip(settled)}
                for r in rounds
                if isinstance(settled := r.get("settlement", r.get("multiplier_settlement")), Mapping)
            ],
        },
    )
    return ShoeResponseSchema().dump(play_whole_shoe(replace(request, rules=rules)))


def derive_round(answer: Mapping[str, Any], inputs: dict[str, Any], rules: Rules) -> Any:
    place = answer.get("round")
    if isinstance(place, Mapping):
        inputs = {**inputs, "round": place.get("number")}
    settled_slips = answer.get("slips", answer.get("multiplier_slips"))
    if isinstance(settled_slips, list):
        slips = [{"id": s.get("id"), "bets": slip(s)} for s in settled_slips if isinstance(s, Mapping)]
        table = load(SettlementRequestSchema(), {**inputs, "slips": slips})
        return SettlementResponseSchema().dump(settle_table(replace(table, rules=rules)))
    settled = answer.get("settlement", answer.get("multiplier_settlement"))
    bets = slip(settled) if isinstance(settled, Mapping) else []
    request = load(RoundRequestSchema(), {**inputs, "bets": bets})
    return RoundResponseSchema().dump(play_round(replace(request, rules=rules)))


def differences(saved: Any, derived: Any, path: tuple[str | int, ...] = ()) -> Iterator[dict[str, Any]]:
    """Every place where ``saved`` and ``derived`` differ, as JSON Pointers."""
    if path in NOT_DERIVED:
        return
    if isinstance(saved, Mapping) and isinstance(derived, Mapping):
        for key in [*saved, *(k for k in derived if k not in saved)]:
            yield from differences(saved.get(key), derived.get(key), (*path, key))
    elif isinstance(saved, list) and isinstance(derived, list) and len(saved) == len(derived):
        for index, (a, b) in enumerate(zip(saved, derived, strict=True)):
            yield from differences(a, b, (*path, index))
    elif saved != derived or type(saved) is not type(derived):
        yield {"pointer": pointer(path), "saved": saved, "derived": derived}


def run(args: argparse.Namespace) -> int:
    """Derive, compare, report."""
    answer = read_json(args.answer, "answer")
    if not isinstance(answer, Mapping):
        refuse("The answer is not a service answer", "Expected the JSON object a POST endpoint answered")
    inputs = seed_inputs(answer, args)
    rules = rules_of(answer)
    settlement = "slips" in answer or "multiplier_slips" in answer
    kind = "shoe" if "rounds" in answer else "settlement" if settlement else "round"
    derived = derive_shoe(answer, inputs, rules) if kind == "shoe" else derive_round(answer, inputs, rules)
    found = list(differences(answer, derived))
    report = {
        "match": not found,
        "answer": kind,
        "algorithm": derived["seed"]["algorithm"],
        "shoe_hash": derived["seed"]["shoe_hash"],
        "server_seed_hash": derived["seed"]["server_seed_hash"],
        "differences": found,
    }
    write_json(report)
    return OK if not found else MISMATCH
