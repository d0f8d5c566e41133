"""The contract: what goes over the wire, without the web.

The marshmallow schemas (validation, serialisation and the OpenAPI
document's components), the answers written from the engine's objects, the
document's shared parts, JSON as the service reads and writes it, and the
problem documents. The command line uses all of it and loads no Flask.
"""
