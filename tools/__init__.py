"""Site tooling: snippet runner and records, build-time figures, MkDocs hooks."""
