"""The MkDocs glue: the one hook, build checks, caches, reader HTML and search."""
