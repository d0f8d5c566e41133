"""The service's layers, lowest first, and what each may import; the rooms
of the rules engine, and no circle anywhere.

A module imports from its own layer and from the layers below it, never
from one above or beside it: the rules engine knows nothing of the web, the
contract (schemas and answers) nothing of Flask, the command line nothing
of the server, and nothing but the app factory puts the pieces together.
Read from the source (every ``import`` in every module, wherever it
stands), so an import added inside a function counts too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Layer:
    name: str
    rank: int
    #: Module name prefixes, the longest match wins.
    modules: tuple[str, ...]
    #: Third-party packages this layer may import (besides those of the layers below).
    packages: frozenset[str] = frozenset()


LAYERS = (
    Layer("the rules engine", 0, ("service.baccarat",), frozenset({"numpy"})),
    Layer("the build's provenance", 0, ("service.provenance",)),
    Layer(
        "the contract",
        1,
        ("service.contract",),
        frozenset({"orjson", "marshmallow", "apispec", "cryptography", "http_message_signatures", "babel"}),
    ),
    Layer(
        "the certification kit",
        1,
        ("service.certification",),
        frozenset({"scipy", "matplotlib", "dask", "distributed"}),
    ),
    Layer("the command line", 2, ("service.cli",), frozenset({"tqdm"})),
    Layer(
        "the server",
        2,
        ("service.server",),
        frozenset({"prometheus_client", "gunicorn", "gevent", "pythonjsonlogger", "opentelemetry"}),
    ),
    Layer(
        "the HTTP app",
        3,
        ("service.api",),
        frozenset({"flask", "flask_smorest", "webargs", "werkzeug", "swagger_ui_bundle"}),
    ),
    Layer("the app factory", 4, ("service.app", "service.openapi")),
)
#: Packages whose ``__init__`` holds at most the version or a docstring: every layer may import them.
EMPTY_PACKAGES = frozenset({"service", "service.baccarat"})

#: The rooms of the rules engine, lowest first: a module of the engine imports
#: from its own room and from the rooms below it, never from one above. The
#: rulebook knows no bet, the bets no shoe, and the plain game's rooms no game
#: but the multiplier game the tables' rules name. Each game is a room of its
#: own, a package of ``service.baccarat`` beside the plain game's rooms, and
#: sits where what it is built on puts it: the folders are the rooms, and
#: this order is their floors.
ROOMS = (
    "service.baccarat.rulebook",
    "service.baccarat.bets",
    "service.baccarat.shoes",
    "service.baccarat.counting",
    "service.baccarat.multipliers",
    "service.baccarat.tables",
    "service.baccarat.play",
    "service.baccarat.odds",
    "service.baccarat.peek",
    "service.baccarat.sheets",
    "service.baccarat.requests",
)


def layer_of(module: str) -> Layer:
    matches = [
        (len(prefix), layer)
        for layer in LAYERS
        for prefix in layer.modules
        if module == prefix or module.startswith(prefix + ".")
    ]
    assert matches, f"{module} belongs to no layer: add it to LAYERS"
    return max(matches, key=lambda match: match[0])[1]


def may_import(importer: Layer, imported: Layer) -> bool:
    return imported is importer or imported.rank < importer.rank


def allowed_packages(layer: Layer) -> frozenset[str]:
    below = [other.packages for other in LAYERS if may_import(layer, other)]
    return frozenset().union(*below)


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted((ROOT / "service").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = modules()


def imports(module: str, path: Path) -> set[str]:
    """Every module ``module`` imports: service modules by their full name,
    others by their top-level package."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:  # ``from . import metrics`` imports the module service.server.metrics
                submodule = f"{base}.{alias.name}"
                found.add(submodule if submodule in MODULES else base)
    return {name if name.startswith("service") else name.partition(".")[0] for name in found}


def room_of(module: str) -> int:
    """The rank of the engine's room ``module`` stands in."""
    ranks = [rank for rank, room in enumerate(ROOMS) if module == room or module.startswith(room + ".")]
    assert ranks, f"{module} stands in no room of the engine: add its room to ROOMS"
    return ranks[0]


def room_violations(module: str, path: Path) -> list[str]:
    """The engine's modules that ``module`` (an engine module) imports from a room above its own."""
    rank = room_of(module)
    return sorted(
        imported
        for imported in imports(module, path)
        if imported.startswith("service.baccarat")
        and imported not in EMPTY_PACKAGES
        and room_of(imported) > rank
    )


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle of ``graph`` (its strongly connected parts of two
    modules or more, and a module that imports itself), by Tarjan's method."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            part = [stack.pop()]
            while part[-1] != node:
                part.append(stack.pop())
            if len(part) > 1 or node in graph[node]:
                found.append(sorted(part))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def third_party(package: str) -> bool:
    return package not in sys.stdlib_module_names and package != "__future__"


def violations(module: str, path: Path) -> list[str]:
    """What ``module`` (its source at ``path``) imports from above or beside its layer."""
    layer = layer_of(module)
    wrong = []
    for imported in sorted(imports(module, path)):
        if imported.startswith("service"):
            if imported in EMPTY_PACKAGES:
                continue
            target = layer_of(imported)
            if not may_import(layer, target):
                wrong.append(f"{imported} ({target.name})")
        elif third_party(imported) and imported not in allowed_packages(layer):
            wrong.append(f"the package {imported}")
    return wrong


@pytest.mark.parametrize("module", sorted(set(MODULES) - EMPTY_PACKAGES))
def test_a_module_imports_only_its_own_layer_and_those_below(module: str) -> None:
    wrong = violations(module, MODULES[module])
    assert not wrong, f"{module} ({layer_of(module).name}) imports {', '.join(wrong)}"


