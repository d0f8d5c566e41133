"""marshmallow schemas: the one source of validation, serialisation and the
OpenAPI document."""
