"""The play page and the docs, driven in headless Chromium the way people use them.

Starts the real service on a free loopback port and Debian's Chromium (``/usr/bin/chromium``)
through Playwright (the ``browser`` fixture of ``conftest.py``); Playwright's own browser
download is not used. Without Chromium the tests skip locally and fail under CI=true.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import playwright.sync_api as playwright
import pytest

from app.records.ggf import read_ggf
from app.records.psq import PsqGame, write_psq
from app.records.wthor import read_wthor
from tests.records.test_ggf import WHITE_STARTS
from tests.records.test_ggf import final_board as ggf_final_board
from tests.records.test_wthor import replay
from tests.rules.reference import othello_square, reversi_flips, reversi_moves, reversi_play
from tests.servers import uvicorn_server

Browser = playwright.Browser
Page = playwright.Page
expect = playwright.expect

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    archive = tmp_path_factory.mktemp("archive") / "archive.sqlite3"  # Finished games reads it
    env = {"ADJUDICATOR_STORE_URL": "memory://", "ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{archive}"}
    with uvicorn_server(env) as url:
        yield url


OPEN_CONTEXTS: list[playwright.BrowserContext] = []


@pytest.fixture(autouse=True)
def close_contexts() -> Iterator[None]:
    """Each test's pages close at its end (and with them their event streams)."""
    yield
    while OPEN_CONTEXTS:
        OPEN_CONTEXTS.pop().close()


def new_page(
    browser: Browser, server: str, outside: list[playwright.Request], push: bool = True,
    viewport: playwright.ViewportSize | None = None,
) -> Page:  # fmt: skip
    """A page in a fresh context (of the ``viewport`` given, else Playwright's 1280 × 720);
    requests to anywhere but the service land in ``outside``."""
    context = browser.new_context(viewport=viewport) if viewport else browser.new_context()
    OPEN_CONTEXTS.append(context)
    page = context.new_page()
    if not push:
        page.add_init_script("delete window.EventSource")
    local = (server, f"blob:{server}", "data:")
    page.on("request", lambda r: None if r.url.startswith(local) else outside.append(r))
    return page


def left_the_machine(page: Page, outside: list[playwright.Request]) -> list[str]:
    """Every request the pages made for anything but the service, once the page is idle.

    One stopped by the page's Content-Security-Policy counts too: offline it would have failed
    all the same (ReDoc's script used to reach for its logo on a CDN that way).
    """
    page.wait_for_load_state("networkidle")
    return [r.url for r in outside]


def cell(page: Page, row: int, col: int) -> playwright.Locator:
    return page.locator(f'#board .cell[data-row="{row}"][data-col="{col}"]')


def start_game(
    browser: Browser, server: str, n: int, outside: list[playwright.Request], push: bool = True
) -> tuple[Page, Page]:
    """Player 1 creates a game, player 2 joins by the invite link. Without ``push`` the pages
    have no EventSource, as in browsers without it, and must poll."""
    first = new_page(browser, server, outside, push)
    first.goto(f"{server}/")
    first.select_option("#size", str(n))
    first.get_by_role("button", name="New game").click()
    expect(first.locator("#status")).to_contain_text("You are X (player 1). Your turn.")
    second = join(browser, server, first, outside, push)
    expect(second.locator("#status")).to_contain_text("You are O (player 2). Waiting for X")
    return first, second


def join(
    browser: Browser, server: str, first: Page, outside: list[playwright.Request], push: bool = True
) -> Page:
    """Player 2 opens the invite link that ``first`` shows, in a window of the same size; with
    ``push``, the page follows the game by its event stream."""
    invite = first.locator("#invite-link").input_value()
    assert "#game=" in invite
    assert "?" not in invite  # the token travels in the fragment, never in a query string
    second = new_page(browser, server, outside, push, first.viewport_size)
    if not push:
        second.goto(invite)
        return second
    with second.expect_request(lambda request: request.resource_type == "eventsource") as stream:
        second.goto(invite)
    assert f"/v1/games/{game_id(first)}/events?since=" in stream.value.url
    return second


def play(pages: tuple[Page, Page], moves: list[tuple[int, int]]) -> None:
    """Alternate clicks; after each, the other player's page shows the mark by polling."""
    for i, (row, col) in enumerate(moves):
        mover, watcher = pages[i % 2], pages[(i + 1) % 2]
        cell(mover, row, col).click()
        mark = "X" if i % 2 == 0 else "O"
        expect(cell(mover, row, col)).to_have_text(mark)
        expect(cell(watcher, row, col)).to_have_text(mark, timeout=5000)


def test_two_players_play_to_a_win(browser: Browser, server: str) -> None:
    outside: list[playwright.Request] = []
    pages = start_game(browser, server, 3, outside)  # player 2's page has the event stream
    play(pages, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])
    for page, outcome in zip(pages, ("You won.", "You lost."), strict=True):
        expect(page.locator("#status")).to_have_text(f"{outcome} X (player 1) wins!", timeout=5000)
        expect(page.locator("#board .cell.win")).to_have_count(3)
        for col in range(3):
            expect(cell(page, 0, col)).to_have_class(re.compile(r"\bwin\b"))
    ARTIFACTS.mkdir(exist_ok=True)
    pages[0].screenshot(path=str(ARTIFACTS / "finished-game.png"), full_page=True)
    assert not left_the_machine(pages[0], outside)


def test_two_players_play_to_a_draw_by_polling(browser: Browser, server: str) -> None:
    outside: list[playwright.Request] = []
    pages = start_game(browser, server, 3, outside, push=False)
    play(pages, [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)])
    for page in pages:
        expect(page.locator("#status")).to_have_text("Draw: the board is full.", timeout=5000)
        expect(page.locator("#board .cell.win")).to_have_count(0)
    assert not left_the_machine(pages[0], outside)


def test_a_refused_move_shows_the_services_message(browser: Browser, server: str) -> None:
    outside: list[playwright.Request] = []
    first, second = start_game(browser, server, 4, outside)
    cell(second, 2, 2).click()
    expect(second.locator("#message")).to_have_text(
        "Not your turn: player 1 moves next, not player 2"
    )
    expect(cell(second, 2, 2)).to_have_text("")
    play((first, second), [(0, 0)])
    cell(second, 0, 0).click()
    expect(second.locator("#message")).to_have_text(
        "Cell occupied: cell (0, 0) already holds a mark"
    )
    assert not left_the_machine(second, outside)


def test_board_is_keyboard_playable(browser: Browser, server: str) -> None:
    outside: list[playwright.Request] = []
    first, _ = start_game(browser, server, 3, outside)
    cell(first, 0, 0).focus()
    first.keyboard.press("ArrowRight")
    first.keyboard.press("ArrowDown")
    first.keyboard.press("Enter")
    expect(cell(first, 1, 1)).to_have_text("X")
    expect(cell(first, 1, 1)).to_have_attribute("aria-label", "b2 (row 2, column 2): X")


# The coordinates drawn around the board in the box of that id, on each side.
COORDS = """(box) => Object.fromEntries(["top", "bottom", "left", "right"].map((side) => [side,
    [...document.querySelectorAll(`#${box} .coords.${side} span`)]
      .map((span) => span.textContent)]))"""


def coordinates(height: int, width: int, row_one: str) -> dict[str, list[str]]:
    """The coordinates of a ``height`` × ``width`` board as the kind names squares (row 1 at the
    ``row_one``): column letters above and below, row numbers on both sides; none on a board
    without square names (wider than 26 columns)."""
    if width > 26:
        return {"top": [], "bottom": [], "left": [], "right": []}
    letters = list("abcdefghijklmnopqrstuvwxyz"[:width])
    numbers = [str(n) for n in range(1, height + 1)]
    if row_one == "bottom":
        numbers.reverse()
    return {"top": letters, "bottom": letters, "left": numbers, "right": numbers}


def legal_moves_said(grid: list[str], color: str, name: Callable[[int, int], str]) -> str:
    """What the position checker says of ``color``'s legal moves on a Reversi board, the cells
    named by ``name``: the moves and flips the reference rules find."""
    moves = reversi_moves(grid, color)
    said = "; ".join(
        f"{name(r, c)} flips {len(reversi_flips(grid, r, c, color))}" for r, c in moves
    )
    return f"{color} has {len(moves)} legal moves: {said}. Choose one to see its flips."


def check_position(page: Page, rows: list[str]) -> playwright.Locator:
    """Paste ``rows`` into the position checker and check them as the kind picked; answers what
    the checker says."""
    page.locator("#rows").fill("\n".join(rows))
    page.get_by_role("button", name="Check", exact=True).click()
    return page.locator("#check-result")


def test_position_checker(browser: Browser, server: str) -> None:
    """Reversi's legal moves, named by their squares, on the board checked, framed by its
    coordinates as every board is; a move chosen rings its flips. Tic-tac-toe's verdict, over the
    board checked; a board the service refuses is not drawn."""
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.goto(f"{server}/")
    expect(page.locator("#rows")).to_have_value("\n".join(OTHELLO_START))  # the example
    result = check_position(page, OTHELLO_START)
    expect(result).to_have_text(legal_moves_said(OTHELLO_START, "B", othello_square))
    assert page.evaluate(COORDS, "check-board-box") == coordinates(8, 8, "top")
    legal = page.locator("#check-board button.cell.legal")
    expect(legal).to_have_count(len(reversi_moves(OTHELLO_START, "B")))
    expect(legal.first).to_have_text("1")  # how many it flips
    d3 = page.get_by_role("gridcell", name="d3 (row 3, column 4): empty, legal move, flips 1")
    d3.click()
    flipped = [othello_square(r, c) for r, c in reversi_flips(OTHELLO_START, 2, 3, "B")]
    expect(result).to_have_text(f"B at d3 flips {len(flipped)}: {', '.join(flipped)}.")
    ringed = page.locator("#check-board .cell.flip")
    expect(ringed).to_have_count(1)
    expect(ringed).to_have_attribute("aria-label", "d4 (row 4, column 4): white, turned by d3")
    expect(page.locator("#check-board .cell").nth(2 * 8 + 3)).to_be_focused()  # d3, drawn again

    page.get_by_role("radio", name="Tic-tac-toe").check()
    expect(page.locator("#check-board-box")).to_be_hidden()
    expect(check_position(page, ["XXX", "OO.", "O.."])).to_contain_text(
        "Not reachable: X has won, but O moved after that"
    )
    assert page.evaluate(COORDS, "check-board-box") == coordinates(3, 3, "bottom")
    expect(page.locator("#check-board .cell").nth(2 * 3)).to_have_attribute(
        "aria-label", "a1 (row 3, column 1): O"
    )
    expect(page.locator("#check-board button")).to_have_count(0)  # nothing to play
    expect(check_position(page, ["XO", "X"])).to_contain_text("Request does not match the schema")
    expect(page.locator("#check-board-box")).to_be_hidden()
    assert not left_the_machine(page, outside)


