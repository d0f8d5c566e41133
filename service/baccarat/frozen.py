"""Building frozen dataclasses fast, for the few a round makes many of.

A frozen dataclass's ``__init__`` sets each field through
``object.__setattr__``: for the hands, coups and settled bets a round makes,
that costs more than the rest of the round's work. The engine builds those
with the raw setters of their slots instead (:func:`slot_setters`). What it
builds is the same in every respect, class, fields, equality and frozenness;
only the way in is shorter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from typing import Any

SlotSetter = Callable[[object, Any], None]


def slot_setters(cls: type, *names: str) -> tuple[SlotSetter, ...]:
    """The setters of the slots of the slotted dataclass ``cls`` named
    ``names``, in that order. ``names`` must be all of its fields (with or
    without ``init``), so that a field added later cannot be left unset."""
    declared = {field.name for field in fields(cls)}
    if declared != set(names) or len(names) != len(declared):
        raise TypeError(f"{cls.__name__} has the fields {sorted(declared)}, not {list(names)}")
    return tuple(cls.__dict__[name].__set__ for name in names)
