"""Site tooling, one job per module; the map is in CONTRIBUTING.md ("Where things are")."""
