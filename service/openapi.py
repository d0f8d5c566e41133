"""``python -m service.openapi`` prints the OpenAPI document the code generates.

The document is committed as ``openapi.yaml`` so that API changes show up in
review; a test fails when the two differ (``make openapi`` regenerates it).
"""

from __future__ import annotations

from .app import create_app


def generate() -> str:
    """The OpenAPI document as YAML."""
    return create_app({}).services.openapi_yaml


if __name__ == "__main__":
    print(generate(), end="")
