"""GET /docs: the Swagger UI page and its assets come from the service alone.

The browser test (tests/test_docs_browser.py) drives the page; these check
what it is made of, without a browser.
"""

import json
import re

import pytest

from service.api import docs
from service.app import create_app

URL_ATTRIBUTES = re.compile(r"""(?:src|href|url)\s*[:=]\s*["']([^"']+)["']""")


@pytest.fixture
def keyed():
    return create_app({"TESTING": True, "API_KEYS": ("k-7f3a9c51d0e24b86",)}).test_client()


def test_the_page_loads_only_what_the_service_serves(client):
    page = client.get("/docs")
    assert page.status_code == 200
    assert page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    urls = URL_ATTRIBUTES.findall(html)
    assert sorted(urls) == sorted(
        [
            "/docs/assets/swagger-ui.css",
            "/docs/assets/swagger-ui-standalone-preset.js",
            "/docs/assets/swagger-ui-bundle.js",
            "/openapi.json",
        ]
    )
    for url in urls:
        with client.get(url) as response:  # closes the served file
            assert response.status_code == 200, url
    assert "http://" not in html
    assert "https://" not in html


def test_the_page_turns_off_the_online_validator(client):
    html = client.get("/docs").get_data(as_text=True)
    settings = json.loads(re.search(r"var override_config = (\{.*\});", html).group(1))
    assert settings["validatorUrl"] is None


def test_the_browser_may_load_nothing_from_outside(client):
    policy = client.get("/docs").headers["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    for directive in ("default-src", "connect-src", "form-action"):
        assert directives[directive] == "'self'"
    for directive in ("script-src", "style-src", "img-src", "font-src"):
        assert directives[directive].startswith("'self'")
        assert "http" not in directives[directive]


@pytest.mark.parametrize(
    ("name", "mimetype"),
    [
        ("swagger-ui.css", "text/css"),
        ("swagger-ui-bundle.js", "text/javascript"),
        ("swagger-ui-standalone-preset.js", "text/javascript"),
    ],
)
def test_assets_are_served_from_the_installed_package(client, name, mimetype):
    with client.get(f"/docs/assets/{name}") as response:
        assert response.status_code == 200
        assert response.mimetype == mimetype
        assert response.data == (docs.ASSETS / name).read_bytes()
        assert "max-age=86400" in response.headers["Cache-Control"]


@pytest.mark.parametrize("name", ["index.html", "swagger-ui-bundle.js.map", "..%2F__init__.py", "missing.js"])
def test_other_files_are_not_served(client, name):
    response = client.get(f"/docs/assets/{name}")
    assert response.status_code == 404
    assert response.mimetype == "application/problem+json"


@pytest.mark.parametrize("path", ["/docs", "/docs/assets/swagger-ui-bundle.js", "/openapi.json"])
def test_the_docs_need_no_api_key(keyed, path):
    with keyed.get(path) as response:
        assert response.status_code == 200


def test_trying_an_operation_from_the_docs_still_needs_a_key(keyed):
    assert keyed.post("/v1/rounds", json={"cards": ["9S", "KH", "2D", "7C", "5H"]}).status_code == 401
