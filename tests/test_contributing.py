"""The recipes of CONTRIBUTING.md that no other test enforced, as tests.

Each recipe step there names the test that fails when the step is
forgotten; the steps that had none are checked here: a bet type is offered
by some preset, has a printed house edge to check, and is documented in
docs/bets.md, the variants guide and the OpenAPI document; a pay table is built
from line tests made once; every rules setting is in the rules id, the
answer and the overrides; every pay a request may choose is tested and
documented; every view module's blueprint is registered and every
operation is in docs/reference/endpoints.md; every table preset is
documented. Last, every file (and ``file::name``) CONTRIBUTING.md names in
backticks exists, so the recipes cannot point at something that has moved.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pkgutil
import re
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

import flask_smorest
import pytest

from service.api import views
from service.app import create_app
from service.baccarat.bets.catalogue import CATALOGUE, pay_tables_of, standard
from service.baccarat.bets.money import Rounding
from service.baccarat.bets.paytable import Result
from service.baccarat.bets.types import MAIN_BETS, BetType, Variant
from service.baccarat.multipliers.presets import PRESETS as MULTIPLIER_PRESETS
from service.baccarat.tables.payouts import pay_table
from service.baccarat.tables.rules import TABLES, BetLimits, Dealing, Rules
from service.cli import paytables
from service.contract.schemas.rules import RoundRulesOverrideSchema, RulesOverrideSchema, RulesSchema
from service.contract.schemas.values import COMPONENT, VALUE_SETS
from tests.baccarat import test_house_edge
from tests.baccarat.bets import test_catalogue
from tests.baccarat.odds import test_exact as test_odds
from tests.baccarat.tables import test_payouts
from tests.pays import line_pays, multiplied, written_pays

ROOT = Path(__file__).resolve().parent.parent
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
#: The pages of the documentation that the recipes keep up to date.
VARIANTS_MD = ROOT / "docs" / "guides" / "variants-and-side-bets.md"
ENDPOINTS_MD = ROOT / "docs" / "reference" / "endpoints.md"
CONTRACT_MD = ROOT / "docs" / "reference" / "contract-rules.md"
BETS_MD = ROOT / "docs" / "bets.md"
METHODS = frozenset({"get", "put", "post", "delete", "patch"})
SETTINGS = frozenset(field.name for field in dataclasses.fields(Rules) if field.init)


@cache
def spec() -> dict[str, Any]:
    """The OpenAPI document the code generates now."""
    document: dict[str, Any] = create_app({}).test_client().get("/openapi.json").get_json()
    return document


def section(path: Path, heading: str) -> str:
    """The text under ``heading`` (a whole Markdown heading line) up to the
    next heading of the same level or above."""
    text = path.read_text(encoding="utf-8")
    level = heading.split(" ", 1)[0]
    start = text.index(f"\n{heading}\n") + len(heading) + 2
    following = re.compile(rf"^#{{1,{len(level)}}} ", re.MULTILINE).search(text, start)
    return text[start : following.start() if following else len(text)]


def first_column(markdown: str) -> set[str]:
    """The code spans of the first cell of every body row of the first table in ``markdown``."""
    rows: list[str] = []
    for line in markdown.splitlines():
        if line.startswith("|"):
            rows.append(line)
        elif rows:
            break
    names = set()
    for row in rows[2:]:  # after the header and the separator
        names.update(re.findall(r"`([^`]+)`", row.split("|")[1]))
    return names


def code_spans(text: str) -> set[str]:
    return set(re.findall(r"`([^`\n]+)`", text))


# --- adding a bet type ------------------------------------------------------------------


SIDE_BETS = [bet for bet in BetType if bet not in MAIN_BETS]


def test_every_side_bet_has_a_row_in_docs_bets_md_and_every_main_bet_is_described():
    side_bets = {str(bet) for bet in SIDE_BETS}
    assert first_column(section(BETS_MD, "## Side bets")) == side_bets
    variants = section(BETS_MD, "## Variants: how the banker bet is paid")
    for bet in set(map(str, BetType)) - side_bets:
        assert re.search(rf"\b{bet}\b", variants, re.IGNORECASE), f"docs/bets.md says nothing of {bet}"


def test_the_variants_guide_names_every_side_bet():
    named = code_spans(VARIANTS_MD.read_text(encoding="utf-8"))
    missing = sorted({str(bet) for bet in SIDE_BETS} - named)
    assert not missing, f"docs/guides/variants-and-side-bets.md does not name {missing}"


def test_the_bet_type_description_says_what_every_bet_pays():
    """The ``BetType`` component's description (service/contract/schemas/values.py)."""
    described = code_spans(spec()["components"]["schemas"]["BetType"]["description"])
    missing = sorted(set(map(str, BetType)) - described)
    assert not missing, f"the BetType description does not describe {missing}"


