"""POST /v1/roads: the three forms a result may take, the answer's shape, bad inputs, and the
picture that `Accept: image/svg+xml` asks for."""

import pytest

from service.baccarat.shoes.roads import roads
from service.contract import jsonio
from service.contract.road_pictures import road_picture
from service.contract.schemas.roads import MAX_RESULTS, RoadsRequestSchema, RoadsSchema
from tests.api.test_errors import assert_problem
from tests.contract.test_road_pictures import as_json, read_picture

# The README's example: Big Road B B | P | B B B | P P | B with ties at the start and between.
README_RESULTS = [
    *["tie", "tie", "banker", "banker", "player", "tie", "banker"],
    *["banker", "banker", "player", "player", "banker", "tie"],
]
ROADS = ("bead_plate", "big_road", "big_eye_boy", "small_road", "cockroach_pig", "ask")


def post_roads(client, results):
    return client.post("/v1/roads", json={"results": results})


def test_the_readme_example_returns_all_five_roads(client):
    response = post_roads(client, README_RESULTS)
    assert response.status_code == 200
    body = response.get_json()
    assert list(body) == list(ROADS)
    assert body["bead_plate"]["columns"] == 3
    assert body["bead_plate"]["cells"][12] == {
        "column": 2,
        "row": 0,
        "index": 12,
        "outcome": "tie",
        "player_pair": False,
        "banker_pair": False,
        "natural": False,
    }
    first = body["big_road"]["cells"][0]
    assert (first["column"], first["row"], first["outcome"], first["ties"], first["index"]) == (
        0,
        0,
        "banker",
        2,
        2,
    )
    assert body["big_road"]["streaks"] == [
        {"outcome": "banker", "length": 2, "column": 0},
        {"outcome": "player", "length": 1, "column": 1},
        {"outcome": "banker", "length": 3, "column": 2},
        {"outcome": "player", "length": 2, "column": 3},
        {"outcome": "banker", "length": 1, "column": 4},
    ]
    assert (body["big_road"]["columns"], body["big_road"]["rows"]) == (5, 6)
    assert body["big_eye_boy"]["marks"] == ["blue", "blue", "red", "blue", "red", "blue"]
    assert body["small_road"]["marks"] == ["red", "blue", "blue", "blue", "blue"]
    assert body["cockroach_pig"]["marks"] == ["red", "red"]
    assert body["cockroach_pig"]["cells"] == [
        {"column": 0, "row": 0, "index": 10, "colour": "red"},
        {"column": 0, "row": 1, "index": 11, "colour": "red"},
    ]
    assert body["ask"] == {
        "banker": {"big_eye_boy": "red", "small_road": "red", "cockroach_pig": "blue"},
        "player": {"big_eye_boy": "blue", "small_road": "blue", "cockroach_pig": "red"},
    }


def test_an_empty_sequence_has_empty_roads_and_nothing_to_ask(client):
    body = post_roads(client, []).get_json()
    for name in ROADS[:-1]:
        assert (body[name]["cells"], body[name]["columns"]) == ([], 0)
    assert body["ask"]["banker"] == {"big_eye_boy": None, "small_road": None, "cockroach_pig": None}


# Cards for a few rounds: (cards, outcome, player pair, banker pair, natural).
ROUNDS = [
    ("9S KH 2D 7C 5H", "banker", False, False, False),
    ("4S 4H 4D 4C", "tie", True, True, True),
    ("8S 2H 8D 2C 3S", "banker", True, True, False),
    ("5S 9H 4D KC", "tie", False, False, True),
    ("9S 2H KD 3C", "player", False, False, True),
]


def test_rounds_as_v1_rounds_answers_them_mark_the_same_cells_as_flag_objects(client):
    played = [client.post("/v1/rounds", json={"cards": cards.split()}).get_json() for cards, *_ in ROUNDS]
    flags = [
        {"outcome": outcome, "player_pair": pp, "banker_pair": bp, "natural": natural}
        for _, outcome, pp, bp, natural in ROUNDS
    ]
    assert [round_["outcome"] for round_ in played] == [outcome for _, outcome, *_ in ROUNDS]
    from_rounds, from_flags = post_roads(client, played), post_roads(client, flags)
    assert from_rounds.status_code == from_flags.status_code == 200
    assert from_rounds.get_json() == from_flags.get_json()
    beads = from_rounds.get_json()["bead_plate"]["cells"]
    assert [(b["player_pair"], b["banker_pair"], b["natural"]) for b in beads] == [r[2:] for r in ROUNDS]


