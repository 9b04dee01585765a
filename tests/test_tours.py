"""The pages' tours cannot drift: every console block of README.md and docs/*.md, run against a
server of its own, prints what the page shows (tests/tours.py says how they are compared); and
the comparison itself finds what differs and only that."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import tours
from tests.servers import require_binary
from tests.tours import Masks, commands, compare_answer, merge_answer, run_page

TOURED = [page for page in tours.PAGES if commands(page)]


@pytest.fixture(scope="module")
def binaries() -> None:
    for name, package in tours.BINARIES.items():
        require_binary(name, package)


@pytest.mark.parametrize("page", TOURED, ids=lambda page: page.name)
def test_every_answer_a_page_shows_is_what_its_command_prints(page: Path, binaries: None) -> None:
    run = run_page(page)
    assert not run.differences, (
        f"{len(run.differences)} answers of {page.name} differ from the live service's (write "
        "them anew with `python -m tests.tours --write`, then read the diff):\n"
        + "\n".join(run.differences)
    )


def test_the_readme_and_the_references_have_tours() -> None:
    names = {page.name for page in TOURED}
    assert {"README.md", "api.md", "operations.md"} <= names


def test_a_changed_answer_is_named_by_page_line_and_first_difference(
    tmp_path: Path, binaries: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shell variables carry from block to block; a wrong answer is reported where it is, and
    --write makes the page true."""
    monkeypatch.setattr(tours, "ROOT", tmp_path)
    page = tmp_path / "page.md"
    page.write_text(
        "# A page\n\n```console\n$ GREETING=hello\n$ curl -s localhost:8000/healthz\n"
        '{"status":"ok"}\n```\n\nProse.\n\n```console\n$ echo $GREETING\nhello\n'
        "$ curl -s localhost:8000/v1/games -H 'content-type: application/json' "
        "-d '{\"n\": 3}'\n"
        '{"id":"AAAAAAAAAAAAAAAA","game":"tictactoe","n":4,…}\n```\n'
    )
    run = run_page(page, write=True)
    assert run.differences == [
        "page.md:14: $ curl -s localhost:8000/v1/games -H 'content-type: application/json' "
        "-d '{\"n\": 3}'\n  line 15: .n: the page shows 4, the answer 3"
    ]
    page.write_text(run.text)
    assert '"n":3,…}' in page.read_text()
    assert run_page(page).differences == []


def answer(shown: str, live: str, masks: Masks | None = None) -> str | None:
    """The first difference between a shown answer and a live one, as the runner says it."""
    difference = compare_answer(lines(shown), lines(live), masks or Masks())
    return None if difference is None else difference[1]


def lines(text: str) -> list[str]:
    return text.split("\n") if text else []


STATE = {
    "id": "mdT8FSRnQMzoiJ3U",
    "version": 2,
    "draw_offer": None,
    "at": "2026-01-02T03:04:05.678Z",
}


def test_a_member_the_page_lacks_or_shows_wrongly_or_in_vain_is_a_difference() -> None:
    live = json.dumps({**STATE, "takeback_offer": None})
    assert (
        answer(json.dumps(STATE), live) == ".takeback_offer: in the answer (null), not on the page"
    )
    shown = json.dumps({**STATE, "takeback_offer": None, "version": 3})
    assert answer(shown, live) == ".version: the page shows 3, the answer 2"
    shown = json.dumps({**STATE, "takeback_offer": None, "winner": 0})
    assert answer(shown, live) == ".winner: shown on the page, not in the answer"
    assert answer(shown.replace('"winner": 0', '"winner": …'), live) is not None


def test_an_elided_object_or_array_is_compared_as_a_subset() -> None:
    live = json.dumps({"winner": 0, "move": {"seq": 2, "square": "a2"}, "state": STATE})
    assert answer('{"winner":0,"move":{…},"state":{…,"version":2,…}}', live) is None
    assert answer('{"winner":0,…}', live) is None
    assert answer('{…,"state":…}', live) is None
    assert answer('{"winner":0,"move":{…},"state":{…,"version":3,…}}', live) == (
        ".state.version: the page shows 3, the answer 2"
    )
    assert answer('{"winner":0,"state":{…}}', live) == (
        '.move: in the answer ({"seq":2,"square":"a2"}), not on the page'
    )
    moves = '["h10","a1","h9","pass","pass"]'
    assert answer('["h10",…,"pass"]', moves) is None
    assert answer('["h10",…]', moves) is None
    assert answer('[…,"h9"]', moves) is not None
    assert answer('["h10","a1"]', moves) == ".: 2 elements on the page, 5 in the answer"