def test_every_bet_type_is_offered_by_some_preset():
    """A bet no preset offers is refused at every table (unless a request
    gives it limits), and the tests that go over the presets' offers, such as
    every pay line being met by a crafted round, never see it."""
    offered = {bet for table in TABLES.values() for bet in table.rules.bet_types}
    assert offered == set(BetType)


def test_every_pay_table_s_house_edge_is_checked_against_its_source():
    """tests/baccarat/odds/test_exact.py holds the odds engine's edge of every pay
    table to the figure its source prints, or to the reason it differs, and
    docs/bets.md lists both; DESIGN §5's figures are also checked by an
    enumeration of every round (tests/baccarat/test_house_edge.py)."""
    assert set(test_odds.PUBLISHED_DIFFERS) <= set(CATALOGUE)
    listed = first_column(section(BETS_MD, "## Pay tables"))
    assert listed == set(CATALOGUE), "docs/bets.md's 'Pay tables' must list every pay table"
    checked = {bet for bet, _, _ in test_house_edge.DESIGN_FIGURES.values()}
    assert checked == {bet for bet in BetType if standard(bet).source.house_edge}


# --- adding a pay table ------------------------------------------------------------------


def test_docs_bets_md_lists_the_catalogue_as_the_command_writes_it():
    text = BETS_MD.read_text()
    start, end = "<!-- pay tables: baccarat paytables --markdown -->\n", "<!-- end of pay tables -->"
    written = text[text.index(start) + len(start) : text.index(end)]
    assert written == paytables.markdown(paytables.catalogue()), "run: baccarat paytables --markdown"


def test_docs_bets_md_writes_only_pays_and_edges_its_bets_pay_tables_have():
    """The side bets' table restates pays and edges: each must be one of its
    bet's pay tables', at the digits written."""
    edges = {table["id"]: Decimal(table["house_edge"]) * 100 for table in paytables.catalogue()["pay_tables"]}
    for row in section(BETS_MD, "## Side bets").splitlines():
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        if not re.fullmatch(r"`\w+`", cells[0]) or cells[0].strip("`") not in set(map(str, BetType)):
            continue
        tables = pay_tables_of(BetType(cells[0].strip("`")))
        assert written_pays(cells[2]) <= {
            pay for t in tables for line in t.lines for pay in line_pays(line)
        }, row
        for printed in re.findall(r"(\d+\.\d+)%", cells[4]):
            digits = Decimal(1).scaleb(-len(printed.partition(".")[2]))
            assert any(edges[t.id].quantize(digits) == Decimal(printed) for t in tables), (row, printed)


#: Each preset, one set of rules that builds the banker's pay table anew, and
#: rules that choose every other pay table of the catalogue.
RULES = (
    [table.rules for table in TABLES.values()]
    + [Rules(commission=Decimal("0.04"))]
    + [test_catalogue.rules_choosing(table) for table in CATALOGUE.values()]
)


@pytest.mark.parametrize("rules", RULES, ids=[*TABLES, "commission 4%", *CATALOGUE])
def test_pay_tables_are_built_from_line_tests_made_once(rules):
    """The exact odds keep one matrix per pay table, keyed by its lines'
    tests (service/baccarat/odds/exact.py): a test made anew for each request
    would be counted anew, and kept, every time."""
    for bet in BetType:
        first, second = pay_table(bet, rules), pay_table(bet, rules)
        assert [line.applies for line in first.lines] == [line.applies for line in second.lines], bet


