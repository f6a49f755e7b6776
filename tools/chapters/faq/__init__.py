"""The FAQ chapter, from data/questions.yml."""
