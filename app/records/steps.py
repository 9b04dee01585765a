"""Work done a step at a time: a generator that yields between two steps and returns its result.

A record's replay, its rendering and its hash chain are linear in its moves: ten thousand moves
are a tenth of a second or more of CPU time. Written as ``Steps`` (one step a move), the work can
be run a slice at a time by the HTTP edge, which serves other requests between slices and
charges each slice to the client that asked (``app.api.work.in_slices``), and run through at
once where nothing else waits (``completed``: the ``adjudicator`` command, the OpenAPI examples).
A step yields nothing: where the work is cut changes nothing of what it returns.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TypeAlias, TypeVar

R = TypeVar("R")

Steps: TypeAlias = Generator[None, None, R]


def completed(steps: Steps[R]) -> R:
    """What ``steps`` returns, its steps run one after another at once."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            result: R = done.value
            return result
