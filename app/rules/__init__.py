"""The game rules: pure Python, no web framework, no I/O, no global state."""