# How far the page and the position checker's board scroll sideways, and whether that board's
# right edge is inside the window.
CHECKER_SIDEWAYS = """() => {
  const box = document.getElementById("check-board-box");
  return [document.documentElement.scrollWidth - document.documentElement.clientWidth,
          box.scrollWidth - box.clientWidth,
          box.getBoundingClientRect().right <= window.innerWidth];
}"""


def test_the_position_checkers_board_fits_a_phone(browser: Browser, server: str) -> None:
    """At 390 × 844 the checked Reversi board, with its coordinates, scrolls nothing sideways;
    nor does a 32 × 32 board, which has no square names: no coordinates, and its moves named by
    row and column (from 0, as the service counts them)."""
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside, viewport={"width": 390, "height": 844})
    page.goto(f"{server}/")
    result = check_position(page, OTHELLO_START)
    expect(result).to_have_text(legal_moves_said(OTHELLO_START, "B", othello_square))
    assert page.evaluate(COORDS, "check-board-box") == coordinates(8, 8, "top")
    assert page.evaluate(CHECKER_SIDEWAYS) == [0, 0, True]
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#check").screenshot(path=str(ARTIFACTS / "check-a-position-390x844.png"))

    middle = ["." * 15 + pair + "." * 15 for pair in ("WB", "BW")]
    wide = ["." * 32] * 15 + middle + ["." * 32] * 15
    expect(check_position(page, wide)).to_have_text(
        legal_moves_said(wide, "B", lambda r, c: f"({r}, {c})")
    )
    expect(page.locator("#check-board .cell")).to_have_count(32 * 32)
    assert page.evaluate(COORDS, "check-board-box") == coordinates(32, 32, "top")
    assert page.evaluate(CHECKER_SIDEWAYS) == [0, 0, True]
    row, col = reversi_moves(wide, "B")[0]
    page.locator(f'#check-board button.cell[data-row="{row}"][data-col="{col}"]').click()
    flipped = [f"({r}, {c})" for r, c in reversi_flips(wide, row, col, "B")]
    expect(result).to_have_text(f"B at ({row}, {col}) flips {len(flipped)}: {', '.join(flipped)}.")
    assert page.evaluate(CHECKER_SIDEWAYS) == [0, 0, True]
    assert not left_the_machine(page, outside)


# The status and type of the icon the page links, and of /favicon.ico, fetched by the page.
ICONS = """() => Promise.all([document.querySelector("link[rel=icon]").href, "/favicon.ico"]
    .map(async (url) => {
      const answer = await fetch(url);
      return [answer.status, answer.headers.get("content-type")];
    }))"""


def test_the_page_has_an_icon(browser: Browser, server: str) -> None:
    """The icon the page links, and /favicon.ico, which browsers ask for whatever a page links:
    an SVG each, never a 404."""
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.goto(f"{server}/")
    assert page.evaluate(ICONS) == [[200, "image/svg+xml"], [200, "image/svg+xml"]]
    assert not left_the_machine(page, outside)


def test_docs_try_it_out_offline(browser: Browser, server: str) -> None:
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.goto(f"{server}/docs")
    operation = page.locator("#operations-Reversi-checkMove")
    operation.locator(".opblock-summary").click()
    operation.get_by_role("button", name="Try it out").click()
    operation.get_by_role("button", name="Execute").click()
    status = operation.locator(".live-responses-table tr.response td.response-col_status").first
    expect(status).to_have_text("200", timeout=10_000)
    page.goto(f"{server}/redoc")
    expect(page.get_by_text("Move adjudication API").first).to_be_visible(timeout=10_000)
    assert not left_the_machine(page, outside)


def test_docs_authorize_then_move(browser: Browser, server: str) -> None:
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.goto(f"{server}/docs")
    create = page.locator("#operations-Game_sessions-createGame")
    create.locator(".opblock-summary").click()
    create.get_by_role("button", name="Try it out").click()
    create.get_by_role("button", name="Execute").click()
    expect(create.locator(".live-responses-table tr.response td.response-col_status").first
           ).to_have_text("201", timeout=10_000)  # fmt: skip
    body = create.locator(".live-responses-table .response-col_description pre").first.inner_text()
    game_id = re.search(r'"id": "([^"]+)"', body)
    token = re.search(r'"1": "([^"]+)"', body)
    assert game_id, body
    assert token, body

    page.locator("button.authorize").first.click()
    page.locator(".modal-ux input").first.fill(token.group(1))
    # "Apply credentials" of the first scheme, PlayerToken (ViewerToken's, for reads, follows)
    page.locator(".modal-ux button.authorize").first.click()
    page.locator(".modal-ux button.btn-done").first.click()

    move = page.locator("#operations-Game_sessions-makeMove")
    move.locator(".opblock-summary").click()
    move.get_by_role("button", name="Try it out").click()
    move.locator('tr[data-param-name="game_id"] input').fill(game_id.group(1))
    move.get_by_role("button", name="Execute").click()
    expect(move.locator(".live-responses-table tr.response td.response-col_status").first
           ).to_have_text("201", timeout=10_000)  # fmt: skip
    state = httpx.get(f"{server}/v1/games/{game_id.group(1)}").json()
    assert (state["version"], state["last_move"]["row"], state["last_move"]["col"]) == (1, 1, 1)
    assert not left_the_machine(page, outside)


def test_gomoku_five_in_a_row_wins(browser: Browser, server: str) -> None:
    outside: list[playwright.Request] = []
    first = new_page(browser, server, outside)
    first.goto(f"{server}/")
    first.get_by_role("button", name="Gomoku").click()
    expect(first.locator("#size")).to_have_value("15")
    expect(first.locator("#in-a-row")).to_have_value("5")
    first.get_by_role("button", name="New game").click()
    expect(first.locator("#status")).to_have_text("You are X (player 1). Your turn.")
    second = join(browser, server, first, outside)
    expect(second.locator("#status")).to_have_text(
        "You are O (player 2). Waiting for X (player 1)."
    )
    state = httpx.get(f"{server}/v1/games/{game_id(first)}").json()
    assert (state["n"], state["k"]) == (15, 5)
    expect(first.get_by_role("button", name="Pass")).to_be_hidden()  # no passes but renju's

    xs = [(7, col) for col in range(3, 8)]
    play((first, second), [xs[0], (0, 0), xs[1], (0, 1), xs[2], (0, 2), xs[3], (0, 3), xs[4]])
    for page, outcome in ((first, "You won."), (second, "You lost.")):
        expect(page.locator("#status")).to_have_text(f"{outcome} X (player 1) wins!", timeout=5000)
        expect(page.locator("#board .cell.win")).to_have_count(5)
        for row, col in xs:
            expect(cell(page, row, col)).to_have_class(re.compile(r"\bwin\b"))
    assert not left_the_machine(first, outside)


def test_connect_four_drops_into_the_column_clicked_and_rings_the_winning_line(
    browser: Browser, server: str
) -> None:
    outside: list[playwright.Request] = []
    first = new_page(browser, server, outside)
    first.goto(f"{server}/")
    first.select_option("#game-kind", "connect4")
    expect(first.locator("#connect4-size")).to_have_value("7x6x4")
    first.get_by_role("button", name="New game").click()
    expect(first.locator("#status")).to_have_text("You are X (player 1). Your turn.")
    second = join(browser, server, first, outside)
    state = httpx.get(f"{server}/v1/games/{game_id(first)}").json()
    assert (state["game"], state["width"], state["height"], state["k"]) == ("connect4", 7, 6, 4)

    # Each click is on the top cell of its column: the disc falls to the lowest empty one.
    for i, column in enumerate([0, 0, 1, 1, 2, 2, 3]):
        mover, watcher = (first, second)[i % 2], (first, second)[(i + 1) % 2]
        cell(mover, 0, column).click()
        landed = 5 - [0, 0, 1, 1, 2, 2, 3][:i].count(column)
        mark = "X" if i % 2 == 0 else "O"
        expect(cell(mover, landed, column)).to_have_attribute("data-mark", mark)
        expect(cell(watcher, landed, column)).to_have_attribute("data-mark", mark, timeout=5000)
    for page, outcome in ((first, "You won."), (second, "You lost.")):
        expect(page.locator("#status")).to_have_text(f"{outcome} X (player 1) wins!", timeout=5000)
        expect(page.locator("#board .cell.win")).to_have_count(4)
        for column in range(4):
            expect(cell(page, 5, column)).to_have_class(re.compile(r"\bwin\b"))
    assert not left_the_machine(first, outside)


def open_game_in_the_lobby(
    browser: Browser, server: str, outside: list[playwright.Request]
) -> tuple[Page, Page, playwright.Locator]:
    """Player 1 creates an open 3 × 3 game and waits; a second page shows it under Find a game:
    both pages, and the second one's entries of such games (the new one last)."""
    first = new_page(browser, server, outside)
    first.goto(f"{server}/")
    first.select_option("#size", "3")
    first.check("#open-game")
    first.get_by_role("button", name="New game").click()
    expect(first.locator("#status")).to_contain_text("You are X (player 1). Waiting for someone")
    second = new_page(browser, server, outside)
    second.goto(f"{server}/")
    entry = second.locator("#lobby-games li").filter(has_text="Tic-tac-toe (3 × 3)")
    expect(entry.first).to_be_visible()
    return first, second, entry


