"""The libraries are used through their public, documented APIs only.

A private name (``_x``) or a replaced module global is not part of a
library's contract: it changes in any release without a deprecation, and the
service breaks on a routine upgrade, or worse, keeps running and answers
wrongly. This test reads (with :mod:`ast`) every Python file of the service
and gunicorn.conf.py and fails, naming file and line, when the code

* reads or writes a private attribute of an object the project did not
  define: ``histogram._sum``, ``request._get_current_object()``,
  ``getattr(view, "_apidoc")``; or imports a private name or module of a
  library (``from marshmallow.utils import _x``);
* assigns to (or deletes) an attribute of a library module or class it
  imported, replacing a library global: ``values.ValueClass = ...``;
* defines a private method in a subclass of a library class, overriding the
  library's internals (``_register_error_handlers`` in an ``Api``) or
  claiming a name in the library's private namespace, which a later release
  may start using.

Some underscore names are the documented way to extend a library; those are
listed in :data:`DOCUMENTED_HOOKS` with the page that says so. Anything else
needs an architecture decision record: add ``"path:name"`` to
:data:`ALLOWED` with the docs/adr/ file that justifies it.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parents[1]
PROJECT = "service"
#: The libraries whose private names are off limits (their submodules too).
LIBRARIES = frozenset(
    {
        "flask",
        "flask_smorest",
        "webargs",
        "marshmallow",
        "apispec",
        "prometheus_client",
        "werkzeug",
        "gunicorn",
    }
)

#: ``"path:name"`` (path relative to the repository, name the private or
#: replaced attribute) -> the docs/adr/ file that explains why the exception
#: is needed and how an upgrade is kept safe. Empty: no exception is agreed.
ALLOWED: dict[str, str] = {}

#: Underscore methods a library's own documentation tells subclasses to
#: implement: (module, class, names, where it says so). Overriding them in a
#: subclass, and calling the parent's through ``self`` or ``super()``, is the
#: public API; calling them on another object is not.
DOCUMENTED_HOOKS = (
    (
        "marshmallow.fields",
        "Field",
        frozenset({"_serialize", "_deserialize"}),
        "https://marshmallow.readthedocs.io/en/stable/custom_fields.html",
    ),
)


def is_private(name: str) -> bool:
    """``_x`` and ``__x`` are private; dunders (``__name__``) are the language's."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


@dataclass(frozen=True)
class Violation:
    path: str
    line: int
    name: str  # the private or replaced attribute: the key in ALLOWED
    why: str

    @property
    def key(self) -> str:
        return f"{self.path}:{self.name}"

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.why}"


@dataclass(frozen=True)
class Origin:
    """Where an imported name comes from: ``module``, or ``name`` in ``module``."""

    module: str
    name: str | None = None

    @property
    def project(self) -> bool:
        return self.module.split(".")[0] == PROJECT

    @property
    def library(self) -> bool:
        return self.module.split(".")[0] in LIBRARIES

    def resolve(self) -> Any:
        """The imported object itself (None if it cannot be imported)."""
        try:
            module = importlib.import_module(self.module)
            if self.name is None:
                return module
            try:
                return getattr(module, self.name)
            except AttributeError:  # a submodule not yet imported by its package
                return importlib.import_module(f"{self.module}.{self.name}")
        except ImportError:
            return None


