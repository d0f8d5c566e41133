"""The accepted API keys, kept only as SHA-256 digests.

A presented key is hashed and compared with every configured key's hash by
:func:`hmac.compare_digest`, all of them every time: the answer takes the
same time whichever key, if any, matched and however much of it was right.
The keys are made once, when the app is built (:mod:`.access`), and held
by the app's services (:mod:`.services`); this module imports neither.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable


class ApiKeys:
    """The accepted keys, kept only as SHA-256 digests."""

    def __init__(self, keys: Iterable[str]) -> None:
        self._digests = tuple(hashlib.sha256(key.encode()).digest() for key in keys)

    @property
    def open(self) -> bool:
        """No keys configured: every request is let through."""
        return not self._digests

    def accepts(self, presented: str) -> bool:
        """Whether ``presented`` is one of the keys, in constant time.

        >>> keys = ApiKeys(["k-1", "k-2"])
        >>> keys.accepts("k-2"), keys.accepts("k-3"), keys.accepts("")
        (True, False, False)
        """
        digest = hashlib.sha256(presented.encode()).digest()
        matched = False
        for known in self._digests:
            matched |= hmac.compare_digest(digest, known)
        return matched
