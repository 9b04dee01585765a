"""Schemathesis against the served /openapi.json of a real server: every operation, positive and
negative data, stateful sequences where the spec links operations.

Checked: no server error, every status code documented, every response matching its documented
schema, content type and headers, invalid requests refused, Allow on 405. Not checked:
"positive data acceptance" — JSON Schema cannot say "rows of equal length" or "a cell inside the
posted board", so some schema-valid bodies are rightly refused with a documented 422.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.servers import NO_CREATE_LIMIT, free_port, wait_for


@pytest.fixture
def server() -> Iterator[str]:
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1",
               "--port", str(port), "--log-level", "warning",
               "--timeout-graceful-shutdown", "3"]  # fmt: skip
    process = subprocess.Popen(command, env={**os.environ, **NO_CREATE_LIMIT})
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: httpx.get(f"{url}/healthz", timeout=1).status_code == 200, url)
        yield url
    finally:
        process.terminate()
        process.wait(timeout=15)


def test_schemathesis_finds_nothing(server: str, tmp_path: Path) -> None:
    binary = shutil.which("schemathesis", path=str(Path(sys.executable).parent))
    assert binary, "schemathesis is a test extra"
    result = subprocess.run(
        [
            binary,
            "run",
            f"{server}/openapi.json",
            "--exclude-checks",
            "positive_data_acceptance",
            "--max-examples",
            "25",
            "--seed",
            "20261122",
            "--workers",
            "2",
            "--request-timeout",
            "20",
            "--no-color",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
