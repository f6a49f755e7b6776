"""The "PyTorch pins this too" lines, from data/upstream-tests.yml."""
