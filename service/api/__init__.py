"""The HTTP app: the Flask views, the one place errors become problems,
API keys, and the interactive docs page."""