def test_the_three_forms_mix_and_markers_default_to_false(client):
    mixed = ["banker", {"outcome": "player"}, {"outcome": "tie", "player": {"pair": True, "natural": False},
             "banker": {"pair": False, "natural": False}}]  # fmt: skip
    body = post_roads(client, mixed).get_json()
    assert [(c["outcome"], c["player_pair"]) for c in body["bead_plate"]["cells"]] == [
        ("banker", False),
        ("player", False),
        ("tie", True),
    ]
    assert [c["ties"] for c in body["big_road"]["cells"]] == [0, 1]


@pytest.mark.parametrize(
    ("results", "pointer", "detail_part"),
    [
        (["banker", "dragon"], "/results/1", "not 'dragon'"),
        (["Banker"], "/results/0", "banker"),
        ([7], "/results/0", "an object with an 'outcome'"),
        ([None], "/results/0", "null"),
        ([{"player_pair": True}], "/results/0/outcome", "required"),
        ([{"outcome": "dragon"}], "/results/0/outcome", "Must be one of"),
        ([{"outcome": "banker", "natural": "yes"}], "/results/0/natural", "true or false"),
        ([{"outcome": "banker", "natural": 1}], "/results/0/natural", "true or false"),
        ([{"outcome": "banker", "colour": "red"}], "/results/0/colour", "Unknown field"),
        ([{"outcome": "banker", "player": {"natural": False}, "banker": {"pair": False, "natural": False}}],
         "/results/0/player/pair", "required"),
        ([{"outcome": "banker", "player": {"pair": False, "natural": False}}],
         "/results/0/banker", "required"),
        (["banker"] * (MAX_RESULTS + 1), "/results", "1000"),
        ("banker", "/results", "list"),
    ],
)  # fmt: skip
def test_bad_results_are_422_naming_the_input(client, results, pointer, detail_part):
    assert_problem(post_roads(client, results), 422, pointer=pointer, detail_part=detail_part)


def test_results_are_required(client):
    assert_problem(client.post("/v1/roads", json={}), 422, pointer="/results")


def test_the_longest_sequence_is_answered(client):
    response = post_roads(client, ["banker", "player", "tie", "banker", "banker"] * (MAX_RESULTS // 5))
    assert response.status_code == 200
    assert len(response.get_json()["bead_plate"]["cells"]) == MAX_RESULTS


# --- the picture: Accept chooses JSON or SVG -----------------------------------------------------

SVG = "image/svg+xml"


def test_json_stays_the_default_byte_for_byte(client):
    board = roads(parse_results(README_RESULTS))
    written = jsonio.dumps(RoadsSchema().dump(board))
    for accept in (None, "*/*", "application/json", "text/html", f"{SVG}, application/json", f"{SVG};q=0"):
        response = client.post("/v1/roads", json={"results": README_RESULTS}, headers=accept_header(accept))
        assert response.status_code == 200, accept
        assert response.mimetype == "application/json", accept
        assert response.get_data() == written, accept
        assert response.headers["Vary"] == "Accept, Accept-Language"


@pytest.mark.parametrize("accept", [SVG, "image/*", f"application/json;q=0.5, {SVG}", f"{SVG}, */*;q=0.8"])
def test_accept_preferring_svg_answers_the_picture(client, accept):
    response = client.post("/v1/roads", json={"results": README_RESULTS}, headers={"Accept": accept})
    assert response.status_code == 200
    assert response.mimetype == SVG
    assert response.headers["Vary"] == "Accept, Accept-Language"
    board = roads(parse_results(README_RESULTS))
    assert response.get_data(as_text=True) == road_picture(board)
    assert read_picture(response.get_data(as_text=True)) == as_json(
        post_roads(client, README_RESULTS).get_json()
    )


@pytest.mark.parametrize(
    ("body", "pointer"),
    [({"results": ["banker", "dragon"]}, "/results/1"), ({}, "/results")],
)
def test_a_bad_request_for_the_picture_is_the_same_problem(client, body, pointer):
    for accept in (SVG, "application/json"):
        assert_problem(client.post("/v1/roads", json=body, headers={"Accept": accept}), 422, pointer=pointer)


def accept_header(accept):
    return {} if accept is None else {"Accept": accept}


def parse_results(results):
    return RoadsRequestSchema().load({"results": results})
