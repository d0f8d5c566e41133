"""bench/ without circles: no bench module imports one that imports it back,
directly or round about. Read from the source, as tests/test_layers.py reads
the service's (an import inside a function counts too), with its circle
finder.
"""

from __future__ import annotations

import ast

import pytest

from tests.test_layers import ROOT, cycles

BENCH = {path.stem: path for path in sorted((ROOT / "bench").glob("*.py")) if path.stem != "__init__"}


def bench_imports(source: str) -> set[str]:
    """The bench modules (by their names in bench/) that ``source``, a module of bench/, imports."""
    names: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            # A relative import in a module of bench/ is from bench.
            base = ".".join(filter(None, ["bench" if node.level else "", node.module]))
            names.extend([base, *(f"{base}.{alias.name}" for alias in node.names)])
    return {
        parts[1]
        for name in names
        if (parts := name.split("."))[0] == "bench" and len(parts) > 1 and parts[1] in BENCH
    }


def test_no_bench_module_imports_itself_round_about() -> None:
    graph = {module: bench_imports(path.read_text()) - {module} for module, path in BENCH.items()}
    assert cycles(graph) == []


@pytest.mark.parametrize(
    ("source", "imported"),
    [
        ("from . import floor", {"floor"}),
        ("from .rounds import ROUND, side", {"rounds"}),
        ("def f():\n    from .tracing import traced_provider", {"tracing"}),
        ("import bench.loadgen", {"loadgen"}),
        ("from bench import paths", {"paths"}),
        ("from bench.shoes import x", {"shoes"}),
        ("from tests.servers import ROOT\nimport json", set()),
    ],
)
def test_the_import_reader_finds(source: str, imported: set[str]) -> None:
    assert bench_imports(source) == imported
