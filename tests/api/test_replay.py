"""Where a replayed answer differs from the stored one: JSON Pointers, in document order."""

import pytest

from service.api.replay import differences


@pytest.mark.parametrize(
    ("stored", "replayed", "found"),
    [
        ({"a": 1}, {"a": 1}, []),
        ({"a": 1}, {"a": 2}, [("/a", "1", "2")]),
        ({"a": 1}, {}, [("/a", "1", None)]),
        ({}, {"b": [1]}, [("/b", None, "[1]")]),
        ([1, 2], [1], [("/1", "2", None)]),
        ({"a/b": {"c~d": 1}}, {"a/b": {"c~d": 2}}, [("/a~1b/c~0d", "1", "2")]),
        ({"a": 1}, {"a": 1.0}, [("/a", "1", "1.0")]),
        ({"a": True}, {"a": 1}, [("/a", "true", "1")]),
        ("x", {"x": 1}, [("", '"x"', '{"x":1}')]),
    ],
)
def test_differences(stored, replayed, found):
    assert [(d.pointer, d.stored, d.replayed) for d in differences(stored, replayed)] == found