def test_ids_tokens_instants_and_clock_times_are_compared_by_shape() -> None:
    token = "PoVInCVToGtDwUg-NEaPFRZFD6uJmFTBVGu5ujesy8I"
    shown = {**STATE, "tokens": {"1": token}, "clock": {"remaining_ms": {"1": 5000}}}
    live = {
        **STATE, "id": "xDZBdQGdh_282Kir", "at": "2027-11-12T13:14:15.161Z",
        "tokens": {"1": "D4icIiNrf2p88mnzTCidOPs5r718Dtn_6dkIviT2C4A"},
        "clock": {"remaining_ms": {"1": 4321}},
    }  # fmt: skip
    assert answer(json.dumps(shown), json.dumps(live)) is None
    assert answer(json.dumps(shown), json.dumps({**live, "at": "yesterday"})) == (
        ".at: the page shows '2026-01-02T03:04:05.678Z', the answer is 'yesterday'"
    )
    assert answer(json.dumps(shown), json.dumps({**live, "id": "short"})) is not None
    assert answer(json.dumps(shown), json.dumps({**live, "clock": {"remaining_ms": {"1": None}}}))
    assert answer(json.dumps(shown), json.dumps({**live, "version": 3})) is not None


def test_a_shown_id_stands_for_one_live_id_throughout_the_page() -> None:
    masks = Masks()
    assert answer('{"id":"mdT8FSRnQMzoiJ3U"}', '{"id":"xDZBdQGdh_282Kir"}', masks) is None
    etag = 'etag: "mdT8FSRnQMzoiJ3U.4"'
    assert answer(etag, 'etag: "xDZBdQGdh_282Kir.4"', masks) is None
    assert answer(etag, 'etag: "xDZBdQGdh_282Kir.5"', masks) is not None
    assert answer('{"id":"mdT8FSRnQMzoiJ3U"}', '{"id":"LmPW-qaJmkROj3wo"}', masks) == (
        ".id: the page's game id mdT8FSRnQMzoiJ3U stood for xDZBdQGdh_282Kir, here for "
        "LmPW-qaJmkROj3wo"
    )
    assert answer('{"id":"PESf4vRbeX7f5U5w"}', '{"id":"xDZBdQGdh_282Kir"}', masks) is not None
    assert masks.literals('curl -H "if-none-match: mdT8FSRnQMzoiJ3U.4"') == ["mdT8FSRnQMzoiJ3U"]
    assert masks.literals('curl -H "if-none-match: $ID.4"') == []


def test_a_line_of_dots_stands_for_any_lines() -> None:
    live = 'HTTP/1.1 200 OK\ndate: now\netag: "x.4"\ncache-control: no-cache\n\n{"a":1}'
    assert (
        answer('HTTP/1.1 200 OK\n…\netag: "x.4"\ncache-control: no-cache\n…\n{"a":1}', live) is None
    )
    assert answer('HTTP/1.1 200 OK\n…\n{"a":1}', live) is None
    assert answer('HTTP/1.1 200 OK\n…\netag: "x.5"\n…', live) == (
        "no line of the answer fits 'etag: \"x.5\"'"
    )
    assert answer('HTTP/1.1 200 OK\n{"a":1}', live) is not None
    assert answer("304", "304\n") == "the answer goes on: ''"


def test_writing_keeps_the_pages_elisions_and_ids_and_takes_the_rest_live() -> None:
    masks = Masks()
    assert answer('{"id":"mdT8FSRnQMzoiJ3U"}', '{"id":"xDZBdQGdh_282Kir"}', masks) is None
    shown = [
        '{"winner":0,"move":{"seq":2,"at":"2026-01-02T03:04:05.678Z"},"state":{…,"version":2,…}}'
    ]
    live = [
        '{"winner":0,"move":{"seq":2,"at":"2027-11-12T13:14:15.161Z","spent_ms":7},'
        '"state":{"id":"xDZBdQGdh_282Kir","version":3}}'
    ]
    assert merge_answer(shown, live, masks) == [
        '{"winner":0,"move":{"seq":2,"at":"2027-11-12T13:14:15.161Z","spent_ms":7},'
        '"state":{…,"version":3,…}}'
    ]
    live = ['{"id":"xDZBdQGdh_282Kir","status":"won"}', "id: 4"]
    assert merge_answer(['{"id":"mdT8FSRnQMzoiJ3U"}'], live, masks) == [
        '{"id":"mdT8FSRnQMzoiJ3U","status":"won"}',
        "id: 4",
    ]


def test_console_blocks_are_read_with_their_indentation(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "* item\n\n  ```console\n  $ echo a\n  a\n\n  $ true\n  ```\n```sh\n$ no\n```\n"
    )
    (first, second) = commands(page)
    assert (first.line, first.text, first.shown, first.indent) == (4, "echo a", ["a", ""], "  ")
    assert (second.text, second.shown) == ("true", [])
    page.write_text("```console\nan answer with no command\n```\n")
    with pytest.raises(ValueError, match=r"page\.md:2"):
        commands(page)


def test_the_shell_keeps_variables_and_prints_stderr_and_survives_a_syntax_error(
    tmp_path: Path, binaries: None
) -> None:
    (tmp_path / "reader").mkdir()
    shell = tours.Shell(tmp_path / "reader", tmp_path, "http://127.0.0.1:1")
    try:
        assert shell.run("X=1; printf 'no newline'") == "no newline"
        assert shell.run("echo $X; echo oops >&2") == "1\noops"
        assert "syntax error" in shell.run("if then fi")
        assert shell.run("echo $X") == "1"
        with pytest.raises(TimeoutError, match="did not finish"):
            shell.run("sleep 5", seconds=0.5)
    finally:
        shell.close()
