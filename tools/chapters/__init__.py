"""Pages generated from data/: the fact check, the FAQ, the PyTorch pins, the glossary and
the torch changelog."""