def root_name(node: ast.expr) -> str | None:
    """The name an expression hangs from: ``a`` for ``a.b[0].c()``."""
    while isinstance(node, ast.Attribute | ast.Subscript | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def attribute_path(node: ast.expr) -> tuple[str, list[str]] | None:
    """``flask_smorest.Api`` -> ("flask_smorest", ["Api"]); ``fields.Field[T]`` -> ("fields", ["Field"])."""
    if isinstance(node, ast.Subscript):  # a generic base: Field[int]
        node = node.value
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.insert(0, node.attr)
        node = node.value
    return (node.id, parts) if isinstance(node, ast.Name) else None


def imports(tree: ast.Module, package: str) -> tuple[dict[str, Origin], list[tuple[ast.stmt, str, str]]]:
    """Every name the file imports (anywhere in it), and its private imports
    from a library: (node, name, why)."""
    found: dict[str, Origin] = {}
    private: list[tuple[ast.stmt, str, str]] = []

    def bind(name: str, origin: Origin) -> None:
        # A name imported twice from different places counts as the foreign
        # one: the checker errs towards flagging.
        if name not in found or found[name].project:
            found[name] = origin

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bind(alias.asname, Origin(alias.name))
                else:
                    bind(alias.name.split(".")[0], Origin(alias.name.split(".")[0]))
                if Origin(alias.name).library and any(map(is_private, alias.name.split("."))):
                    private.append((node, alias.name, f"imports the private module {alias.name}"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: the project's own
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                module = f"{base}.{node.module}" if node.module else base
            else:
                module = node.module or ""
            for alias in node.names:
                bind(alias.asname or alias.name, Origin(module, alias.name))
                if not Origin(module).library:
                    continue
                if any(map(is_private, module.split("."))):
                    private.append(
                        (node, alias.name, f"imports {alias.name} from the private module {module}")
                    )
                elif is_private(alias.name):
                    private.append((node, alias.name, f"imports the private {alias.name} from {module}"))
    return found, private


def bound_names(targets: list[ast.expr]) -> Iterator[str]:
    for target in targets:
        for node in ast.walk(target):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                yield node.id


def project_names(tree: ast.Module, imported: dict[str, Origin]) -> set[str]:
    """Module-level names the project defines: its classes, functions and
    assignments (unless built from something imported from elsewhere, like
    ``log = logging.getLogger()``), and what it imports from itself."""
    names = {name for name, origin in imported.items() if origin.project}

    def foreign(value: ast.expr | None) -> bool:
        root = None if value is None else root_name(value)
        return root is not None and root in imported and not imported[root].project

    def scan(body: list[ast.stmt]) -> None:
        for statement in body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(statement.name)
            elif isinstance(statement, ast.Assign) and not foreign(statement.value):
                names.update(bound_names(statement.targets))
            elif isinstance(statement, ast.AnnAssign) and not foreign(statement.value):
                names.update(bound_names([statement.target]))
            elif isinstance(statement, ast.If | ast.Try | ast.With):
                for block in ("body", "orelse", "finalbody"):
                    scan(getattr(statement, block, []))
                for handler in getattr(statement, "handlers", []):
                    scan(handler.body)

    scan(tree.body)
    return names


def local_names(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    """Names bound inside a function (its parameters, assignments, nested
    definitions and imports), which hide module-level names of the same name."""
    arguments = function.args
    parameters = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    names = {argument.arg for argument in [*parameters, arguments.vararg, arguments.kwarg] if argument}
    pending: list[ast.AST] = [function.body] if isinstance(function, ast.Lambda) else [*function.body]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
            continue  # its own scope
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        pending.extend(ast.iter_child_nodes(node))
    return names


def library_bases(node: ast.ClassDef, imported: dict[str, Origin]) -> list[ast.expr]:
    """The bases of a class that are (attributes of) names imported from a library."""
    found = []
    for base in node.bases:
        path = attribute_path(base)
        if path is not None and path[0] in imported and imported[path[0]].library:
            found.append(base)
    return found


@functools.cache
def library_names() -> frozenset[str]:
    """Every private name the libraries' own sources define or use."""
    names: set[str] = set()
    for library in sorted(LIBRARIES):
        package = importlib.import_module(library)
        for path in Path(inspect.getfile(package)).parent.rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute):
                    names.add(node.attr)
                elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(node.name)
    return frozenset(filter(is_private, names))


def own_private_names(tree: ast.Module) -> set[str]:
    """Private names the project's classes define: their methods, class
    attributes and ``self._x``. Such a name read through any object
    (``other._digests``) is the project's business, unless a library uses the
    same name: then ``histogram._lock`` may be the library's, not the
    project's. A documented hook is the library's name, whoever defines it.
    (A private method in a library subclass is flagged where it is defined.)"""
    hooks = {name for _, _, names, _ in DOCUMENTED_HOOKS for name in names}
    names: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        for statement in node.body:
            if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                names.add(statement.name)
            elif isinstance(statement, ast.Assign | ast.AnnAssign):
                targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                names.update(bound_names(targets))
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Attribute)
                and isinstance(inner.ctx, ast.Store)
                and isinstance(inner.value, ast.Name)
                and inner.value.id in {"self", "cls"}
            ):
                names.add(inner.attr)
    return {name for name in names if is_private(name)} - hooks - library_names()


@functools.cache
def library_private_names(cls: type) -> frozenset[str]:
    """The private names a library class and its library ancestors define,
    as class attributes or as ``self._x`` in their methods."""
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass.__module__.split(".")[0] not in LIBRARIES:
            continue
        names.update(name for name in vars(klass) if is_private(name))
        try:
            source = textwrap.dedent(inspect.getsource(klass))
        except (OSError, TypeError):
            continue
        for node in ast.walk(ast.parse(source)):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in {"self", "cls"}
                and is_private(node.attr)
            ):
                names.add(node.attr)
    return frozenset(names)


