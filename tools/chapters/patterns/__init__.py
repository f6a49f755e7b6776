"""The training-pattern chapter, from data/patterns.yml."""
