"""``report.html``: the report as one self-contained page.

Tables of every figure, and three plots drawn by matplotlib as inline SVG
(no script, no external file): each bet's return converging on its exact
value, the card-by-position heat map of the shuffle, and the histogram of
the bit stream's p-values. The page is written from ``report.json``'s
dict alone, so it shows nothing the JSON does not hold.
"""

from __future__ import annotations

import io
from html import escape
from typing import Any

import matplotlib
import numpy as np
from matplotlib.figure import Figure

from ..baccarat.rulebook.cards import DECK

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 70rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
th, td { border: 1px solid #ccc; padding: 0.2rem 0.5rem; text-align: left; vertical-align: top; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.pass { color: #186a3b; font-weight: bold; } .fail { color: #b03a2e; font-weight: bold; }
figure { margin: 0 0 1.5rem; } svg { max-width: 100%; height: auto; }
code { font-size: 90%; }
"""


def _svg(figure: Figure) -> str:
    buffer = io.StringIO()
    with matplotlib.rc_context({"svg.hashsalt": "baccarat-certification", "svg.fonttype": "path"}):
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def convergence_plot(report: dict[str, Any]) -> str:
    """Each bet's observed return after each piece of shoes, its exact value and a 99% band."""
    data = report["simulation"]["convergence"]
    exact = report["exact"]["bets"]
    bets = list(data["observed"])
    columns = 3
    rows = max(1, -(-len(bets) // columns))
    figure = Figure(figsize=(10, 2.4 * rows), layout="constrained")
    rounds = np.array(data["rounds"], dtype=float)
    for index, bet in enumerate(bets):
        axes = figure.add_subplot(rows, columns, index + 1)
        value = float(exact[bet]["expected_value"]["decimal"])
        error = np.array(data["standard_error"][bet])
        axes.fill_between(rounds, value - 2.576 * error, value + 2.576 * error, color="#d6eaf8", label="99%")
        axes.axhline(value, color="#1f618d", linewidth=1, label="exact")
        axes.plot(rounds, data["observed"][bet], color="#b03a2e", linewidth=1.2, label="observed")
        axes.set_title(bet, fontsize=9)
        axes.set_xscale("log")
        axes.tick_params(labelsize=7)
        if index == 0:
            axes.legend(fontsize=7)
    figure.supxlabel("rounds dealt", fontsize=9)
    figure.supylabel("return per unit staked", fontsize=9)
    return _svg(figure)


def heat_map(report: dict[str, Any]) -> str:
    """Standardised residuals of the card-by-position counts."""
    positions = np.array(report["shuffle"]["positions"], dtype=float)
    expected = positions.sum(axis=1, keepdims=True) / 52
    residuals = (positions - expected) / np.sqrt(expected)
    figure = Figure(figsize=(10, 4), layout="constrained")
    axes = figure.add_subplot()
    image = axes.imshow(residuals.T, aspect="auto", cmap="coolwarm", vmin=-4, vmax=4, interpolation="nearest")
    axes.set_xlabel("position in the shoe (0 = the top)")
    axes.set_yticks(range(0, 52, 13), [DECK[i].code for i in range(0, 52, 13)])
    axes.set_ylabel("card")
    figure.colorbar(image, ax=axes, label="(observed - expected) / sqrt(expected)")
    return _svg(figure)


def p_value_histogram(report: dict[str, Any]) -> str:
    """The bit stream's randomised p-values in ten bins, against the uniform count
    (the others come from integer counts: not uniform even for a perfect source)."""
    tests = [test for test in report["bit_stream"]["tests"] if test["randomised"]]
    bins = np.array([test["p_value_bins"] for test in tests]).sum(axis=0)
    figure = Figure(figsize=(6, 3), layout="constrained")
    axes = figure.add_subplot()
    axes.bar(np.arange(10) / 10 + 0.05, bins, width=0.09, color="#5d6d7e")
    axes.axhline(bins.sum() / 10, color="#b03a2e", linewidth=1, label="expected if uniform")
    axes.set_xlabel("p-value")
    axes.set_ylabel("sequences x tests")
    axes.legend(fontsize=8)
    return _svg(figure)


def _verdict(passed: bool) -> str:
    return '<span class="pass">pass</span>' if passed else '<span class="fail">FAIL</span>'


def _table(headers: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="number">{cell:.6g}</td>' if isinstance(cell, float) else f"<td>{cell}</td>"
            for cell in row
        )
        + "</tr>"
        for row in rows
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _tests(tests: list[dict[str, Any]]) -> str:
    return _table(
        ["test", "what", "method", "statistic", "p-value", "needs", "verdict"],
        [
            [
                escape(t["name"]),
                escape(t["what"]),
                escape(t["method"]),
                float(t["statistic"]),
                float(t["p_value"]),
                f"&ge; {t['threshold']:.2g}",
                _verdict(t["passed"]),
            ]
            for t in tests
        ],
    )


def _engine(engine: dict[str, Any]) -> str:
    """The engine's name and version, and the digest of its critical files (docs/build-digest.md)."""
    return f"{escape(engine['name'])} {escape(engine['version'])}<br><code>{escape(engine['digest'])}</code>"


def _source(report: dict[str, Any]) -> str:
    """The run's engine, rules and where its shoes came from."""
    inputs, engine = report["inputs"], report["engine"]
    rounds = f"{report['simulation']['rounds']:,}"
    if "shoes_file" in inputs:
        given = inputs["shoes_file"]
        return _table(
            ["engine", "rules id", "shoes file (sha256)", "shoes", "rounds"],
            [
                [
                    _engine(engine),
                    escape(inputs["rules_id"]),
                    f"<code>{escape(given['sha256'])}</code>",
                    f"{given['shoes']:,}",
                    rounds,
                ]
            ],
        )
    seed = inputs["seed"]
    return _table(
        ["engine", "rules id", "server seed", "client seed", "nonces (shoes)", "algorithm", "rounds"],
        [
            [
                _engine(engine),
                escape(inputs["rules_id"]),
                f"<code>{escape(seed['server_seed'])}</code>",
                '<code>""</code>',
                f"{seed['nonces'][0]} to {seed['nonces'][1]}",
                escape(seed["algorithm"]),
                rounds,
            ]
        ],
    )


def _bit_stream(report: dict[str, Any]) -> list[str]:
    """The bit stream's section: its tests and their p-values, or why none ran."""
    if "tests" not in report["bit_stream"]:
        return [
            "<h2>The bit stream: NIST SP 800-22</h2>",
            f"<p>Not run: {escape(report['bit_stream']['not_run'])}.</p>",
        ]
    return [
        "<h2>The bit stream: NIST SP 800-22</h2>",
        _table(
            ["test", "section", "passing", "its p-value", "needs", "uniformity p", "needs", "verdict"],
            [
                [
                    escape(t["name"]),
                    escape(t["section"]),
                    float(t["proportion_passing"]),
                    float(t["proportion_p_value"]),
                    f"&ge; {t['proportion_threshold']:.2g}",
                    "not judged" if t["uniformity_p_value"] is None else float(t["uniformity_p_value"]),
                    "" if t["uniformity_threshold"] is None else f"&ge; {t['uniformity_threshold']:.2g}",
                    _verdict(t["passed"]),
                ]
                for t in report["bit_stream"]["tests"]
            ],
        ),
        f"<figure>{p_value_histogram(report)}<figcaption>The randomised p-values (frequency and "
        "spectral) of every sequence: uniform when the stream is random.</figcaption></figure>",
    ]


def _dieharder(report: dict[str, Any]) -> list[str]:
    """dieharder's section: each test's p-value and assessment, or why none ran."""
    section = report.get("dieharder", {"not_run": "not in this report"})
    head = ["<h2>The bit stream: dieharder</h2>"]
    if section.get("not_run"):
        head.append(f"<p>Not run: {escape(section['not_run'])}.</p>")
    if not section.get("tests"):
        return head
    head.append(
        f"<p>dieharder {escape(section['version'])} on {section['stream']['bytes']:,} bytes "
        f"({section['stream']['shoes']:,} shoes' streams), one p-value a test: FAILED fails the run, "
        "WEAK is reported.</p>"
    )
    rows = [
        [
            escape(t["name"]),
            t["psamples"],
            "" if "p_values" not in t else escape(", ".join(f"{p:.8f}" for p in t["p_values"])),
            escape(t.get("assessment", f"not run: {t.get('not_run', '')}")),
        ]
        for t in section["tests"]
    ]
    return [*head, _table(["test", "p-values asked", "p-values", "assessment"], rows)]


def _recalled(title: str, rounds: list[dict[str, Any]]) -> list[str]:
    """Rounds with the command that deals each again, under ``title`` (none: no section)."""
    if not rounds:
        return []
    return [
        f"<h2>{escape(title)}</h2>",
        _table(
            ["shoe", "round", "command", "player", "banker", "outcome", "shoe hash"],
            [
                [
                    r["shoe"],
                    r["round"],
                    f"<code>{escape(r['command'])}</code>",
                    escape(" ".join(r["player"])),
                    escape(" ".join(r["banker"])),
                    escape(r["outcome"]),
                    f"<code>{escape(r['shoe_hash'][:16])}</code>",
                ]
                for r in rounds
            ],
        ),
    ]


def page(report: dict[str, Any]) -> str:
    """The whole page."""
    inputs, exact, simulation = report["inputs"], report["exact"], report["simulation"]
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>Baccarat certification: table {escape(inputs['table'])}</title>",
        f"<style>{STYLE}</style></head><body>",
        f"<h1>Baccarat certification: table <code>{escape(inputs['table'])}</code> "
        f"{_verdict(report['passed'])}</h1>",
        _source(report),
        "<h2>Checks</h2>",
        _table(
            ["check", "what", "verdict", "failing"],
            [
                [
                    escape(c["check"]),
                    escape(c["what"]),
                    _verdict(c["passed"]),
                    escape(", ".join(c["failures"])),
                ]
                for c in report["checks"]
            ],
        ),
        f"<p>Family-wise: the {report['family_wise']['tests']} statistical tests are judged "
        f"together at {1 - report['family_wise']['alpha']:.0%}: "
        f"{escape(report['family_wise']['method'])}.</p>",
        "<h2>The game's math, exact</h2>",
        f"<p>{escape(exact['method'])}: {exact['sequences']:,} sequences, {exact['decks']} decks. "
        f"GLI-11: every award winnable at least once in {exact['gli11_games']:,} games.</p>",
    ]
    rows = []
    for bet, figures in exact["bets"].items():
        for line in [*figures["lines"], figures["loss"]]:
            rows.append(
                [
                    escape(bet),
                    escape(line["when"]),
                    escape(line["pays"]),
                    f"<code>{escape(line['probability']['fraction'])}</code>",
                    escape(line["probability"]["decimal"]),
                    escape(line["one_in"] or "never"),
                    escape(line.get("gli11", "")),
                ]
            )
    parts.append(_table(["bet", "line", "pays", "probability", "decimal", "1 in", "GLI-11"], rows))
    parts.append(
        _table(
            ["bet", "pay table", "house edge", "RTP", "house edge (exact)", "max win per unit", "max win"],
            [
                [
                    escape(bet),
                    escape(f["pay_table"]),
                    escape(f["house_edge_percent"]),
                    escape(f["rtp_percent"]),
                    f"<code>{escape(f['house_edge']['fraction'])}</code>",
                    escape(f["max_win_per_unit"]["decimal"]),
                    escape(f["max_win"] or ""),
                ]
                for bet, f in exact["bets"].items()
            ],
        )
    )
    parts += [
        "<h2>The simulation agrees with the math</h2>",
        f"<p>{escape(simulation['method'])}: {simulation['shoes']:,} shoes, "
        f"{simulation['rounds']:,} rounds.</p>",
        _table(
            ["bet", "observed return", "99% interval", "exact", "t", "p-value", "verdict"],
            [
                [
                    escape(t["name"]),
                    escape(t["detail"]["observed"]["decimal"]),
                    escape(f"{t['detail']['interval_99'][0]:+.5f} to {t['detail']['interval_99'][1]:+.5f}"),
                    float(t["detail"]["exact"]),
                    float(t["statistic"]),
                    float(t["p_value"]),
                    _verdict(t["passed"]),
                ]
                for t in simulation["returns"]
            ],
        ),
        f"<figure>{convergence_plot(report)}<figcaption>Each bet's observed return as the rounds add up, "
        "its exact value, and the 99% band around it.</figcaption></figure>",
        "<h3>Pay-table lines</h3>",
        _tests(simulation["line_counts"]),
        "<h2>The shuffle</h2>",
        f"<p>{report['shuffle']['shoes']:,} shoes.</p>",
        _tests(report["shuffle"]["tests"]),
        f"<figure>{heat_map(report)}<figcaption>Cards by position: how far each count lies from its "
        "expectation, in standard deviations.</figcaption></figure>",
        *_bit_stream(report),
        *_dieharder(report),
        *_recalled("Rounds to re-deal", report["recall"]),
        *_recalled("The last game and the nine before it (AGCO 13.1.1)", report["last_games"]),
        f"<p>Run on {escape(report['run']['workers'])} in {report['run']['seconds']} s.</p>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"
