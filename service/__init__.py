"""Baccarat rules-and-settlement service.

The package's folders are its layers (CONTRIBUTING.md, "The layers"):

* :mod:`service.baccarat` -- the pure rules engine, in rooms by concern,
  lowest first: the rulebook, the bets, the shoes, the counting of rounds,
  the multiplier game, the tables, play, the odds, Peek Baccarat, and the
  requests on top (CONTRIBUTING.md, "The engine's rooms"). It imports
  nothing from Flask or marshmallow.
* :mod:`service.contract` -- what goes in and out: the marshmallow schemas,
  the answer writers, problem documents, JSON, and the audit's keys,
  signatures and stored exchanges; usable without Flask.
* :mod:`service.cli` -- the ``baccarat`` command.
* :mod:`service.server` -- the WSGI layers, metrics, logs, the gunicorn
  worker and settings from the environment.
* :mod:`service.api` -- the Flask app's parts: views, each operation's
  policy, access control, errors as ``application/problem+json``, replay.

:mod:`service.app` builds the app: gunicorn loads
``service.app:create_app()``; nothing runs at import time.
"""

__version__ = "1.0.0"
