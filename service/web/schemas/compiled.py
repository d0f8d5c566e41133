"""Schemas compiled to plain functions, for the hot paths.

marshmallow walks every field through generic machinery on every call, which
costs more than the whole rules engine on a typical round. :class:`FastSchema`
keeps the schema as the one declaration of the contract and compiles it, on
first use, into two functions generated as Python source:

* a **dumper** that serialises exactly as ``Schema.dump`` would;
* a **loader** for the successful case only: it either returns exactly what
  ``Schema.load`` would, or gives up (:data:`FALLBACK`) at the first sign of
  anything unusual, and then marshmallow itself loads the data and reports
  the errors. So every error message still comes from marshmallow.

Nested schemas are compiled with their parent and their functions called
directly. The built-in validators ``Length``, ``Range`` and ``OneOf`` are
written out inline; a field may offer a table for loading strings
(``load_table``) and an attribute it dumps as (``dump_attribute``), see
:mod:`.fields`. Other field types and validators go through the field's own
methods. ``tests/web/test_compiled_schemas.py`` checks the compiled functions
against marshmallow on generated inputs, valid and invalid.
"""

from __future__ import annotations

import functools
import keyword
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from marshmallow import RAISE, Schema, ValidationError, fields, post_dump, validate
from marshmallow.utils import missing  # type: ignore[attr-defined]

FALLBACK: Any = object()
MEMO_SIZE = 64
Dumper = Callable[[Any], Any]
Loader = Callable[[Any], Any]


class GiveUp(Exception):
    """Raised inside compiled loaders at the first sign of anything unusual;
    :meth:`FastSchema.fast_load` answers :data:`FALLBACK`. An exception, not a
    returned marker, so that nested loaders run inside comprehensions with no
    check per item."""


def _give_up(*args: Any) -> Any:
    raise GiveUp


def _not_plain() -> Any:
    """Leaves a dumper's fast path: the general path reads the object."""
    raise AttributeError


_PLAIN_TYPES: set[type] = set()  # types without __getitem__: plain attribute access

#: Schema classes being compiled, per direction: a schema nested in itself
#: is bound late instead of compiled forever.
_COMPILING: set[tuple[type, str]] = set()
_NESTED_IN_ITSELF: Any = object()


def _compile_once(schema: Schema, direction: str, compile: Callable[[Any], Any]) -> Any:
    """``compile(schema)``, or :data:`_NESTED_IN_ITSELF` when the schema is
    already being compiled in that direction (it nests itself)."""
    compiling = (type(schema), direction)
    if compiling in _COMPILING:
        return _NESTED_IN_ITSELF
    _COMPILING.add(compiling)
    try:
        return compile(schema)
    finally:
        _COMPILING.discard(compiling)


def _get_key(obj: Any, key: str) -> Any:
    """marshmallow's ``_get_value_for_key``: item access, else the attribute."""
    kind = type(obj)
    if kind in _PLAIN_TYPES:
        return getattr(obj, key, missing)
    if kind is dict:
        return obj[key] if key in obj else getattr(obj, key, missing)
    if not hasattr(obj, "__getitem__"):
        _PLAIN_TYPES.add(kind)
        return getattr(obj, key, missing)
    try:
        return obj[key]
    except (KeyError, IndexError, TypeError, AttributeError):
        return getattr(obj, key, missing)


def _own(field: fields.Field[Any], name: str) -> Any:
    """The fast-path helper ``name`` declared by the field's own class (a
    subclass may change how it loads or dumps, so does not inherit it)."""
    return vars(type(field)).get(name)


def _attribute(value: str, name: str) -> str:
    """Source reading attribute ``name`` of ``value``; AttributeError if absent."""
    if name.isidentifier() and not keyword.iskeyword(name):
        return f"{value}.{name}"
    return f"getattr({value}, {name!r})"


# --- dumping ------------------------------------------------------------------


def _nested_dumper(schema: Schema) -> Dumper:
    """The function dumping one object as ``schema.dump(obj)`` does, taken
    once at compile time so that a nested object costs one call."""
    if isinstance(schema, FastSchema) and type(schema).dump is FastSchema.dump:
        return schema.fast_dump if schema.memoize_dump else schema._dump_function()
    return functools.partial(schema.dump, many=False)


