"""Schemas compiled to plain functions, for the hot paths.

marshmallow walks every field through generic machinery on every call, which
costs more than the whole rules engine on a typical round. :class:`FastSchema`
keeps the schema as the one declaration of the contract and compiles it, on
first use, into two closures:

* a **dumper** that serialises exactly as ``Schema.dump`` would;
* a **loader** for the successful case only: it either returns exactly what
  ``Schema.load`` would, or gives up (:data:`FALLBACK`) at the first sign of
  anything unusual, and then marshmallow itself loads the data and reports
  the errors. So every error message still comes from marshmallow.

Field types without a fast path go through the field's own ``serialize`` /
``deserialize``. ``tests/web/test_compiled_schemas.py`` checks the compiled
functions against marshmallow on generated inputs, valid and invalid.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from marshmallow import RAISE, Schema, ValidationError, fields, post_dump
from marshmallow.utils import missing  # type: ignore[attr-defined]

FALLBACK: Any = object()
MEMO_SIZE = 64
Dumper = Callable[[Any], Any]
Loader = Callable[[Any], Any]


_PLAIN_TYPES: set[type] = set()  # types without __getitem__: plain attribute access


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


def _value_expression(field: fields.Field[Any], value: str, names: dict[str, Any]) -> str:
    """Python source for how ``field`` turns the present value named
    ``value`` into JSON-ready data; helpers it needs go into ``names``."""
    if isinstance(field, fields.Nested) and not isinstance(field, fields.Pluck):
        nested = field.schema
        name = f"d{len(names)}"
        names[name] = nested.fast_dump if isinstance(nested, FastSchema) else nested.dump
        if nested.many or field.many:
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


def compile_dump(schema: Schema) -> Dumper | None:
    """A function equal to ``schema.dump(obj)`` for a single object, or
    ``None`` when the schema's hooks are not modelled.

    The function is generated as Python source, one statement per field,
    so that a field costs an attribute read and a conversion, not a chain
    of generic calls.
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
        "pre": pre,
        "post": post,
    }
    lines = ["def dump(obj):"]
    if pre:
        lines.append("    for hook in pre: obj = hook(obj, many=False)")
    lines += ["    plain = type(obj) in _PLAIN", "    result = {}"]
    for index, (name, field) in enumerate(schema.dump_fields.items()):
        path = field.attribute or name
        first, *rest = path.split(".")
        lines.append(f"    v = getattr(obj, {first!r}, missing) if plain else _get_key(obj, {first!r})")
        for key in rest:  # a dotted attribute: one step at a time, stopping at missing
            lines.append(
                f"    if v is not missing: v = getattr(v, {key!r}, missing) "
                f"if type(v) in _PLAIN else _get_key(v, {key!r})"
            )
        default = field.dump_default
        if default is missing:
            lines.append("    if v is not missing:")
        else:
            names[f"default{index}"] = default
            call = "()" if callable(default) else ""
            lines.append(f"    if v is missing: v = default{index}{call}")
            lines.append("    if v is not missing:")
        expression = _value_expression(field, "v", names)
        key = field.data_key or name
        if key in omit:
            lines.append(f"        v = {expression}")
            lines.append(f"        if v is not None: result[{key!r}] = v")
        else:
            lines.append(f"        result[{key!r}] = {expression}")
    if post:
        lines.append("    for hook in post: result = hook(result, many=False)")
    lines.append("    return result")
    exec(compile("\n".join(lines), f"<dump {type(schema).__name__}>", "exec"), names)
    dumper: Dumper = names["dump"]
    return dumper


def _checker(field: fields.Field[Any]) -> Callable[[Any], bool] | None:
    """A function telling whether every validator of ``field`` accepts a
    value, or ``None`` when the field has no validators."""
    validators = tuple(field.validators)
    if not validators:
        return None

    def accepts(value: Any) -> bool:
        try:
            for validator in validators:
                if validator(value) is False:
                    return False
        except ValidationError:
            return False
        return True

    return accepts