def test_an_open_game_is_found_and_joined_from_the_lobby(browser: Browser, server: str) -> None:
    """Player 1 creates an open game (no invite: only its own seat) and waits; player 2 finds it
    under Find a game, joins with one click, and the two play it; the lobby lists it no more."""
    outside: list[playwright.Request] = []
    first, second, entry = open_game_in_the_lobby(browser, server, outside)
    expect(first.locator("#invite")).to_be_hidden()
    created = game_id(first)
    assert httpx.get(f"{server}/v1/games?open=true").json()["games"][-1]["id"] == created
    entry.last.get_by_role("button", name="Join").click()
    expect(second.locator("#status")).to_contain_text("You are O (player 2). Waiting for X")
    assert game_id(second) == created
    expect(first.locator("#status")).to_contain_text("Your turn.", timeout=5000)
    cell(first, 1, 1).click()
    expect(cell(second, 1, 1)).to_have_attribute("data-mark", "X", timeout=5000)
    expect(second.locator("#status")).to_contain_text("Your turn.")
    still_open = httpx.get(f"{server}/v1/games?open=true").json()["games"]
    assert created not in [open_game["id"] for open_game in still_open]
    second.get_by_role("button", name="Refresh").click()
    expect(second.locator("#lobby-games li")).to_have_count(len(still_open))
    assert not left_the_machine(first, outside)


def test_a_finished_game_is_listed_and_replayed_from_the_archive(
    browser: Browser, server: str
) -> None:
    """A game played to its end (here through the API) is listed under Finished games, newest
    first; Show reads its record from the archive and the game checker replays it."""
    game = httpx.post(f"{server}/v1/games", json={"game": "tictactoe", "n": 3}).json()
    for seq, (row, col) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]):
        token = game["tokens"]["1" if seq % 2 == 0 else "2"]
        moved = httpx.post(
            f"{server}/v1/games/{game['id']}/moves", json={"row": row, "col": col},
            headers={"Authorization": f"Bearer {token}"},
        )  # fmt: skip
        assert moved.status_code == 201
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.goto(f"{server}/")
    newest = page.locator("#archive-games li").first
    expect(newest).to_contain_text("Tic-tac-toe (3 × 3): Player 1 won (line), 5 moves")
    newest.get_by_role("button", name="Show").click()
    expect(page.locator("#audit-verdict")).to_contain_text("Finished after 5 plies")
    expect(page.locator("#audit-format")).to_have_value("json")
    expect(page.locator("#audit-board [data-mark]")).to_have_count(9)
    assert not left_the_machine(page, outside)


def test_renju_crosses_black_s_forbidden_points_and_refuses_one_with_its_reason(
    browser: Browser, server: str
) -> None:
    outside: list[playwright.Request] = []
    first = new_page(browser, server, outside)
    first.goto(f"{server}/")
    first.select_option("#game-kind", "gomoku")
    first.select_option("#gomoku-rule", "renju")
    expect(first.locator("#gomoku-size")).to_have_value("15")
    expect(first.locator("#gomoku-size option")).to_have_count(1)  # renju is 15 × 15 only
    first.get_by_role("button", name="New game").click()
    expect(first.locator("#status")).to_have_text("You are Black (player 1). Your turn.")
    second = join(browser, server, first, outside)
    state = httpx.get(f"{server}/v1/games/{game_id(first)}").json()
    assert (state["game"], state["rule"], state["size"]) == ("gomoku", "renju", 15)

    # Black: h10, h9, i8, j8 (rows from the top: h10 is row 5, col 7); White far away.
    moves = [(5, 7), (14, 0), (6, 7), (13, 0), (7, 8), (12, 0), (7, 9), (10, 0)]
    for i, (row, col) in enumerate(moves):
        mover, watcher = (first, second) if i % 2 == 0 else (second, first)
        cell(mover, row, col).click()
        mark = "B" if i % 2 == 0 else "W"
        expect(cell(mover, row, col)).to_have_attribute("data-mark", mark)
        expect(cell(watcher, row, col)).to_have_attribute("data-mark", mark, timeout=5000)
    # h8 (row 7, col 7) would make two open threes: crossed on Black's board, and refused.
    expect(cell(first, 7, 7)).to_have_class(re.compile(r"\bforbidden\b"), timeout=5000)
    expect(cell(first, 7, 7)).to_have_attribute("aria-label", re.compile("forbidden to Black"))
    cell(first, 7, 7).click()
    expect(first.locator("#message")).to_have_text(
        "Forbidden move: h8 is forbidden to Black: a double-three (h8–j8 and h10–h8)"
    )
    expect(cell(first, 7, 7)).to_have_attribute("data-mark", "")
    ARTIFACTS.mkdir(exist_ok=True)
    first.screenshot(path=str(ARTIFACTS / "renju-forbidden-point.png"), full_page=True)
    # Elsewhere Black plays on; then White's turn shows no crosses.
    cell(first, 8, 8).click()
    expect(cell(second, 8, 8)).to_have_attribute("data-mark", "B", timeout=5000)
    expect(second.locator("#board .cell.forbidden")).to_have_count(0)
    # Renju has passes: two in a row draw the game.
    expect(first.get_by_role("button", name="Pass")).to_be_disabled()  # not Black's turn
    second.get_by_role("button", name="Pass").click()
    expect(first.locator("#status")).to_contain_text("White passed.", timeout=5000)
    first.get_by_role("button", name="Pass").click()
    for page in (first, second):
        expect(page.locator("#status")).to_have_text("Draw: both players passed.", timeout=5000)
        expect(page.get_by_role("button", name="Pass")).to_be_hidden()

    # Its SGF, downloaded and checked on the page: the same game, passes and all.
    assert download_buttons(first) == [
        "Download JSON", "Download transcript", "Download PSQ", "Download SGF",
    ]  # fmt: skip
    first.get_by_role("button", name="Download PSQ", exact=True).click()
    expect(first.locator("#message")).to_contain_text("PSQ has no pass")  # the service's why
    name, text = downloaded(first, "Download SGF")
    record = f"{server}/v1/games/{game_id(first)}/record"
    assert (name, text) == (f"{game_id(first)}.sgf", httpx.get(f"{record}?format=sgf").text)
    verdict = check_game(first, text)  # an SGF record: gomoku's, renju by its RU
    expect(first.locator("#audit-format")).to_have_value("sgf")
    expect(verdict).to_have_text("Finished after 11 plies: Draw: both players passed.")
    expect(first.locator("#audit-board .cell[data-mark=B]")).to_have_count(5)
    # The same stones with h8 played: the SGF's ninth move is refused, and ringed.
    refused = text.replace(";B[ii]", ";B[hh]")
    verdict = check_game(first, refused)
    expect(verdict).to_contain_text("Illegal at ply 9, (7, 7): Forbidden move: h8 is forbidden")
    assert refused_cell(first) == (7, 7)
    # The same nine stones as PSQ, which carries no rule: as the record says, freestyle, where
    # h8 is a move like another; with Renju given beside it, the ninth stone is refused.
    stones = (*moves, (7, 7))
    psq = write_psq(PsqGame(15, stones, (None,) * len(stones)))
    first.select_option("#audit-format", "psq")
    expect(first.locator("#audit-psq-gomoku-rule")).to_be_visible()
    expect(first.locator("#audit-psq-gomoku-size")).to_be_hidden()  # the record says its size
    expect(first.locator("#audit-psq-gomoku-opening")).to_be_hidden()
    verdict = check_game(first, psq)
    expect(verdict).to_contain_text("Unfinished: 9 plies, all legal")
    first.select_option("#audit-psq-gomoku-rule", "renju")
    verdict = check_game(first, psq)
    expect(verdict).to_contain_text("Illegal at ply 9, (7, 7): Forbidden move: h8 is forbidden")
    first.select_option("#audit-format", "transcript")
    expect(first.locator("#audit-psq-gomoku-rule")).to_be_hidden()
    first.select_option("#audit-kind", "gomoku")  # a transcript's kind is picked
    expect(first.locator("#audit-gomoku-rule")).to_be_visible()
    assert not left_the_machine(first, outside)


def test_a_swap2_opening_between_two_pages_hands_out_the_colours(
    browser: Browser, server: str
) -> None:
    outside: list[playwright.Request] = []
    first = new_page(browser, server, outside)
    first.goto(f"{server}/")
    first.select_option("#game-kind", "gomoku")
    first.select_option("#gomoku-opening", "swap2")
    first.select_option("#time-control", "600+5")
    first.get_by_role("button", name="New game").click()
    expect(first.locator("#status")).to_have_text(
        "You are Player 1. Swap2: place three stones — Black, White, Black. Your turn."
    )
    expect(first.locator("#invite-label")).to_have_text("Invite link for player 2")
    second = join(browser, server, first, outside)
    expect(second.locator("#status")).to_have_text(
        "You are Player 2. Swap2: place three stones — Black, White, Black. Waiting for Player 1."
    )
    # Player 1 places Black, White, Black; both boards show the colours, not the seats.
    for index, ((row, col), color) in enumerate(zip([(7, 7), (6, 7), (6, 8)], "BWB", strict=True)):
        cell(first, row, col).click()
        for page in (first, second):
            expect(cell(page, row, col)).to_have_attribute("data-mark", color, timeout=5000)
        if index == 0:  # the clocks run from the first stone: player 1's, who places on
            expect(first.locator("#clock-1")).to_have_class(re.compile(r"\brunning\b"))
    expect(second.locator("#clock-2")).to_have_class(re.compile(r"\brunning\b"))  # to choose
    # Player 2 chooses: a stone is refused with the service's reason, the choices are buttons.
    expect(second.locator("#status")).to_contain_text("play Black, play White, or place two more")
    expect(first.locator("#choices")).to_be_hidden()
    cell(second, 0, 0).click()
    expect(second.locator("#message")).to_contain_text("player 2 chooses now")
    second.get_by_role("button", name="Place two more").click()
    expect(second.locator("#choices")).to_be_hidden()
    for (row, col), color in zip([(8, 8), (5, 5)], "WB", strict=True):
        cell(second, row, col).click()
        for page in (first, second):
            expect(cell(page, row, col)).to_have_attribute("data-mark", color, timeout=5000)
    # Player 1 takes White (place two more is not offered again) and moves: White's turn.
    expect(first.get_by_role("button", name="Place two more")).to_have_count(0, timeout=5000)
    first.get_by_role("button", name="Play White").click()
    expect(first.locator("#status")).to_have_text("You are White (player 1). Your turn.")
    expect(second.locator("#status")).to_have_text(
        "You are Black (player 2). Waiting for White (player 1).", timeout=5000
    )
    expect(second.locator("#clock-2 .who")).to_have_text("Black (you)")
    cell(first, 0, 14).click()
    expect(cell(second, 0, 14)).to_have_attribute("data-mark", "W", timeout=5000)
    expect(second.locator("#status")).to_have_text("You are Black (player 2). Your turn.")
    state = httpx.get(f"{server}/v1/games/{game_id(first)}").json()
    assert (state["colors"], state["opening"], state["move_count"]) == (
        {"1": "W", "2": "B"}, None, 8,
    )  # fmt: skip
    assert not left_the_machine(first, outside)


