"""The package as a fresh clone builds it: from the committed tree alone, with
no file of the working tree (no catalogue compiled by ``make install``),
built into a wheel, installed into a new virtual environment outside the
tree, and served by gunicorn with the project's gunicorn.conf.py, as the
container image serves it. It must answer in every language it speaks.

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


def test_the_installed_service_answers_in_every_language(clone, environment, tmp_path):
    """Started as the image starts it: gunicorn.conf.py alone in the working
    directory, the package from the environment."""
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
    for tag, (round_, sheet, problem) in answers.items():
        assert [round_[:2], sheet[:2], problem[:2]] == [(200, tag), (200, tag), (422, tag)], tag
        if tag == ENGLISH:
            continue
        # In the language asked for, not English: the catalogues were found.
        assert round_[2]["outcome_reason"]["reason"] != round_en["outcome_reason"]["reason"], tag
        assert sheet[2]["title"] != sheet_en["title"], tag
        assert problem[2]["title"] != problem_en["title"], tag
