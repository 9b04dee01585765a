"""Test doubles shared by several test modules."""

from __future__ import annotations

import itertools


class FakeClock:
    """A clock that stands still until a test moves it (``clock.now += seconds``)."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class FakeCpu:
    """A CPU clock under which every metered stretch of work takes ``step`` seconds."""

    def __init__(self, step: float) -> None:
        self._ticks = itertools.count()
        self.step = step

    def __call__(self) -> float:
        # Called at the start and the end of each stretch: odd calls end one.
        return (next(self._ticks) + 1) // 2 * self.step
