"""The rules a stored answer recorded, rebuilt, and the scope its request is replayed in."""

import pytest

from service.baccarat.tables.catalogue import Catalogue
from service.baccarat.tables.rules import TABLES
from service.contract.answers import rules as written
from service.contract.recorded import TableNow, recorded_rules, replay_scope
from service.contract.scope import OPEN, Scope


@pytest.mark.parametrize("name", list(TABLES))
def test_every_presets_recorded_rules_rebuild_to_their_id(name):
    table = TABLES[name]
    rebuilt = recorded_rules(written(table.rules), table.peek)
    assert rebuilt is not None
    assert rebuilt.id == table.rules.id
    assert rebuilt == table.rules


@pytest.mark.parametrize(
    "recorded",
    [
        None,
        "rules",
        {},
        {"id": 5},
        {**written(TABLES["standard"].rules), "id": "0" * 16},
        {"id": "x", "decks": 99},
    ],
)
def test_rules_that_do_not_rebuild_to_their_id_are_none(recorded):
    assert recorded_rules(recorded, peek=False) is None


def test_a_stored_answer_replays_at_its_table_by_its_recorded_rules():
    answer = {"table": "ez", "rules": written(TABLES["tie_9"].rules)}
    replayed, name, now = replay_scope(OPEN, answer)
    assert (name, now) == ("ez", TableNow.OTHER_RULES)
    assert replayed.tables["ez"].rules.id == TABLES["tie_9"].rules.id
    gone = Scope(tables=Catalogue(tables={"standard": TABLES["standard"]}, default="standard"))
    replayed, _, now = replay_scope(gone, answer)
    assert now is TableNow.NOT_IN_CATALOGUE
    assert set(replayed.tables) == {"standard", "ez"}
    _, _, now = replay_scope(OPEN, {"table": "tie_9", "rules": written(TABLES["tie_9"].rules)})
    assert now is TableNow.SAME_RULES


def test_an_answer_that_names_no_table_replays_as_the_catalogue_stands():
    assert replay_scope(OPEN, {"rules": written(TABLES["ez"].rules)}) is None
    assert replay_scope(OPEN, ["not", "an", "answer"]) is None