def test_picker_keeps_k_while_it_fits(browser: Browser, server: str) -> None:
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.goto(f"{server}/")
    size, k = page.locator("#size"), page.locator("#in-a-row")
    page.select_option("#size", "7")
    expect(k).to_have_value("7")  # k follows n while it is n: the classic game
    page.select_option("#in-a-row", "4")
    page.select_option("#size", "9")
    expect(k).to_have_value("4")
    page.select_option("#size", "3")
    expect(k).to_have_value("3")  # 4 no longer fits
    expect(size).to_have_value("3")
    page.select_option("#size", "5")
    expect(k).to_have_value("5")
    page.select_option("#in-a-row", "4")
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#status")).to_have_text("You are X (player 1). Your turn.")
    state = httpx.get(f"{server}/v1/games/{game_id(page)}").json()
    assert (state["game"], state["n"], state["k"]) == ("tictactoe", 5, 4)
    assert not left_the_machine(page, outside)


# The board a page shows, one string a row: B, W (or X, O) and . for empty.
SHOWN_ROWS = """() => [...document.querySelectorAll('#board [role=row]')]
    .map(row => [...row.children].map(cell => cell.dataset.mark || '.').join(''))"""


def stones(page: Page) -> list[str]:
    rows: list[str] = page.evaluate(SHOWN_ROWS)
    return rows


def shows_board(page: Page, rows: list[str]) -> None:
    """Wait until the page shows exactly ``rows``."""
    try:
        page.wait_for_function(
            f"expected => ({SHOWN_ROWS})().join('/') === expected", arg="/".join(rows), timeout=5000
        )
    except playwright.TimeoutError:
        assert stones(page) == rows  # says how they differ


def test_reversi_opening_move_flips_on_both_pages(browser: Browser, server: str) -> None:
    outside: list[playwright.Request] = []
    first = new_page(browser, server, outside)
    first.goto(f"{server}/")
    first.select_option("#game-kind", "reversi")
    expect(first.locator("#reversi-size")).to_have_value("8x8")
    expect(first.locator("#size")).to_be_hidden()
    first.get_by_role("button", name="New game").click()
    expect(first.locator("#status")).to_have_text("You are Black (player 1). Your turn.")
    expect(first.locator("#score")).to_have_text("Black 2 – White 2")
    expect(first.locator("#invite label")).to_have_text("Invite link for player 2 (White)")
    second = join(browser, server, first, outside)
    expect(second.locator("#status")).to_have_text(
        "You are White (player 2). Waiting for Black (player 1)."
    )
    expect(cell(second, 3, 3)).to_have_attribute("data-mark", "W")
    expect(first.locator("#board .cell.legal")).to_have_count(4)

    cell(first, 2, 3).click()
    for page in (first, second):
        expect(cell(page, 2, 3)).to_have_attribute("data-mark", "B")
        expect(cell(page, 3, 3)).to_have_attribute("data-mark", "B", timeout=5000)
        expect(cell(page, 3, 3)).to_have_class(re.compile(r"\bflip\b"))
        expect(cell(page, 3, 3)).to_have_attribute(
            "aria-label", "d4 (row 4, column 4): black, just turned"
        )
        expect(page.locator("#board .cell.flip")).to_have_count(1)
        expect(page.locator("#score")).to_have_text("Black 4 – White 1")
    expect(second.locator("#status")).to_have_text("You are White (player 2). Your turn.")
    expect(second.locator("#board .cell.legal")).to_have_count(3)
    expect(first.locator("#board .cell.legal")).to_have_count(0)

    cell(second, 0, 0).click()
    expect(second.locator("#message")).to_have_text(
        "Illegal move: (0, 0) brackets no opponent stone"
    )
    cell(second, 2, 2).focus()  # the keyboard plays Reversi too: (2, 4) turns (3, 4)
    second.keyboard.press("ArrowRight")
    second.keyboard.press("ArrowRight")
    second.keyboard.press("Enter")
    for page in (first, second):
        expect(cell(page, 3, 4)).to_have_attribute("data-mark", "W", timeout=5000)
        expect(page.locator("#score")).to_have_text("Black 3 – White 3")
    expect(second.locator("#message")).to_have_text("")
    board = httpx.get(f"{server}/v1/games/{game_id(first)}/board").json()
    for page in (first, second):
        assert stones(page) == board["rows"]
    assert not left_the_machine(first, outside)


OTHELLO_START = ["........"] * 3 + ["...WB...", "...BW..."] + ["........"] * 3


@pytest.mark.parametrize("push", [True, False], ids=["events", "polling"])
def test_the_creator_of_an_open_reversi_game_sees_its_legal_moves_once_someone_joins(
    browser: Browser, server: str, push: bool
) -> None:
    """Nobody is to move while the seat is open: no dots. The join (its event, or the poll that
    reads it) makes Black the player to move, and the creator's page dots Black's four legal
    moves without a reload."""
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside, push)
    page.goto(f"{server}/")
    page.select_option("#game-kind", "reversi")
    page.check("#open-game")
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#status")).to_contain_text("You are Black (player 1). Waiting for someone")
    expect(page.locator("#board .cell.legal")).to_have_count(0)
    joined = httpx.post(f"{server}/v1/games/{game_id(page)}/join")
    assert joined.status_code == 200
    expect(page.locator("#status")).to_have_text("You are Black (player 1). Your turn.")
    legal = page.locator("#board .cell.legal")
    expect(legal).to_have_count(4)
    dotted = legal.evaluate_all("cells => cells.map(c => [+c.dataset.row, +c.dataset.col])")
    assert sorted(map(tuple, dotted)) == reversi_moves(OTHELLO_START, "B")
    assert not left_the_machine(page, outside)


@dataclass(frozen=True)
class ReversiMove:
    row: int
    col: int
    color: str
    flips: int
    passed: bool  # the opponent then has no move: the mover moves again
    after: list[str]


COLOR_NAMES = {"B": "Black", "W": "White"}


def reversi_playout(start: list[str], color: str, rng: random.Random) -> list[ReversiMove]:
    """A whole game of random legal moves, by the reference rules."""
    grid, moves = start, []
    while True:
        options = reversi_moves(grid, color)
        if not options:
            return moves
        row, col = rng.choice(options)
        flips = len(reversi_flips(grid, row, col, color))
        grid = reversi_play(grid, row, col, color)
        other = "W" if color == "B" else "B"
        passed = not reversi_moves(grid, other) and bool(reversi_moves(grid, color))
        moves.append(ReversiMove(row, col, color, flips, passed, grid))
        color = color if passed else other


def a_game_with_a_pass(start: list[str], color: str) -> list[ReversiMove]:
    """The playout of the first seed whose game has a pass (a fixed game, found once)."""
    for seed in range(100):
        moves = reversi_playout(start, color, random.Random(seed))
        if any(move.passed for move in moves):
            return moves
    raise AssertionError("no game with a pass in 100 seeds")


@pytest.mark.parametrize("push", [True, False], ids=["events", "polling"])
def test_reversi_to_the_end_with_a_pass(browser: Browser, server: str, push: bool) -> None:
    """A posted 4 × 4 position, White to move; both players click a seeded random game through
    (the first seed whose game has a pass), each page showing the service's board throughout,
    by its event stream or, without EventSource, by polling."""
    posted = ["....", ".BW.", ".WB.", "...."]
    plan = a_game_with_a_pass(posted, "W")
    created = httpx.post(
        f"{server}/v1/games", json={"game": "reversi", "board": posted, "next": "W"}
    ).json()
    game_id = created["id"]
    outside: list[playwright.Request] = []
    pages = {}
    for player, color in ((1, "B"), (2, "W")):
        page = new_page(browser, server, outside, push)
        page.goto(
            f"{server}/#game={game_id}&token={created['tokens'][str(player)]}&player={player}"
        )
        pages[color] = page
    expect(pages["W"].locator("#status")).to_have_text("You are White (player 2). Your turn.")
    expect(pages["B"].locator("#status")).to_have_text(
        "You are Black (player 1). Waiting for White (player 2)."
    )
    for page in pages.values():
        shows_board(page, posted)

    for move in plan:
        cell(pages[move.color], move.row, move.col).click()
        for page in pages.values():
            shows_board(page, move.after)
            expect(page.locator("#board .cell.flip")).to_have_count(move.flips)
        assert httpx.get(f"{server}/v1/games/{game_id}/board").json()["rows"] == move.after
        black, white = (sum(row.count(color) for row in move.after) for color in "BW")
        other = "W" if move.color == "B" else "B"
        for page in pages.values():
            expect(page.locator("#score")).to_have_text(f"Black {black} – White {white}")
            status = page.locator("#status")
            if move.passed:
                expect(status).to_contain_text(
                    f"{COLOR_NAMES[other]} has no move — {COLOR_NAMES[move.color]} plays again."
                )
            else:
                expect(status).not_to_contain_text("has no move")

    result = (
        f"Black wins {black}–{white}" if black > white
        else f"White wins {white}–{black}" if white > black
        else f"Draw {black}–{white}"
    )  # fmt: skip
    winner = "B" if black > white else "W" if white > black else None
    for color, page in pages.items():
        outcome = "" if winner is None else "You won. " if color == winner else "You lost. "
        expect(page.locator("#status")).to_have_text(f"{outcome}{result}")
    state = httpx.get(f"{server}/v1/games/{game_id}").json()
    assert (state["status"], state["reason"], state["move_count"]) == (
        "won" if black != white else "draw",
        "no_moves",
        len(plan),
    )
    assert not left_the_machine(pages["B"], outside)


