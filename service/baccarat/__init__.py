"""The rules engine: Punto Banco as pure Python, with no web imports."""
