"""Every request of the Postman collection has a saved example: what the service answers it now.

The examples are recorded by ``make postman`` (tests/postman_examples.py);
here the collection is run again the same way and every example must come
out the same, so a change to an answer (or to a request) shows up as a
stale example until the collection is regenerated.
"""

from __future__ import annotations

import json

import pytest

from . import tools
from .postman_build import load
from .postman_examples import API_KEY, CountedSeeds, comparable, recorded_answers
from .postman_schemas import request_items

COLLECTION = load()


def test_every_request_has_one_saved_example_of_itself():
    for item in request_items(COLLECTION["item"]):
        examples = item.get("response", [])
        assert len(examples) == 1, item["name"]
        example = examples[0]
        assert example["name"] == item["name"]
        assert example["originalRequest"] == item["request"], f"{item['name']}: run `make postman`"
        assert isinstance(example["code"], int), item["name"]
        assert example["status"], item["name"]
        assert {h["key"].lower() for h in example["header"]} >= {"content-type"}, item["name"]
        if example["_postman_previewlanguage"] == "json":
            json.loads(example["body"])


def test_no_example_holds_a_header_of_one_call_or_a_key():
    text = json.dumps(COLLECTION)
    assert API_KEY not in text
    for item in request_items(COLLECTION["item"]):
        saved = {h["key"].lower() for h in item["response"][0]["header"]}
        assert not saved & {"x-request-id", "date", "content-length"}, item["name"]


def test_the_examples_show_every_kind_of_answer():
    codes = {item["response"][0]["code"] for item in request_items(COLLECTION["item"])}
    assert {200, 400, 401, 404, 405, 415, 422} <= codes


def test_counted_seeds_stand_for_the_csprng_the_same_way_every_time():
    seeds, again = CountedSeeds(), CountedSeeds()
    drawn = [seeds.token_hex(32), seeds.token_hex(32)]
    assert drawn == [again.token_hex(32), again.token_hex(32)]
    assert drawn[0] != drawn[1]
    assert all(len(seed) == 64 and int(seed, 16) >= 0 for seed in drawn)


def test_metrics_are_compared_by_their_series_not_their_values():
    def metrics(body: str) -> dict:
        return {
            "header": [{"key": "Content-Type", "value": "text/plain; version=0.0.4; charset=utf-8"}],
            "body": body,
        }

    first = metrics('# TYPE t counter\nt_total{a="1"} 2.0\nt_total{a="2"} 0.5\n')
    assert comparable(first) == comparable(
        metrics('# TYPE t counter\nt_total{a="2"} 7.0\nt_total{a="1"} 3.0\n')
    )
    assert comparable(first) != comparable(metrics('# TYPE t counter\nt_total{a="1"} 2.0\n'))


@pytest.mark.server
def test_the_saved_examples_are_what_the_service_answers_now():
    tools.newman()  # skip (or fail under CI) before starting a server
    answers = recorded_answers(COLLECTION)
    stale = [
        item["name"]
        for item, answer in zip(request_items(COLLECTION["item"]), answers, strict=True)
        if comparable(item["response"][0]) != comparable(answer)
    ]
    assert stale == [], "these examples differ from the service's answers: run `make postman`"
