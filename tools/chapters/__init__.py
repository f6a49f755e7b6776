"""Pages generated from data/: the fact check, the FAQ, the error chapter, the API inventory,
the training patterns, the PyTorch pins, the glossary and the torch changelog."""