def _value_expression(field: fields.Field[Any], value: str, names: dict[str, Any]) -> str:
    """Python source for how ``field`` turns the present value named
    ``value`` into JSON-ready data; helpers it needs go into ``names``."""
    if isinstance(field, fields.Nested) and not isinstance(field, fields.Pluck):
        nested = field.schema
        name = f"d{len(names)}"
        many = bool(nested.many or field.many)
        if not isinstance(nested, FastSchema):
            names[name] = nested.dump
            return f"None if {value} is None else {name}({value}, many={many})"
        names[name] = _nested_dumper(nested)
        if many:
            return f"None if {value} is None else [{name}(x) for x in {value}]"
        return f"None if {value} is None else {name}({value})"
    if isinstance(field, fields.List):
        item = f"i{len(names)}"
        inner = _value_expression(field.inner, item, names)
        return f"None if {value} is None else [{inner} for {item} in {value}]"
    if type(field) is fields.String:
        return f"None if {value} is None else str({value})"
    if type(field) is fields.Integer and not field.as_string:
        return f"None if {value} is None else int({value})"
    attribute = _own(field, "dump_attribute")
    if attribute is not None:  # the field's _serialize reads this attribute
        return f"None if {value} is None else {_attribute(value, attribute)}"
    name = f"s{len(names)}"
    names[name] = field._serialize
    if type(field) is fields.Boolean:
        return f"{value} if {value} is True or {value} is False else {name}({value}, None, None)"
    return f"{name}({value}, None, None)"


def _hooks(schema: Schema, tag: str) -> list[Callable[..., Any]] | None:
    """The schema's single-object hooks for ``tag``; ``None`` if any hook
    needs the whole collection or the original data (not modelled here)."""
    entries = schema._hooks[tag]
    if any(many or options.get("pass_original") for _, many, options in entries):
        return None
    return [getattr(schema, name) for name, _, _ in entries]


def _read_lines(path: str, first: str, default: str | None) -> list[str]:
    """Lines setting ``v`` to the value at dotted ``path`` as marshmallow
    reads it, or to ``missing``; ``first`` reads the first step from ``obj``."""
    head, *rest = path.split(".")
    lines = [f"v = {first.format(repr(head))}"]
    for key in rest:  # a dotted attribute: one step at a time, stopping at missing
        lines.append(
            f"if v is not missing: v = getattr(v, {key!r}, missing) "
            f"if type(v) in _PLAIN else _get_key(v, {key!r})"
        )
    if default is not None:
        lines.append(f"if v is missing: v = {default}")
    return lines


def compile_dump(schema: Schema) -> Dumper | None:
    """A function equal to ``schema.dump(obj)`` for a single object, or
    ``None`` when the schema's hooks are not modelled.

    The function has a fast path for objects of a type without
    ``__getitem__`` (read by attribute) and for plain dicts (read by key):
    it reads every field straight, and any AttributeError or KeyError sends
    the object down the general path instead, which reads each field as
    marshmallow does (item access, else the attribute, else ``missing``).
    Both paths are generated as Python source, a few lines per field.
    """
    pre, post = _hooks(schema, "pre_dump"), _hooks(schema, "post_dump")
    if pre is None or post is None:
        return None
    # FastSchema's own omission of null optional parts is generated inline.
    post = [hook for hook in post if getattr(hook, "__name__", "") != "_omit_none"]
    omit: frozenset[str] = getattr(schema, "omit_if_none", frozenset())
    names: dict[str, Any] = {
        "missing": missing,
        "_get_key": _get_key,
        "_PLAIN": _PLAIN_TYPES,
        "_not_plain": _not_plain,
    }
    general, by_attribute, by_key = [], [], []
    for index, (name, field) in enumerate(schema.dump_fields.items()):
        path = field.attribute or name
        default = field.dump_default
        default_source = None
        if default is not missing:
            names[f"default{index}"] = default
            default_source = f"default{index}()" if callable(default) else f"default{index}"
        key = field.data_key or name
        expression = _value_expression(field, "v", names)
        store = (
            [f"v = {expression}", f"if v is not None: result[{key!r}] = v"]
            if key in omit
            else [f"result[{key!r}] = {expression}"]
        )
        guarded = ["if v is not missing:", *("    " + line for line in store)]
        general += _read_lines(
            path, "getattr(obj, {0}, missing) if plain else _get_key(obj, {0})", default_source
        )
        general += guarded
        if default is not missing:  # may be absent: read as the general path does
            by_attribute += _read_lines(path, "getattr(obj, {0}, missing)", default_source) + guarded
            head = path.split(".")[0]
            getter = "_get_key(obj, {0})" if hasattr(dict, head) else "obj.get({0}, missing)"
            by_key += _read_lines(path, getter, default_source) + guarded
            continue
        # Always present on the fast path: a missing one raises and leaves it.
        head, *rest = path.split(".")
        steps = [f"v = {_attribute('v', step)} if type(v) in _PLAIN else _not_plain()" for step in rest]
        by_attribute += [f"v = {_attribute('obj', head)}", *steps, *store]
        by_key += [f"v = obj[{head!r}]", *steps, *store]
    for n in range(len(pre)):
        names[f"pre{n}"] = pre[n]
    for n in range(len(post)):
        names[f"post{n}"] = post[n]

    def body(lines: list[str], indent: str) -> list[str]:
        return [indent + "result = {}", *(indent + line for line in lines)]

    source = [
        "def general(obj):",
        "    plain = type(obj) in _PLAIN",
        *body(general, "    "),
        "    return result",
        "def dump(obj):",
        *(f"    obj = pre{n}(obj, many=False)" for n in range(len(pre))),
        "    kind = type(obj)",
        "    if kind in _PLAIN:",
        "        try:",
        *body(by_attribute, "            "),
        "        except (AttributeError, KeyError):",
        "            result = general(obj)",
        "    elif kind is dict:",
        "        try:",
        *body(by_key, "            "),
        "        except (AttributeError, KeyError):",
        "            result = general(obj)",
        "    else:",
        "        result = general(obj)",
        *(f"    result = post{n}(result, many=False)" for n in range(len(post))),
        "    return result",
    ]
    exec(compile("\n".join(source), f"<dump {type(schema).__name__}>", "exec"), names)
    dumper: Dumper = names["dump"]
    return dumper