def new_clocked_game(
    page: Page, server: str, minutes: int, seconds: int, increment: int,
    mode: str = "fischer", stage: tuple[int, int] | None = None,
) -> None:  # fmt: skip
    """Player 1 creates a 5 × 5 tic-tac-toe game with a custom clock (a stage: after which
    move, how many minutes)."""
    page.goto(f"{server}/")
    page.select_option("#size", "5")
    page.select_option("#time-control", "custom")
    page.fill("#clock-minutes", str(minutes))
    page.fill("#clock-seconds", str(seconds))
    page.fill("#clock-increment", str(increment))
    page.select_option("#clock-mode", mode)
    if stage is not None:
        page.fill("#stage-moves", str(stage[0]))
        page.fill("#stage-minutes", str(stage[1]))
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#status")).to_contain_text("You are X (player 1). Your turn.")


def test_a_flag_falls_with_nobody_moving_and_both_pages_show_it(
    browser: Browser, server: str
) -> None:
    """A 2-second clock; after the two untimed first moves X's runs out. One page has the event
    stream, the other polls: both show the loss on time without anybody doing anything."""
    outside: list[playwright.Request] = []
    first = new_page(browser, server, outside)
    new_clocked_game(first, server, 0, 2, 0)
    expect(first.locator("#clock-1")).to_contain_text("X (you) 0:02.0")
    second = join(browser, server, first, outside, push=False)
    expect(second.locator("#clock-2")).to_contain_text("O (you)")
    play((first, second), [(0, 0), (1, 1)])  # untimed: then X's clock runs
    expect(first.locator("#clock-1")).to_have_class(re.compile(r"\brunning\b"))
    result = "O wins on time: X's clock ran out."
    for page, outcome in ((first, "You lost."), (second, "You won.")):
        expect(page.locator("#status")).to_have_text(f"{outcome} {result}", timeout=10_000)
        expect(page.locator("#clock-1 time")).to_have_text("0:00.0")
        expect(page.get_by_role("button", name="Resign")).to_be_disabled()
    state = httpx.get(f"{server}/v1/games/{game_id(first)}").json()
    assert (state["status"], state["winner"], state["reason"]) == ("won", 2, "timeout")
    assert state["clock"]["remaining_ms"]["1"] == 0


def test_a_clock_counts_down_on_both_pages(browser: Browser, server: str) -> None:
    """Ten minutes and five seconds a move: after the first moves X's clock runs on both pages,
    from the state's deadline, and O's stands at its time."""
    outside: list[playwright.Request] = []
    first = new_page(browser, server, outside)
    new_clocked_game(first, server, 10, 0, 5)
    second = join(browser, server, first, outside)
    play((first, second), [(0, 0), (1, 1)])
    for page in (first, second):
        expect(page.locator("#clock-1 time")).to_have_text(re.compile(r"^9:5\d$"))
        expect(page.locator("#clock-2 time")).to_have_text("10:00")
        expect(page.locator("#clock-1")).to_have_class(re.compile(r"\brunning\b"))
    assert not left_the_machine(first, outside)


def test_a_delay_counts_before_the_main_time_and_time_given_reaches_the_other_page(
    browser: Browser, server: str
) -> None:
    """A delay of a minute and a stage: after the first moves X's delay counts down beside its
    time, which stands; O gives X fifteen seconds, and both pages show them."""
    outside: list[playwright.Request] = []
    first = new_page(browser, server, outside)
    new_clocked_game(first, server, 10, 0, 60, mode="delay", stage=(40, 15))
    second = join(browser, server, first, outside)
    play((first, second), [(0, 0), (1, 1)])
    for page in (first, second):
        expect(page.locator("#clock-rules")).to_have_text(
            "delay: each move the clock waits 60 s; +15:00 after move 40"
        )
        expect(page.locator("#clock-1 .delay")).to_have_text(re.compile(r"^delay 5\d\.\d s$"))
        expect(page.locator("#clock-1 time")).to_have_text("10:00")  # it waits for the delay
    second.get_by_role("button", name="+15 s to your opponent").click()
    for page in (first, second):
        expect(page.locator("#clock-1 time")).to_have_text("10:15")
        expect(page.locator("#clock-2 time")).to_have_text("10:00")
    expect(first.get_by_role("button", name="+15 s to your opponent")).to_be_visible()
    state = httpx.get(f"{server}/v1/games/{game_id(first)}").json()
    assert state["clock"]["remaining_ms"]["1"] == 615_000
    assert not left_the_machine(first, outside)


def test_a_draw_offered_on_one_page_is_accepted_on_the_other(browser: Browser, server: str) -> None:
    outside: list[playwright.Request] = []
    first, second = start_game(browser, server, 4, outside)
    play((first, second), [(0, 0)])
    first.get_by_role("button", name="Offer draw").click()
    expect(first.locator("#offer-note")).to_have_text(
        "You offered a draw; it stands until the next move."
    )
    expect(first.get_by_role("button", name="Offer draw")).to_be_disabled()
    expect(second.locator("#offer-note")).to_contain_text("X offers a draw.")
    second.get_by_role("button", name="Accept draw").click()
    for page in (first, second):
        expect(page.locator("#status")).to_have_text("Draw by agreement.")
        expect(page.get_by_role("button", name="Resign")).to_be_disabled()
    state = httpx.get(f"{server}/v1/games/{game_id(first)}").json()
    assert (state["status"], state["winner"], state["reason"]) == ("draw", 0, "agreement")
    assert (state["move_count"], state["version"]) == (1, 3)  # a move, an offer, the agreement


def test_a_move_declines_a_standing_offer(browser: Browser, server: str) -> None:
    """X offers, and O moves instead of accepting (both pages polling): the offer is gone."""
    outside: list[playwright.Request] = []
    first, second = start_game(browser, server, 4, outside, push=False)
    play((first, second), [(0, 0)])
    first.get_by_role("button", name="Offer draw").click()
    expect(second.locator("#offer-note")).to_contain_text("X offers a draw.", timeout=5000)
    cell(second, 3, 3).click()
    expect(cell(first, 3, 3)).to_have_text("O", timeout=5000)
    for page in (first, second):
        expect(page.locator("#offer-note")).to_have_text("")
        expect(page.get_by_role("button", name="Offer draw")).to_be_enabled()


def test_resignation_is_confirmed_on_the_page(browser: Browser, server: str) -> None:
    outside: list[playwright.Request] = []
    first, second = start_game(browser, server, 3, outside)
    play((first, second), [(0, 0)])
    second.get_by_role("button", name="Resign").click()
    second.get_by_role("button", name="Keep playing").click()  # changed their mind
    expect(second.locator("#confirm-resign")).to_be_hidden()
    assert httpx.get(f"{server}/v1/games/{game_id(first)}").json()["status"] == "in_progress"
    second.get_by_role("button", name="Resign").click()
    expect(second.locator("#confirm-resign")).to_contain_text("Resign this game?")
    second.get_by_role("button", name="Yes, resign").click()
    expect(first.locator("#status")).to_have_text("You won. O resigned: X wins.")
    expect(second.locator("#status")).to_have_text("You lost. O resigned: X wins.")
    state = httpx.get(f"{server}/v1/games/{game_id(first)}").json()
    assert (state["status"], state["winner"], state["reason"]) == ("won", 1, "resignation")


def game_id(page: Page) -> str:
    match = re.search(r"#game=([^&]+)$", page.url)
    assert match, page.url
    return match.group(1)


def test_tokens_never_stay_in_the_address_bar(browser: Browser, server: str) -> None:
    """The address bar names the game only; each tab keeps its seat across a reload."""
    outside: list[playwright.Request] = []
    first, second = start_game(browser, server, 3, outside)
    invite = first.locator("#invite-link").input_value()
    assert "token=" in invite  # the invite link is the one way to hand over a seat
    for page in (first, second):
        assert "token" not in page.url
        assert page.evaluate("location.href") == f"{server}/#game={game_id(first)}"
    play((first, second), [(0, 0)])
    for page, seat in ((first, "You are X (player 1)"), (second, "You are O (player 2)")):
        page.reload()
        expect(page.locator("#status")).to_contain_text(seat)
        assert "token" not in page.url
    cell(second, 1, 1).click()  # the reloaded seat still moves
    expect(cell(first, 1, 1)).to_have_text("O", timeout=5000)
    watcher = new_page(browser, server, outside)
    watcher.goto(first.url)  # the address bar's link: a watcher, no seat
    expect(watcher.locator("#status")).to_contain_text("Watching.")
    expect(watcher.locator("#actions")).to_be_hidden()


OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def choose_a_game(page: Page) -> None:
    """Open the new-game form, which folds away once a game is shown."""
    if page.locator("#new-game-box").get_attribute("open") is None:
        page.get_by_text("Choose a game", exact=True).click()


def offered(page: Page, select: str) -> list[str]:
    """The values a select of the page offers, in its order."""
    values: list[str] = page.locator(f"{select} option").evaluate_all(
        "options => options.map(option => option.value)"
    )
    return values


def every_board_offered(page: Page) -> list[tuple[str, dict[str, str]]]:
    """Each board the new-game form offers, as the kind and the fields that pick it: every size of
    every kind, and renju (15 × 15 only, with its Pass button). Read from the form itself."""
    boards: list[tuple[str, dict[str, str]]] = []
    for kind in offered(page, "#game-kind"):
        page.select_option("#game-kind", kind)
        rule = {}
        if kind == "gomoku":
            boards.append((kind, {"#gomoku-rule": "renju"}))
            rule = {"#gomoku-rule": "freestyle"}
            page.select_option("#gomoku-rule", "freestyle")
        size = {"tictactoe": "#size", "reversi": "#reversi-size", "gomoku": "#gomoku-size",
                "connect4": "#connect4-size"}[kind]  # fmt: skip
        boards += [(kind, {**rule, size: value}) for value in offered(page, size)]
    return boards


