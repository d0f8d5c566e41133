"""``Accept-Language`` negotiated as RFC 9110 says: by q-value, then in the
caller's order; ``q=0`` refuses; Chinese by script (CLDR's likely subtags
for a region); anything else by its primary tag; English when nothing
matches. The answer says its language, and caches are told it varies."""

from __future__ import annotations

import pytest
import yaml

from service.api.language import ENGLISH_ONLY, MAX_HEADER, negotiate
from service.contract.language import Languages
from tests.test_openapi import COMMITTED


@pytest.fixture(scope="module")
def languages() -> Languages:
    return Languages.load()


@pytest.mark.parametrize(
    ("header", "tag"),
    [
        (None, "en"),
        ("", "en"),
        ("th", "th"),
        ("th-TH", "th"),
        ("zh-TW", "zh-Hant"),
        ("zh-HK", "zh-Hant"),
        ("zh-MO", "zh-Hant"),
        ("zh-Hant", "zh-Hant"),
        ("zh-Hant-CN", "zh-Hant"),
        ("zh", "zh-Hans"),
        ("zh-CN", "zh-Hans"),
        ("zh-SG", "zh-Hans"),
        ("zh-Hans-HK", "zh-Hans"),
        ("ZH-tw", "zh-Hant"),
        ("ko-KR,ko;q=0.9,en-US;q=0.8", "ko"),
        ("fr-CH, fr;q=0.9, ja;q=0.8, *;q=0.5", "ja"),
        ("en;q=0.5, vi", "vi"),
        ("vi;q=0, ja;q=0.1", "ja"),
        ("ja;q=0.5, ko;q=0.5", "ja"),
        ("fr, de", "en"),
        ("*", "en"),
        ("yue-HK", "en"),
        (";;;,,q=,zh-TW;q=abc", "en"),
        ("x" * 10_000, "en"),
        ("x" * 1019 + ", zh-TW", "zh-Hant"),
        ("a;q=0.1, " * 900 + "zh-TW;q=0.2", "zh-Hant"),
        ("\u00e9t\u00e9, ko", "ko"),
    ],
)
def test_accept_language_negotiation(languages, header, tag):
    assert negotiate(header, languages).tag == tag


def test_every_answer_says_its_language(client):
    for path in ("/v1/tables", "/livez", "/v1/nothing-here"):
        answer = client.get(path, headers={"Accept-Language": "ja-JP"})
        assert answer.headers["Content-Language"] == "ja"
        assert answer.headers["Vary"].endswith("Accept-Language")
    assert client.get("/v1/tables").headers["Content-Language"] == "en"


def test_accept_language_is_read_whole_up_to_the_server_s_header_limit(client):
    """A tag past the first kilobyte still chooses (one cut in the middle
    would choose another), and a header longer than gunicorn would pass is
    refused as a problem naming it, in English, never read in part."""
    header = "x" * (MAX_HEADER - len(", zh-TW")) + ", zh-TW"
    answer = client.get("/v1/rules", headers={"Accept-Language": header})
    assert (answer.status_code, answer.headers["Content-Language"]) == (200, "zh-Hant")
    refused = client.get("/v1/rules", headers={"Accept-Language": header + " "})
    assert refused.status_code == 431
    assert refused.mimetype == "application/problem+json"
    assert refused.headers["Content-Language"] == "en"
    assert "Accept-Language" in refused.get_json()["detail"]


def test_the_contract_document_is_english_whatever_is_asked(client):
    for path in ("/openapi.yaml", "/openapi.json", "/docs"):
        answer = client.get(path, headers={"Accept-Language": "th"})
        assert answer.status_code == 200, path
        assert answer.headers["Content-Language"] == "en", path
        assert "Accept-Language" not in answer.headers.get("Vary", ""), path


def test_the_openapi_document_declares_the_headers_each_operation_honours():
    """A generated client sends Accept-Language and the trace context and
    reads Content-Language (and Vary) by name, on every operation and every
    answer, problems included; the contract document itself does not vary."""
    spec = yaml.safe_load(COMMITTED.read_text())
    components = spec["components"]
    names = {
        components["parameters"][name]["name"] for name in ("AcceptLanguage", "Traceparent", "Tracestate")
    }
    assert names == {"Accept-Language", "traceparent", "tracestate"}
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            refs = [parameter.get("$ref", "") for parameter in operation.get("parameters", [])]
            for name in ("AcceptLanguage", "Traceparent", "Tracestate"):
                assert f"#/components/parameters/{name}" in refs, (method, path)
            assert "431" in operation["responses"], (method, path)
            for status, response in operation["responses"].items():
                shared = "$ref" in response
                if shared:  # a problem, shared by every operation
                    response = components["responses"][response["$ref"].rsplit("/", 1)[1]]
                headers = response.get("headers", {})
                assert "Content-Language" in headers, (method, path, status)
                assert ("Vary" in headers) == (shared or path not in ENGLISH_ONLY), (method, path, status)
    for path in ("/v1/shoes", "/v1/roads"):
        vary = spec["paths"][path]["post"]["responses"]["200"]["headers"]["Vary"]
        assert "`Accept, Accept-Language`" in vary["description"]
