"""Schemathesis against the served /openapi.json of a real server: every operation, positive and
negative data, and stateful sequences along the spec's links (create a game, then poll it, move
in it with its tokens, read its moves, board and events, delete it).

Checked: no server error, every status code documented, every response matching its documented
schema, content type and headers, invalid requests refused, Allow on 405. Not checked:
"positive data acceptance" — JSON Schema cannot say "rows of equal length" or "a cell inside the
posted board", so some schema-valid bodies are rightly refused with a documented 422.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.servers import uvicorn_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """The service with an archive (a SQLite file): players, ratings and tournaments live there,
    and are fuzzed as every other route."""
    archive = {"ADJUDICATOR_ARCHIVE_URL": f"sqlite:///{tmp_path / 'archive.sqlite3'}"}
    with uvicorn_server(archive) as url:
        yield url


# Two runs side by side against one server. The single-request phases use one worker: with two,
# CPython 3.11's `ast` module (which Hypothesis uses to describe filters) can fail across
# threads with "AST constructor recursion depth mismatch", a tool error, not a finding.
SINGLE_REQUESTS = [
    "--phases", "examples,coverage,fuzzing",
    "--exclude-checks", "positive_data_acceptance",
    "--max-examples", "50",
    "--workers", "1",
]  # fmt: skip
# Stateful sequences follow the spec's links: create a game, then poll it and move in it with the
# tokens its creation answered. Schemathesis counts credentials taken from a link as "generated",
# so its `ignored_auth` check would call every accepted move a bypass; the single-request phases
# keep that check (there every token is made up and must get 401).
# The stateful run takes the operations the links join (the games'); the single-request phases
# take every operation. Each run must test every operation it selects: with fewer examples the
# state machine never follows the link to `getMove`, and schemathesis only reports it skipped;
# with 60, since the links to resign and offer a draw, it made no move that was accepted; with
# 90 (and 120), since gomoku's pass joined the move bodies (half the bodies it makes for a move
# are now passes, merged with a link's cell: a 422), none either. The walk is the seed's: since
# the link to a swap2 choice, seed 20261122 never followed the link to `getMove` (with 150, 170
# or 200 examples), 20261126 neither, and 20261127 made no accepted move; 20261128 did both,
# until `early_draw` joined the creation bodies (the walk is the schema's too); 20261129 did,
# until the links to abort and make a spectator token (16 of 17 tested); 20261131 did
# (20261132 has schemathesis send a link's Last-Event-ID as an integer, its own error), until
# the rematch route (16 of 18); of 20261140 to 20261145, 20261144 alone tested all 18, until the
# takeback route and its link (18 of 19). Then, of the 56 seeds 20261144 to 20261199, those that
# tested all 19 (20261151, 20261172) made no accepted move, and those that made moves tested 18
# at most: so two walks run — one that tests every operation (the single-request phases share
# its seed), one that makes moves through the links. With the clock's modes and time given, no
# seed tried made a move among every operation: the moves' walk now takes the creation and the
# moves' operations alone (their links lead to a move at every turn), whatever its seed. And
# the first walk, among 20 operations, tested 19 at most with 150 examples (rematch, whose
# link was only inferred, then got one from the creation): with 300, seeds 20261198 and
# 20261205 test every one; since names (a join's body), 20261206, 20261207 and 20261209 tested
# 19 or 18, and 20261208 every one.
# Since rated games (a creation body's `rated`), 20261209 and 20261212 tested 19 and 20261213
# and 20261214 met an open game's missing token in a link; 20261210 and 20261211 tested all 20.
# Each change of the games' schema may need a new seed for the first walk: try the next ones.
EVERY_OPERATION_SEED = 20261210
# The moves' walk: since rated games, 20261198 tested 4 of 5 and 20261199 to 20261205 met an
# open game's missing token in a link, but 20261202.
MOVES_SEED = 20261202
MOVES_WALK = "stateful, moves"
GAMES_PATHS = ["--include-path-regex", "^/v1/games", "--max-examples", "300"]
MOVES_PATHS = [
    "--include-path-regex",
    r"^/v1/games(/\{game_id\}/moves.*)?$",
    "--max-examples",
    "150",
]
STATEFUL = [
    "--phases", "stateful",
    "--exclude-checks", "positive_data_acceptance,ignored_auth",
    "--workers", "2",
]  # fmt: skip


def test_schemathesis_finds_nothing(server: str, tmp_path: Path) -> None:
    binary = shutil.which("schemathesis", path=str(Path(sys.executable).parent))
    assert binary, "schemathesis is a test extra"
    common = [
        binary, "run", f"{server}/openapi.json", "--no-color",
        # An event stream of a live game never ends: schemathesis reads it for this long. It
        # reads some 45 streams, so this second is most of the test's time (3 s: 158 s a run,
        # 1 s: 75 s); every other answer took under 0.1 s (the server's latency histogram, a
        # whole run alone), and the suite's runs beside two busy workers passed with this.
        "--request-timeout", "1",
    ]  # fmt: skip
    runs = {}
    walks = (
        ("single requests", SINGLE_REQUESTS, EVERY_OPERATION_SEED),
        ("stateful", [*STATEFUL, *GAMES_PATHS], EVERY_OPERATION_SEED),
        (MOVES_WALK, [*STATEFUL, *MOVES_PATHS], MOVES_SEED),
    )
    for name, extra, seed in walks:
        workdir = tmp_path / name.replace(" ", "-")
        workdir.mkdir()
        runs[name] = subprocess.Popen(
            [*common, "--seed", str(seed), *extra], stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True, cwd=workdir,
        )  # fmt: skip
    outputs = {}
    for name, run in runs.items():
        output, _ = run.communicate(timeout=600)
        assert run.returncode == 0, f"{name}:\n{output[-8000:]}"
        # No test case ended in an error (which schemathesis reports apart from failed checks,
        # and which skips the rest of a stateful scenario).
        cases = re.search(r"Test cases:\n\s*(.+)", output)
        assert cases, f"{name}:\n{output[-3000:]}"
        assert "error" not in cases.group(1), f"{name}:\n{output[-3000:]}"
        # Every operation selected was tested: none skipped.
        outputs[name] = output
        operations = re.search(r"Selected: (\d+)/\d+\n\s*Tested: (\d+)", output)
        assert operations, f"{name}:\n{output[-3000:]}"
        selected, tested = operations.groups()
        assert tested == selected, f"{name}: only {tested} of {selected} tested\n{output[-3000:]}"
        assert "Skipped:" not in output, f"{name}:\n{output[-3000:]}"
    # The links were followed, most of them at least once, and moves were made through them
    # (the single-request phases cannot make one: they have no token).
    for name, least in (("stateful", 10), (MOVES_WALK, None)):  # the moves': every link
        links = re.search(r"API Links:\s+(\d+) covered / (\d+) selected", outputs[name])
        assert links, f"{name}:\n{outputs[name][-3000:]}"
        covered, selected = (int(count) for count in links.groups())
        enough = selected if least is None else least
        assert covered >= enough, f"{name}:\n{outputs[name][-3000:]}"
    samples = {
        sample.name: sample.value
        for family in text_string_to_metric_families(httpx.get(f"{server}/metrics").text)
        for sample in family.samples
    }
    assert samples["adjudicator_moves_adjudicated_total"] > 0
