"""The connection bounds' settings (``app/server.py``), apart from a running server: how many
connections fit the open-files limit. The bounds themselves are tested against a real server in
``tests/e2e/test_hostile.py``."""

from __future__ import annotations

import logging
import resource

import pytest

from app.server import RESERVED_FILES, ConnectionLimits, open_files_for
from app.settings import Settings


def limits(monkeypatch: pytest.MonkeyPatch, soft: int, hard: int) -> list[tuple[int, int]]:
    """Pretend the process has these open-files limits; returns the limits it sets."""
    current = [soft, hard]
    raised: list[tuple[int, int]] = []

    def setrlimit(which: int, value: tuple[int, int]) -> None:
        assert which == resource.RLIMIT_NOFILE
        if value[0] > current[1]:
            raise ValueError("over the hard limit")
        current[0] = value[0]
        raised.append(value)

    monkeypatch.setattr(resource, "getrlimit", lambda which: tuple(current))
    monkeypatch.setattr(resource, "setrlimit", setrlimit)
    return raised


def test_the_soft_limit_is_raised_to_fit_the_connections(monkeypatch: pytest.MonkeyPatch) -> None:
    raised = limits(monkeypatch, soft=1024, hard=1_048_576)
    settings = Settings(max_connections=4096)
    assert open_files_for(settings) == 4096
    assert raised == [(4096 + RESERVED_FILES, 1_048_576)]


def test_connections_are_bounded_by_a_lower_hard_limit(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    limits(monkeypatch, soft=1024, hard=2048)
    with caplog.at_level(logging.WARNING, logger="app.server"):
        limit = ConnectionLimits.of(Settings(max_connections=4096)).max_connections
    assert limit == 2048 - RESERVED_FILES
    assert "ADJUDICATOR_MAX_CONNECTIONS=4096" in caplog.text


def test_a_limit_that_fits_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    raised = limits(monkeypatch, soft=65_536, hard=65_536)
    assert open_files_for(Settings(max_connections=100)) == 100
    assert raised == []
