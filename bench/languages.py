"""What the answer's language costs, in process: ``python -m bench.languages``.

The same signed round, and the same 10,000-slip settlement, asked with no
``Accept-Language`` (English, as before answers had languages), in English
by name, and in Thai and Traditional Chinese, alternated in one run, best of
several repetitions (CPU time of this process). An English answer's
sentences are the engine's own strings; another language's cost a
catalogue lookup and a format per sentence, and a table's bets share their
few sentences (one per pay line and stake).
"""

from __future__ import annotations

import json
from functools import partial

from service.app import create_app

from .bodies import ROUND, SLIPS
from .paths import best_of

LANGUAGES = (None, "en", "th", "zh-Hant")


def run() -> list[str]:
    client = create_app({"TESTING": True}).test_client()
    round_body, slips_body = json.dumps(ROUND), json.dumps(SLIPS)

    def post(path: str, body: str, language: str | None) -> None:
        headers = {} if language is None else {"Accept-Language": language}
        answer = client.post(path, data=body, content_type="application/json", headers=headers)
        assert answer.status_code == 200, answer.get_data()

    lines = []
    for what, path, body, calls in (
        ("a signed round", "/v1/rounds", round_body, 2_000),
        ("a 10,000-slip settlement", "/v1/settlements", slips_body, 3),
    ):
        times = {language: best_of(partial(post, path, body, language), calls) for language in LANGUAGES}
        base = times[None]
        for language, seconds in times.items():
            name = "no Accept-Language" if language is None else f"Accept-Language: {language}"
            lines.append(
                f"{what}, {name}: {seconds * 1e6:,.0f} us per request, "
                f"{base / seconds:.2f} times the English answer's rate"
            )
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