def documented_hook(bases: list[Any], name: str) -> bool:
    """Whether ``name`` is a documented extension point of one of ``bases``."""
    for module, class_name, names, _ in DOCUMENTED_HOOKS:
        parent = getattr(importlib.import_module(module), class_name)
        if name in names and any(isinstance(base, type) and issubclass(base, parent) for base in bases):
            return True
    return False


@dataclass
class ClassContext:
    name: str
    library_bases: list[str]  # as written: "Api", "fields.Field"
    resolved: list[Any]  # the library classes themselves, where they import


class Checker(ast.NodeVisitor):
    """The violations in one file; ``own`` is :func:`own_private_names` of
    the whole project (the file's own, if not given)."""

    def __init__(self, path: str, tree: ast.Module, own: set[str] | None = None) -> None:
        self.path = path
        # The package a relative import starts from: the file's directory.
        package = ".".join(Path(path).with_suffix("").parts[:-1]) or PROJECT
        self.imported, private = imports(tree, package)
        self.project = project_names(tree, self.imported)
        self.own = own_private_names(tree) if own is None else own
        self.scopes: list[set[str]] = []  # names local to each enclosing function
        self.classes: list[ClassContext] = []  # the enclosing classes
        self.violations: list[Violation] = []
        for node, name, why in private:
            self.flag(node, name, why)
        self.visit(tree)

    def flag(self, node: ast.expr | ast.stmt, name: str, why: str) -> None:
        self.violations.append(Violation(self.path, node.lineno, name, why))

    def local(self, name: str) -> bool:
        return any(name in scope for scope in self.scopes)

    def library_import(self, name: str | None) -> bool:
        return (
            name is not None
            and not self.local(name)
            and name in self.imported
            and self.imported[name].library
        )

    def library_global(self, owner: ast.expr) -> bool:
        """Whether ``owner`` is a library module or class (not an object such
        as ``flask.g``, whose attributes are there to be set)."""
        path = attribute_path(owner)
        if path is None or not self.library_import(path[0]):
            return False  # not reached from a library import without a call
        resolved = self.imported[path[0]].resolve()
        for part in path[1]:
            if resolved is None:
                break
            resolved = getattr(resolved, part, None)
        if resolved is None:
            return True  # unknown: err towards flagging
        # type(), not isinstance(): a proxy like flask.g must not be asked
        # for its __class__ outside a request.
        return inspect.ismodule(resolved) or issubclass(type(resolved), type)

    def enclosing_class(self) -> ClassContext | None:
        return self.classes[-1] if self.classes else None

    # Scopes.

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        context = ClassContext(node.name, [], [])
        for base in library_bases(node, self.imported):
            found = attribute_path(base)
            assert found is not None
            context.library_bases.append(ast.unparse(base))
            resolved = self.imported[found[0]].resolve()
            for part in found[1]:
                resolved = getattr(resolved, part, None)
            if resolved is not None:
                context.resolved.append(resolved)
        if context.library_bases:
            for statement in node.body:
                if not isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                name = statement.name
                if not is_private(name) or documented_hook(context.resolved, name):
                    continue
                bases = ", ".join(context.library_bases)
                if any(hasattr(base, name) for base in context.resolved):
                    why = f"{node.name}.{name} overrides a private method of the library class {bases}"
                else:
                    why = (
                        f"{node.name}.{name}: a private method in a subclass of the library class {bases} "
                        "(the library's private namespace: a release may define it)"
                    )
                self.flag(statement, name, why)
        self.classes.append(context)
        self.generic_visit(node)
        self.classes.pop()

    def visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        self.scopes.append(local_names(node))
        self.generic_visit(node)
        self.scopes.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = visit_function

    # Uses.

    def owns(self, value: ast.expr, attribute: str) -> bool:
        """Whether ``value.attribute`` is the project's own business."""
        context = self.enclosing_class()
        if isinstance(value, ast.Name) and value.id in {"self", "cls"}:
            # The project's own attribute, unless a library base defines it.
            if context is None or documented_hook(context.resolved, attribute):
                return True
            return not any(
                isinstance(base, type) and attribute in library_private_names(base)
                for base in context.resolved
            )
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "super":
            # The parent's private method: a library's, if the class has a library base.
            return (
                context is None or not context.library_bases or documented_hook(context.resolved, attribute)
            )
        if attribute in self.own and not self.library_import(root_name(value)):
            return True
        if isinstance(value, ast.Name):
            return not self.local(value.id) and value.id in self.project
        return False

    def visit_Attribute(self, node: ast.Attribute) -> None:
        if isinstance(node.ctx, ast.Store | ast.Del) and self.library_global(node.value):
            verb = "deletes" if isinstance(node.ctx, ast.Del) else "replaces"
            self.flag(node, node.attr, f"{verb} the library global {ast.unparse(node)}")
        elif is_private(node.attr) and not self.owns(node.value, node.attr):
            self.flag(node, node.attr, f"uses the private {node.attr} of {ast.unparse(node.value)}")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        function = node.func.id if isinstance(node.func, ast.Name) else None
        if function in {"getattr", "setattr", "delattr", "hasattr"} and len(node.args) >= 2:
            target, name = node.args[0], node.args[1]
            literal = name.value if isinstance(name, ast.Constant) and isinstance(name.value, str) else None
            if function in {"setattr", "delattr"} and self.library_global(target):
                shown = literal or ast.unparse(name)
                self.flag(
                    node, shown, f"{function} replaces the library global {ast.unparse(target)}.{shown}"
                )
            elif literal is not None and is_private(literal) and not self.owns(target, literal):
                self.flag(node, literal, f"{function} uses the private {literal} of {ast.unparse(target)}")
        self.generic_visit(node)


