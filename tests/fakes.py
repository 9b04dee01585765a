"""Test doubles shared by several test modules."""

from __future__ import annotations


class FakeClock:
    """A clock that stands still until a test moves it (``clock.now += seconds``)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
