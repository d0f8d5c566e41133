"""The tables file read whole: what it gives, and a first problem said in one line."""

import json

import pytest

from service.contract.tables_file import MAX_FILE_BYTES, TablesFileError, catalogue_of, read_tables_file

TABLE = {
    "description": "a table in yen",
    "currency": "JPY",
    "rules": {"limits": {"tie": {"min": "100", "max": "1000"}}},
}


def test_a_table_is_its_preset_with_its_rules_currency_and_words():
    loaded = catalogue_of(
        {"tables": {"tokyo": {**TABLE, "table": "ez", "languages": ["ja"], "chips": ["100", "500"]}}}
    )
    tokyo = loaded.catalogue["tokyo"]
    assert (tokyo.name, tokyo.currency, tokyo.languages, tokyo.rules.minor_unit) == (
        "tokyo",
        "JPY",
        ("ja",),
        0,
    )
    assert [str(chip) for chip in tokyo.chips] == ["100", "500"]
    assert str(tokyo.rules.variant) == "ez"
    assert loaded.catalogue.default == "tokyo"
    assert set(loaded.returns["tokyo"].bets) == set(tokyo.rules.bet_types)


@pytest.mark.parametrize(
    ("document", "line"),
    [
        ([], "/: "),
        ({"tables": {"tokyo": TABLE}, "colour": 1}, "/colour: Unknown field."),
        ({"tables": {"tokyo": {**TABLE, "languages": ["fr"]}}}, "/tables/tokyo/languages/0:"),
        ({"tables": {"tokyo": {**TABLE, "malfunction": "shrug"}}}, "/tables/tokyo/malfunction:"),
        ({"tables": {"tokyo": {**TABLE, "description": ""}}}, "/tables/tokyo/description:"),
        ({"tables": {"tokyo": TABLE}, "operators": {"North": {"tables": ["tokyo"]}}}, "/operators/North:"),
    ],
)
def test_the_first_problem_is_one_line_naming_where_it_is(document, line):
    with pytest.raises(TablesFileError) as refused:
        catalogue_of(document)
    assert str(refused.value).startswith(line), str(refused.value)
    assert "\n" not in str(refused.value)


def test_a_file_longer_than_a_tables_file_is_not_read_whole(tmp_path):
    path = tmp_path / "tables.json"
    path.write_text(json.dumps({"tables": {"tokyo": TABLE}}) + " " * MAX_FILE_BYTES)
    with pytest.raises(TablesFileError, match="not a tables file"):
        read_tables_file(str(path))