def check(source: str, path: str = "service/example.py") -> list[Violation]:
    """The violations in one piece of source, on its own."""
    return Checker(path, ast.parse(textwrap.dedent(source))).violations


def violations() -> list[Violation]:
    """The violations in the service and gunicorn.conf.py."""
    paths = [*sorted((ROOT / PROJECT).rglob("*.py")), ROOT / "gunicorn.conf.py"]
    trees = {
        path.relative_to(ROOT).as_posix(): ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for path in paths
    }
    # A private name of a project class may be read in another file.
    own = set().union(*map(own_private_names, trees.values()))
    found = [violation for path, tree in trees.items() for violation in Checker(path, tree, own).violations]
    return sorted(found, key=lambda violation: (violation.path, violation.line))


def test_libraries_are_used_through_their_public_api() -> None:
    wrong = [violation for violation in violations() if violation.key not in ALLOWED]
    assert not wrong, (
        f"{len(wrong)} uses of library internals (see this file's docstring; an exception needs "
        "an entry in ALLOWED and its ADR):\n" + "\n".join(map(str, wrong))
    )


def test_every_allowed_exception_has_its_adr_and_is_still_needed() -> None:
    keys = {violation.key for violation in violations()}
    for key, adr in ALLOWED.items():
        path = ROOT / adr
        assert path.parent == ROOT / "docs" / "adr", f"{key}: {adr} is not under docs/adr/"
        assert path.is_file(), f"{key}: its ADR {adr} does not exist"
        assert key in keys, f"{key} is allowed but no longer used: remove it from ALLOWED"


# The checker itself: what it must catch and what it must let through.

