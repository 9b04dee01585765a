"""A page on another origin calls the service from Chromium, as a frontend hosted elsewhere does.

The service runs on a free loopback port with ``ADJUDICATOR_CORS_ORIGINS`` naming one origin: a
blank page served by a second loopback server on a port of its own (another port is another
origin). A third such server is an origin the service does not name. Each page ``fetch``es the
service for real: the browser, not the test, decides what the page may send and read.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import playwright.sync_api as playwright
import pytest

from tests.servers import uvicorn_server

BLANK_PAGE = b"<!DOCTYPE html><html lang='en'><title>Another origin</title></html>"


class BlankPage(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(BLANK_PAGE)))
        self.end_headers()
        self.wfile.write(BLANK_PAGE)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # no line on stderr per request


@contextmanager
def another_origin() -> Iterator[str]:
    """A server of the blank page on a free loopback port; yields its origin."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), BlankPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="module")
def allowed() -> Iterator[str]:
    with another_origin() as origin:
        yield origin


@pytest.fixture(scope="module")
def not_allowed() -> Iterator[str]:
    with another_origin() as origin:
        yield origin


@pytest.fixture(scope="module")
def service(allowed: str) -> Iterator[str]:
    env = {"ADJUDICATOR_STORE_URL": "memory://", "ADJUDICATOR_CORS_ORIGINS": json.dumps([allowed])}
    with uvicorn_server(env) as url:
        yield url


Event = tuple[str, dict[str, Any]]  # a DevTools event: its name and its parameters


@dataclass
class NetworkLog:
    """The network events Chromium reports for a page through DevTools, the preflights
    included (Playwright's own request events leave them out)."""

    devtools: playwright.CDPSession
    events: list[Event] = field(default_factory=list)

    def wait_for(self, wanted: Callable[[Event], bool], what: str) -> Event:
        """The first event ``wanted``, waiting for it a while: DevTools events come apart from
        the answers of the page's script, so they may arrive after them. Each round trip lets
        the ones on their way in."""
        deadline = time.monotonic() + 10
        while True:
            found = next((event for event in self.events if wanted(event)), None)
            if found is not None:
                return found
            if time.monotonic() > deadline:
                raise AssertionError(f"Chromium reported no {what}: {self.events}")
            self.devtools.send("Runtime.evaluate", {"expression": "0"})


@contextmanager
def page_at(
    browser: playwright.Browser, origin: str
) -> Iterator[tuple[playwright.Page, NetworkLog]]:
    """A page at ``origin`` in a fresh context, and its network log."""
    context = browser.new_context()
    try:
        page = context.new_page()
        log = NetworkLog(context.new_cdp_session(page))
        log.devtools.send("Network.enable")
        for name in ("Network.requestWillBeSent", "Network.loadingFailed"):
            log.devtools.on(name, lambda event, name=name: log.events.append((name, event)))
        page.goto(f"{origin}/")
        yield page, log
    finally:
        context.close()


def request(method: str, url: str) -> Callable[[Event], bool]:
    """Whether an event is the sending of a ``method`` request to ``url``."""

    def sent(event: Event) -> bool:
        name, details = event
        asked = details.get("request", {})
        return (
            name == "Network.requestWillBeSent"
            and asked.get("method") == method
            and asked.get("url") == url
        )

    return sent


def cors_failure(event: Event) -> bool:
    name, details = event
    return name == "Network.loadingFailed" and bool(details.get("corsErrorStatus"))


# A game created with a JSON body (not a "simple" request: the browser asks first, OPTIONS), then
# its state read; what the page can read of each answer.
CREATE_THEN_READ = """async (service) => {
  const seen = (answer) => ({status: answer.status, date: answer.headers.get("Date"),
                             etag: answer.headers.get("ETag"),
                             location: answer.headers.get("Location")});
  const created = await fetch(`${service}/v1/games`, {
    method: "POST", headers: {"Content-Type": "application/json"}, body: '{"n": 3}'});
  const game = await created.json();
  const state = await fetch(`${service}/v1/games/${game.id}`);
  return {created: seen(created), state: seen(state)};
}"""

CREATE = """async (service) => {
  try {
    await fetch(`${service}/v1/games`, {
      method: "POST", headers: {"Content-Type": "application/json"}, body: '{"n": 3}'});
    return "answered";
  } catch (error) {
    return error.name;
  }
}"""


def test_a_page_on_an_allowed_origin_reads_date_and_etag(
    browser: playwright.Browser, service: str, allowed: str
) -> None:
    with page_at(browser, allowed) as (page, log):
        answers = page.evaluate(CREATE_THEN_READ, service)
        log.wait_for(request("OPTIONS", f"{service}/v1/games"), "preflight")  # asked, and passed
    created, state = answers["created"], answers["state"]
    assert (created["status"], state["status"]) == (201, 200)
    for answer in (created, state):
        assert answer["date"] is not None  # a page corrects its clock countdowns with it
        assert answer["etag"] is not None  # and polls with it
    assert created["location"] is not None


def test_a_page_on_another_origin_is_refused_by_the_browser(
    browser: playwright.Browser, service: str, not_allowed: str
) -> None:
    games_before = live_games(service)
    with page_at(browser, not_allowed) as (page, log):
        with page.expect_console_message(lambda m: "blocked by CORS policy" in m.text):
            outcome = page.evaluate(CREATE, service)
        log.wait_for(request("OPTIONS", f"{service}/v1/games"), "preflight")
        _, failed = log.wait_for(cors_failure, "CORS failure")
    assert outcome == "TypeError"  # fetch's failure, and the page learns nothing more
    assert failed["corsErrorStatus"]["corsError"].startswith("Preflight"), failed
    assert live_games(service) == games_before  # the refused preflight kept the POST from going


def live_games(service: str) -> float:
    metrics = httpx.get(f"{service}/metrics").text
    [line] = [line for line in metrics.splitlines() if line.startswith("adjudicator_live_games ")]
    return float(line.split()[1])
