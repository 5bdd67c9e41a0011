"""Looking inside the library without changing it: ``previews`` (a book rebuilt from the catalog, another
chunking previewed, lint, JSONL export) · ``inspector`` (``Inspector``: what the inspector page shows, the
query probe running the chat's own pipeline)."""
