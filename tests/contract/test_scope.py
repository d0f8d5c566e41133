"""A request's scope: the caller's tables, approved mode, its operator, and the table it named."""

from service.baccarat.tables.catalogue import BUILT_IN, Catalogue
from service.baccarat.tables.rules import TABLES
from service.contract.scope import OPEN, Scope, at_table, dealt_at, enter, leave, named_table, scope, within

NORTH = Scope(
    tables=Catalogue(tables={"house": TABLES["ez"]}, default="house"), approved=True, operator="north"
)


def test_outside_a_request_the_scope_is_open_and_notes_no_table():
    assert scope() is OPEN
    assert (OPEN.tables, OPEN.approved, OPEN.operator) == (BUILT_IN, False, None)
    assert at_table("standard") is TABLES["standard"]
    assert named_table() is None
    assert dealt_at() == {}


def test_within_a_scope_the_named_table_and_operator_are_dealt_at_and_forgotten_after():
    with within(NORTH):
        assert scope() is NORTH
        assert at_table("house") is TABLES["ez"]
        assert dealt_at() == {"table": "house", "operator": "north"}
        with within(OPEN):  # a replay's own scope, inside a request's
            assert dealt_at() == {}
        assert named_table() == "house"
    assert scope() is OPEN
    assert named_table() is None


def test_a_request_hook_enters_and_leaves_a_scope():
    entered = enter(NORTH)
    try:
        at_table("house")
        assert dealt_at()["table"] == "house"
    finally:
        leave(entered)
    assert (scope(), named_table()) == (OPEN, None)