# Where the game's parts are (their boxes: left, top, right, bottom) in the window, its size, how
# far the page and the board's box scroll sideways, and the coordinates drawn around the board.
GAME_IN_VIEW = """() => {
  const box = (id) => { const r = document.getElementById(id).getBoundingClientRect();
                        return [r.left, r.top, r.right, r.bottom]; };
  const labels = (side) => [...document.querySelectorAll(`#board-box .coords.${side} span`)]
    .map((span) => span.textContent);
  const board = document.getElementById("board-box");
  return {
    parts: Object.fromEntries(
      ["status", "clocks", "board-box", "actions"].map((id) => [id, box(id)])),
    window: [window.innerWidth, window.innerHeight],
    sideways: [document.documentElement.scrollWidth - document.documentElement.clientWidth,
               board.scrollWidth - board.clientWidth],
    coords: Object.fromEntries(
      ["top", "bottom", "left", "right"].map((side) => [side, labels(side)])),
    cells: document.querySelectorAll("#board .cell").length,
  };
}"""


def shows_the_whole_game(page: Page, height: int, width: int, row_one: str) -> None:
    """The status, clocks, board (with its coordinates) and buttons of a game of ``height`` ×
    ``width`` inside the window, nothing scrolling sideways; the coordinates as the kind names
    squares (row 1 at the ``row_one``)."""
    shown = page.evaluate(GAME_IN_VIEW)
    assert shown["cells"] == height * width
    window_width, window_height = shown["window"]
    for part, (left, top, right, bottom) in shown["parts"].items():
        inside = left >= 0 and top >= 0 and right <= window_width and bottom <= window_height
        assert inside, (part, (left, top, right, bottom), shown["window"])
    assert shown["sideways"] == [0, 0]
    assert shown["coords"] == coordinates(height, width, row_one)


ROW_ONE = {
    "tictactoe": "bottom",
    "gomoku": "bottom",
    "reversi": "top",
    "connect4": "bottom",
}  # docs/api.md


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
def test_every_board_offered_fits_the_window_with_its_coordinates(
    browser: Browser, server: str, width: int, height: int
) -> None:
    """Each board the form offers, clocked, created in turn: once it starts, its status, clocks,
    board and buttons are in the window without scrolling (on the phone, after the page scrolled
    itself to the game), nothing scrolls sideways, and the coordinates are drawn. The invited
    player's page of the largest lands on it too. Screenshots in test-artifacts/."""
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.set_viewport_size({"width": width, "height": height})
    page.goto(f"{server}/")
    expect(page.locator("#new-game-submit")).to_be_enabled()
    page.select_option("#time-control", "180+2")
    # Gomoku's last: its 19 × 19 is the largest board, which the invited player's page opens.
    boards = sorted(every_board_offered(page), key=lambda board: board[0] == "gomoku")
    assert len(boards) >= 3 + 17 + 6 + 5  # renju and gomoku's, tic-tac-toe's, Reversi's, C4's
    for kind, fields in boards:
        choose_a_game(page)
        page.select_option("#game-kind", kind)
        for select, value in fields.items():
            page.select_option(select, value)
        page.get_by_role("button", name="New game").click()
        page.wait_for_function("() => !document.getElementById('new-game-box').open")
        state = httpx.get(f"{server}/v1/games/{game_id(page)}").json()
        assert state["game"] == kind
        assert state.get("rule") == fields.get("#gomoku-rule", state.get("rule"))
        rows = httpx.get(f"{server}/v1/games/{game_id(page)}/board").json()["rows"]
        expect(page.locator("#status")).to_contain_text("Your turn.")
        shows_the_whole_game(page, len(rows), len(rows[0]), ROW_ONE[kind])
    assert (len(rows), len(rows[0])) == (19, 19)  # the largest, last: gomoku's
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"game-{width}x{height}.png"))
    invited = join(browser, server, page, outside)
    expect(invited.locator("#status")).to_contain_text("You are White (player 2).")
    shows_the_whole_game(invited, 19, 19, "bottom")
    assert not left_the_machine(page, outside)


def test_a_19_by_19_board_fits_a_320_px_screen(browser: Browser, server: str) -> None:
    """The narrowest phone: no sideways scroll, of the page or of the board's box; the far corner
    is in view and playable."""
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.set_viewport_size({"width": 320, "height": 640})
    page.goto(f"{server}/")
    assert page.evaluate(OVERFLOW) == 0
    page.select_option("#size", "19")
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#invite")).to_be_visible()
    assert page.evaluate(GAME_IN_VIEW)["sideways"] == [0, 0]
    expect(cell(page, 18, 18)).to_be_in_viewport()
    cell(page, 18, 18).click()
    expect(cell(page, 18, 18)).to_have_text("X")
    assert page.evaluate(OVERFLOW) == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "page-320x640.png"), full_page=True)
    assert not left_the_machine(page, outside)


def test_nothing_overflows_at_360_px(browser: Browser, server: str) -> None:
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{server}/")
    overflow = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    assert page.evaluate(overflow) == 0
    page.get_by_role("button", name="Gomoku").click()
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#invite")).to_be_visible()
    assert page.evaluate(overflow) == 0
    choose_a_game(page)
    page.select_option("#game-kind", "reversi")
    page.select_option("#reversi-size", "6x10")
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#score")).to_have_text("Black 2 – White 2")
    expect(page.locator("#board [role=row]")).to_have_count(6)
    assert page.evaluate(overflow) == 0
    assert not left_the_machine(page, outside)


PAGE_WIDER_THAN_SCREEN = "() => document.documentElement.scrollWidth > window.innerWidth"


# Operations of /docs with what is widest: a long example body, response links with their
# parameters, the longest path.
WIDE_OPERATIONS = ("Reversi-checkMoves", "Game_sessions-createGame", "Game_sessions-makeMove",
                   "Game_sessions-getMove")  # fmt: skip


def test_the_docs_never_scroll_sideways_on_a_phone(browser: Browser, server: str) -> None:
    """At 390 × 844, with the widest operations of /docs open and one tried out (its curl
    command): nothing makes the page wider than the screen; what is wider wraps or scrolls in
    its own box. The play page and /redoc likewise."""
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server}/docs")
    for name in WIDE_OPERATIONS:
        operation = page.locator(f"#operations-{name}")
        operation.locator(".opblock-summary").click(timeout=10_000)
        expect(operation.locator(".responses-table").first).to_be_visible()
    assert not page.evaluate(PAGE_WIDER_THAN_SCREEN)
    check = page.locator("#operations-Reversi-checkMove")
    check.locator(".opblock-summary").click()
    check.get_by_role("button", name="Try it out").click()
    check.get_by_role("button", name="Execute").click()
    expect(check.locator(".live-responses-table tr.response td.response-col_status").first
           ).to_have_text("200", timeout=10_000)  # fmt: skip
    assert not page.evaluate(PAGE_WIDER_THAN_SCREEN)
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("#operations-Game_sessions-createGame").screenshot(
        path=str(ARTIFACTS / "docs-390x844.png")
    )
    page.goto(f"{server}/")
    expect(page.get_by_role("button", name="New game")).to_be_visible()
    assert not page.evaluate(PAGE_WIDER_THAN_SCREEN)
    page.goto(f"{server}/redoc")
    expect(page.get_by_text("Move adjudication API").first).to_be_visible(timeout=10_000)
    assert not page.evaluate(PAGE_WIDER_THAN_SCREEN)
    assert not left_the_machine(page, outside)


# --- game records: download a game, check a game ----------------------------------------------


def downloaded(page: Page, button: str) -> tuple[str, str]:
    """The file name and text of what the button downloads."""
    with page.expect_download() as download:
        page.get_by_role("button", name=button, exact=True).click()
    return download.value.suggested_filename, Path(download.value.path()).read_text()


def download_buttons(page: Page) -> list[str]:
    return page.locator("#downloads").get_by_role("button").all_inner_texts()


def test_a_played_game_downloads_as_its_record(browser: Browser, server: str) -> None:
    """A short game, played to its end, downloaded as a transcript and as JSON: each file is
    what GET …/record answers, under the game's id; the JSON record, pasted into the game
    checker, audits to the same end."""
    outside: list[playwright.Request] = []
    first, second = start_game(browser, server, 3, outside)
    assert download_buttons(first) == ["Download JSON", "Download transcript"]  # no GGF
    play((first, second), [(2, 0), (0, 0), (1, 1), (0, 1), (0, 2)])  # X: a1, b2, c3
    expect(first.locator("#status")).to_have_text("You won. X (player 1) wins!")
    record = f"{server}/v1/games/{game_id(first)}/record"
    name, text = downloaded(second, "Download transcript")  # a player's, or anybody's
    assert (name, text) == (f"{game_id(first)}.txt", httpx.get(f"{record}?format=transcript").text)
    assert text == "a1a3b2b3c3"  # tic-tac-toe counts rows from the bottom
    name, text = downloaded(first, "Download JSON")
    assert name == f"{game_id(first)}.json"
    assert json.loads(text) == httpx.get(record).json()
    assert json.loads(text)["signature"] is not None  # the game is over: signed

    verdict = check_game(first, text)
    expect(first.locator("#audit-format")).to_have_value("json")  # recognised as it is pasted
    expect(first.locator("#audit-fields")).to_be_hidden()  # the record gives its parameters
    expect(verdict).to_have_text("Finished after 5 plies: X (player 1) wins!")
    assert audit_rows(first) == ["OOX", ".X.", "X.."]
    expect(first.locator("#audit-board .cell.win")).to_have_count(3)
    assert not left_the_machine(first, outside)


def test_a_reversi_game_downloads_as_ggf_where_its_board_is_square(
    browser: Browser, server: str
) -> None:
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.goto(f"{server}/")
    page.select_option("#game-kind", "reversi")
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#status")).to_have_text("You are Black (player 1). Your turn.")
    cell(page, 4, 5).click()  # f5
    expect(page.locator("#score")).to_have_text("Black 4 – White 1")
    assert download_buttons(page) == ["Download JSON", "Download transcript", "Download GGF"]
    name, text = downloaded(page, "Download GGF")
    record = f"{server}/v1/games/{game_id(page)}/record"
    assert (name, text) == (f"{game_id(page)}.ggf", httpx.get(f"{record}?format=ggf").text)
    assert "B[f5]" in text

    choose_a_game(page)
    page.select_option("#reversi-size", "6x10")  # GGF has no rectangular boards
    page.get_by_role("button", name="New game").click()
    expect(page.locator("#board [role=row]")).to_have_count(6)
    expect(page.locator("#downloads").get_by_role("button")).to_have_count(2)
    assert download_buttons(page) == ["Download JSON", "Download transcript"]
    assert not left_the_machine(page, outside)


