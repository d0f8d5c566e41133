"""API keys: Bearer keys from the environment, compared in constant time,
401 problems, public probes, and an open mode that says so."""

import logging
import re

import pytest
import yaml

from service.api import access
from service.api.access import bearer_token
from service.app import create_app
from service.server import config

KEYS = ("key-one", "key-two")
ROUND = {"cards": ["9S", "KH", "2D", "7C", "5H"]}


@pytest.fixture
def keyed():
    return create_app({"API_KEYS": KEYS}).test_client()


@pytest.mark.parametrize("key", KEYS)
def test_each_configured_key_is_accepted(keyed, key):
    response = keyed.post("/v1/rounds", json=ROUND, headers={"Authorization": f"Bearer {key}"})
    assert response.status_code == 200


def test_the_scheme_name_is_case_insensitive(keyed):
    response = keyed.post("/v1/rounds", json=ROUND, headers={"Authorization": f"bearer {KEYS[0]}"})
    assert response.status_code == 200


@pytest.mark.parametrize(
    ("authorization", "error"),
    [
        (None, None),
        ("", None),
        ("Bearer", None),
        ("Bearer ", None),
        (f"Basic {KEYS[0]}", None),
        (KEYS[0], None),
        ("Bearer key-three", "invalid_token"),
        (f"Bearer {KEYS[0]}x", "invalid_token"),
        (f"Bearer {KEYS[0][:-1]}", "invalid_token"),
        (f"Bearer {KEYS[0]},{KEYS[1]}", "invalid_token"),
    ],
)
def test_a_missing_or_wrong_key_is_a_401_problem(keyed, authorization, error):
    headers = {} if authorization is None else {"Authorization": authorization}
    response = keyed.post("/v1/rounds", json=ROUND, headers=headers)
    assert response.status_code == 401
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert problem["status"] == 401
    assert problem["title"] == "Unauthorized"
    assert problem["instance"] == "/v1/rounds"
    challenge = response.headers["WWW-Authenticate"]
    assert challenge.startswith('Bearer realm="baccarat"')
    assert ('error="invalid_token"' in challenge) == (error is not None)


def test_the_key_is_checked_before_the_body(keyed):
    """A caller without a key learns nothing about the API, not even that
    its body is of the wrong type."""
    response = keyed.post("/v1/rounds", data="x", content_type="text/plain")
    assert response.status_code == 401


def test_an_unknown_path_without_a_key_is_401_not_404(keyed):
    assert keyed.get("/v1/no-such-thing").status_code == 401


def test_a_refused_key_is_logged_but_never_echoed(keyed, caplog):
    caplog.set_level(logging.WARNING, logger="service.api.access")
    response = keyed.post("/v1/rounds", json=ROUND, headers={"Authorization": "Bearer sekrit-XYZ"})
    assert response.status_code == 401
    assert "sekrit-XYZ" not in response.get_data(as_text=True)
    assert "sekrit-XYZ" not in str(dict(response.headers))
    assert "unknown API key" in caplog.text
    assert "sekrit-XYZ" not in caplog.text


@pytest.mark.parametrize("path", sorted({"/livez", "/readyz", "/openapi.yaml", "/openapi.json"}))
def test_probes_and_the_api_description_need_no_key(keyed, path):
    assert keyed.get(path).status_code == 200


def spec_operations():
    spec = yaml.safe_load(create_app({}).test_client().get("/openapi.yaml").get_data(as_text=True))
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            yield spec, path, method, operation


@pytest.mark.parametrize(
    ("path", "method", "public"),
    [(path, method, op.get("security") == []) for _, path, method, op in spec_operations()],
)
def test_the_openapi_document_says_which_operations_need_a_key(keyed, path, method, public):
    """Every operation documented as public answers without a key, every
    other one refuses, so the document and the code cannot drift apart."""
    url = re.sub(r"\{[^}]+\}", "x", path)
    response = keyed.open(url, method=method.upper(), json={} if method == "post" else None)
    assert (response.status_code != 401) == public


def test_the_openapi_document_declares_the_bearer_scheme():
    spec = next(spec_operations())[0]
    assert spec["components"]["securitySchemes"][access.SCHEME] == {
        "type": "http",
        "scheme": "bearer",
        "description": spec["components"]["securitySchemes"][access.SCHEME]["description"],
    }
    assert spec["security"] == [{access.SCHEME: []}]


def test_with_no_keys_the_api_is_open_and_says_so(caplog):
    caplog.set_level(logging.WARNING, logger="service.api.access")
    client = create_app({"API_KEYS": ()}).test_client()
    assert "the API is open" in caplog.text
    assert client.post("/v1/rounds", json=ROUND).status_code == 200


def test_with_keys_nothing_is_said_about_open_mode(caplog):
    caplog.set_level(logging.WARNING, logger="service.api.access")
    create_app({"API_KEYS": KEYS})
    assert "open" not in caplog.text


@pytest.mark.parametrize(
    ("header", "token"),
    [("Bearer abc", "abc"), ("BEARER  abc ", "abc"), ("Bearer", None), ("Token abc", None), (None, None)],
)
def test_bearer_token(header, token):
    assert bearer_token(header) == token


K1, K2 = "key-one-0123456789", "key-two-0123456789"


@pytest.mark.parametrize(
    ("value", "keys"),
    [(K1, (K1,)), (f"{K1},{K2}", (K1, K2)), (f" {K1} , {K2} ,", (K1, K2))],
)
def test_keys_from_the_environment(value, keys):
    read = config.from_environment({"BACCARAT_API_KEYS": value})["API_KEYS"]
    assert read == tuple(config.ApiKey(key) for key in keys)


def test_a_key_may_name_its_operator():
    assert config.api_keys(f"north:{K1}, {K2}") == (config.ApiKey(K1, "north"), config.ApiKey(K2))


@pytest.mark.parametrize("value", [f"North:{K1}", f"no rth:{K1}", f":{K1}x"])
def test_an_operator_name_is_lower_case_letters_digits_and_underscores(value):
    with pytest.raises(ValueError, match="BACCARAT_API_KEYS"):
        config.from_environment({"BACCARAT_API_KEYS": value})


@pytest.mark.parametrize("value", ["", ",", " , ", "short", f"{K1},short"])
def test_keys_set_but_empty_or_short_fail_closed_at_start(value):
    """A variable set by mistake to nothing (an empty Secret) must not open the API."""
    with pytest.raises(ValueError, match="BACCARAT_API_KEYS"):
        config.from_environment({"BACCARAT_API_KEYS": value})


def test_a_key_with_a_space_fails_at_start():
    with pytest.raises(ValueError, match="BACCARAT_API_KEYS"):
        config.from_environment({"BACCARAT_API_KEYS": "two words"})


def test_keys_from_the_environment_reach_the_app(monkeypatch):
    monkeypatch.setenv("BACCARAT_API_KEYS", K1)
    client = create_app().test_client()
    assert client.post("/v1/rounds", json=ROUND).status_code == 401
    assert client.post("/v1/rounds", json=ROUND, headers={"Authorization": f"Bearer {K1}"}).status_code == 200
