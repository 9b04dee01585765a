"""The TypeScript client (``clients/typescript``, ``@adjudicator/client``) against a real server,
and the TypeScript that generators make from the served spec.

* The package type-checks (``tsc -p .``: its declarations against the generated schema, its
  JavaScript with ``checkJs``, its tests), and its generated files are what the committed spec
  makes (``scripts/generate.mjs --check``).
* Its tests, run with node's own test runner, play whole games against the service started
  here (tic-tac-toe, gomoku, Reversi; problems, polling, events, retries).
* openapi-typescript and @hey-api/openapi-ts generate types and a client from the served
  ``/openapi.json`` into a temporary directory, where ``checks/*.ts`` (the README's requests: a
  gomoku and a Reversi game, a resignation, the events narrowed by ``event``) and the README's
  TypeScript example are type-checked with ``tsc --strict`` against them, then run against the
  service. An optional field that became required fails there.
* In Chromium, a page on another origin imports ``src/index.js`` as it is (no build step) and
  plays through the service's CORS: ETag polling, the event stream read from ``fetch``, a
  problem by its code.

Needs node and npm (and Chromium for the page): without them the tests are skipped locally, with
the reason, and fail under CI=true. ``npm ci`` installs the package's pinned tools when its
``node_modules`` is missing or older than its lock file.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import playwright.sync_api as playwright
import pytest

from tests import npm
from tests.npm import run
from tests.servers import uvicorn_server

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "clients" / "typescript"
# A short keep-alive interval, so that a test can outwait a stream's silence limit quickly.
KEEP_ALIVE_SECONDS = 0.2


@pytest.fixture(scope="module")
def node() -> str:
    """node, with the package's tools installed (``npm ci`` when needed)."""
    return npm.installed(PACKAGE)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    archive = tmp_path_factory.mktemp("archive") / "archive.sqlite3"
    env = {
        "ADJUDICATOR_STORE_URL": "memory://",
        "ADJUDICATOR_EVENT_KEEP_ALIVE_SECONDS": str(KEEP_ALIVE_SECONDS),
        "ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{archive}",  # the archive's methods read it
    }
    with uvicorn_server(env) as url:
        yield url


def tool(name: str) -> str:
    return npm.tool(PACKAGE, name)


def test_the_package_type_checks_and_its_generated_files_are_current(node: str) -> None:
    run([tool("tsc"), "-p", "."], PACKAGE)
    run([node, "scripts/generate.mjs", "--check"], PACKAGE)


def test_the_client_plays_whole_games_against_the_service(node: str, server: str) -> None:
    tests = sorted(str(path.relative_to(PACKAGE)) for path in (PACKAGE / "test").glob("*.test.js"))
    env = {
        "ADJUDICATOR_URL": server,
        "ADJUDICATOR_EVENT_KEEP_ALIVE_MS": str(int(KEEP_ALIVE_SECONDS * 1000)),
    }
    output = run([node, "--test", "--test-reporter=spec", *tests], PACKAGE, env)
    assert "skipped 0" in output, output[-3000:]  # every test ran: none lacked the service


def readme_example() -> str:
    """The first ``ts`` block of the README's "TypeScript client" section."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## TypeScript client\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"^```ts\n(.*?)^```", section, re.MULTILINE | re.DOTALL)
    assert found, "the README's TypeScript client section has no ts block"
    return found.group(1)


def test_generated_clients_type_check_and_run_the_readme_requests(
    node: str, server: str, tmp_path: Path
) -> None:
    spec = tmp_path / "openapi.json"
    spec.write_text(json.dumps(httpx.get(f"{server}/openapi.json").json()))
    generated = tmp_path / "generated"
    run([tool("openapi-typescript"), str(spec), "--output",
         str(generated / "openapi-typescript.d.ts")], PACKAGE)  # fmt: skip
    run([tool("openapi-ts"), "--input", str(spec), "--output", str(generated / "hey-api")], PACKAGE)

    # The programs beside what they import: the generated files, the package's tools (its
    # node_modules, entry by entry) and the package itself, as a frontend installs it.
    checks = tmp_path / "checks"
    shutil.copytree(PACKAGE / "checks", checks)
    (checks / "readme.ts").write_text(
        readme_example().replace("http://127.0.0.1:8000", server), encoding="utf-8"
    )
    modules = tmp_path / "node_modules"
    modules.mkdir()
    for entry in (PACKAGE / "node_modules").iterdir():
        (modules / entry.name).symlink_to(entry)
    (modules / "@adjudicator").mkdir()
    (modules / "@adjudicator" / "client").symlink_to(PACKAGE)
    (tmp_path / "package.json").write_text('{"type": "module"}\n')

    run([tool("tsc"), "-p", str(checks)], tmp_path)
    env = {"ADJUDICATOR_URL": server}
    for program in ("openapi-fetch", "hey-api"):
        output = run([node, f"out/checks/{program}.js"], tmp_path, env)
        assert output.count("end: won") == 2, output
    output = run([node, "out/checks/readme.js"], tmp_path, env)
    assert output.count("move ") == 9, output
    assert "won (line), winner 1" in output
    assert "refused: the game is over" in output


class QuietFiles(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def package_origin() -> Iterator[str]:
    """The package's files, served as they are from another origin than the service's."""
    handler = functools.partial(QuietFiles, directory=str(PACKAGE))
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as files:
        thread = threading.Thread(target=files.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{files.server_address[1]}"
        finally:
            files.shutdown()


# Run in a page of the package's origin: what a frontend does with the module as it is.
PAGE_SCRIPT = """async (service) => {
  const { Client, ProblemError } = await import("/src/index.js");
  const api = new Client({ baseUrl: service });
  const game = await api.createGame({ n: 3 });
  const polled = await api.pollGame(game.id);
  const unchanged = await api.pollGame(game.id, polled.etag);
  const stream = api.events(game.id);
  const first = stream.next();
  await api.makeMove(game.id, game.tokens["1"], { row: 1, col: 1 });
  const event = (await first).value;
  let refused = null;
  try {
    await api.makeMove(game.id, game.tokens["1"], { row: 0, col: 0 });
  } catch (error) {
    refused = error instanceof ProblemError ? error.code : String(error);
  }
  const resigned = await api.resign(game.id, game.tokens["2"]);
  const rest = [];
  for await (const next of stream) rest.push(next.event);
  const resumed = [];
  for await (const next of api.events(game.id, { since: resigned.version })) resumed.push(next);
  return { etag: polled.etag, unchanged: unchanged.state, event: [event.event, event.id],
           refused, rest, resumed };
}"""


def test_a_page_on_another_origin_uses_the_module_as_it_is(
    package_origin: str, browser: playwright.Browser
) -> None:
    env = {"ADJUDICATOR_STORE_URL": "memory://",
           "ADJUDICATOR_CORS_ORIGINS": json.dumps([package_origin])}  # fmt: skip
    with uvicorn_server(env) as service:
        page = browser.new_page()
        try:
            page.goto(f"{package_origin}/package.json")
            result = page.evaluate(PAGE_SCRIPT, service)
        finally:
            page.close()
    assert re.fullmatch(r'"[^"]+"', result["etag"]), result  # ETag is readable through CORS
    assert result["unchanged"] is None
    assert result["event"] == ["move", "1"]
    assert result["refused"] == "not_your_turn"
    assert result["rest"] == ["end"]
    assert result["resumed"] == []
