"""The play page as the service serves it: ES modules from the service itself, and the list of
kinds it offers (``/web/kinds.json``), which mirrors the kind registry, each kind with the facts
the page needs and its page module."""

from __future__ import annotations

import re
from urllib.parse import urljoin

import pytest
from fastapi.testclient import TestClient

from app.contract import squares
from app.kinds import KINDS

NAMES = [kind.name for kind in KINDS]

ENTRY = "/web/page.js"
STATIC_IMPORT = re.compile(r"""^import .* from "([^"]+)";$""", re.M)
CACHING = ("cache-control", "etag", "last-modified", "expires")

# For each kind, a creation body and the moves after which its board shows both players' marks
# and an empty cell.
BOTH_MARKS = {
    "tictactoe": ({"n": 3}, [{"row": 0, "col": 0}, {"row": 1, "col": 1}]),
    "reversi": ({"game": "reversi"}, []),
    "gomoku": ({"game": "gomoku"}, [{"row": 7, "col": 7}, {"row": 7, "col": 8}]),
    "connect4": ({"game": "connect4"}, [{"column": 3}, {"column": 3}]),
}


def page_kinds(client: TestClient) -> dict[str, dict[str, object]]:
    answer = client.get("/web/kinds.json")
    assert answer.status_code == 200
    return {entry["game"]: entry for entry in answer.json()}


def test_every_registered_kind_says_what_the_page_needs() -> None:
    for kind in KINDS:
        assert {"marks", "empty", "names"} <= set(kind.face.page), kind.name


def test_the_page_offers_the_registrys_kinds_in_its_order(client: TestClient) -> None:
    answer = client.get("/web/kinds.json")
    assert answer.headers["cache-control"] == "no-cache"
    assert [entry["game"] for entry in answer.json()] == NAMES
    for entry in answer.json():
        assert entry["module"] == f"/web/kinds/{entry['game']}.js"
        assert isinstance(entry["title"], str)
        assert set(entry["names"]) == set(entry["marks"]) == {"1", "2"}


@pytest.mark.parametrize("game", NAMES)
def test_the_marks_are_those_the_board_answer_writes(client: TestClient, game: str) -> None:
    facts = page_kinds(client)[game]
    body, moves = BOTH_MARKS[game]
    created = client.post("/v1/games", json=body).json()
    assert created["game"] == game
    for seq, move in enumerate(moves):
        auth = {"Authorization": f"Bearer {created['tokens'][str(seq % 2 + 1)]}"}
        assert client.post(f"/v1/games/{created['id']}/moves", json=move, headers=auth).is_success
    rows = client.get(f"/v1/games/{created['id']}/board").json()["rows"]
    marks = facts["marks"]
    assert isinstance(marks, dict)
    assert set("".join(rows)) == {marks["1"], marks["2"], facts["empty"]}


def test_each_kind_tells_the_page_its_square_names_and_record_formats(client: TestClient) -> None:
    """The game checker finds a refused move's square by ``row_one``; the downloads and the
    checker offer the kind's ``formats``, each of which its game record is written in."""
    entries = page_kinds(client)
    for kind in KINDS:
        assert entries[kind.name]["row_one"] == kind.face.row_one
        assert entries[kind.name]["formats"] == list(kind.face.formats)
    assert entries["reversi"]["formats"] == ["ggf"]
    created = client.post("/v1/games", json={"game": "reversi"}).json()
    for format in entries["reversi"]["formats"]:
        assert isinstance(format, str)
        written = client.get(f"/v1/games/{created['id']}/record", params={"format": format})
        assert written.status_code == 200, format


def test_the_default_kind_is_the_one_a_body_without_game_makes(client: TestClient) -> None:
    defaults = [game for game, entry in page_kinds(client).items() if entry["default"]]
    assert [client.post("/v1/games", json={"n": 3}).json()["game"]] == defaults


def test_the_list_of_kinds_is_no_operation_of_the_api(client: TestClient) -> None:
    assert "/web/kinds.json" not in client.get("/openapi.json").json()["paths"]
    assert client.head("/web/kinds.json").status_code == 200


