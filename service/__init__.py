"""Baccarat rules-and-settlement service.

The package splits in two:

* :mod:`service.baccarat` -- the pure rules engine (cards, the tableau, shoes,
  settlement, tables). It imports nothing from Flask or marshmallow.
* :mod:`service.web` -- the HTTP layer: schemas, views and the one place that
  turns errors into ``application/problem+json``.

gunicorn loads ``service.app:create_app()``; nothing runs at import time.
"""

__version__ = "0.1.0"
