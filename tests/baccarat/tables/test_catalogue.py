"""A deployment's catalogue: tables by name, a default, and each operator's tables."""

import pytest

from service.baccarat.tables.catalogue import BUILT_IN, Catalogue
from service.baccarat.tables.rules import DEFAULT_TABLE, TABLES

STANDARD, PEEK = TABLES["standard"], TABLES["peek"]


def test_the_built_in_catalogue_is_the_presets():
    assert dict(BUILT_IN) == dict(TABLES)
    assert BUILT_IN.default == DEFAULT_TABLE
    assert BUILT_IN.seen_by(None) is BUILT_IN


def test_an_operator_sees_its_tables_and_a_default_among_them():
    catalogue = Catalogue(
        tables={"a": STANDARD, "b": STANDARD, "c": PEEK},
        default="a",
        operators={"north": ("c", "b"), "south": ("a",)},
    )
    north = catalogue.seen_by("north")
    assert list(north) == ["b", "c"]
    assert north.default == "c"  # the catalogue's default is not north's: its first table
    assert catalogue.seen_by("south").default == "a"
    assert (north.plain_play("b"), north.plain_play("c"), north.plain_play("a")) == (True, False, False)


@pytest.mark.parametrize(
    ("tables", "default", "operators", "reason"),
    [
        ({"a": STANDARD}, "b", {}, "the default table 'b'"),
        ({"a": STANDARD}, "a", {"north": ("b",)}, "tables the catalogue has not: b"),
    ],
)
def test_a_catalogue_holds_what_it_names(tables, default, operators, reason):
    with pytest.raises(ValueError, match=reason):
        Catalogue(tables=tables, default=default, operators=operators)


def test_an_operator_without_tables_sees_none():
    with pytest.raises(ValueError, match="plays at no table"):
        Catalogue(tables={"a": STANDARD}, default="a").seen_by("north")
