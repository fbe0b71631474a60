"""A hostile corpus for the terminal-safety tests, generated at test time (see corpus.py)."""