# The board the game checker shows, one string a row: B, W (or X, O) and . for empty.
AUDIT_ROWS = """() => [...document.querySelectorAll('#audit-board [role=row]')]
    .map(row => [...row.children].map(cell => cell.dataset.mark || '.').join(''))"""


def audit_rows(page: Page) -> list[str]:
    rows: list[str] = page.evaluate(AUDIT_ROWS)
    return rows


def check_game(page: Page, text: str, game: str | None = None) -> playwright.Locator:
    """Paste ``text`` into the game checker and check it: a record as the page recognises it, a
    transcript as a game of kind ``game`` (None: the kind the checker picked); answers the
    verdict."""
    page.locator("#audit-text").fill(text)
    if game is not None:
        page.select_option("#audit-kind", game)
    page.get_by_role("button", name="Check game").click()
    return page.locator("#audit-verdict")


def refused_cell(page: Page) -> tuple[int, int]:
    ringed = page.locator("#audit-board .cell.refused")
    expect(ringed).to_have_count(1)
    return int(ringed.get_attribute("data-row") or -1), int(ringed.get_attribute("data-col") or -1)


def test_a_checked_transcript_rings_its_first_illegal_move(browser: Browser, server: str) -> None:
    """Tic-tac-toe counts rows from the bottom, Othello from the top: the ring is on the square
    the transcript names, over the position after the accepted moves."""
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.goto(f"{server}/")
    page.select_option("#audit-kind", "tictactoe")
    page.select_option("#audit-size", "3")
    verdict = check_game(page, "a1c3b2a1c1")
    expect(verdict).to_have_text(
        "Illegal at ply 4, a1: Cell occupied: cell a1 (2, 0) already holds a mark. The 3 plies "
        "before it are legal; the board shows the position after them."
    )
    assert refused_cell(page) == (2, 0)
    assert audit_rows(page) == ["..O", ".X.", "X.."]
    expect(page.locator("#audit-board .cell.refused")).to_have_attribute(
        "aria-label", "a1 (row 3, column 1): X, refused move: cell a1 (2, 0) already holds a mark"
    )

    verdict = check_game(page, "f5 d6 a8", "reversi")  # 8 × 8 is the default
    expect(verdict).to_contain_text("Illegal at ply 3, a8: Illegal move: a8 (7, 0) brackets no")
    assert refused_cell(page) == (7, 0)
    start = ["........"] * 3 + ["...WB...", "...BW..."] + ["........"] * 3
    assert audit_rows(page) == reversi_play(reversi_play(start, 4, 5, "B"), 5, 3, "W")

    not_a_record = check_game(page, "f5 zz")
    body = {"game": "reversi", "transcript": "f5 zz"}
    problem = httpx.post(f"{server}/v1/records/audit", json=body).json()
    expect(not_a_record).to_have_text(problem["detail"])
    expect(page.locator("#audit-board-box")).to_be_hidden()
    assert not left_the_machine(page, outside)


def test_check_a_game_reads_a_record_as_its_game_and_a_transcript_as_othello(
    browser: Browser, server: str
) -> None:
    """A transcript is read as the game picked, Othello's until another is, as its help says; a
    PSQ, SGF or GGF record pasted is recognised, and checked as the game and board it says,
    nothing picked. The board shown is framed by the coordinates of its kind's squares."""
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.goto(f"{server}/")
    expect(page.locator("#audit-kind")).to_have_value("reversi")
    expect(page.locator("#audit-format")).to_have_value("transcript")
    expect(page.locator("#audit-help")).to_have_text(
        "its squares one after another (Reversi: column a the leftmost, row 1 the top row), "
        "such as f5d6c3d3c4"
    )
    verdict = check_game(page, "f5d6c3")
    expect(verdict).to_contain_text("Unfinished: 3 plies, all legal; White (player 2) is to move.")
    start = OTHELLO_START
    after = reversi_play(reversi_play(reversi_play(start, 4, 5, "B"), 5, 3, "W"), 2, 2, "B")
    assert audit_rows(page) == after
    left = page.locator("#audit-board-box .coords.left span")
    expect(left).to_have_text([str(n) for n in range(1, 9)])  # Othello's rows: from the top

    psq = write_psq(PsqGame(15, ((7, 7), (7, 8)), (None, None)))
    verdict = check_game(page, psq)
    expect(page.locator("#audit-format")).to_have_value("psq")
    expect(page.locator("#audit-kind-field")).to_be_hidden()  # the record says its game
    expect(verdict).to_contain_text("Unfinished: 2 plies, all legal; Black (player 1) is to move.")
    expect(left).to_have_text([str(n) for n in range(15, 0, -1)])  # gomoku's: from the bottom

    verdict = check_game(page, "(;FF[4]GM[4]SZ[19]RU[Freestyle];B[jj];W[kj])")
    expect(page.locator("#audit-format")).to_have_value("sgf")
    expect(verdict).to_contain_text("Unfinished: 2 plies, all legal")
    expect(page.locator("#audit-board [role=row]")).to_have_count(19)  # the SGF's SZ

    board = " ".join(start).translate(str.maketrans(".BW", "-*O"))  # GGF's marks
    ggf = f"(;GM[Othello]PC[here]TY[8]BO[8 {board} *]B[f5]W[d6];)"
    verdict = check_game(page, ggf)
    expect(page.locator("#audit-format")).to_have_value("ggf")
    expect(verdict).to_contain_text("Unfinished: 2 plies, all legal; Black (player 1) is to move.")

    verdict = check_game(page, "f5")  # a transcript again: Othello's, as picked before
    expect(page.locator("#audit-format")).to_have_value("transcript")
    expect(page.locator("#audit-kind-field")).to_be_visible()
    expect(verdict).to_contain_text("Unfinished: 1 ply, all legal; White (player 2) is to move.")
    assert not left_the_machine(page, outside)


def federation_result(final: list[str]) -> str:
    """How the page says a finished Othello game's result: the empty squares to the winner,
    and the discs beside it where they differ (``Black wins 36–28, discs 33–28``)."""
    black, white = ("".join(final).count(color) for color in "BW")
    empty = len("".join(final)) - black - white
    if black == white:
        return f"Draw {black + empty // 2}–{white + empty // 2}" + (
            f", discs {black}–{white}" if empty else ""
        )
    win, lose, name = (black, white, "Black") if black > white else (white, black, "White")
    return f"{name} wins {win + empty}–{lose}" + (f", discs {win}–{lose}" if empty else "")


def test_a_finished_game_ended_with_empty_squares_gives_them_to_the_winner(
    browser: Browser, server: str
) -> None:
    """A real 1988 tournament game that ended with empty squares: the page says the result as
    the federation counts it, with the discs beside it."""
    _, games = read_wthor((Path(__file__).parents[1] / "data" / "WTH_1988.wtb").read_bytes(), 100)
    game = next(
        g for g in games
        if len(g.moves) < 60 and (grid := replay(g.moves)) is not None
        and not (reversi_moves(grid, "B") or reversi_moves(grid, "W"))
    )  # fmt: skip
    page = new_page(browser, server, [])
    page.goto(f"{server}/")
    verdict = check_game(page, "".join(game.moves))  # an Othello transcript: Othello's
    expect(verdict).to_contain_text(f"Finished after {len(game.moves)} plies:")
    final = audit_rows(page)
    expect(verdict).to_contain_text(federation_result(final))
    if "." in "".join(final):
        expect(verdict).to_contain_text(", discs ")


def test_a_finished_othello_game_checks_as_finished(browser: Browser, server: str) -> None:
    """A whole game of random legal moves as a transcript, and a real GGS game from a random
    start: finished, with their results, and the final position drawn. On a phone's screen."""
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server}/")
    start = ["........"] * 3 + ["...WB...", "...BW..."] + ["........"] * 3
    plan = reversi_playout(start, "B", random.Random(7))
    transcript = "".join(othello_square(move.row, move.col) for move in plan)
    final = plan[-1].after
    expect(page.locator("#audit-help")).to_contain_text(
        "Reversi: column a the leftmost, row 1 the top row"
    )
    verdict = check_game(page, transcript)  # the checker's kind until another is picked
    expect(verdict).to_have_text(f"Finished after {len(plan)} plies: {federation_result(final)}")
    assert audit_rows(page) == final
    expect(page.locator("#audit-board .cell.refused")).to_have_count(0)
    assert not page.evaluate(PAGE_WIDER_THAN_SCREEN)

    ggs = read_ggf(WHITE_STARTS, 100)
    verdict = check_game(page, WHITE_STARTS)
    expect(page.locator("#audit-format")).to_have_value("ggf")
    expect(verdict).to_have_text(f"Finished after {len(ggs.moves)} plies: Black wins 36–28")
    assert audit_rows(page) == ggf_final_board(ggs)
    assert not page.evaluate(PAGE_WIDER_THAN_SCREEN)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "check-a-game-390x844.png"), full_page=True)
    assert not left_the_machine(page, outside)


