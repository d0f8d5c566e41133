"""The package's build steps of its own: compiling the translation catalogues,
and recording the digest of the engine's critical files the build claims.

The translations are kept as gettext sources, one ``.po`` per language and
domain (``service/locales/<locale>/LC_MESSAGES/<domain>.po``); the service reads
the compiled ``.mo`` files (service/contract/language.py), which are build
products and not tracked. Every build of the package compiles every ``.po`` it
finds, with Babel (a build requirement in pyproject.toml), so that a wheel,
``pip install .`` from a fresh clone and the container image carry them all,
a domain or language added later included, without a list to keep up to date.

An editable install (``make install``) compiles them in place, beside their
sources, where the package reads them from; ``make catalogues`` recompiles the
ones whose ``.po`` changed since.

A built package (a wheel, ``pip install .``, the image) also records the
digest of the engine's files it holds, exactly as built
(``service/provenance/build.json``, computed by service/provenance/manifest.py,
loaded here from its file since the package is not installed yet): the
service refuses to start when the files it finds differ from that claim, and
``baccarat verify-build`` checks it (docs/build-digest.md). An editable install
records none: its files are the source tree, which changes as it is edited.
Everything else about the build is in pyproject.toml.
"""

import importlib.util
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

SOURCES = "service/locales/*/LC_MESSAGES/*.po"


def compile_catalogues(target: Path) -> list[str]:
    """Compile every catalogue of the source tree into ``target`` (the same
    relative paths, ``.mo`` for ``.po``); the files written."""
    written = []
    for source in sorted(Path().glob(SOURCES)):
        with source.open("rb") as file:
            catalogue = read_po(file, locale=source.parts[-3], domain=source.stem)
        compiled = target / source.with_suffix(".mo")
        compiled.parent.mkdir(parents=True, exist_ok=True)
        with compiled.open("wb") as file:
            write_mo(file, catalogue)
        written.append(str(compiled))
    return written


def provenance():
    """service/provenance/manifest.py, loaded from its file (it needs only the standard library)."""
    name = "baccarat_build_manifest"
    spec = importlib.util.spec_from_file_location(name, Path("service/provenance/manifest.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


def record_claim(target: Path, version: str) -> str:
    """Write the digest of the engine's files built into ``target`` as the build's
    claim (``service/provenance/build.json``); the file written."""
    manifest = provenance()
    digest = manifest.manifest(target / "service").digest
    claim = target / "service" / "provenance" / manifest.CLAIM
    claim.write_text(manifest.claim_text("baccarat-service", version, digest), encoding="utf-8")
    return str(claim)


class BuildWithCatalogues(build_py):
    """setuptools' build_py, then the catalogues compiled into what it builds,
    and in a built package (not an editable one) the digest it claims."""

    def run(self) -> None:
        super().run()
        target = Path() if self.editable_mode else Path(self.build_lib)
        self.compiled = compile_catalogues(target)
        self.announce(f"compiled {len(self.compiled)} translation catalogues into {target}", level=2)
        if not self.editable_mode:
            self.compiled.append(record_claim(target, self.distribution.get_version()))
            self.announce(f"recorded the engine's digest in {self.compiled[-1]}", level=2)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), *getattr(self, "compiled", [])]


setup(cmdclass={"build_py": BuildWithCatalogues})
