"""Maintainer tools: the page scaffold, the fault drill, the CONTRIBUTING map."""
