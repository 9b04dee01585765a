"""The client's tests run against real servers the test starts (``tests.servers``), with the
client as it is installed (``pip install -e ./clients/python``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.servers import uvicorn_server


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """A server process on the memory store, for the module's tests."""
    with uvicorn_server({"ADJUDICATOR_STORE_URL": "memory://"}) as url:
        yield url


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
