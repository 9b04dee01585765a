"""The real thing: the ``adjudicator`` command serving over TCP on a free loopback port (and
plain uvicorn, as operations.md runs it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.servers import free_port, uvicorn_server, wait_for


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = free_port()
    script = shutil.which("adjudicator", path=str(Path(sys.executable).parent))
    command = [script] if script else [sys.executable, "-m", "app.cli"]
    env = {**os.environ, "ADJUDICATOR_PORT": str(port), "ADJUDICATOR_LOG_LEVEL": "warning"}
    process = subprocess.Popen(command, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(lambda: httpx.get(f"{base}/healthz", timeout=1).status_code == 200, base)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_serves_health_and_readiness(server: str) -> None:
    health = httpx.get(f"{server}/healthz")
    assert health.json() == {"status": "ok"}
    assert "server" not in health.headers  # nothing to fingerprint
    assert httpx.get(f"{server}/readyz").status_code == 200


def test_adjudicates_over_tcp(server: str) -> None:
    response = httpx.post(f"{server}/v1/tictactoe/validate", json={"board": ["XOX", "O O", "XOX"]})
    assert response.json()["next"] == "X"


def test_oversize_body_is_refused_over_tcp(server: str) -> None:
    response = httpx.post(
        f"{server}/v1/reversi/legal-moves",
        content=b"x" * (2 * 1024 * 1024),
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["code"] == "payload_too_large"


def test_served_spec_and_docs_assets(server: str) -> None:
    spec = httpx.get(f"{server}/openapi.json").json()
    assert "/v1/reversi/check-move" in spec["paths"]
    for asset in ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js"):
        assert httpx.get(f"{server}/docs-assets/{asset}").status_code == 200


def test_plain_uvicorn_bounds_and_serves_by_the_environments_settings() -> None:
    env = {"ADJUDICATOR_MAX_URL_BYTES": "64", "ADJUDICATOR_MAX_BATCH": "2"}
    with uvicorn_server(env) as url:  # app.main:app over app.main:protocol
        assert httpx.get(f"{url}/healthz?{'x' * 64}").status_code == 414  # the protocol's bound
        batch = {"items": [{"board": ["X..", "...", "..."]}] * 3}
        assert httpx.post(f"{url}/v1/tictactoe/validate-batch", json=batch).status_code == 422
