"""The API inventory: every public API that decides whether a gradient flows, where, or what
the graph keeps, from data/apis.yml."""