# --- loading ------------------------------------------------------------------


def _nested_loader(field: fields.Field[Any]) -> Loader | None:
    """The raising loader of the FastSchema nested by ``field``, when it
    loads exactly as that schema's ``load(value)``; else ``None``."""
    if not isinstance(field, fields.Nested) or isinstance(field, fields.Pluck):
        return None
    nested = field.schema
    if (
        not isinstance(nested, FastSchema)
        or type(nested).load is not FastSchema.load
        or nested.many
        or field.many
        or field.unknown is not None
    ):
        return None
    return nested._load_function()


def _raw(field: fields.Field[Any]) -> Loader:
    """``field._deserialize``, raising GiveUp for a ValidationError."""

    def deserialize(value: Any) -> Any:
        try:
            return field._deserialize(value, None, None)
        except ValidationError:
            raise GiveUp from None

    return deserialize


def _whole(field: fields.Field[Any]) -> Loader:
    """``field.deserialize`` (null handling and validators included),
    raising GiveUp for a ValidationError."""

    def deserialize(value: Any) -> Any:
        try:
            return field.deserialize(value)
        except ValidationError:
            raise GiveUp from None

    return deserialize


def _item_expression(field: fields.Field[Any], item: str, names: dict[str, Any]) -> tuple[str, bool]:
    """Source loading list item ``item`` with ``field``, raising GiveUp when
    it cannot; and whether it may raise KeyError instead (a load table)."""
    whole = f"w{len(names)}"
    names[whole] = _whole(field)
    if field.validators or field.allow_none:
        return f"{whole}({item})", False
    nested = _nested_loader(field)
    if nested is not None:
        names[whole] = nested
        return f"{whole}({item})", False
    table = _own(field, "load_table")
    if table is not None:
        names[f"t{whole}"] = table
        return f"t{whole}[{item}] if type({item}) is str else {whole}({item})", True
    if type(field) is fields.String:
        return f"{item} if type({item}) is str else {whole}({item})", False
    return f"{whole}({item})", False