CAUGHT = [
    ("from prometheus_client import values\nvalues.ValueClass = object()", "ValueClass"),
    ("from prometheus_client import values\nvalues.ValueClass.cached_pid = True", "cached_pid"),
    ("import flask\nflask.Flask.ensure_sync = None", "ensure_sync"),
    ("from flask import Flask\ndel Flask.ensure_sync", "ensure_sync"),
    ("from marshmallow import fields\nfields.Field.default_error_messages = {}", "default_error_messages"),
    ("import gunicorn.util\ngunicorn.util.write_error = print", "write_error"),
    ("from prometheus_client import values\nsetattr(values, 'ValueClass', None)", "ValueClass"),
    ("def flush(histogram):\n    histogram._sum.inc(1)", "_sum"),
    ("from flask import request\nrequest._get_current_object()", "_get_current_object"),
    ("def copy(view, wrapper):\n    wrapper._apidoc = view._apidoc", "_apidoc"),
    ("def hooks(schema):\n    return getattr(schema, '_hooks')", "_hooks"),
    ("from marshmallow.utils import _x", "_x"),
    ("from werkzeug._internal import _log", "_log"),
    ("import werkzeug._internal", "werkzeug._internal"),
    (
        "from flask_smorest import Api\nclass A(Api):\n    def _register_responses(self):\n        pass",
        "_register_responses",
    ),
    (
        "from webargs.flaskparser import FlaskParser\n"
        "class P(FlaskParser):\n    def _raw_load_json(self, req):\n        return None",
        "_raw_load_json",
    ),
    # A new private name in a library subclass may clash with a later release's.
    ("import marshmallow\nclass S(marshmallow.Schema):\n    def _helper(self):\n        pass", "_helper"),
    # Through self, a private attribute the library class itself sets.
    ("from flask_smorest import Api\nclass A(Api):\n    def app(self):\n        return self._app", "_app"),
    (
        "from flask import Flask\nclass App(Flask):\n"
        "    def f(self):\n        return super()._check_setup_finished('f')",
        "_check_setup_finished",
    ),
    # A parameter hides the module-level name it shares.
    ("helper = object()\ndef f(helper):\n    return helper._x", "_x"),
    # Built from a library: not the project's own object.
    (
        "from prometheus_client import CollectorRegistry\nregistry = CollectorRegistry()\nregistry._names",
        "_names",
    ),
    # The project's Metrics has a _lock too; this one may be prometheus_client's.
    (
        "class Metrics:\n    def __init__(self):\n        self._lock = None\n"
        "def flush(histogram):\n    return histogram._lock",
        "_lock",
    ),
    # A field's hook is for its subclasses, not for callers.
    ("def serializer(field):\n    return field._serialize", "_serialize"),
]

ACCEPTED = [
    (
        "class C:\n    def __init__(self):\n        self._cache = {}\n"
        "    def get(self):\n        return self._cache"
    ),
    "def module_level_helper():\n    pass\nmodule_level_helper._x = 1\nprint(module_level_helper._x)",
    "_TABLE = {}\n_TABLE._x",
    # A private method of a project schema, called on another instance: the
    # project's name (its definition in a library subclass is flagged there).
    (
        "from marshmallow import Schema\nclass S(Schema):\n    pass\n"
        "class T(S):\n    def _compiled(self):\n        pass\n"
        "def compile(schema):\n    return schema._compiled()"
    ),
    # A private name of one of the project's own classes, read through another instance.
    (
        "class Keys:\n    def __init__(self):\n        self._digests = ()\n"
        "    def __eq__(self, other):\n        return self._digests == other._digests"
    ),
    "from .metrics import registry\nregistry._names",
    "from service.server import metrics\nmetrics._flush()",
    "import flask\nname = flask.Flask.__name__",
    "def describe(obj):\n    return obj.__name__, obj.__doc__",
    # Setting a documented attribute of a library instance is its public API.
    "from flask import Flask\napp = Flask(__name__)\napp.wsgi_app = None",
    # Its own new private attribute, which the library class does not use.
    "from flask import Flask\nclass App(Flask):\n    def __init__(self):\n        self._sync = {}",
    # Documented: custom fields implement _serialize/_deserialize.
    (
        "from marshmallow import fields\nclass F(fields.Field):\n"
        "    def _serialize(self, value, attr, obj, **kwargs):\n"
        "        return super()._serialize(value, attr, obj, **kwargs)\n"
        "class G(fields.String):\n"
        "    def _deserialize(self, value, attr, data, **kwargs):\n"
        "        return self._serialize(value, attr, data)"
    ),
    "import os\nos.environ['X'] = '1'",
    # flask.g is there for the app's own attributes.
    "from flask import g\ng.user = 'x'",
    # An instance the code made itself, through a documented attribute.
    "from flask_smorest import Api\nApi().spec = None",
    "from flask import current_app\ndef f():\n    return current_app.config",
]


@pytest.mark.parametrize(("source", "name"), CAUGHT)
def test_the_checker_catches(source: str, name: str) -> None:
    found = check(source)
    assert found, "not caught"
    assert {violation.name for violation in found} == {name}, found


@pytest.mark.parametrize("source", ACCEPTED)
def test_the_checker_accepts(source: str) -> None:
    assert check(source) == []
