"""Which build is running: the digest of the engine's critical files.

A lab certifies a build, not only a configuration, and checks in the field
that the critical programs running are the certified ones (GLI-19's
critical control program verification). The critical files are the engine's,
every file of ``service/baccarat/`` as installed (the rulebook, the bets,
the shoes and the shuffle, the tables and settlement, the games, and the
data they ship); their digest is SHA-256 over a manifest a person can
recompute with ``sha256sum`` (``manifest.py``, docs/build-digest.md). The
build records the digest it claims (setup.py), and the running service
compares the files it has with that claim at start and names the digest in
every answer's ``engine`` (``build.py``).

A layer of its own, below every other but the engine's rank, and stdlib
only: the contract (answers, the JWKS), the certification kit (its report),
the command line (``baccarat verify-build``) and the server (the refusal to
start) all name the same digest, and the build step reads ``manifest.py``
before the package exists.
"""