def test_a_game_from_the_lobby_to_a_rematch_between_two_contexts(
    browser: Browser, server: str
) -> None:
    """Player 1 creates an open game, player 2 joins it from the lobby, player 1 resigns, both
    ask for a rematch and each page opens its own seat of it (the seats swapped); a spectator
    link made by a player watches it. A takeback asked by one and accepted by the other on the
    way. Abort: offered before the second move, and it ends it."""
    outside: list[playwright.Request] = []
    first, second, entry = open_game_in_the_lobby(browser, server, outside)
    created = game_id(first)
    entry.last.get_by_role("button", name="Join").click()
    expect(second.locator("#status")).to_contain_text("You are O (player 2).")
    expect(first.locator("#status")).to_contain_text("Your turn.", timeout=5000)
    expect(first.locator("#abort")).to_be_visible()
    cell(first, 1, 1).click()
    expect(cell(second, 1, 1)).to_have_attribute("data-mark", "X", timeout=5000)
    cell(second, 0, 0).click()
    expect(cell(first, 0, 0)).to_have_attribute("data-mark", "O", timeout=5000)
    # A takeback: player 1 asks, player 2 accepts; player 1's move and the reply are gone from
    # both boards, and player 1 moves again.
    first.get_by_role("button", name="Take back").click()
    expect(first.locator("#offer-note")).to_contain_text("You asked to take back")
    expect(second.locator("#offer-note")).to_contain_text("asks to take back", timeout=5000)
    second.get_by_role("button", name="Accept takeback").click()
    for page in (first, second):
        expect(cell(page, 1, 1)).not_to_have_attribute("data-mark", "X", timeout=5000)
        expect(cell(page, 0, 0)).not_to_have_attribute("data-mark", "O")
    expect(first.locator("#status")).to_contain_text("Your turn.", timeout=5000)
    cell(first, 1, 1).click()
    expect(cell(second, 1, 1)).to_have_attribute("data-mark", "X", timeout=5000)
    cell(second, 0, 0).click()
    expect(cell(first, 0, 0)).to_have_attribute("data-mark", "O", timeout=5000)
    expect(first.locator("#abort")).to_be_hidden()  # both have moved: too late
    first.get_by_role("button", name="Resign").click()
    first.get_by_role("button", name="Yes, resign").click()
    expect(second.locator("#status")).to_contain_text("resigned", timeout=5000)

    first.get_by_role("button", name="Rematch").click()
    expect(first.locator("#rematch-note")).to_contain_text("You offered a rematch")
    expect(second.locator("#rematch-note")).to_contain_text("offers a rematch", timeout=5000)
    second.get_by_role("button", name="Accept rematch").click()
    # Each page now shows the rematch, its own seat swapped: the old player 2 plays X first.
    expect(second.locator("#status")).to_contain_text("You are X (player 1). Your turn.")
    expect(first.locator("#status")).to_contain_text("You are O (player 2).", timeout=5000)
    rematch = game_id(second)
    assert rematch != created
    assert game_id(first) == rematch
    assert httpx.get(f"{server}/v1/games/{created}").json()["rematch"] == rematch
    cell(second, 2, 2).click()
    expect(cell(first, 2, 2)).to_have_attribute("data-mark", "X", timeout=5000)

    # A spectator link watches it, and cannot play.
    first.get_by_role("button", name="Spectator link").click()
    expect(first.locator("#spectator-link")).to_have_value(re.compile("player=0"))
    link = first.locator("#spectator-link").input_value()
    watcher = new_page(browser, server, outside)
    watcher.goto(link)
    expect(watcher.locator("#status")).to_contain_text("Watching.")
    expect(cell(watcher, 2, 2)).to_have_attribute("data-mark", "X")
    expect(watcher.locator("#actions")).to_be_hidden()

    # A new game aborted before both players have moved.
    third, fourth = start_game(browser, server, 3, outside)
    third.get_by_role("button", name="Abort").click()
    expect(third.locator("#status")).to_have_text("Aborted: no result.")
    expect(fourth.locator("#status")).to_have_text("Aborted: no result.", timeout=5000)
    assert not left_the_machine(first, outside)


def api_player(server: str, name: str) -> dict[str, str]:
    made = httpx.post(f"{server}/v1/players", json={"name": name})
    assert made.status_code == 201, made.text
    player: dict[str, str] = made.json()
    return player


def organised(server: str, method: str, path: str, key: str, **body: object) -> dict[str, Any]:
    """An organiser's request to a tournament route, answered with the tournament's document."""
    sent = httpx.request(
        method, f"{server}/v1/tournaments{path}", json=body or None,
        headers={"Authorization": f"Bearer {key}"},
    )  # fmt: skip
    assert sent.is_success, sent.text
    document: dict[str, Any] = sent.json()
    return document


def crosstable_of(document: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """Each player's rounds as the API's document says them: (opponent id, own score), ("",
    "bye") for a bye, ("", "") where unpaired; an unfinished game's score is ""."""
    scores = {"1-0": ("1", "0"), "0-1": ("0", "1"), "½-½": ("½", "½")}
    table: dict[str, list[tuple[str, str]]] = {p["id"]: [] for p in document["players"]}
    for played in document["rounds"]:
        for player, cells in table.items():
            found = [p for p in played["pairings"] if player in p["players"].values()]
            if not found:
                cells.append(("", ""))
                continue
            (pairing,) = found
            if pairing["result"] == "bye":
                cells.append(("", "bye"))
                continue
            seat = 0 if pairing["players"]["1"] == player else 1
            opponent = pairing["players"]["2" if seat == 0 else "1"]
            result = pairing["result"]
            cells.append((opponent, scores[result][seat] if result else ""))
    return table


def page_crosstable(page: Page) -> dict[str, list[tuple[str, str]]]:
    rows = page.locator("#tournament-crosstable-body tr")
    table = {}
    for index in range(rows.count()):
        row = rows.nth(index)
        cells = row.locator("td[data-result]")
        table[row.get_attribute("data-player") or ""] = [
            (cells.nth(i).get_attribute("data-opponent") or "",
             cells.nth(i).get_attribute("data-result") or "")
            for i in range(cells.count())
        ]  # fmt: skip
    return table


def page_standings(page: Page) -> list[tuple[str, str, str, dict[str, str]]]:
    rows = page.locator("#tournament-standings-body tr")
    standings = []
    for index in range(rows.count()):
        row = rows.nth(index)
        breaks = row.locator("td[data-tiebreak]")
        standings.append((
            row.locator("td").first.inner_text(),
            row.locator("th").inner_text(),
            row.locator("td[data-points]").get_attribute("data-points") or "",
            {breaks.nth(i).get_attribute("data-tiebreak") or "":
             breaks.nth(i).get_attribute("data-value") or "" for i in range(breaks.count())},
        ))  # fmt: skip
    return standings


def api_standings(document: dict[str, Any]) -> list[tuple[str, str, str, dict[str, str]]]:
    names = {p["id"]: p["name"] for p in document["players"]}
    return [
        (str(row["rank"]), names[row["player"]], str(row["points"]),
         {name: str(value) for name, value in row["tiebreaks"].items()})
        for row in document["standings"]
    ]  # fmt: skip


def js_number(value: str) -> str:
    """A number as JavaScript's String() writes it (2.0 is "2")."""
    number = float(value)
    return str(int(number)) if number.is_integer() else str(number)


@pytest.mark.parametrize("push", [True, False], ids=["events", "polling"])
def test_a_round_robin_s_standings_and_crosstable_follow_its_games(
    browser: Browser, server: str, push: bool
) -> None:
    """A round robin of three made and played through the API: the Tournament panel shows the
    id entered, its crosstable (opponent and score per round, a bye, a game going on) and
    standings, kept up to date through its event stream (or, in a browser without
    EventSource, by polling), equal to the API's document at every step, and its end."""
    organiser = api_player(server, "Org")
    entrants = [api_player(server, name) for name in ("Ann", "Bo", "Cy")]
    keys = {p["id"]: p["key"] for p in entrants}
    made = organised(
        server, "POST", "", organiser["key"], name="Club", system="round_robin",
        game={"n": 3}, players=[p["id"] for p in entrants],
    )  # fmt: skip
    outside: list[playwright.Request] = []
    page = new_page(browser, server, outside, push)
    page.goto(f"{server}/")
    page.fill("#tournament-id", made["id"])
    page.get_by_role("button", name="Show tournament").click()
    status = page.locator("#tournament-status")
    expect(status).to_have_text("Club (round robin): registering players.")

    def shows(document: dict[str, Any]) -> None:
        table = page.locator("#tournament-crosstable-body tr")
        expect(table).to_have_count(len(document["players"]))
        heads = page.locator("#tournament-crosstable-head th")
        expect(heads).to_have_count(3 + len(document["rounds"]))
        wanted = crosstable_of(document)
        standings = [
            (rank, name, js_number(points), {k: js_number(v) for k, v in breaks.items()})
            for rank, name, points, breaks in api_standings(document)
        ]
        for _ in range(50):  # the page follows the stream: let it catch up
            if page_crosstable(page) == wanted and page_standings(page) == standings:
                break
            page.wait_for_timeout(100)
        assert page_crosstable(page) == wanted
        assert page_standings(page) == standings

    for number in range(1, made["rounds_planned"] + 1):
        paired = organised(server, "POST", f"/{made['id']}/rounds", organiser["key"])
        expect(status).to_have_text(f"Club (round robin): round {number} of 3.")
        shows(paired)  # a bye, and a game going on: "…"
        byes = page.locator("#tournament-crosstable-body td", has_text="bye")
        expect(byes).to_have_count(number)  # one a round
        going_on = page.locator("#tournament-crosstable-body td", has_text="…")
        expect(going_on).to_have_count(2)  # its game, in both players' rows
        (pairing,) = [p for p in paired["rounds"][-1]["pairings"] if p["game"] is not None]
        seats = {1: keys[pairing["players"]["1"]], 2: keys[pairing["players"]["2"]]}
        script = (
            [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]
            if number != 2
            else [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)]
        )  # a draw
        for seq, (row, col) in enumerate(script):
            moved = httpx.post(
                f"{server}/v1/games/{pairing['game']}/moves", json={"row": row, "col": col},
                headers={"Authorization": f"Bearer {seats[1 if seq % 2 == 0 else 2]}"},
            )  # fmt: skip
            assert moved.status_code == 201, moved.text
        shows(httpx.get(f"{server}/v1/tournaments/{made['id']}").json())
    final = httpx.get(f"{server}/v1/tournaments/{made['id']}").json()
    assert final["status"] == "finished"
    expect(status).to_have_text("Club (round robin): finished after 3 rounds.")
    shows(final)
    heads = page.locator("#tournament-standings-head th")
    expect(heads).to_have_text(["Rank", "Player", "Points", "Sonneborn–Berger"])
    missing = page.locator("#tournament-status")
    page.fill("#tournament-id", "nothing")
    page.get_by_role("button", name="Show tournament").click()
    expect(missing).to_contain_text("nothing")
    expect(page.locator("#tournament-tables")).to_be_hidden()
    assert not left_the_machine(page, outside)
