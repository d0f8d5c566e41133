"""The accepted keys: every one compared, in constant time, as digests."""

import hmac

from service.api.api_keys import ApiKeys


def test_a_key_is_accepted_only_when_it_is_one_of_them():
    keys = ApiKeys(["first", "second-longer-key"])
    assert [keys.accepts(key) for key in ["first", "second-longer-key", "second", "", "FIRST"]] == [
        True,
        True,
        False,
        False,
        False,
    ]
    assert ApiKeys([]).open
    assert not keys.open


def test_every_key_is_compared_whichever_matches(monkeypatch):
    """No early exit: the work done does not depend on which key matched."""
    calls = []
    compare = hmac.compare_digest

    def counting(a, b):
        calls.append((len(a), len(b)))
        return compare(a, b)

    monkeypatch.setattr(hmac, "compare_digest", counting)
    keys = ApiKeys(["first", "second-longer-key", "third"])
    for presented in ["first", "third", "nope", "", "x" * 1000]:
        calls.clear()
        keys.accepts(presented)
        # Three comparisons, each of two SHA-256 digests: equal lengths whatever was sent.
        assert calls == [(32, 32)] * 3
