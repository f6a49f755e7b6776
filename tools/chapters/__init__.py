"""Pages generated from data/: the fact check, the FAQ, the error chapter, the PyTorch pins,
the glossary and the torch changelog."""
