"""The engine against two open-source Python peers, on the same shoes:
``PYTHONPATH=. .venv/bin/python -m bench.peers``.

1. Deal whole shoes (burn, rounds, cut card): the service's
   :func:`~service.baccarat.shoes.deal.deal_shoe` against PyBaccarat 0.18
   dealing a shoe as its ``Game.play()`` does (see :mod:`bench.peer_engines`);
   and, beside them, the service's numpy dealer (:mod:`service.baccarat.counting.batch`).
2. Deal and settle one banker bet per round: ``deal_shoe`` with the engine's
   settlement of a 10.00 banker bet, against cardsharp 0.6.0's
   ``BaccaratGame.play_round(BetType.BANKER, 10)``.

Each side deals the same shuffled shoes (the service's seeded shuffle) in
this one process, the sides taking turns; figures are rounds per CPU
second, each side's best turn of five passes, and the ratios of the service
to each peer.

Neither peer installs into this project's environment: PyBaccarat 0.18's
``setup.py`` imports the Windows-only ``msvcrt``, so pip cannot build it on
Linux; cardsharp 0.6.0 declares Python >= 3.14 and pulls pandas, matplotlib
and the obsolete ``asyncio`` backport, none of which its baccarat engine
uses. So they live in their own environment, ``.venv-peers``, never the
service's: cardsharp installed with ``--no-deps --ignore-requires-python``,
PyBaccarat's source distribution fetched from PyPI (its digest checked)
and unpacked with a stand-in ``msvcrt`` (its ``getch`` is only for
interactive play). Both are pure Python for the same interpreter, so the
bench's own process imports them from there (after everything of its own)
and runs them through :mod:`bench.peer_engines`.

``python -m bench.peers --profile`` profiles the service's side of both
workloads instead (cProfile, the functions that take the most time of
their own), for docs/performance.md's account of where a round's time goes.
"""

from __future__ import annotations

import cProfile
import hashlib
import io
import json
import pstats
import statistics
import subprocess
import sys
import tarfile
import urllib.request
from collections import Counter
from decimal import Decimal
from pathlib import Path

from service.baccarat.bets.types import Bet, BetType
from service.baccarat.counting import batch
from service.baccarat.rulebook.cards import DECK, Card
from service.baccarat.shoes.deal import DEFAULT_CUT_CARD, DealtShoe, deal_shoe
from service.baccarat.tables.rules import TABLES
from service.baccarat.tables.settlement import Settler

from .paths import best_of

ROOT = Path(__file__).resolve().parent.parent
PEERS = ROOT / ".venv-peers"
#: Where PyBaccarat's package and the msvcrt stand-in are unpacked.
SOURCES = PEERS / "sources"
PYBACCARAT_JSON = "https://pypi.org/pypi/pybaccarat/json"
PYBACCARAT_VERSION = "0.18"
CARDSHARP = "cardsharp==0.6.0"
SHOES = 60
REPEATS = 5
GOAL_DEAL, GOAL_SETTLE = 1.5, 3.0
RULES = TABLES["standard"].rules
BANKER = Bet(type=BetType.BANKER, amount=Decimal(10))


def python() -> Path:
    return PEERS / "bin" / "python"


def ensure_peers() -> None:
    """Make ``.venv-peers`` with both peers, unless it is there already."""
    if not python().exists():
        subprocess.run([sys.executable, "-m", "venv", str(PEERS)], check=True)
    installed = subprocess.run([str(python()), "-c", "import cardsharp"], capture_output=True)
    if installed.returncode != 0:
        subprocess.run(
            [
                str(python()),
                "-m",
                "pip",
                "install",
                "--quiet",
                "--no-deps",
                "--ignore-requires-python",
                CARDSHARP,
            ],
            check=True,
        )
    if not (SOURCES / "pybaccarat").exists():
        with urllib.request.urlopen(PYBACCARAT_JSON, timeout=60) as answer:
            release = json.load(answer)["releases"][PYBACCARAT_VERSION]
        sdist = next(entry for entry in release if entry["packagetype"] == "sdist")
        with urllib.request.urlopen(sdist["url"], timeout=60) as answer:
            data = answer.read()
        if hashlib.sha256(data).hexdigest() != sdist["digests"]["sha256"]:
            raise RuntimeError("PyBaccarat's source distribution does not match PyPI's digest")
        SOURCES.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(data)) as archive:
            prefix = f"pybaccarat-{PYBACCARAT_VERSION}/pybaccarat/"
            members = [m for m in archive.getmembers() if m.name.startswith(prefix) and m.isfile()]
            for member in members:
                member.name = member.name.removeprefix(f"pybaccarat-{PYBACCARAT_VERSION}/")
            archive.extractall(SOURCES, members=members, filter="data")
        (SOURCES / "msvcrt.py").write_text(
            '"""A stand-in for Windows\' msvcrt: PyBaccarat imports getch for interactive play."""\n\n\n'
            "def getch() -> bytes:\n    raise OSError('no console here')\n"
        )


def deal(decks: list[list[Card]]) -> None:
    """Deal every shoe of ``decks`` whole."""
    for cards in decks:
        deal_shoe(cards, cut_card=DEFAULT_CUT_CARD)


def settle(decks: list[list[Card]]) -> None:
    """Deal every shoe of ``decks`` and settle a banker bet on each round."""
    for cards in decks:
        for played in deal_shoe(cards, cut_card=DEFAULT_CUT_CARD).rounds:
            Settler(played.coup, RULES).bet(BANKER)


def seeded_decks() -> list[list[Card]]:
    """The bench's shoes, as the service's cards."""
    return [[DECK[index] for index in row] for row in batch.seeded_shoes("peers", 0, SHOES, RULES.decks)]