ENGINE = sorted(
    module for module in MODULES if module.startswith("service.baccarat.") and module not in EMPTY_PACKAGES
)


@pytest.mark.parametrize("module", ENGINE)
def test_an_engine_module_imports_only_its_own_room_and_those_below(module: str) -> None:
    wrong = room_violations(module, MODULES[module])
    assert not wrong, (
        f"{module} (room {ROOMS[room_of(module)]}) imports {', '.join(wrong)}, from a room above"
    )


def test_each_room_is_a_package_with_a_docstring_saying_what_it_holds() -> None:
    """A reader opening ``service/baccarat/`` sees the rooms: each a folder
    (but the requests on top) whose ``__init__`` says what it holds."""
    for room in ROOMS:
        path = ROOT / Path(*room.split("."))
        if room == "service.baccarat.requests":
            assert path.with_suffix(".py").is_file()
            continue
        docstring = ast.get_docstring(ast.parse((path / "__init__.py").read_text()))
        assert docstring, f"{room}/__init__.py has no docstring"
        assert len(docstring.split()) > 20, f"{room}/__init__.py says nothing of what it holds"
    loose = sorted(
        path.name for path in (ROOT / "service" / "baccarat").glob("*.py") if path.name != "__init__.py"
    )
    assert loose == ["requests.py"]


def test_no_module_imports_itself_round_about() -> None:
    """No circle anywhere in the service: two modules importing each other, or more in a ring."""
    graph = {
        module: {imported for imported in imports(module, path) if imported in MODULES and imported != module}
        for module, path in MODULES.items()
    }
    assert cycles(graph) == []


@pytest.mark.parametrize(
    ("graph", "circles"),
    [
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
        ({"a": {"b"}, "b": set()}, []),
    ],
)
def test_the_circle_check_catches(graph: dict[str, set[str]], circles: list[list[str]]) -> None:
    assert cycles(graph) == circles


@pytest.mark.parametrize(
    ("module", "source", "verdict"),
    [
        (
            "service.baccarat.rulebook.coup",
            "from ..bets.types import BetType",
            ["service.baccarat.bets.types"],
        ),
        ("service.baccarat.bets.catalogue", "from ..shoes import deal", ["service.baccarat.shoes.deal"]),
        (
            "service.baccarat.tables.rules",
            "from ..play.round import PlayedRound",
            ["service.baccarat.play.round"],
        ),
        (
            "service.baccarat.multipliers.odds",
            "from ..odds.exact import analyse",
            ["service.baccarat.odds.exact"],
        ),
        (
            "service.baccarat.play.round",
            "from ..peek.round import peek",
            ["service.baccarat.peek.round"],
        ),
        ("service.baccarat.odds.exact", "from ..requests import Round", ["service.baccarat.requests"]),
        ("service.baccarat.peek.round", "from ..play.round import unwatched", []),
        ("service.baccarat.tables.rules", "from ..multipliers.rule import MultiplierRule", []),
    ],
)
def test_the_room_check_catches(module: str, source: str, verdict: list[str], tmp_path: Path) -> None:
    path = tmp_path / "module.py"
    path.write_text(source)
    assert room_violations(module, path) == verdict


def test_each_layer_is_one_folder_and_each_folder_one_layer() -> None:
    """The folders are the layers: below the app factory (the package's own
    modules, which put the pieces together), each layer is exactly one
    subpackage of ``service``, and each subpackage is a layer."""
    folders = {path.name for path in (ROOT / "service").iterdir() if (path / "__init__.py").is_file()}
    for layer in LAYERS[:-1]:
        assert len(layer.modules) == 1, layer.name
        assert layer.modules[0].count(".") == 1, layer.name
    assert {layer.modules[0].partition(".")[2] for layer in LAYERS[:-1]} == folders
    top_level = {name for name in MODULES if name.count(".") == 1 and name.partition(".")[2] not in folders}
    assert top_level == set(LAYERS[-1].modules)


def test_every_layer_holds_a_module() -> None:
    used = {layer_of(module).name for module in MODULES if module not in EMPTY_PACKAGES}
    assert used == {layer.name for layer in LAYERS}


def test_the_command_line_loads_no_web_framework() -> None:
    """What the import graph above says, checked where it counts: in a
    process that loads every command, nothing of the server comes along."""
    script = (
        "import pkgutil, importlib, sys, service.cli\n"
        "for info in pkgutil.iter_modules(service.cli.__path__):\n"
        "    if info.name != '__main__':\n"
        "        importlib.import_module('service.cli.' + info.name)\n"
        "print(' '.join(sorted(name for name in sys.modules if '.' not in name)))\n"
    )
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout.split()
    )
    server = {"flask", "flask_smorest", "webargs", "werkzeug", "prometheus_client", "gunicorn", "gevent"}
    assert not loaded & server


@pytest.mark.parametrize(
    ("module", "source", "verdict"),
    [
        ("service.baccarat.rulebook.coup", "from ...server import metrics", "service.server.metrics"),
        ("service.baccarat.rulebook.coup", "import flask", "the package flask"),
        ("service.contract.schemas.rounds", "from ...api.views import rounds", "service.api.views.rounds"),
        ("service.contract.schemas.rounds", "from flask import request", "the package flask"),
        ("service.cli.round", "from ..server.middleware import wrap", "service.server.middleware"),
        ("service.server.metrics", "from ..api import access", "service.api.access"),
        ("service.api.views.rounds", "from ...app import create_app", "service.app"),
    ],
)
def test_the_check_catches(module: str, source: str, verdict: str, tmp_path: Path) -> None:
    path = tmp_path / "module.py"
    path.write_text(source)
    assert [wrong.partition(" (")[0] for wrong in violations(module, path)] == [verdict]