def _value_loader(field: fields.Field[Any]) -> Loader:
    """How one field turns a present, non-null input into its loaded value."""
    accepts = _checker(field)
    if (
        isinstance(field, fields.Nested)
        and not isinstance(field, fields.Pluck)
        and not field.many
        and isinstance(field.schema, FastSchema)
        and field.unknown is None
    ):
        inner_load = field.schema.fast_load
        if accepts is None:
            return inner_load
        return lambda value: inner_load(value) if accepts(value) else FALLBACK
    if type(field) is fields.List:
        item = _value_loader(field.inner)

        def load_list(value: Any) -> Any:
            if type(value) is not list:
                return FALLBACK
            loaded = []
            for each in value:
                one = item(each)
                if one is FALLBACK:
                    return FALLBACK
                loaded.append(one)
            return loaded if accepts is None or accepts(loaded) else FALLBACK

        return load_list
    if type(field) is fields.String:
        if accepts is None:
            return lambda value: value if type(value) is str else FALLBACK
        return lambda value: value if type(value) is str and accepts(value) else FALLBACK

    def load_any(value: Any) -> Any:
        # Field.deserialize minus the missing/None handling done by the caller.
        try:
            loaded = field._deserialize(value, None, None)
        except ValidationError:
            return FALLBACK
        return loaded if accepts is None or accepts(loaded) else FALLBACK

    return load_any


def compile_load(schema: Schema) -> Loader | None:
    """A function equal to ``schema.load(data)`` whenever that succeeds, or
    returning :data:`FALLBACK`; ``None`` when the schema uses features the
    compiler does not model (then marshmallow always loads it). Generated
    as Python source, one block per field, like :func:`compile_dump`."""
    validators, post = _hooks(schema, "validates_schema"), _hooks(schema, "post_load")
    if (
        schema.unknown != RAISE
        or schema._hooks["pre_load"]
        or schema._hooks["validates"]
        or validators is None
        or post is None
    ):
        return None
    names: dict[str, Any] = {
        "missing": missing,
        "FALLBACK": FALLBACK,
        "ValidationError": ValidationError,
        "RAISE": RAISE,
        "validators": validators,
        "post": post,
    }
    known = {field.data_key or name for name, field in schema.load_fields.items()}
    names["known"] = known
    lines = [
        "def load(data):",
        "    if type(data) is not dict or not known.issuperset(data):",
        "        return FALLBACK",
        "    result = {}",
    ]
    for index, (name, field) in enumerate(schema.load_fields.items()):
        key, attribute = field.data_key or name, field.attribute or name
        lines += [f"    v = data.get({key!r}, missing)", "    if v is missing:"]
        if field.required:
            lines.append("        return FALLBACK")
        elif field.load_default is not missing:
            names[f"default{index}"] = field.load_default
            call = "()" if callable(field.load_default) else ""
            lines.append(f"        result[{attribute!r}] = default{index}{call}")
        else:
            lines.append("        pass")
        lines.append("    elif v is None:")
        lines.append(
            f"        result[{attribute!r}] = None" if field.allow_none else "        return FALLBACK"
        )
        names[f"load{index}"] = _value_loader(field)
        lines += [
            "    else:",
            f"        v = load{index}(v)",
            "        if v is FALLBACK:",
            "            return FALLBACK",
            f"        result[{attribute!r}] = v",
        ]
    if validators or post:
        lines.append("    try:")
        lines += [
            f"        validators[{n}](result, many=False, partial=None, unknown=RAISE)"
            for n in range(len(validators))
        ]
        lines += [
            f"        result = post[{n}](result, many=False, partial=None, unknown=RAISE)"
            for n in range(len(post))
        ]
        lines += ["    except ValidationError:", "        return FALLBACK"]
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

    _compiled_dump: Dumper | bool | None = False  # False: not compiled yet
    _compiled_load: Loader | bool | None = False
    _memo: dict[int, tuple[Any, Any]] | None = None

    @post_dump
    def _omit_none(self, data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        """What marshmallow itself runs; compiled dumpers do it inline."""
        for key in self.omit_if_none:
            if key in data and data[key] is None:
                del data[key]
        return data

    def fast_dump(self, obj: Any) -> Any:
        if not self.memoize_dump:
            return self._dump_compiled(obj)
        memo = self._memo if self._memo is not None and len(self._memo) < MEMO_SIZE else {}
        hit = memo.get(id(obj))
        if hit is None or hit[0] is not obj:
            hit = memo[id(obj)] = (obj, self._dump_compiled(obj))  # holding obj keeps its id unique
        self._memo = memo
        return hit[1]

    def _dump_compiled(self, obj: Any) -> Any:
        if self._compiled_dump is False:
            self._compiled_dump = compile_dump(self)
        if self._compiled_dump is None:
            return super().dump(obj)
        assert callable(self._compiled_dump)
        return self._compiled_dump(obj)

    def fast_load(self, data: Any) -> Any:
        if self._compiled_load is False:
            self._compiled_load = compile_load(self)
        if self._compiled_load is None:
            return FALLBACK
        assert callable(self._compiled_load)
        return self._compiled_load(data)

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
