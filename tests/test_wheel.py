"""The package as a fresh clone builds it: from the committed tree alone, with
no file of the working tree (no catalogue compiled by ``make install``),
built into a wheel, installed into a new virtual environment outside the
tree, and served by gunicorn with the project's gunicorn.conf.py, as the
container image serves it. It must answer in every language it speaks, name
the digest of its engine's files that the build recorded, and refuse to
start once one of those files is changed (docs/build-digest.md).

The tree is ``git archive HEAD``: what a clone gets, so uncommitted changes
are not seen here (commit, then run this test). The wheel is built by pip
with build isolation, so the build requirements pyproject.toml declares are
the only ones there (Babel among them, for setup.py's catalogues).

Installing the package's dependencies again would take over a minute for
the same releases this environment already holds, so the new environment
sees this one's libraries through a ``.pth`` file (which does not run this
environment's own ``.pth`` files: the editable install of the working tree
stays out) and the wheel is installed without dependencies. The service's
own files all come from the wheel: the test checks where ``service`` is
imported from.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import sysconfig
import tarfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

from service.contract.language import ENGLISH, TAGS
from service.provenance.manifest import CLAIM, manifest
from service.server.startup import PREFIX
from tests.servers import ROOT, free_port, serving

pytestmark = pytest.mark.server

CARDS = ["9S", "KH", "2D", "7C", "5H"]


def run(*command: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    result = subprocess.run(
        [str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, f"{command} failed:\n{result.stdout}\n{result.stderr}"
    return result.stdout


def export(destination: Path) -> Path:
    """The committed tree, as ``git archive HEAD`` gives it, unpacked into ``destination``."""
    archive = subprocess.run(["git", "archive", "--format=tar", "HEAD"], cwd=ROOT, capture_output=True)
    assert archive.returncode == 0, archive.stderr.decode()
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(destination, filter="data")
    return destination


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The committed tree."""
    source = export(tmp_path_factory.mktemp("clone"))
    assert not list(source.rglob("*.mo")), "the clone has no compiled catalogue: the build makes them"
    return source


@pytest.fixture(scope="module")
def wheel(clone: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel built from the committed tree."""
    dist = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", dist, clone)
    (built,) = dist.glob("*.whl")
    return built


@pytest.fixture(scope="module")
def environment(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment with the wheel installed; its Python."""
    venv = tmp_path_factory.mktemp("venv")
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip())
    libraries = {sysconfig.get_paths()[kind] for kind in ("purelib", "platlib")}
    (site / "libraries-of-the-tests.pth").write_text("".join(f"{path}\n" for path in sorted(libraries)))
    run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", wheel)
    return python


def test_the_wheel_carries_every_catalogue_of_the_tree(clone, wheel):
    sources = {path.relative_to(clone) for path in (clone / "service" / "locales").glob("*/*/*.po")}
    assert sources, "no catalogue found"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    assert {str(path.with_suffix(".mo")) for path in sources} <= names
    assert not {name for name in names if name.endswith((".po", ".pot"))}, "sources stay out of the wheel"


def test_the_service_is_imported_from_the_wheel_not_the_tree(environment, tmp_path):
    where = run(environment, "-c", "import service; print(service.__file__)", cwd=tmp_path)
    assert Path(where.strip()).is_relative_to(environment.parents[1])


def installed_service(python: Path) -> Path:
    """The folder of the ``service`` package installed in the environment of ``python``."""
    where = run(python, "-c", "import service; print(service.__file__)", cwd=python.parent)
    return Path(where.strip()).parent


def recorded(python: Path) -> dict:
    """The claim the build recorded in the installed package."""
    return json.loads((installed_service(python) / "provenance" / CLAIM).read_text(encoding="utf-8"))


def test_the_wheel_records_the_digest_of_the_engine_files_it_carries(wheel, environment, tmp_path):
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path)
        claim = json.loads(archive.read(f"service/provenance/{CLAIM}"))
    assert claim["digest"] == manifest(tmp_path / "service").digest
    assert claim == recorded(environment)
    version = run(environment, "-c", "import service; print(service.__version__)", cwd=tmp_path)
    assert claim["version"] == version.strip()


