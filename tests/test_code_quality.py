"""The style gates of DESIGN.md run with the suite: ruff (lint, format) and mypy --strict."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ["app", "tests", "bench"]
CACHE = "test-artifacts/cache"  # the suite writes into the checkout only under test-artifacts/


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "--cache-dir", CACHE, *SOURCES],
        ["ruff", "format", "--check", "--cache-dir", CACHE, *SOURCES],
        ["mypy", "--strict", "--cache-dir", f"{CACHE}/mypy", "app"],
    ],
    ids=["ruff-check", "ruff-format", "mypy-strict"],
)
def test_code_passes(command: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
