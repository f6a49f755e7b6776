"""Figures drawn by scripts under figures/, rendered once per content hash."""