@pytest.mark.parametrize("game", NAMES)
def test_every_registered_kind_has_a_page_module(client: TestClient, game: str) -> None:
    module = client.get(str(page_kinds(client)[game]["module"]))
    assert module.status_code == 200
    assert module.headers["content-type"].startswith("text/javascript")
    assert "export function pageKind(" in module.text


def test_the_page_is_one_module_from_the_service_and_no_inline_script(client: TestClient) -> None:
    page = client.get("/")
    assert re.findall(r"<script\b([^>]*)>", page.text) == [f' type="module" src="{ENTRY}"']
    policy = page.headers["content-security-policy"]
    assert "default-src 'self'" in policy
    assert "unsafe" not in policy


def test_every_module_the_page_imports_is_served(client: TestClient) -> None:
    pending = [ENTRY, *(str(entry["module"]) for entry in page_kinds(client).values())]
    served = set()
    while pending:
        path = pending.pop()
        module = client.get(path)
        assert module.status_code == 200, path
        assert module.headers["content-type"].startswith("text/javascript"), path
        served.add(path)
        imported = {urljoin(path, target) for target in STATIC_IMPORT.findall(module.text)}
        pending += sorted(imported - served)
    assert {"/web/transport.js", "/web/kinds.js", "/web/live.js"} <= served


def test_modules_are_cached_as_the_other_static_assets(client: TestClient) -> None:
    def caching(path: str) -> set[str]:
        headers = client.get(path).headers
        return {name for name in CACHING if name in headers}

    kind_module = str(next(iter(page_kinds(client).values()))["module"])
    assert caching(ENTRY) == caching(kind_module) == caching("/web/style.css")


def test_each_format_tells_the_page_what_an_audit_may_give_beside_its_record(
    client: TestClient,
) -> None:
    """The game checker asks for the parameters a format cannot carry (``given``): each is
    taken beside a record in that format, and decides the audit (a PSQ record's rule)."""
    entries = page_kinds(client)
    assert entries["reversi"]["given"] == {"ggf": []}  # GGF carries every parameter
    created = client.post("/v1/games", json={"game": "gomoku", "rule": "renju"}).json()
    auth = {"Authorization": f"Bearer {created['tokens']['1']}"}
    client.post(f"/v1/games/{created['id']}/moves", json={"row": 7, "col": 7}, headers=auth)
    values = {"rule": "renju", "foul": "lose", "early_draw": False}
    given = entries["gomoku"]["given"]
    assert isinstance(given, dict)
    assert set(given) == set(entries["gomoku"]["formats"])  # type: ignore[arg-type]
    for format, names in given.items():
        assert names, format  # neither PSQ nor SGF holds renju's foul rule, say
        record = client.get(f"/v1/games/{created['id']}/record", params={"format": format}).text
        body = {"game": "gomoku", "format": format, "record": record}
        audit = client.post("/v1/records/audit", json={**body, **{n: values[n] for n in names}})
        assert audit.status_code == 200, (format, audit.text)
        assert (audit.json()["state"]["rule"], audit.json()["plies"]) == ("renju", 1)
        refused = client.post("/v1/records/audit", json={**body, "size": 15})
        assert refused.status_code == 422, format  # the record says its size: not given


def test_the_site_icon_is_served_where_browsers_ask_and_the_page_links_it(
    client: TestClient,
) -> None:
    """Browsers ask for /favicon.ico whatever a page links: it answers the page's own icon, an
    SVG, and is no operation of the API."""
    icon = client.get("/favicon.ico")
    assert icon.status_code == 200
    assert icon.headers["content-type"] == "image/svg+xml"
    assert icon.text.startswith("<svg ")
    linked = re.search(
        r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', client.get("/").text
    )
    assert linked, "the page links no icon"
    assert client.get(linked.group(1)).content == icon.content
    assert client.head("/favicon.ico").status_code == 200
    assert "/favicon.ico" not in client.get("/openapi.json").json()["paths"]


def test_the_page_names_squares_with_the_services_letters(client: TestClient) -> None:
    """The page's coordinates and the game checker's squares (squares.js) are the service's
    square names (app/contract/squares.py): the same letters, so the same widest named board."""
    module = client.get("/web/squares.js").text
    letters = re.search(r'^export const LETTERS = "([a-z]+)";$', module, re.M)
    assert letters, "squares.js declares no LETTERS"
    assert letters.group(1) == squares.LETTERS