#: Rules that offer a bet with more than one pay table.
BASE = Rules(limits={BetType.PLAYER_PAIR: BetLimits(min=Decimal(1), max=Decimal(10))})
#: For each setting of :class:`Rules`, a value other than the default.
OTHER_VALUES: dict[str, Any] = {
    "variant": Variant.EZ,
    "decks": 6,
    "commission": Decimal("0.04"),
    "tie_pays": 9,
    "super_6_pays": 15,
    "payout_rounding": Rounding.HALF_UP,
    "minor_unit": 0,
    "cut_card": 20,
    "limits": {**BASE.limits, BetType.PLAYER: BetLimits(min=Decimal(1), max=Decimal(10))},
    "pay_tables": {BetType.PLAYER_PAIR: "player_pair_12_to_1"},
    "multipliers": MULTIPLIER_PRESETS["lightning"].rule,
}


#: Settings that settle no round differently, left out of the id: how the
#: table deals (a round dealt at all is dealt and settled alike; the rules
#: sheet's id covers it, and the ids published before it was a rule stand).
NOT_IN_THE_ID = {"dealing": Dealing.RESHUFFLE_EACH_HAND}


def test_every_rules_setting_changes_the_rules_id():
    """The id tells an auditor two rounds were settled under the same rules:
    every setting, such as a pay a table may choose, must be part of it."""
    assert set(OTHER_VALUES) | set(NOT_IN_THE_ID) == SETTINGS, (
        "a new setting of Rules: give it another value here"
    )
    for name, value in OTHER_VALUES.items():
        assert dataclasses.replace(BASE, **{name: value}).id != BASE.id, name
    for name, value in NOT_IN_THE_ID.items():
        other = dataclasses.replace(BASE, **{name: value})
        assert other.id == BASE.id, name
        assert other != BASE, name
        assert other.canonical != BASE.canonical, name


def pay_choices() -> dict[str, set[Any]]:
    """The settings a request may choose from a value set (``tie_pays``) that
    change some bet's pay table, each with the values it may take."""
    default = [pay_table(bet, Rules()) for bet in BetType]
    choices = {}
    for name, field in RulesOverrideSchema().fields.items():
        if COMPONENT not in field.metadata:
            continue
        values = {
            RulesOverrideSchema().load({name: value})[name]
            for value in VALUE_SETS[field.metadata[COMPONENT]].values
        }
        for value in values:
            rules = dataclasses.replace(Rules(), **{name: value})
            if [pay_table(bet, rules) for bet in BetType] != default:
                choices[name] = values
    return choices


def test_the_pay_table_tests_go_over_every_pay_a_request_may_choose():
    """tests/baccarat/tables/test_payouts.py checks every pay table of its ``RULES``."""
    choices = pay_choices()
    assert {"variant", "tie_pays", "super_6_pays"} <= set(choices)
    for name, values in choices.items():
        tested = {getattr(rules, name) for rules in test_payouts.RULES}
        assert tested >= values, (
            f"tests/baccarat/tables/test_payouts.py's RULES leave out {name} {values - tested}"
        )


def test_every_pay_a_request_may_choose_is_documented():
    choices = pay_choices()
    variants = first_column(section(BETS_MD, "## Variants: how the banker bet is paid"))
    assert variants == set(map(str, choices.pop("variant")))
    choices["pay_tables"] = set(CATALOGUE)
    assert first_column(section(BETS_MD, "## Pays a request may choose")) == set(choices)
    guide = VARIANTS_MD.read_text(encoding="utf-8")
    for name in choices:
        assert name in guide, f"{VARIANTS_MD.name} does not say a request may choose {name}"


def test_every_rules_setting_is_in_the_answer_and_may_be_overridden():
    assert set(RulesSchema().fields) == SETTINGS | {"id"}
    assert set(RoundRulesOverrideSchema().fields) == SETTINGS
    # A multiplier game is played by POST /v1/rounds only, so far (docs/multipliers.md).
    assert set(RulesOverrideSchema().fields) == SETTINGS - {"multipliers"}


# --- adding an endpoint ------------------------------------------------------------------


