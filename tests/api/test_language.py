"""``Accept-Language`` negotiated as RFC 9110 says: by q-value, then in the
caller's order; ``q=0`` refuses; Chinese by script (CLDR's likely subtags
for a region); anything else by its primary tag; English when nothing
matches. The answer says its language, and caches are told it varies."""

from __future__ import annotations

import pytest

from service.api.language import negotiate
from service.contract.language import Languages


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
