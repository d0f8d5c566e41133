"""A deployment's tables from its tables file: refused at start when any
table is wrong, approved tables only when asked, and keys that reach only
their operator's tables, across every operation that names a table."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from prometheus_client import generate_latest

from service.app import create_app
from service.cli import main
from service.contract.tables_file import TablesFileError, catalogue_of, read_tables_file
from service.server import config
from tests.baccarat.tables.test_rules_checked_once import bodies
from tests.servers import gunicorn

EXAMPLE = Path(__file__).resolve().parents[2] / "k8s" / "tables.json"
HAN = "han-river-key-0123456789"
PALMS = "desert-palms-key-0123456789"
SEED = {"server_seed": "a" * 64, "client_seed": "c", "nonce": 1}


def example() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text())


def app_with(document: dict[str, Any], **settings: Any) -> Any:
    return create_app({"TABLES": catalogue_of(document), **settings})


@pytest.fixture(scope="module")
def scoped():
    """The example catalogue, approved tables only, each operator with its key."""
    keys = config.api_keys(f"han_river_casino:{HAN},desert_palms:{PALMS}")
    return app_with(example(), API_KEYS=keys, APPROVED_TABLES_ONLY=True).test_client()


def as_(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


# --- refused at start ------------------------------------------------------------

#: A table of the example broken one way, and the start of the one line that refuses it.
BROKEN = {
    "unknown key": (lambda d: d["tables"]["seoul_main"].update(colour="red"), "/tables/seoul_main/colour:"),
    "bad currency": (
        lambda d: d["tables"]["seoul_main"].update(currency="KRX"),
        "/tables/seoul_main/currency:",
    ),
    "minor unit against the currency": (
        lambda d: d["tables"]["seoul_main"]["rules"].update(minor_unit=2),
        "/tables/seoul_main/rules/minor_unit: KRW has 0 decimal places",
    ),
    "over 100%": (
        lambda d: d["tables"]["vegas_dragon"]["rules"].update(commission="0"),
        "/tables/vegas_dragon: returns more than it costs on banker (101.24%)",
    ),
    "bet that cannot win": (
        lambda d: d["tables"]["vegas_dragon"]["rules"].update(
            decks=1, pay_tables={"perfect_pair": "perfect_pair_25_or_200"}
        ),
        "/tables/vegas_dragon/rules/pay_tables/perfect_pair:",
    ),
    "minimum paid nothing in won": (
        lambda d: d["tables"]["seoul_main"]["rules"]["limits"]["banker"].update(min="1"),
        "/tables/seoul_main/rules/limits/banker/min:",
    ),
    "cut card": (
        lambda d: d["tables"]["vegas_dragon"]["rules"].update(decks=1, cut_card=30),
        "/tables/vegas_dragon/rules/cut_card:",
    ),
    "bad table name": (
        lambda d: d["tables"].update({"Bad Name": d["tables"]["seoul_main"]}),
        "/tables/Bad Name:",
    ),
    "chips out of order": (
        lambda d: d["tables"]["vegas_dragon"].update(chips=["25", "5"]),
        "/tables/vegas_dragon/chips/1:",
    ),
    "operator's unknown table": (
        lambda d: d["operators"]["desert_palms"]["tables"].append("nowhere"),
        "/operators/desert_palms/tables/1: 'nowhere' is not a table of the file",
    ),
    "unknown default": (lambda d: d.update(default="nowhere"), "/default: 'nowhere'"),
    "unknown preset": (
        lambda d: d["tables"]["seoul_main"].update(table="nowhere"),
        "/tables/seoul_main/table:",
    ),
    "no tables": (lambda d: d.update(tables={}), "/tables:"),
    "peek pays changed": (
        lambda d: d["tables"].update(
            p={"table": "peek", "description": "p", "rules": {"commission": "0.04"}}
        ),
        "/tables/p/rules/commission:",
    ),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_broken_table_stops_the_start_in_one_line_naming_the_table_and_field(case, tmp_path):
    breaks, line = BROKEN[case]
    document = example()
    breaks(document)
    path = tmp_path / "tables.json"
    path.write_text(json.dumps(document))
    with pytest.raises(ValueError, match="BACCARAT_TABLES_FILE") as refused:
        config.from_environment({"BACCARAT_TABLES_FILE": str(path)})
    message = str(refused.value)
    assert "\n" not in message
    assert message.startswith(f"BACCARAT_TABLES_FILE={str(path)!r} is not valid: {line}"), message


def test_a_table_twice_a_missing_file_and_a_file_not_json_stop_the_start(tmp_path):
    twice = tmp_path / "twice.json"
    twice.write_text('{"tables": {"a": {"description": "a"}, "a": {"description": "b"}}}')
    missing, garbled = tmp_path / "missing.json", tmp_path / "garbled.json"
    garbled.write_text("{tables:")
    for path, reason in (
        (twice, "the key 'a' appears twice"),
        (missing, "cannot read it"),
        (garbled, "JSON"),
    ):
        with pytest.raises(ValueError, match=reason):
            config.from_environment({"BACCARAT_TABLES_FILE": str(path)})


def test_keys_must_name_operators_the_file_gives_tables_to(tmp_path):
    path = tmp_path / "tables.json"
    path.write_text(json.dumps(example()))
    for keys, reason in ((f"nobody:{HAN}", "the operator 'nobody'"), (HAN, "a key names no operator")):
        with pytest.raises(ValueError, match=reason):
            config.from_environment({"BACCARAT_TABLES_FILE": str(path), "BACCARAT_API_KEYS": keys})
    settings = config.from_environment(
        {"BACCARAT_TABLES_FILE": str(path), "BACCARAT_API_KEYS": f"desert_palms:{HAN}"}
    )
    assert settings["API_KEYS"] == (config.ApiKey(HAN, "desert_palms"),)


def test_the_example_catalogue_reads_with_whole_won_and_cents():
    loaded = read_tables_file(str(EXAMPLE))
    assert {name: table.rules.minor_unit for name, table in loaded.catalogue.items()} == {
        "seoul_main": 0,
        "seoul_lightning": 0,
        "vegas_dragon": 2,
    }
    assert loaded.catalogue.default == "seoul_main"
    assert all(
        Decimal(figures.rtp) < 100 for returns in loaded.returns.values() for figures in returns.bets.values()
    )


# --- approved tables only, across every operation ----------------------------------


@pytest.mark.parametrize("operation", tuple(bodies("standard", {})))
def test_approved_mode_refuses_rules_in_every_operation(scoped, operation):
    table = "vegas_dragon"
    path, body = bodies(table, {"tie_pays": 9})[operation]
    answer = scoped.post(path, json=body, headers=as_(PALMS))
    assert answer.status_code == 422
    assert answer.mimetype == "application/problem+json"
    assert [(e["code"], e["pointer"]) for e in answer.get_json()["errors"]] == [
        ("approved_tables_only", "/rules")
    ]
    # Even an empty rules object is a request to change the table.
    path, body = bodies(table, {})[operation]
    assert scoped.post(path, json=body, headers=as_(PALMS)).status_code == 422


PLAYED = {  # each operation at an approved table, changing nothing (peek is not among its tables)
    "rounds": ("/v1/rounds", {**SEED}),
    "settlements": (
        "/v1/settlements",
        {**SEED, "slips": [{"id": "a", "bets": [{"type": "banker", "amount": "10.00"}]}]},
    ),
    "live": ("/v1/rounds/live", {"cards": ["9S"]}),
    "shoes": ("/v1/shoes", {**SEED}),
    "odds": ("/v1/odds", {}),
    "sheets": ("/v1/rules-sheets", {}),
}


@pytest.mark.parametrize("operation", PLAYED)
def test_approved_mode_plays_its_tables_as_they_are(scoped, operation):
    path, body = PLAYED[operation]
    answer = scoped.post(path, json={**body, "table": "vegas_dragon"}, headers=as_(PALMS))
    assert answer.status_code == 200, answer.get_json()
    assert (
        answer.get_json()["rules"]["id"] == read_tables_file(str(EXAMPLE)).catalogue["vegas_dragon"].rules.id
    )


@pytest.mark.parametrize("field", ["chips", "dealing", "malfunction"])
def test_approved_mode_refuses_a_sheets_own_chips_dealing_or_clause(scoped, field):
    value = {"chips": ["5", "25"], "dealing": "shoe", "malfunction": "under_review"}[field]
    answer = scoped.post("/v1/rules-sheets", json={"table": "vegas_dragon", field: value}, headers=as_(PALMS))
    assert answer.status_code == 422
    assert [(e["code"], e["pointer"]) for e in answer.get_json()["errors"]] == [
        ("approved_tables_only", f"/{field}")
    ]


def test_open_mode_takes_rules_at_a_catalogued_table():
    client = app_with(example()).test_client()
    answer = client.post("/v1/rounds", json={"table": "vegas_dragon", "rules": {"tie_pays": 9}, **SEED})
    assert answer.status_code == 200
    assert answer.get_json()["rules"]["tie_pays"] == 9


# --- keys scoped to operators -------------------------------------------------------


@pytest.mark.parametrize("operation", PLAYED)
@pytest.mark.parametrize(
    ("key", "table", "plays"),
    [
        (PALMS, "vegas_dragon", True),
        (PALMS, "seoul_main", False),
        (HAN, "seoul_main", True),
        (HAN, "vegas_dragon", False),
        (HAN, "standard", False),
    ],
)
def test_a_key_plays_only_its_operators_tables(scoped, operation, key, table, plays):
    path, body = PLAYED[operation]
    if table.startswith("seoul"):
        body = (
            {**body, "slips": [{"id": "a", "bets": [{"type": "banker", "amount": "10000"}]}]}
            if "slips" in body
            else body
        )
    answer = scoped.post(path, json={**body, "table": table}, headers=as_(key))
    if plays:
        assert answer.status_code == 200, answer.get_json()
        return
    # Another operator's table is answered exactly as a name no table has.
    nowhere = scoped.post(path, json={**body, "table": "nowhere_at_all"}, headers=as_(key))
    assert answer.status_code == nowhere.status_code == 422
    assert answer.get_json()["errors"][0]["code"] == "not_one_of"
    assert answer.get_json()["errors"][0]["pointer"] == "/table"
    assert table not in answer.get_json()["errors"][0]["detail"]
    assert answer.get_json()["errors"][0]["detail"] == nowhere.get_json()["errors"][0]["detail"]


@pytest.mark.parametrize(
    ("key", "own", "other"), [(PALMS, "vegas_dragon", "seoul_main"), (HAN, "seoul_main", "vegas_dragon")]
)
def test_a_key_lists_and_describes_only_its_operators_tables(scoped, key, own, other):
    listed = scoped.get("/v1/tables", headers=as_(key)).get_json()
    names = [table["name"] for table in listed["tables"]]
    assert own in names
    assert other not in names
    assert listed["default"] in names
    assert scoped.get(f"/v1/tables/{own}/rules-sheet", headers=as_(key)).status_code == 200
    other_sheet = scoped.get(f"/v1/tables/{other}/rules-sheet", headers=as_(key))
    nowhere = scoped.get("/v1/tables/nowhere/rules-sheet", headers=as_(key))
    assert other_sheet.status_code == nowhere.status_code == 404
    assert other_sheet.get_json() == nowhere.get_json() | {"instance": other_sheet.get_json().get("instance")}


def test_a_request_naming_no_table_plays_at_the_operators_default(scoped):
    answer = scoped.post("/v1/rounds", json={**SEED}, headers=as_(PALMS))
    assert answer.status_code == 200
    expected = read_tables_file(str(EXAMPLE)).catalogue["vegas_dragon"].rules.id
    assert answer.get_json()["rules"]["id"] == expected


def test_a_won_table_settles_in_whole_won(scoped):
    body = {
        "table": "seoul_main",
        "cards": ["9S", "KH", "2D", "7C", "5H"],
        "bets": [{"type": "banker", "amount": "25000"}, {"type": "tie", "amount": "10000"}],
    }
    answer = scoped.post("/v1/rounds", json=body, headers=as_(HAN)).get_json()
    assert answer["outcome"] == "banker"
    settled = answer["settlement"]
    assert (settled["staked"], settled["net"]) == ("35000", "13750")
    assert settled["returned"] == "48750"  # 25,000 back and 23,750 won (5% commission)
    refused = scoped.post(
        "/v1/rounds", json={**body, "bets": [{"type": "banker", "amount": "25000.50"}]}, headers=as_(HAN)
    )
    assert refused.status_code == 422


# --- a catalogued table is the request's rules at its preset ------------------------

PRESETS = ("standard", "tie_9", "no_commission", "ez", "tiger", "lightning", "golden_wealth")


@st.composite
def tables(draw: Any) -> dict[str, Any]:
    preset = draw(st.sampled_from(PRESETS))
    rules: dict[str, Any] = {}
    if preset in ("standard", "tie_9", "no_commission", "ez", "tiger"):
        if draw(st.booleans()):
            rules["tie_pays"] = draw(st.sampled_from([8, 9]))
        if draw(st.booleans()):
            rules["decks"] = draw(st.sampled_from([6, 8]))
    if preset == "tie_9" and draw(st.booleans()):
        rules["dealing"] = "shoe"
    low = draw(st.sampled_from(["5", "10", "25"]))
    rules["limits"] = {
        "player": {"min": low, "max": "1000"},
        "banker": {"min": low, "max": "1000"},
        "tie": {"min": low, "max": "100"},
    }
    return {"table": preset, "description": "generated", "rules": rules}


def without(answer: dict[str, Any], key: str) -> dict[str, Any]:
    return {name: value for name, value in answer.items() if name != key}


#: One app answering the rules as sent, for every generated table.
SENT = create_app().test_client()


@settings(
    max_examples=12,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(entry=tables(), nonce=st.integers(1, 10_000))
def test_a_catalogued_table_plays_as_its_rules_sent_in_a_request(entry, nonce):
    at = {"server_seed": "b" * 64, "client_seed": "c", "nonce": nonce}
    low = entry["rules"]["limits"]["tie"]["min"]
    bets = [{"type": "banker", "amount": low}, {"type": "tie", "amount": low}]
    requests = {"/v1/rounds": {**at, "bets": bets}, "/v1/odds": {}, "/v1/rules-sheets": {}}
    sent = {
        path: SENT.post(path, json={**body, "table": entry["table"], "rules": copy.deepcopy(entry["rules"])})
        for path, body in requests.items()
    }
    try:
        catalogued = app_with({"tables": {"generated": entry}}).test_client()
    except TablesFileError:
        # Rules the file refuses, every operation refuses when a request sends them.
        assert {answer.status_code for answer in sent.values()} == {422}
        return
    for path, body in requests.items():
        mine, theirs = catalogued.post(path, json={**body, "table": "generated"}), sent[path]
        assert mine.status_code == theirs.status_code == 200, (path, mine.get_json(), theirs.get_json())
        # The same answer, word for word (cards, totals, settlement, odds, every sentence of the
        # sheet), but for the table each names.
        assert mine.get_json().pop("table", "generated") == "generated"
        assert without(mine.get_json(), "table") == without(theirs.get_json(), "table")


# --- the signed body names the operator and the table; replays check them -----------


def post(client: Any, path: str, body: dict[str, Any], key: str) -> Any:
    """The request as its exchange stores it: these bytes, signed over."""
    return client.post(path, data=json.dumps(body), content_type="application/json", headers=as_(key))


def exchange(path: str, body: dict[str, Any], answer: Any) -> dict[str, Any]:
    return {
        "request": {"method": "POST", "url": f"http://localhost{path}", "body": json.dumps(body)},
        "response": {
            "status": answer.status_code,
            "headers": dict(answer.headers),
            "body": answer.get_data(as_text=True),
        },
    }


SIGNED = {  # each signed operation at the dollar table, as its operator plays it
    **{name: PLAYED[name] for name in ("rounds", "settlements", "live", "shoes", "sheets")},
    "rounds (minimal)": ("/v1/rounds", {**SEED}),
}


@pytest.mark.parametrize("operation", SIGNED)
def test_every_signed_answer_names_its_operator_and_table(scoped, operation):
    path, body = SIGNED[operation]
    headers = {**as_(PALMS), **({"Prefer": "return=minimal"} if "minimal" in operation else {})}
    answer = scoped.post(path, json={**body, "table": "vegas_dragon"}, headers=headers)
    assert answer.status_code == 200
    assert "Signature" in answer.headers
    assert (answer.get_json()["operator"], answer.get_json()["table"]) == ("desert_palms", "vegas_dragon")


def test_an_open_deployments_answers_name_the_table_and_no_operator(client):
    answer = client.post("/v1/rounds", json={**SEED}).get_json()
    assert answer["table"] == "standard"
    assert "operator" not in answer


def test_a_replay_by_another_operators_key_does_not_match(scoped, tmp_path):
    body = {**SEED, "table": "vegas_dragon", "bets": [{"type": "banker", "amount": "10.00"}]}
    stored = exchange("/v1/rounds", body, post(scoped, "/v1/rounds", body, PALMS))
    verdict = scoped.post("/v1/replays", json=stored, headers=as_(PALMS)).get_json()
    assert verdict["signature"]["verified"] is True
    own = verdict["replay"]
    assert own["identical"] is True
    assert own["table"] == {"name": "vegas_dragon", "now": "same_rules"}
    other = scoped.post("/v1/replays", json=stored, headers=as_(HAN)).get_json()["replay"]
    assert other["identical"] is False
    assert [d["pointer"] for d in other["differences"]] == ["/operator"]
    assert other["table"] == {"name": "vegas_dragon", "now": "not_in_catalogue"}


@pytest.mark.parametrize(("change", "now"), [("limits", "other_rules"), ("removed", "not_in_catalogue")])
def test_a_replay_plays_by_the_recorded_rules_after_the_catalogue_changes(change, now):
    keys = config.api_keys(f"han_river_casino:{HAN},desert_palms:{PALMS}")
    before = app_with(example(), API_KEYS=keys, APPROVED_TABLES_ONLY=True).test_client()
    body = {**SEED, "table": "vegas_dragon", "bets": [{"type": "banker", "amount": "10.00"}]}
    stored = exchange("/v1/rounds", body, post(before, "/v1/rounds", body, PALMS))
    changed = example()
    if change == "limits":
        changed["tables"]["vegas_dragon"]["rules"]["limits"]["banker"]["min"] = "25.00"
    else:
        changed["tables"]["vegas_dragon"] = changed["tables"]["seoul_main"] | {"currency": "USD"}
        changed["tables"]["vegas_dragon"]["rules"] = {"dealing": "shoe", "tie_pays": 8}
        changed["tables"]["dollars"] = changed["tables"].pop("vegas_dragon")
        changed["operators"]["desert_palms"]["tables"] = ["dollars"]
    # The same signing key, so that the stored signature still verifies.
    after = create_app(
        {
            "TABLES": catalogue_of(changed),
            "API_KEYS": keys,
            "APPROVED_TABLES_ONLY": True,
            "SIGNING_KEY": before.application.services.signing.private,
        }
    ).test_client()
    verdict = after.post("/v1/replays", json=stored, headers=as_(PALMS)).get_json()
    assert verdict["signature"]["verified"] is True
    assert verdict["replay"]["identical"] is True, verdict["replay"]["differences"]
    assert verdict["replay"]["table"] == {"name": "vegas_dragon", "now": now}
    # Played as the catalogue stands now, the same request is another answer, or none.
    assert after.post("/v1/rounds", json=body, headers=as_(PALMS)).status_code == 422


def test_the_metrics_count_rounds_by_table_and_never_by_key_or_operator():
    keys = config.api_keys(f"han_river_casino:{HAN},desert_palms:{PALMS}")
    app = app_with(example(), API_KEYS=keys, APPROVED_TABLES_ONLY=True)
    client = app.test_client()
    for _ in range(2):
        assert (
            client.post("/v1/rounds", json={**SEED, "table": "vegas_dragon"}, headers=as_(PALMS)).status_code
            == 200
        )
    assert (
        client.post("/v1/rounds", json={**SEED, "table": "seoul_main"}, headers=as_(HAN)).status_code == 200
    )
    scraped = generate_latest(app.services.metrics.registry).decode()
    assert 'baccarat_table_rounds_total{table="vegas_dragon"} 2.0' in scraped
    assert 'baccarat_table_rounds_total{table="seoul_main"} 1.0' in scraped
    assert 'baccarat_table_rounds_total{table="seoul_lightning"} 0.0' in scraped
    for secret in (HAN, PALMS, "han_river_casino", "desert_palms"):
        assert secret not in scraped


@pytest.mark.parametrize(
    ("asked", "written"),
    [("ko", "ko"), ("en-GB, ko;q=0.5", "en"), ("ja, en;q=0.8", "en"), ("th", "ko"), (None, "ko")],
)
@pytest.mark.parametrize("form", ["application/json", "text/html", "text/markdown"])
def test_a_tables_sheet_is_written_in_the_languages_it_is_offered_in(scoped, asked, written, form):
    headers = {**as_(HAN), "Accept": form, **({"Accept-Language": asked} if asked else {})}
    for answer in (
        scoped.get("/v1/tables/seoul_main/rules-sheet", headers=headers),
        scoped.post("/v1/rules-sheets", json={"table": "seoul_main"}, headers=headers),
    ):
        assert answer.status_code == 200
        assert answer.headers["Content-Language"] == written
        # Word for word the sheet asked for in that language.
        direct = scoped.get(
            "/v1/tables/seoul_main/rules-sheet", headers={**headers, "Accept-Language": written}
        )
        assert answer.get_data() == direct.get_data()


# --- the certification kit reads the same file ---------------------------------------


def test_certify_certifies_a_catalogued_table_and_refuses_rules_where_only_approved_tables_play(
    tmp_path, capsys, monkeypatch
):
    out = tmp_path / "out"
    run = ["certify", "--tables", str(EXAMPLE), "--seed", "s", "--rounds", "2100", "--in-process"]
    monkeypatch.setenv("BACCARAT_APPROVED_TABLES_ONLY", "true")
    rules = tmp_path / "rules.json"
    rules.write_text(json.dumps({"table": "vegas_dragon", "rules": {"tie_pays": 9}}))
    assert main([*run[:3], "--rules", str(rules), *run[3:], "--out", str(out)]) == 3
    problem = json.loads(capsys.readouterr().err)
    assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [("approved_tables_only", "/rules")]
    assert not out.exists()
    assert main([*run[:3], "--table", "nowhere", *run[3:], "--out", str(out)]) == 3
    assert json.loads(capsys.readouterr().err)["errors"][0]["code"] == "not_one_of"
    assert main([*run[:3], "--table", "vegas_dragon", *run[3:], "--out", str(out)]) in (0, 1)
    capsys.readouterr()
    report = json.loads((out / "report.json").read_text())
    expected = read_tables_file(str(EXAMPLE)).catalogue["vegas_dragon"].rules.id
    assert report["inputs"]["table"] == "vegas_dragon"
    assert expected in json.dumps(report)


@pytest.mark.server
@pytest.mark.parametrize("approved", [True, False])
def test_the_service_says_at_start_which_tables_it_plays_and_in_which_mode(tmp_path, approved):
    log = tmp_path / "log"
    env = {"BACCARAT_APPROVED_TABLES_ONLY": "true"} if approved else {"BACCARAT_TABLES_FILE": None}
    if approved:
        env["BACCARAT_TABLES_FILE"] = str(EXAMPLE)
    with gunicorn(env=env, log=log) as server:
        assert server.url
    said = log.read_text()
    if approved:
        assert "tables: 3 from BACCARAT_TABLES_FILE; approved tables only" in said
        rules = read_tables_file(str(EXAMPLE)).catalogue["seoul_main"].rules.id
        assert f"table seoul_main: rules {rules}, returns player 98.76%, banker 98.94%, tie 85.64%" in said
    else:
        assert "tables: the 9 built-in presets; open: a request may send rules of its own" in said
