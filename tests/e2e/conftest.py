"""What the browser tests share: Debian's Chromium (``/usr/bin/chromium``) driven by Playwright,
whose own browser download is not used. Without Chromium a test that needs it skips locally, with
the reason, and fails under CI=true."""

from __future__ import annotations

from collections.abc import Iterator

import playwright.sync_api as playwright
import pytest

from tests.servers import require_binary

CHROMIUM_FLAGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


@pytest.fixture(scope="module")
def browser() -> Iterator[playwright.Browser]:
    chromium = require_binary("chromium")
    with playwright.sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=chromium, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()