def _convert_lines(field: fields.Field[Any], names: dict[str, Any]) -> tuple[list[str], type | None]:
    """Lines turning the present, non-null input ``v`` into the field's
    deserialized value (validators not yet applied), raising GiveUp when
    they cannot; and the exact type of the result, when known."""
    nested = _nested_loader(field)
    if nested is not None:
        name = f"n{len(names)}"
        names[name] = nested
        return [f"v = {name}(v)"], None
    if type(field) is fields.List:
        items, refuses_by_key = _item_expression(field.inner, "x", names)
        lines = ["if type(v) is not list: raise GiveUp", f"v = [{items} for x in v]"]
        if refuses_by_key:
            lines[1:] = ["try:", "    " + lines[1], "except KeyError:", "    raise GiveUp from None"]
        return lines, list
    if type(field) is fields.String:  # bytes, which marshmallow also takes, give up
        return ["if type(v) is not str: raise GiveUp"], str
    if type(field) is fields.Integer:  # exact ints load as themselves
        return ["if type(v) is not int: raise GiveUp"], int
    raw = f"r{len(names)}"
    names[raw] = _raw(field)
    table = _own(field, "load_table")
    if table is not None:
        names[f"t{raw}"] = table
        return [
            "if type(v) is str:",
            "    try:",
            f"        v = t{raw}[v]",
            "    except KeyError:",
            "        raise GiveUp from None",
            "else:",
            f"    v = {raw}(v)",
        ], None
    return [f"v = {raw}(v)"], None


def _validator_lines(field: fields.Field[Any], kind: type | None, names: dict[str, Any]) -> list[str]:
    """Lines raising GiveUp unless every validator of ``field`` accepts ``v``
    (of exact type ``kind`` when known). Length, Range and OneOf are written
    out with marshmallow's own comparisons; others are called."""
    lines, others = [], []
    for validator in field.validators:
        n = len(names)
        names[f"a{n}"], names[f"b{n}"] = getattr(validator, "min", None), getattr(validator, "max", None)
        if type(validator) is validate.Length:
            if validator.equal is not None:
                names[f"a{n}"] = validator.equal
                lines.append(f"if len(v) != a{n}: raise GiveUp")
                continue
            if validator.min is not None:
                lines.append(f"if len(v) < a{n}: raise GiveUp")
            if validator.max is not None:
                lines.append(f"if len(v) > b{n}: raise GiveUp")
        elif type(validator) is validate.Range:
            if validator.min is not None:
                lines.append(f"if v {'<' if validator.min_inclusive else '<='} a{n}: raise GiveUp")
            if validator.max is not None:
                lines.append(f"if v {'>' if validator.max_inclusive else '>='} b{n}: raise GiveUp")
        elif (
            type(validator) is validate.OneOf
            and kind in (str, int)
            and all(type(choice) in (str, int) for choice in validator.choices)
        ):
            # For a str or int, set membership is list membership: equal
            # str and int values hash alike.
            names[f"a{n}"] = frozenset(validator.choices)
            lines.append(f"if v not in a{n}: raise GiveUp")
        else:
            others.append(validator)
    if others:

        def accepts(value: Any) -> bool:
            try:
                return all(validator(value) is not False for validator in others)
            except ValidationError:
                return False

        name = f"c{len(names)}"
        names[name] = accepts
        lines.append(f"if not {name}(v): raise GiveUp")
    return lines


def compile_load(schema: Schema) -> Loader | None:
    """A function equal to ``schema.load(data)`` whenever that succeeds, or
    raising :class:`GiveUp`; ``None`` when the schema uses features the
    compiler does not model (then marshmallow always loads it). Generated
    as Python source, one block per field, like :func:`compile_dump`."""
    validators, post = _hooks(schema, "validates_schema"), _hooks(schema, "post_load")
    if (
        schema.unknown != RAISE
        or schema._hooks["pre_load"]
        or schema._hooks["validates"]
        or validators is None
        or post is None
        or any("." in (field.attribute or "") for field in schema.load_fields.values())
    ):
        return None
    names: dict[str, Any] = {
        "missing": missing,
        "GiveUp": GiveUp,
        "ValidationError": ValidationError,
        "RAISE": RAISE,
        "known": {field.data_key or name for name, field in schema.load_fields.items()},
    }
    lines = [
        "def load(data):",
        "    if type(data) is not dict or not known.issuperset(data):",
        "        raise GiveUp",
        "    result = {}",
    ]
    for index, (name, field) in enumerate(schema.load_fields.items()):
        key, attribute = field.data_key or name, field.attribute or name
        convert, kind = _convert_lines(field, names)
        present = [*convert, *_validator_lines(field, kind, names), f"result[{attribute!r}] = v"]
        if kind is None or field.allow_none:  # else the type test refuses a null
            null = f"result[{attribute!r}] = None" if field.allow_none else "raise GiveUp"
            present = ["if v is None:", f"    {null}", "else:", *("    " + line for line in present)]
        if field.required and kind is not None and not field.allow_none:
            # An absent value reads as None, which the type test refuses.
            lines += [f"    v = data.get({key!r})", *("    " + line for line in present)]
            continue
        lines += [
            f"    if {key!r} in data:",
            f"        v = data[{key!r}]",
            *("        " + line for line in present),
        ]
        default = field.load_default
        names[f"default{index}"] = default
        if field.required:
            lines += ["    else:", "        raise GiveUp"]
        elif callable(default):  # made afresh; a default that makes ``missing`` sets nothing
            lines += ["    else:", f"        v = default{index}()"]
            lines += [f"        if v is not missing: result[{attribute!r}] = v"]
        elif default is not missing:
            lines += ["    else:", f"        result[{attribute!r}] = default{index}"]
    arguments = "(result, many=False, partial=None, unknown=RAISE)"
    hooks = [f"val{n}{arguments}" for n in range(len(validators))]
    hooks += [f"result = post{n}{arguments}" for n in range(len(post))]
    names.update({f"val{n}": hook for n, hook in enumerate(validators)})
    names.update({f"post{n}": hook for n, hook in enumerate(post)})
    if hooks:
        lines += ["    try:", *("        " + hook for hook in hooks)]
        lines += ["    except ValidationError:", "        raise GiveUp from None"]
    lines.append("    return result")
    exec(compile("\n".join(lines), f"<load {type(schema).__name__}>", "exec"), names)
    loader: Loader = names["load"]
    return loader


