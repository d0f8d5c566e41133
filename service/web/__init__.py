"""The HTTP layer: schemas, views, and the one place errors become problems."""
