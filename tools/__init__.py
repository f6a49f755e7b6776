"""The site's tooling, one package per capability.

The map is in CONTRIBUTING.md ("Where things are"), made from these docstrings by
`python -m tools dev map`.
"""
