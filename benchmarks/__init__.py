"""Benchmarks: measured on a named machine, results committed as data."""
