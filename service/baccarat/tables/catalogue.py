"""A deployment's tables: the catalogue its requests name a table from.

The built-in presets (:data:`.rules.TABLES`) are the catalogue unless the
deployment names a file of its own (docs/operations/tables.md), which the
service reads and checks once, at start. A catalogue may say which tables
each operator plays at; a caller whose key names an operator sees only
that operator's tables (:meth:`Catalogue.seen_by`), and any other name is
no table at all to it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .rules import DEFAULT_TABLE, TABLES, Table


@dataclass(frozen=True, kw_only=True)
class Catalogue(Mapping[str, Table]):
    """Tables by name, the one a request takes when it names none, and the
    tables each operator plays at (none: every caller sees every table)."""

    tables: Mapping[str, Table]
    default: str
    operators: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.default not in self.tables:
            raise ValueError(f"the default table {self.default!r} is not one of the catalogue's")
        unknown = sorted({name for names in self.operators.values() for name in names} - set(self.tables))
        if unknown:
            raise ValueError(f"an operator plays at tables the catalogue has not: {', '.join(unknown)}")
        object.__setattr__(self, "tables", MappingProxyType(dict(self.tables)))
        operators = {name: tuple(names) for name, names in self.operators.items()}
        object.__setattr__(self, "operators", MappingProxyType(operators))

    def __getitem__(self, name: str) -> Table:
        return self.tables[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self.tables)

    def __len__(self) -> int:
        return len(self.tables)

    def seen_by(self, operator: str | None) -> Catalogue:
        """The tables ``operator`` plays at (all of them for None), with the
        catalogue's default if it is one of them, else the first of them.

        >>> standard = BUILT_IN["standard"]
        >>> catalogue = Catalogue(
        ...     tables={"a": standard, "b": standard}, default="a", operators={"north": ("b",)}
        ... )
        >>> seen = catalogue.seen_by("north")
        >>> list(seen), seen.default
        (['b'], 'b')
        """
        if operator is None:
            return self
        names = self.operators.get(operator, ())
        if not names:
            raise ValueError(f"the operator {operator!r} plays at no table of the catalogue")
        return Catalogue(
            tables={name: table for name, table in self.tables.items() if name in names},
            default=self.default if self.default in names else names[0],
        )

    def plain_play(self, name: str) -> bool:
        """Whether ``name`` is a table every operation but Peek Baccarat's plays at."""
        table = self.tables.get(name)
        return table is not None and not table.peek


#: The built-in presets, every caller's tables unless the deployment names its own.
BUILT_IN = Catalogue(tables=TABLES, default=DEFAULT_TABLE)