def test_the_installed_baccarat_verify_build_agrees_with_the_recorded_digest(environment, tmp_path):
    baccarat = environment.parent / "baccarat"
    report = json.loads(run(baccarat, "verify-build", cwd=tmp_path))
    assert report["verified"] is True
    assert report["engine"]["digest"] == report["recorded"] == recorded(environment)["digest"]
    run(baccarat, "verify-build", "--digest", recorded(environment)["digest"], cwd=tmp_path)
    other = subprocess.run(
        [baccarat, "verify-build", "--digest", "0" * 64], cwd=tmp_path, capture_output=True, text=True
    )
    assert other.returncode == 1
    assert len(other.stderr.splitlines()) == 1


def ask(url: str, tag: str, body: object | None = None) -> tuple[int, str | None, dict]:
    """The status, Content-Language and JSON document of one request in ``tag``."""
    headers = {"Accept-Language": tag, "Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=data, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers["Content-Language"], json.load(response)
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers["Content-Language"], json.load(error)


def as_the_image_starts(clone: Path, environment: Path, tmp_path: Path) -> tuple[list[str], Path, dict, int]:
    """gunicorn.conf.py alone in the working directory, the package from the
    environment: the command, its folder, its environment and its port."""
    app = tmp_path / "app"
    app.mkdir()
    (app / "gunicorn.conf.py").write_bytes((clone / "gunicorn.conf.py").read_bytes())
    port = free_port()
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in {"PYTHONPATH", "BACCARAT_API_KEYS", "PROMETHEUS_MULTIPROC_DIR"}
    }
    env.update(HOST="127.0.0.1", PORT=str(port), METRICS_PORT=str(free_port()), WEB_CONCURRENCY="1")
    command = [str(environment), "-m", "gunicorn", "-c", "gunicorn.conf.py", "service.app:create_app()"]
    return command, app, env, port


def test_the_installed_service_refuses_to_start_once_an_engine_file_changed(clone, environment, tmp_path):
    """One byte of the installed settlement changed: the build's claim no
    longer holds, and the master stops before it serves, in one line."""
    settlement = installed_service(environment) / "baccarat" / "tables" / "settlement.py"
    built = settlement.read_bytes()
    command, app, env, _ = as_the_image_starts(clone, environment, tmp_path)
    try:
        settlement.write_bytes(built.replace(b"\n\n", b"\n\n\n", 1))
        result = subprocess.run(command, cwd=app, env=env, capture_output=True, text=True, timeout=120)
    finally:
        settlement.write_bytes(built)
    assert result.returncode != 0, result.stdout[-2000:]
    [line] = result.stderr.splitlines()
    assert line.startswith(PREFIX)
    assert recorded(environment)["digest"] in line


def test_the_installed_service_answers_in_every_language(clone, environment, tmp_path):
    """Started as the image starts it, it names the digest its build recorded."""
    command, app, env, port = as_the_image_starts(clone, environment, tmp_path)
    log = tmp_path / "gunicorn.log"
    url = f"http://127.0.0.1:{port}"
    answers = {}
    with open(log, "wb") as output:
        process = subprocess.Popen(command, cwd=app, env=env, stdout=output, stderr=subprocess.STDOUT)
        try:
            with serving(process, url, timeout=60, name="the installed service", stop_timeout=30):
                for tag in TAGS:
                    answers[tag] = (
                        ask(f"{url}/v1/rounds", tag, {"cards": CARDS}),
                        ask(f"{url}/v1/tables/standard/rules-sheet", tag),
                        ask(f"{url}/v1/rounds", tag, {"bets": [{"type": "banker", "amount": "1e3"}]}),
                    )
        except RuntimeError:
            pytest.fail(f"the installed service did not start:\n{log.read_text()[-4000:]}")
    assert process.returncode == 0, log.read_text()[-4000:]

    round_en, sheet_en, problem_en = (document for _, _, document in answers[ENGLISH])
    assert round_en["engine"]["digest"] == recorded(environment)["digest"]
    for tag, (round_, sheet, problem) in answers.items():
        assert [round_[:2], sheet[:2], problem[:2]] == [(200, tag), (200, tag), (422, tag)], tag
        if tag == ENGLISH:
            continue
        # In the language asked for, not English: the catalogues were found.
        assert round_[2]["outcome_reason"]["reason"] != round_en["outcome_reason"]["reason"], tag
        assert sheet[2]["title"] != sheet_en["title"], tag
        assert problem[2]["title"] != problem_en["title"], tag
