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

from ..server.config import ApiKey

#: What :meth:`ApiKeys.match` answers for a key that is not one of them.
REFUSED = object()


class ApiKeys:
    """The accepted keys, kept only as SHA-256 digests, each with the
    operator it names (None: a key that reaches every table)."""

    def __init__(self, keys: Iterable[str | ApiKey]) -> None:
        entries = [key if isinstance(key, ApiKey) else ApiKey(key) for key in keys]
        self._digests = tuple(hashlib.sha256(entry.key.encode()).digest() for entry in entries)
        self._operators = tuple(entry.operator for entry in entries)

    @property
    def open(self) -> bool:
        """No keys configured: every request is let through."""
        return not self._digests

    def match(self, presented: str) -> str | object | None:
        """The operator ``presented`` names (None for a key that names none),
        or :data:`REFUSED`, in constant time: every key is compared, whichever matched.

        >>> keys = ApiKeys(["k-1", ApiKey("k-2", "north")])
        >>> keys.match("k-2"), keys.match("k-1"), keys.match("k-3") is REFUSED
        ('north', None, True)
        """
        digest = hashlib.sha256(presented.encode()).digest()
        found: str | object | None = REFUSED
        for known, operator in zip(self._digests, self._operators, strict=True):
            if hmac.compare_digest(digest, known):
                found = operator
        return found

    def accepts(self, presented: str) -> bool:
        """Whether ``presented`` is one of the keys, in constant time.

        >>> keys = ApiKeys(["k-1", "k-2"])
        >>> keys.accepts("k-2"), keys.accepts("k-3"), keys.accepts("")
        (True, False, False)
        """
        return self.match(presented) is not REFUSED
