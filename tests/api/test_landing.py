"""GET /: the service's name and version and where to go next, not a 404."""

from __future__ import annotations

import pytest

from service import __version__
from service.api.landing import LINKS
from service.app import create_app
from service.provenance.build import engine


@pytest.fixture(scope="module")
def keyed():
    return create_app({"TESTING": True, "API_KEYS": ("k-7f3a9c51d0e24b86",)}).test_client()


def test_the_bare_address_names_the_service_and_its_version(client):
    answer = client.get("/")
    assert answer.status_code == 200
    assert answer.mimetype == "application/json"
    assert answer.get_json()["name"] == "baccarat-service"
    assert answer.get_json()["version"] == __version__
    assert answer.get_json()["digest"] == engine()["digest"]  # the build (docs/build-digest.md)


@pytest.mark.parametrize("name", ["docs", "table", "openapi"])
def test_it_links_to_the_docs_the_table_and_the_contract(client, name):
    assert client.get("/").get_json()["links"][name] == LINKS[name]


@pytest.mark.parametrize(("name", "path"), sorted(LINKS.items()))
def test_every_link_answers(client, name, path):
    with client.get(path) as answer:
        assert answer.status_code == 200, name


@pytest.mark.parametrize("name", ["docs", "table", "openapi", "openapi_json", "keys", "livez"])
def test_the_published_documents_it_links_to_need_no_key(keyed, name):
    with keyed.get(LINKS[name]) as answer:
        assert answer.status_code == 200, name


def test_it_needs_no_key(keyed):
    assert keyed.get("/").status_code == 200


def test_it_answers_nothing_but_get(client):
    answer = client.post("/", json={})
    assert answer.status_code == 405
    assert answer.mimetype == "application/problem+json"
