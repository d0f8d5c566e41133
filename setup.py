"""The package's one build step of its own: compiling the translation catalogues.

The translations are kept as gettext sources, one ``.po`` per language and
domain (``service/locales/<locale>/LC_MESSAGES/<domain>.po``); the service reads
the compiled ``.mo`` files (service/contract/language.py), which are build
products and not tracked. Every build of the package compiles every ``.po`` it
finds, with Babel (a build requirement in pyproject.toml), so that a wheel,
``pip install .`` from a fresh clone and the container image carry them all,
a domain or language added later included, without a list to keep up to date.

An editable install (``make install``) compiles them in place, beside their
sources, where the package reads them from; ``make catalogues`` recompiles the
ones whose ``.po`` changed since. Everything else about the build is in
pyproject.toml.
"""

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


class BuildWithCatalogues(build_py):
    """setuptools' build_py, then the catalogues compiled into what it builds."""

    def run(self) -> None:
        super().run()
        target = Path() if self.editable_mode else Path(self.build_lib)
        self.compiled = compile_catalogues(target)
        self.announce(f"compiled {len(self.compiled)} translation catalogues into {target}", level=2)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        return [*super().get_outputs(include_bytecode), *getattr(self, "compiled", [])]


setup(cmdclass={"build_py": BuildWithCatalogues})
