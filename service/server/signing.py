"""The WSGI layer that signs the answers that deal or settle (docs/audit.md).

Which requests are signed is the app's to say: it gives this layer a
predicate (``signs``, from each operation's policy: service/api/policy.py),
and this layer knows no path. Inside the body limit
(service/server/middleware.py), so a body it reads is a bounded one. The
request's bytes are hashed as the app reads them, never kept: what the app
left unread is read (and hashed) after it answers. A 200 answer to a
request the app marks is then given its ``Content-Digest``,
``Signature-Input`` and ``Signature`` headers
(:mod:`service.contract.audit.signing`); any other answer passes untouched.
No Flask here: a WSGI layer, like the others.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any
from urllib.parse import quote

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from ..contract.audit.keys import SigningKey
from ..contract.audit.signing import sign_answer
from .middleware import StartResponse, WSGIApp, refuse
from .tracing import SIGN, step

log = logging.getLogger(__name__)


def signing_key(config: Mapping[str, Any]) -> SigningKey:
    """The app's signing key: the configured one (``SIGNING_KEY``), else the
    ephemeral one gunicorn's master made for its workers, else a new
    ephemeral one (an app built outside gunicorn); with the earlier keys
    (``PUBLISHED_KEYS``) published beside it."""
    earlier = tuple(config.get("PUBLISHED_KEYS", ()))
    configured: Ed25519PrivateKey | None = config.get("SIGNING_KEY")
    if configured is not None:
        return SigningKey(configured, earlier=earlier)
    shared: Ed25519PrivateKey | None = config.get("EPHEMERAL_SIGNING_KEY")
    key = SigningKey(shared or Ed25519PrivateKey.generate(), ephemeral=True, earlier=earlier)
    log.warning(
        "BACCARAT_SIGNING_KEY_FILE is not set: answers are signed with the ephemeral key %s,"
        " which the JWKS marks as such and which is gone when the service stops",
        key.public.kid,
    )
    return key


class HashingReader:
    """``wsgi.input`` read through: the bytes pass on, and only their hash is kept."""

    def __init__(self, stream: Any, length: int) -> None:
        self.stream = stream
        self.left = length
        self.hash = hashlib.sha256()

    def read(self, size: int = -1) -> bytes:
        if self.left <= 0:
            return b""
        size = self.left if size is None or size < 0 else min(size, self.left)
        data: bytes = self.stream.read(size)
        self.left -= len(data)
        self.hash.update(data)
        return data

    def readline(self, size: int = -1) -> bytes:
        size = self.left if size is None or size < 0 else min(size, self.left)
        data: bytes = self.stream.readline(size) if self.left > 0 else b""
        self.left -= len(data)
        self.hash.update(data)
        return data

    def __iter__(self) -> Any:
        return iter(self.readline, b"")

    def rest(self) -> bytes:
        """What the app did not read, read now (its hash only is kept)."""
        while self.left > 0 and self.read(65536):
            pass
        return self.hash.digest()


_CHARS = r"A-Za-z0-9._~\-!$&'()*+,;="  # RFC 3986: unreserved and sub-delims
_PCT = r"%[0-9A-Fa-f]{2}"
#: A Host that an RFC 3986 URI can name: a name or IPv4 address, or an IPv6 literal; and a port.
HOST = re.compile(rf"(?:(?:[{_CHARS}]|{_PCT})+|\[(?P<ipv6>[0-9A-Fa-f:.]+)\])(?::[0-9]*)?")
#: A query an RFC 3986 URI can carry.
QUERY = re.compile(rf"(?:[{_CHARS}:@/?]|{_PCT})*")


def target_uri(environ: dict[str, Any]) -> str:
    """The request's absolute URI as the service received it (PEP 3333's
    recipe), or ValueError when its Host or query cannot be part of a URI
    (a signature over it could not be checked)."""
    scheme = environ.get("wsgi.url_scheme", "http")
    host = environ.get("HTTP_HOST")
    if not host:
        host = environ.get("SERVER_NAME", "localhost")
        port = environ.get("SERVER_PORT", "")
        if port and port != {"http": "80", "https": "443"}.get(scheme):
            host += f":{port}"
    named = HOST.fullmatch(host)
    if named is None or (named["ipv6"] is not None and not is_ipv6(named["ipv6"])):
        raise ValueError("the Host header is not a host a URI can name")
    query = environ.get("QUERY_STRING")
    if query and QUERY.fullmatch(query) is None:
        raise ValueError("the query is not one a URI can carry")
    # WSGI strings carry the path's bytes as Latin-1 (PEP 3333).
    raw = (environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "/")).encode("latin-1")
    path = quote(raw, safe="/:@!$&'()*+,;=-._~")
    return f"{scheme}://{host}{path}" + (f"?{query}" if query else "")


def is_ipv6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


class Signing:
    """Sign with ``key`` the 200 answers to the requests ``signs`` marks."""

    def __init__(self, app: WSGIApp, key: SigningKey, signs: Callable[[Mapping[str, Any]], bool]) -> None:
        self.app = app
        self.key = key
        self.signs = signs

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        if not self.signs(environ):
            return self.app(environ, start_response)
        try:
            uri = target_uri(environ)
        except ValueError as error:  # refused before anything is dealt or settled
            return refuse(
                environ, start_response, 400, "Bad Request", f"The answer cannot be signed: {error}"
            )
        length = environ.get("CONTENT_LENGTH") or "0"
        reader = HashingReader(environ["wsgi.input"], int(length) if length.isdigit() else 0)
        environ["wsgi.input"] = reader
        answered: list[Any] = []

        def hold(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            answered[:] = [status, headers, exc_info]
            return lambda data: None  # the app answers with its iterable, as Flask does

        chunks = self.app(environ, hold)
        try:
            body = b"".join(chunks)
        finally:
            if hasattr(chunks, "close"):
                chunks.close()
        status, headers, exc_info = answered
        if status.startswith("200 "):
            content_type = next((value for name, value in headers if name.lower() == "content-type"), "")
            # Every answer says its language (service/api/language.py); one that
            # does not is English, and says so, since the signature covers it.
            language = next((value for name, value in headers if name.lower() == "content-language"), None)
            if language is None:
                language = "en"
                headers = [*headers, ("Content-Language", language)]
            with step(SIGN):  # a span of the request's trace, when it is traced
                signature = sign_answer(
                    self.key,
                    environ["REQUEST_METHOD"],
                    uri,
                    reader.rest(),
                    200,
                    content_type,
                    body,
                    content_language=language,
                )
            headers = [*headers, *signature.items()]
        start_response(status, headers, exc_info)
        return [body]
