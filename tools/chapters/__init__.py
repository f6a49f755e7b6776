"""Pages generated from data/: the fact check, the FAQ, the PyTorch pins and the glossary."""