def profile(top: int = 12) -> list[str]:
    """Where the service's side of each workload spends its time: the
    functions with the most time of their own, under cProfile (which slows
    every call alike, so read the shares, not the times)."""
    decks = seeded_decks()
    rounds = sum(len(deal_shoe(cards, cut_card=DEFAULT_CUT_CARD).rounds) for cards in decks)
    lines = []
    for name, work in (("deal whole shoes", deal), ("deal + settle one banker bet", settle)):
        profiler = cProfile.Profile()
        profiler.runcall(work, decks)
        stats = pstats.Stats(profiler)
        total = stats.total_tt  # type: ignore[attr-defined]
        lines.append(f"{name}: {rounds:,} rounds, {total * 1e6 / rounds:.2f} us a round under cProfile")
        rows = sorted(stats.stats.items(), key=lambda item: -item[1][2])  # type: ignore[attr-defined]
        for (path, line, function), (_, calls, own, _, _) in rows[:top]:
            where = f"{Path(path).name}:{line}({function})" if line else function
            lines.append(f"  {own / total:6.1%}  {calls / rounds:5.2f} calls a round  {where}")
    return lines


def peers_importable() -> None:
    """Let this process import the peers from ``.venv-peers``, after everything
    of its own (the same Python; both peers are pure Python)."""
    for folder in (SOURCES, *PEERS.glob("lib/python*/site-packages")):
        if str(folder) not in sys.path:
            sys.path.append(str(folder))


def run(repeats: int = REPEATS) -> list[str]:
    try:
        ensure_peers()
    except (OSError, subprocess.CalledProcessError, RuntimeError, KeyError) as error:
        return [f"peers unavailable ({error}): nothing compared"]
    peers_importable()
    from bench import peer_engines

    shoes = batch.seeded_shoes("peers", 0, SHOES, RULES.decks)
    decks = [[DECK[index] for index in row] for row in shoes]
    codes = [[card.code for card in cards] for cards in decks]
    dealt = [deal_shoe(cards, cut_card=DEFAULT_CUT_CARD) for cards in decks]
    rounds = sum(len(shoe.rounds) for shoe in dealt)
    burns, counts = [shoe.burn_count for shoe in dealt], [len(shoe.rounds) for shoe in dealt]

    # The sides take turns, ``repeats`` times, each turn its best of five
    # passes; each side's figure is its best turn, so each had as many
    # chances at a quiet machine. Each turn's ratio is shown too.
    rates: dict[str, list[float]] = {"ours": [], "pyb": [], "ours+bet": [], "cs": [], "numpy": []}
    for _ in range(repeats):
        rates["ours"].append(rounds / best_of(lambda: deal(decks), 1))
        pyb = peer_engines.pybaccarat(codes, DEFAULT_CUT_CARD)
        rates["pyb"].append(pyb["rounds"] / pyb["seconds"])
        rates["ours+bet"].append(rounds / best_of(lambda: settle(decks), 1))
        cs = peer_engines.cardsharp(codes, burns, counts)
        rates["cs"].append(cs["rounds"] / cs["seconds"])
        rates["numpy"].append(rounds / best_of(lambda: batch.deal(shoes, cut_card=DEFAULT_CUT_CARD), 1))
    best = {name: max(values) for name, values in rates.items()}
    deal_ratio, settle_ratio = best["ours"] / best["pyb"], best["ours+bet"] / best["cs"]

    def turns(ours: str, peer: str) -> str:
        ratios = [mine / theirs for mine, theirs in zip(rates[ours], rates[peer], strict=True)]
        return f"turn by turn {min(ratios):.2f} to {max(ratios):.2f}, median {statistics.median(ratios):.2f}"

    def verdict(ratio: float, goal: float) -> str:
        return f"{'meets' if ratio >= goal else 'MISSES'} goal >= {goal}"

    return [
        f"PyBaccarat {pyb['version']} and cardsharp {cs['version']} in this process, on the same "
        f"{SHOES} seeded 8-deck shoes; rounds per CPU second, each side's best of {repeats} "
        "alternated turns of 5 passes",
        f"deal whole shoes ({rounds:,} rounds; PyBaccarat deals {pyb['rounds']:,}):",
        f"  deal_shoe {best['ours']:,.0f} rounds/s; PyBaccarat {best['pyb']:,.0f} rounds/s: "
        f"ratio {deal_ratio:.2f} ({verdict(deal_ratio, GOAL_DEAL)}; {turns('ours', 'pyb')})",
        f"  the numpy dealer (batch.deal) {best['numpy']:,.0f} rounds/s: "
        f"ratio {best['numpy'] / best['pyb']:.2f}",
        "deal + settle one banker bet per round, the same shoes:",
        f"  deal_shoe + Settler {best['ours+bet']:,.0f} rounds/s; cardsharp play_round "
        f"{best['cs']:,.0f} rounds/s: ratio {settle_ratio:.2f} "
        f"({verdict(settle_ratio, GOAL_SETTLE)}; {turns('ours+bet', 'cs')})",
        f"  outcomes (banker/player/tie): ours {outcomes(dealt)}, cardsharp {cs['outcomes']}",
    ]


def outcomes(dealt: list[DealtShoe]) -> dict[str, int]:
    """Rounds by outcome, named as the peers' runner names them."""
    names = {"banker": "B", "player": "P", "tie": "T"}
    return dict(Counter(names[str(played.coup.outcome)] for shoe in dealt for played in shoe.rounds))


if __name__ == "__main__":
    print("\n".join(profile() if sys.argv[1:] == ["--profile"] else run()))
