"""Players' ratings: pure Python, no web framework, no I/O, nothing else of the house."""
