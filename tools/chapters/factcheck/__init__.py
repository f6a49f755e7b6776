"""The fact-check table, from data/fact-check.yml."""
