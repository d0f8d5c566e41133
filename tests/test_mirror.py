"""The tests mirror the package: each module of ``service/`` has a test
module of its name in the same place under ``tests/`` (``test_<name>.py``,
or ``test_<name>_<aspect>.py`` when one is not enough), or is named below
with the test modules that test it and why they are elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Modules tested elsewhere: where, and why not in a module of their own.
TESTED_ELSEWHERE = {
    "cli/__main__.py": "tests/test_cli.py: `python -m service.cli` is run there; "
    "the module only calls main()",
    **{
        f"cli/{name}.py": "tests/test_cli.py: every command is run end to end, as a user types it, "
        "in one process per command, so the commands share one module"
        for name in (
            "documents",
            "odds",
            "paytables",
            "round",
            "settle",
            "simulate",
            "tables",
            "verify",
            "verify_answer",
            "verify_build",
        )
    },
    "cli/certify.py": "tests/certification/test_certify.py: the command is run end to end there, "
    "with the kit it drives",
    "contract/document.py": "tests/test_openapi.py: the document's shared parts are checked in the "
    "generated document, where they appear",
    "contract/jsonio.py": "its doctests, and tests/hostile/test_bodies.py and tests/api/test_errors.py, "
    "which send the JSON it must refuse",
    **{
        f"contract/schemas/{name}.py": "tests/api/views/: each request schema is held to the answers of "
        "its endpoint (and tests/test_schemathesis.py sends it generated bodies); "
        "its components are checked in tests/test_openapi.py"
        for name in (
            "audit",
            "odds",
            "paytables",
            "problems",
            "reference",
            "roads",
            "round_answers",
            "round_inputs",
            "rules",
            "seeds",
            "shoes",
        )
    },
    "contract/schemas/base.py": "tests/contract/test_answers.py and tests/contract/schemas/test_rounds.py: "
    "PlainFirst and PlainDump are held to marshmallow through the schemas that use them",
    "baccarat/bets/types.py": "tests/baccarat/bets/test_catalogue.py: the bet types are checked where each "
    "is "
    "given its pay tables",
    "baccarat/bets/main_bets.py": "tests/baccarat/bets/test_catalogue.py: the main bets' pay tables are the "
    "catalogue's, checked line by line in its rulebook",
    "server/config.py": "its doctests, and tests/hostile/test_config.py: the settings are read where the "
    "server starts, and a bad one must stop the start",
    "server/logs.py": "tests/server/test_middleware.py: the log lines are checked with the request id "
    "the middleware gives them",
}


def modules() -> list[str]:
    return sorted(
        str(path.relative_to(ROOT / "service"))
        for path in (ROOT / "service").rglob("*.py")
        if path.name != "__init__.py"
    )


@pytest.mark.parametrize("module", modules())
def test_each_module_has_its_test_module(module: str) -> None:
    relative = Path(module)
    folder = ROOT / "tests" / relative.parent
    found = [*folder.glob(f"test_{relative.stem}.py"), *folder.glob(f"test_{relative.stem}_*.py")]
    if module in TESTED_ELSEWHERE:
        assert not found, f"{module} has {found[0].name} now: take it out of TESTED_ELSEWHERE"
        where = TESTED_ELSEWHERE[module].split(":")[0].split(",")[0].split(" and ")[0]
        if where.startswith("tests/"):
            assert (ROOT / where).exists(), f"{module}: {where} does not exist"
        return
    assert found, f"service/{module} has no tests/{relative.parent}/test_{relative.stem}.py"


def test_every_exception_is_a_module() -> None:
    assert set(TESTED_ELSEWHERE) <= set(modules())


def test_every_test_folder_mirrors_a_package() -> None:
    packages = {path.parent.relative_to(ROOT / "service") for path in (ROOT / "service").rglob("__init__.py")}
    helpers = {Path("hostile")}  # attacks on the running server, which no one module owns
    for init in (ROOT / "tests").rglob("__init__.py"):
        folder = init.parent.relative_to(ROOT / "tests")
        if folder != Path("."):
            assert folder in packages | helpers, f"tests/{folder} mirrors no package of service/"
