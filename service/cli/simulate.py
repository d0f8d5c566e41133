"""``baccarat simulate``: deal many seeded shoes and check each bet's return
against its exact odds.

Shoe ``i`` is shuffled from ``--seed`` with an empty client seed and nonce
``i`` and dealt as the table deals: whole (burn, cut card), or at a table
that reshuffles after each hand (``tie_9``) its one round from the top, no
burn, as ``POST /v1/rounds`` deals a seeded round there; one unit is settled
on every bet the table offers at every round
(:mod:`service.baccarat.odds.simulation`). There the exact value is exactly
what the rounds' mean tends to (each round a full shoe's first). Each bet's
observed return per unit staked is printed with its confidence interval,
beside the exact expected value on a full shoe (``POST /v1/odds``), and
whether the interval holds it. A progress bar (tqdm) goes to stderr on long
runs, when stderr is a terminal. ``--shuffle numpy`` deals shoes shuffled by
numpy's generator instead, for speed.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tqdm import tqdm

from ..baccarat.bets.paytable import NO_LINE
from ..baccarat.odds.exact import analyse, settling_lines
from ..baccarat.odds.simulation import MAX_SHOES, SHUFFLES, Simulation, simulate
from ..baccarat.rulebook.cards import MAX_DECKS, MIN_DECKS
from ..baccarat.shoes.composition import full_shoe
from ..baccarat.tables.payouts import pay_table
from ..baccarat.tables.rules import DEFAULT_TABLE, PUNTO_BANCO, Rules, resolve_rules
from .documents import OK, refuse, write_json

DESCRIPTION = """\
Deal N seeded shoes as the table deals them, whole (burn, rounds, cut card)
or, at a table that reshuffles after each hand (tie_9), one round from the
top of each shuffle with no burn; settle one unit on every bet the table
offers at every round, and report each bet's observed return per unit
staked with a confidence interval, against its exact expected value."""

EPILOG = """\
examples:
  baccarat simulate --shoes 1000 --seed table-7
  baccarat simulate --shoes 200 --seed s1 --table ez --confidence 0.99 --json
  baccarat simulate --shoes 100000 --seed study-1 --shuffle numpy"""

#: Shoes from which a run shows a progress bar (when stderr is a terminal).
LONG_RUN = 50


def add_parser(subparsers: Any) -> None:
    """``baccarat simulate``."""
    parser = subparsers.add_parser(
        "simulate",
        help="deal N seeded shoes and check each bet's return against the exact odds",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--shoes", type=int, required=True, metavar="N", help="shoes to deal (2 or more)")
    parser.add_argument(
        "--seed", required=True, metavar="TEXT", help="server seed the shoes are shuffled from"
    )
    parser.add_argument(
        "--table",
        choices=PUNTO_BANCO,
        default=DEFAULT_TABLE,
        help="table preset of the plain game, whose exact odds the run is checked against "
        "(default: %(default)s)",
    )
    parser.add_argument("--decks", type=int, metavar="N", help="decks per shoe, 1-8 (default: the table's)")
    parser.add_argument(
        "--confidence",
        type=float,
        default=0.95,
        metavar="P",
        help="interval confidence (default: %(default)s)",
    )
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help=f"progress bar on stderr (default: on a terminal, from {LONG_RUN} shoes)",
    )
    parser.add_argument(
        "--shuffle",
        choices=SHUFFLES,
        default="service",
        help="service: the service's seeded shuffle, shoe i from nonce i (docs/fairness.md); "
        "numpy: numpy's generator seeded from --seed, faster, tied to no service seed "
        "(default: %(default)s)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")


def report(simulation: Simulation, table: str, rules: Rules, confidence: float) -> dict[str, Any]:
    """The figures, each bet beside its exact expected value on a full shoe."""
    exact = analyse(full_shoe(rules.decks), rules)
    bets = {}
    for bet in simulation.returns:
        low, high = bet.interval(confidence)
        expected = float(exact.bets[bet.bet].expected_value)
        _, pays = settling_lines(pay_table(bet.bet, rules))
        words = [line.when for line in pay_table(bet.bet, rules).lines] + [NO_LINE.when]
        bets[str(bet.bet)] = {
            "observed": float(bet.observed),
            "observed_exact": f"{bet.observed.numerator}/{bet.observed.denominator}",
            "standard_error": bet.standard_error,
            "interval": [low, high],
            "exact": expected,
            "agrees": low <= expected <= high,
            "lines": [
                {"when": when, "nets": str(pay), "rounds": rounds}
                for when, pay, rounds in zip(words, pays, bet.lines, strict=True)
            ],
        }
    return {
        "seed": simulation.seed,
        "shuffle": simulation.tally.shuffle,
        "table": table,
        "decks": rules.decks,
        "dealing": str(rules.dealing),
        "shoes": simulation.shoes,
        "rounds": simulation.rounds,
        "confidence": confidence,
        "bets": bets,
    }


def text(document: dict[str, Any]) -> str:
    """The report as a table to read."""
    level = f"{document['confidence']:.0%}"
    dealt = "one round each, reshuffled after each hand" if document["dealing"] != "shoe" else "whole"
    shuffled = (
        f"nonces 0-{document['shoes'] - 1}"
        if document["shuffle"] == "service"
        else "shuffled by numpy's generator"
    )
    lines = [
        f"{document['shoes']:,} shoes of {document['decks']} decks from seed {document['seed']!r} "
        f"({shuffled}), dealt {dealt}, table {document['table']}: {document['rounds']:,} rounds, "
        "one unit on every bet every round",
        "",
        f"{'bet':<20} {'observed':>10} {level + ' interval':>24} {'exact':>10}  agrees",
    ]
    for bet, figures in document["bets"].items():
        low, high = figures["interval"]
        lines.append(
            f"{bet:<20} {figures['observed']:>+10.5f} {f'[{low:+.5f}, {high:+.5f}]':>24} "
            f"{figures['exact']:>+10.5f}  {'yes' if figures['agrees'] else 'NO'}"
        )
    lines += ["", "Return per unit staked; intervals treat each shoe as one observation."]
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    """Simulate, print the report."""
    if not 2 <= args.shoes <= MAX_SHOES:
        refuse("Bad --shoes", f"--shoes must be 2 to {MAX_SHOES:,}, not {args.shoes}", status=422)
    if not 0 < args.confidence < 1:
        refuse("Bad --confidence", f"--confidence must be between 0 and 1, not {args.confidence}", status=422)
    if args.decks is not None and not MIN_DECKS <= args.decks <= MAX_DECKS:
        refuse("Bad --decks", f"--decks must be {MIN_DECKS} to {MAX_DECKS}, not {args.decks}", status=422)
    overrides = {} if args.decks is None else {"decks": args.decks}
    rules = resolve_rules(args.table, overrides)
    show = args.progress if args.progress is not None else sys.stderr.isatty() and args.shoes >= LONG_RUN
    with tqdm(total=args.shoes, unit="shoe", file=sys.stderr, disable=not show) as bar:
        simulation = simulate(rules, args.seed, args.shoes, shuffle=args.shuffle, progress=bar.update)
    document = report(simulation, args.table, rules, args.confidence)
    if args.json:
        write_json(document)
    else:
        sys.stdout.write(text(document))
    return OK
