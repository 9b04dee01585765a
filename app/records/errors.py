"""What a record's reader says when a text or a file is not a record it can read.

A ``RecordError`` names where the input broke, for a client to find it: ``where`` holds one or
two of ``line`` and ``column`` (1-based, in a text), ``byte`` (a 0-based offset in a binary
file), ``move`` (the 1-based index of a move in what was submitted), ``game`` (the 1-based index
of a game in a file). The edge turns it into a 422 ``validation_error`` whose message is the
error's and whose fields are ``where``'s (``app.api.records``); the CLI prints it in one line.
"""

from __future__ import annotations

from collections.abc import Mapping


class RecordError(ValueError):
    """A record that cannot be read: why (``message``), and where (``where``)."""

    def __init__(self, message: str, **where: int) -> None:
        super().__init__(message)
        self.message = message
        self.where: Mapping[str, int] = where

    def __str__(self) -> str:
        place = ", ".join(f"{name} {value}" for name, value in self.where.items())
        return f"{place}: {self.message}" if place else self.message
