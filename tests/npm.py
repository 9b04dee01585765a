"""Node packages the tests use (the TypeScript client's tools, the spec's linter): each a
directory of the repository with a ``package.json`` and its ``package-lock.json``, installed by
``npm ci`` when its ``node_modules`` is missing or older than its lock file, and kept there
(git-ignored) for the next run. Without node and npm the tests skip locally and fail under
CI=true (``require_binary``)."""

from __future__ import annotations

import fcntl
import os
import subprocess
from pathlib import Path

from tests.servers import require_binary

ROOT = Path(__file__).resolve().parents[1]
# Held while a process checks and installs a package's node_modules: under pytest-xdist every
# worker that runs a test of it asks for them, and two `npm ci` in one directory would delete
# each other's files.
LOCKS = ROOT / "test-artifacts"


def run(command: list[str], cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run a command; its output, or the test fails with it."""
    result = subprocess.run(
        command, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True,
        timeout=180, check=False,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 0, f"{' '.join(command)} failed:\n{output[-6000:]}"
    return output


def installed(package: Path) -> str:
    """node, with ``package``'s tools installed (``npm ci`` when needed)."""
    node = require_binary("node", "nodejs")
    npm = require_binary("npm")
    done = package / "node_modules" / ".package-lock.json"
    lock = package / "package-lock.json"
    LOCKS.mkdir(exist_ok=True)
    name = package.relative_to(ROOT).as_posix().replace("/", "-")
    with (LOCKS / f"npm-ci-{name}.lock").open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # released when the file is closed
        if not done.exists() or done.stat().st_mtime < lock.stat().st_mtime:
            run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], package)
    return node


def tool(package: Path, name: str) -> str:
    """A command ``package`` installs (``node_modules/.bin``)."""
    return str(package / "node_modules" / ".bin" / name)
