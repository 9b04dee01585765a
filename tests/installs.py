"""Installs the tests make with pip into fresh virtualenvs (the service as the README's first
command installs it, the Docker image's install, the Python client's wheel alone): the
environment they run in, and what a failed install means."""

from __future__ import annotations

import os

import pytest

# What a failed install prints when the package index cannot be reached at all.
OFFLINE_SIGNS = ("No matching distribution", "Could not find a version", "NewConnectionError",
                 "Temporary failure in name resolution", "Network is unreachable")  # fmt: skip


def clean_environment() -> dict[str, str]:
    """This process's environment (the pip configuration included) without what would put the
    checkout or this virtualenv on another interpreter's path."""
    left_out = {"PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP"}
    return {name: value for name, value in os.environ.items() if name not in left_out}


def fail_or_skip_install(what: str, output: str) -> None:
    """A failed install: skipped locally when the package index cannot be reached (with the
    reason), a failure otherwise and always under CI=true."""
    message = f"{what}: {output}"
    offline = any(sign in output for sign in OFFLINE_SIGNS)
    if offline and os.environ.get("CI", "").lower() not in ("1", "true", "yes"):
        pytest.skip(f"the package index cannot be reached ({message})")
    pytest.fail(message)
