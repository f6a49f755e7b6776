"""The site's search: Pagefind run over the built site, one index per language."""