def view_modules() -> list[str]:
    return [f"{views.__name__}.{info.name}" for info in pkgutil.iter_modules(views.__path__)]


@pytest.mark.parametrize("name", view_modules())
def test_every_view_module_s_blueprint_is_registered(name):
    """A blueprint create_app does not register serves nothing, and nothing
    else fails: its operations are simply not in the app or its document."""
    blueprint = getattr(importlib.import_module(name), "blp", None)
    assert isinstance(blueprint, flask_smorest.Blueprint), f"{name} has no flask-smorest Blueprint `blp`"
    assert create_app({}).blueprints.get(blueprint.name) is blueprint, f"create_app does not register {name}"


def test_the_endpoints_page_lists_every_operation():
    listed = code_spans(ENDPOINTS_MD.read_text(encoding="utf-8"))
    for path, item in spec()["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                assert f"{method.upper()} {path}" in listed, f"{ENDPOINTS_MD.name} has no row for {path}"
                assert operation["operationId"] in listed, f"{ENDPOINTS_MD.name} does not name {path}'s id"


# --- adding a table preset ----------------------------------------------------------------


def test_docs_bets_md_has_a_row_for_every_preset():
    assert first_column(section(BETS_MD, "## Table presets")) == set(TABLES)


def test_the_rules_of_the_contract_describe_every_preset():
    contract = CONTRACT_MD.read_text(encoding="utf-8")
    tables = contract[contract.index("- **Tables**") :].split("\n- **", 1)[0]
    missing = sorted(set(TABLES) - code_spans(tables))
    assert not missing, f"docs/reference/contract-rules.md's 'Tables' rule does not describe {missing}"


def test_the_openapi_document_describes_every_preset():
    """The ``TablePreset`` component (service/contract/schemas/values.py) and
    GET /v1/tables (service/api/views/reference.py) each say what every preset is."""
    document = spec()
    descriptions = {
        "TablePreset": document["components"]["schemas"]["TablePreset"]["description"],
        "getTables": document["paths"]["/v1/tables"]["get"]["description"],
    }
    for where, description in descriptions.items():
        missing = sorted(set(TABLES) - code_spans(description))
        assert not missing, f"{where}'s description does not describe {missing}"


# --- CONTRIBUTING.md itself -----------------------------------------------------------------

#: What a code span naming a file ends with, when it has no folder.
FILE_SUFFIXES = (".py", ".md", ".yaml", ".yml", ".json", ".toml", ".mts", ".ini", ".txt")
#: Where the repository's own files are (not its tools' or its builds').
NOT_OURS = frozenset({".git", ".venv", "node_modules", "artifacts", "build"})


def references() -> list[str]:
    """Every code span of CONTRIBUTING.md that names a file or folder of the
    repository, maybe followed by ``::name`` (a definition in that file):
    no spaces, not a URL path, and a folder in it or a file suffix. Spans
    with a placeholder (``<name>``, ``*``) name no one file."""
    found = []
    for span in sorted(code_spans(CONTRIBUTING.read_text(encoding="utf-8"))):
        path = span.split("::", 1)[0]
        if re.search(r"\s|[<>*{}]", span) or path.startswith(("/", "http", ".")):
            continue
        if "/" in path or path.endswith(FILE_SUFFIXES):
            found.append(span)
    return found


def candidates(path: str) -> list[Path]:
    """The files ``path`` may name: itself, from the root, when it has a
    folder or is there; otherwise (a bare name such as ``tables.py``, in a
    sentence that says which folder) every file of that name."""
    if "/" in path or (ROOT / path).exists():
        return [ROOT / path]
    return [
        found
        for found in ROOT.rglob(path)
        if not NOT_OURS & set(found.relative_to(ROOT).parts) and "egg-info" not in str(found)
    ]


def defines(path: Path, name: str) -> bool:
    """Whether ``name`` (``Class.method`` allowed) is defined at the top of ``path``'s module."""
    body: list[ast.stmt] = ast.parse(path.read_text(encoding="utf-8"), str(path)).body
    *outer, last = name.split(".")
    for part in outer:
        classes = [node for node in body if isinstance(node, ast.ClassDef) and node.name == part]
        if not classes:
            return False
        body = classes[0].body
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == last:
            return True
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        if isinstance(node, ast.Assign | ast.AnnAssign) and any(
            isinstance(target, ast.Name) and target.id == last for target in targets
        ):
            return True
    return False


REFERENCES = references()


def test_contributing_names_files():
    assert len(REFERENCES) >= 40, "the pattern in references() no longer finds the file names"


@pytest.mark.parametrize("reference", REFERENCES)
def test_every_file_contributing_names_exists(reference):
    path, _, name = reference.partition("::")
    found = [where for where in candidates(path) if where.exists()]
    assert found, f"CONTRIBUTING.md names {path}, which does not exist"
    if path.endswith("/"):
        assert found[0].is_dir(), f"CONTRIBUTING.md names {path} as a folder"
    if name:
        assert any(defines(where, name) for where in found), (
            f"CONTRIBUTING.md names {name} in {path}, which does not define it"
        )


def offered_pays(name: str) -> set[Decimal]:
    """What the preset ``name``'s pay tables pay on a win, per unit."""
    rules = TABLES[name].rules
    return {pay for bet in rules.bet_types for line in rules.chosen[bet].lines for pay in line_pays(line)}


def preset_segments(text: str) -> dict[str, str]:
    """``text`` cut at each preset it names in code (`` `tie_9` ...``): what it says of each."""
    names = "|".join(sorted(TABLES, key=len, reverse=True))
    cuts = list(re.finditer(rf"`({names})`", text))
    return {
        cut.group(1): text[cut.end() : cuts[i + 1].start() if i + 1 < len(cuts) else len(text)]
        for i, cut in enumerate(cuts)
    }


def preset_prose() -> dict[str, str]:
    """Every place a preset's pays are written in prose besides its own description."""
    contract = CONTRACT_MD.read_text(encoding="utf-8")
    document = spec()
    return {
        "the Tables rule": contract[contract.index("- **Tables**") :].split("\n- **", 1)[0],
        "the TablePreset component": document["components"]["schemas"]["TablePreset"]["description"],
        "GET /v1/tables": document["paths"]["/v1/tables"]["get"]["description"],
    }


@pytest.mark.parametrize("where", ["the Tables rule", "the TablePreset component", "GET /v1/tables"])
def test_a_preset_s_pays_in_prose_are_what_its_pay_tables_pay(where):
    """Each pay written beside a preset's name is one its chosen pay tables pay."""
    segments = preset_segments(preset_prose()[where])
    assert set(segments) == set(TABLES), where
    for name, text in segments.items():
        rule = TABLES[name].rules.multipliers
        if rule is not None:
            assert all(multiplied(pay, rule) for pay in written_pays(text)), f"{where}, {name}: {text!r}"
            continue
        assert written_pays(text) <= offered_pays(name), f"{where}, {name}: {text!r}"


def id_pays(table_id: str, bet: BetType) -> set[Decimal]:
    """The pays a pay table's id names (``big_0_54_to_1``: 0.54;
    ``lucky_6_12_or_20``: 12 and 20; ``dragon_bonus_player_30_10_6_4_2_1``:
    30, 10, ...); none for a named one (``banker_ez``)."""
    rest = table_id.removeprefix(f"{bet.value}_")
    if rest.endswith("_to_1"):
        return {Decimal(rest.removesuffix("_to_1").replace("_", "."))}
    if "_or_" in rest:
        return {Decimal(part) for part in rest.split("_or_")}
    return {Decimal(part) for part in rest.split("_") if part.isdigit()}


@pytest.mark.parametrize("table", list(CATALOGUE.values()), ids=list(CATALOGUE))
def test_a_pay_table_s_id_names_exactly_its_pays(table):
    """An id that states pays states the pay table's own: the pays are the source."""
    named = id_pays(table.id, table.bet)
    paid = {line.payout.odds.normalize() for line in table.lines if line.payout.result is Result.WIN}
    if named:
        assert {pay.normalize() for pay in named} == paid, table.id
    else:
        assert not re.search(r"\d", table.id.removeprefix(table.bet.value)), table.id
