"""What the OpenAPI document says beyond apispec's conversion of the schemas,
for the clients that generators make from it.

* Each value set (:mod:`.schemas.values`) is one named component, and a
  field that takes a value of it refers to that component. OpenAPI 3.0
  ignores the siblings of a ``$ref``, so a field with its own description
  refers through ``allOf``, as apispec does for a nested schema.
* A request's defaults are stated in its descriptions, not as ``default``:
  openapi-typescript types a property with a ``default`` as always present,
  so a client would have to send every defaulted field.
* Cards per rank are the hand-written map ``RankCounts``
  (:data:`.schemas.odds.RANK_COUNTS`).

The first two are attribute functions of apispec's marshmallow converter (its public
``add_attribute_function``), which run after apispec's own on each field and
edit the property they made. :class:`DocumentPlugin` adds them as soon as the
converter is made, so that every schema is converted with them, the error
shape too (flask-smorest converts it first, as it makes the document).
"""

from __future__ import annotations

from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import fields

from .schemas.odds import RANK_COUNTS
from .schemas.values import COMPONENT, VALUE_SETS

REFERENCE = "#/components/schemas/{}"


def document(spec: APISpec, converter: Any) -> None:
    """Add the components written by hand to ``spec`` and the attribute
    functions to ``converter``, before any schema is converted."""
    for name, value_set in VALUE_SETS.items():
        spec.components.schema(name, component=value_set.component(name))
    spec.components.schema("RankCounts", component=RANK_COUNTS)
    converter.add_attribute_function(default_in_words)
    converter.add_attribute_function(component_reference)


class DocumentPlugin(MarshmallowPlugin):
    """apispec's marshmallow plugin, with :func:`document`'s parts added to
    the document it is made for."""

    def init_spec(self, spec: APISpec) -> None:
        super().init_spec(spec)
        document(spec, self.converter)


def default_in_words(
    converter: Any, field: fields.Field[Any], ret: dict[str, Any], **kwargs: Any
) -> dict[str, Any]:
    """Drop the ``default`` apispec takes from a request field's ``load_default``
    (the field's description states it; tests/test_openapi.py checks)."""
    ret.pop("default", None)
    return {}


def component_reference(
    converter: Any, field: fields.Field[Any], ret: dict[str, Any], **kwargs: Any
) -> dict[str, Any]:
    """A field documented by a component (a value set's): a reference to it
    in place of the type, values and nullability apispec wrote from the field."""
    name = field.metadata.get(COMPONENT)
    if name is None:
        return {}
    values = ret.pop("enum", None)
    value_set = VALUE_SETS.get(name)
    if value_set is not None:
        if values is not None and {v for v in values if v is not None} != set(value_set.values):
            raise ValueError(f"field {field.name!r} checks {values}, not the values of {name}")
        if field.allow_none != value_set.nullable:
            raise ValueError(f"field {field.name!r} and its value set {name} differ on null")
    ret.pop("type", None)
    ret.pop("nullable", None)
    reference = {"$ref": REFERENCE.format(name)}
    return {"allOf": [reference]} if ret else reference