class FastSchema(Schema):
    """A Schema whose plain ``load(data)`` and ``dump(obj)`` run compiled."""

    #: Optional parts of the answer left out when they are null (a round
    #: without bets has no ``settlement`` key rather than ``null``).
    omit_if_none: ClassVar[frozenset[str]] = frozenset()

    #: Set on schemas of immutable objects (e.g. resolved rules): the dump of
    #: a recently dumped object is reused. Reused results must not be mutated.
    memoize_dump: ClassVar[bool] = False

    _dumper: Dumper | None = None  # compiled on first use
    _loader: Loader | None = None  # raises GiveUp; compiled on first use
    _memo: dict[int, tuple[Any, Any]] | None = None

    @post_dump
    def _omit_none(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """What marshmallow itself runs; compiled dumpers do it inline."""
        for key in self.omit_if_none:
            if key in data and data[key] is None:
                del data[key]
        return data

    def _dump_function(self) -> Dumper:
        """The compiled dumper (marshmallow's dump if the schema is not
        modelled), compiled now with the schemas it nests."""
        if self._dumper is None:
            compiled = _compile_once(self, "dump", compile_dump)
            if compiled is _NESTED_IN_ITSELF:
                return self.fast_dump
            self._dumper = compiled or functools.partial(Schema.dump, self)
        return self._dumper

    def _load_function(self) -> Loader:
        """The compiled loader, raising GiveUp (always, if the schema is not
        modelled), compiled now with the schemas it nests."""
        if self._loader is None:
            compiled = _compile_once(self, "load", compile_load)
            if compiled is _NESTED_IN_ITSELF:
                return self._load_late
            self._loader = compiled or _give_up
        return self._loader

    def _load_late(self, data: Any) -> Any:
        return self._load_function()(data)

    def fast_dump(self, obj: Any) -> Any:
        if not self.memoize_dump:
            return (self._dumper or self._dump_function())(obj)
        memo = self._memo if self._memo is not None and len(self._memo) < MEMO_SIZE else {}
        hit = memo.get(id(obj))
        if hit is None or hit[0] is not obj:  # holding obj keeps its id unique
            hit = memo[id(obj)] = (obj, (self._dumper or self._dump_function())(obj))
        self._memo = memo
        return hit[1]

    def fast_load(self, data: Any) -> Any:
        try:
            return (self._loader or self._load_function())(data)
        except GiveUp:
            return FALLBACK

    def dump(self, obj: Any, *, many: bool | None = None) -> Any:
        if many or (many is None and self.many):
            return super().dump(obj, many=many)
        return self.fast_dump(obj)

    def load(
        self,
        data: Mapping[str, Any] | Any,
        *,
        many: bool | None = None,
        partial: Any = None,
        unknown: Any = None,
    ) -> Any:
        if many is None and not self.many and partial is None and unknown is None:
            result = self.fast_load(data)
            if result is not FALLBACK:
                return result
        return super().load(data, many=many, partial=partial, unknown=unknown)
