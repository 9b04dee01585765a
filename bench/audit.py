"""Audit throughput: real Othello games through the engine and through HTTP, against a baseline.

    python -m bench.audit [--baseline REV] [--rounds 7] [--only TEXT]

Three measurements, each a median over ``--rounds`` rounds:

* **engine**: every game of ``tests/data/WTH_1988.wtb`` (1,823 games, ~110,000 moves) replayed
  by ``app.records.audit.replay`` — the position's cell replay where it has one (Othello's:
  the rules' ``play_through``, the same flips and passes ``Position.play`` decides a live
  session's move by; the baseline before it: ``Position.play`` a move) — in games/s. The moves
  are read and made ``Submitted`` before the clock starts, so the figure is the replay's alone.
* **HTTP, WTHOR file**: the same file as the raw body of ``POST /v1/records/audit-batch``
  (``application/octet-stream``), answered as NDJSON, one line a game, in games/s: the edge,
  the replay, the federation's score and a JSON line per game.
* **HTTP, 1,000 transcripts as JSON**: the first 1,000 games of the file as Othello transcripts
  (``{"game": "reversi", "transcript": "f5d6…"}``), the records of ``POST
  /v1/records/audit-batch`` (``application/json``), in games/s: each record's body read, its
  replay, its move records made and chained, the answer signed and written. Twice: the full
  answer (every move record with its flips, ~8 KB a game), and the summary a bulk client asks
  for (``"detail": "summary"``: no move list; a version without it, the baseline, answers the
  same body in full — what such a client got before). Each piece is a tenth of the games, one
  request of 100 (a request's own cost is noise beside 100 audits); every answer's verdict,
  plies and chain are compared between the versions, and every game must be legal to its last
  move.
* **engine: canonical JSON**: the move records of the file's games (~110,000, as the audit
  makes them: flips and their squares) written as canonical JSON (``canonical_json``: what the
  hash chain hashes), in records/s; the bytes of both versions must be equal (so every chain
  and signature stays what it was).
* **HTTP, renju SGF**: ``POST /v1/records/audit`` of a 200-move renju game written as SGF
  (``GM[4]``, ``RU[Renju]``; the stones of ``line_game`` on 15 × 15: no three, so no move is
  forbidden and none wins), in moves/s: reading the format, and Black's forbidden-point check
  at every Black stone.
* **HTTP, 1,000-move record**: ``POST /v1/records/audit`` of one k-in-a-row game (tic-tac-toe,
  n = 40, k = 5: five in a row wins, ``app.rules.runs``) of 1,000 moves that never makes five, as
  ``[row, col]`` pairs, in moves/s: the per-move cost of an audit answer (move records, the hash
  chain, the signature) where the rules cost O(1) a move.

The ASGI app is driven directly in this process (no server, no sockets; ``bench.inprocess``'s
caller): for one request of 1,823 games the HTTP exchange itself is noise. ``--baseline REV``
loads REV's ``app`` too (as ``app_baseline``, ``bench.inprocess.export``) and runs every
measurement on both versions in ten pieces (a tenth of the games, one request), each piece
on both back to back, who goes first alternating: on a shared machine both see the same
seconds. The table adds the baseline's median and ``vs baseline``, the median over rounds of
the paired ratios (above 1: this code is faster). Both versions must answer the same: the
NDJSON bodies are compared byte for byte, the 1,000-move audits by verdict, plies and chain.
The last line says how much of a core the process had (CPU time ÷ wall time): the goal of
2,000 games/s is for a core of one's own. As a served app's (``app.cli.serve.served_app``), the
heap made before the rounds (both apps, the games, the bodies) is frozen (``gc.freeze``), so
that the collector walks what the requests make, not the hundred thousand objects of the apps.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import hashlib
import importlib
import itertools
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from app.records.wthor import GAME_SIZE, HEADER_SIZE, read_wthor
from bench.inprocess import caller, export
from tests.servers import NO_CLIENT_LIMITS

ROOT = Path(__file__).resolve().parents[1]
WTHOR_FILE = ROOT / "tests" / "data" / "WTH_1988.wtb"
LINE_SIDE, LINE_K, LINE_MOVES = 40, 5, 1_000
SLICES = 10  # pieces of a measure in a round, each run by both versions back to back


def line_game(n: int = LINE_SIDE, k: int = LINE_K, moves: int = LINE_MOVES) -> list[list[int]]:
    """``moves`` moves of an n × n, k-in-a-row game that no move wins: X on the cells where
    ``c // 2 + r`` is even, O on the others (runs of at most two along rows and diagonals, one
    down columns), taken in row-major order and played alternately, X first."""
    x = [[r, c] for r in range(n) for c in range(n) if (c // 2 + r) % 2 == 0]
    o = [[r, c] for r in range(n) for c in range(n) if (c // 2 + r) % 2 == 1]
    assert k > 2, "runs of two are made"
    assert len(x) >= (moves + 1) // 2
    assert len(o) >= moves // 2
    return [(x if i % 2 == 0 else o)[i // 2] for i in range(moves)]


class Side:
    """One version of the code (``package``: ``app`` or ``app_baseline``): the WTHOR games made
    ready for its replay, its ASGI app and caller, and what it answered (for the comparison)."""

    def __init__(self, name: str, package: str) -> None:
        self.name, self.package = name, package
        self.answers: dict[tuple[str, int], object] = {}
        audit = importlib.import_module(f"{package}.records.audit")
        wthor = importlib.import_module(f"{package}.records.wthor")
        placement = importlib.import_module(f"{package}.sessions.kind").Placement
        try:  # the audit's translation in the records' wing, or (before) at the edge
            squares = importlib.import_module(f"{package}.records.answer").WTHOR_SQUARES
        except ModuleNotFoundError:
            squares = importlib.import_module(f"{package}.api.records").WTHOR_SQUARES
        _, games = wthor.read_wthor(WTHOR_FILE.read_bytes(), 60)
        self.records = [
            [audit.Submitted(placement(*squares.parse(square)), square) for square in game.moves]
            for game in games
        ]
        try:  # the kinds in their own wing, or (before) among the sessions
            reversi = importlib.import_module(f"{package}.kinds.reversi")
        except ModuleNotFoundError:
            reversi = importlib.import_module(f"{package}.sessions.kinds.reversi")
        self.kind = reversi.KIND
        self.replay = audit.replay
        self.canonical_json = importlib.import_module(f"{package}.records.canonical").canonical_json
        bodies = importlib.import_module(f"{package}.records.bodies")
        self.summaries = hasattr(bodies, "SUMMARY")  # "detail": "summary" is read
        self.app: Any = importlib.import_module(f"{package}.main").app
        self.call: Callable[..., Awaitable[dict[str, Any]]] = caller(self.app)

    def answered(self, key: tuple[str, int], answer: object) -> None:
        """Keep the first answer to ``key``; any later one must be the same."""
        assert self.answers.setdefault(key, answer) == answer, f"{self.name}: {key} changed"


Piece = Callable[[Side, int], Awaitable[tuple[float, int]]]  # (seconds, games or moves)


async def replayed(side: Side, piece: int) -> tuple[float, int]:
    """One slice of the file's games replayed by ``audit.replay``."""
    games = side.records[
        piece * len(side.records) // SLICES : (piece + 1) * len(side.records) // SLICES
    ]
    kind, params, replay = side.kind, {"height": 8, "width": 8}, side.replay
    finished = 0
    started = time.perf_counter()
    for moves in games:
        finished += replay(kind, params, moves).verdict == "finished"
    elapsed = time.perf_counter() - started
    side.answered(("finished", piece), finished)
    return elapsed, len(games)


def wthor_slices(data: bytes, parts: int) -> list[bytes]:
    """The WTHOR file ``data`` as ``parts`` files of consecutive games (each its own header,
    the game count rewritten)."""
    games = (len(data) - HEADER_SIZE) // GAME_SIZE
    cuts = [piece * games // parts for piece in range(parts + 1)]
    return [
        data[:4]
        + (cuts[i + 1] - cuts[i]).to_bytes(4, "little")
        + data[8:HEADER_SIZE]
        + data[HEADER_SIZE + cuts[i] * GAME_SIZE : HEADER_SIZE + cuts[i + 1] * GAME_SIZE]
        for i in range(parts)
    ]


WTHOR_BODIES = wthor_slices(WTHOR_FILE.read_bytes(), SLICES)
LINE_BODY = json.dumps(
    {"game": "tictactoe", "n": LINE_SIDE, "k": LINE_K, "moves": line_game()}
).encode()


async def wthor_audited(side: Side, piece: int) -> tuple[float, int]:
    """One slice of the file through ``audit-batch``, its NDJSON read to the end."""
    headers = ((b"content-type", b"application/octet-stream"),)
    started = time.perf_counter()
    answer = await side.call("POST", "/v1/records/audit-batch", WTHOR_BODIES[piece], headers)
    elapsed = time.perf_counter() - started
    assert answer["status"] == 200, answer["body"][:300]
    side.answered(("wthor", piece), answer["body"])
    return elapsed, len(answer["body"].splitlines())


async def record_audited(side: Side, name: str, body: bytes, moves: int) -> tuple[float, int]:
    """One unfinished record of ``moves`` legal moves through ``audit`` (the same every piece)."""
    started = time.perf_counter()
    answer = await side.call("POST", "/v1/records/audit", body)
    elapsed = time.perf_counter() - started
    assert answer["status"] == 200, answer["body"][:300]
    audited = json.loads(answer["body"])
    assert (audited["verdict"], audited["plies"]) == ("unfinished", moves), audited["illegal"]
    side.answered((name, 0), audited["chain"])
    return elapsed, moves


async def line_audited(side: Side, piece: int) -> tuple[float, int]:
    """The 1,000-move k-in-a-row record."""
    return await record_audited(side, "line", LINE_BODY, LINE_MOVES)


TRANSCRIPT_GAMES = 1_000
_TRANSCRIPTS = [
    "".join(game.moves)
    for game in itertools.islice(read_wthor(WTHOR_FILE.read_bytes(), 60)[1], TRANSCRIPT_GAMES)
]


def transcript_bodies(detail: str | None) -> list[bytes]:
    """The file's first ``TRANSCRIPT_GAMES`` games as transcripts, as ``SLICES`` batch bodies."""
    records = [
        {"game": "reversi", "transcript": text, **({"detail": detail} if detail else {})}
        for text in _TRANSCRIPTS
    ]
    return [
        json.dumps(
            {
                "records": records[
                    piece * len(records) // SLICES : (piece + 1) * len(records) // SLICES
                ]
            }
        ).encode()
        for piece in range(SLICES)
    ]


FULL_BODIES = transcript_bodies(None)
SUMMARY_BODIES = transcript_bodies("summary")


async def transcripts_audited(
    side: Side, piece: int, bodies: list[bytes], name: str
) -> tuple[float, int]:
    """One piece of the transcripts through ``audit-batch`` as JSON."""
    started = time.perf_counter()
    answer = await side.call("POST", "/v1/records/audit-batch", bodies[piece])
    elapsed = time.perf_counter() - started
    assert answer["status"] == 200, answer["body"][:300]
    results = json.loads(answer["body"])["results"]
    first = piece * len(_TRANSCRIPTS) // SLICES
    for offset, result in enumerate(results):
        assert result["illegal"] is None, result
        squares = len(_TRANSCRIPTS[first + offset]) // 2  # every square of 8 × 8 is 2 letters
        assert result["plies"] == squares, (result["plies"], squares)
    side.answered((name, piece), [(r["verdict"], r["plies"], r["chain"]) for r in results])
    return elapsed, len(results)


async def full_transcripts(side: Side, piece: int) -> tuple[float, int]:
    return await transcripts_audited(side, piece, FULL_BODIES, "full")


async def summary_transcripts(side: Side, piece: int) -> tuple[float, int]:
    bodies = SUMMARY_BODIES if side.summaries else FULL_BODIES
    return await transcripts_audited(side, piece, bodies, "summary")


def _move_records() -> list[dict[str, Any]]:
    """The move records of the file's games, as an audit's answer shows them (this version's
    audit makes them; both versions write the same records)."""
    from app.contract.problems import ProblemTable
    from app.kinds.reversi import KIND
    from app.records.answer import WTHOR_MOVES, audit_answer
    from app.records.audit import replay

    problems = ProblemTable.of([KIND.face])
    records: list[dict[str, Any]] = []
    for game in read_wthor(WTHOR_FILE.read_bytes(), 60)[1]:
        audit = replay(KIND, {"height": 8, "width": 8}, map(WTHOR_MOVES.__getitem__, game.moves))
        records += audit_answer(audit, problems)["moves"]
    return records


MOVE_RECORDS = _move_records()


async def canonical_written(side: Side, piece: int) -> tuple[float, int]:
    """One slice of the move records written as canonical JSON."""
    records = MOVE_RECORDS[
        piece * len(MOVE_RECORDS) // SLICES : (piece + 1) * len(MOVE_RECORDS) // SLICES
    ]
    write = side.canonical_json
    started = time.perf_counter()
    written = [write(record) for record in records]
    elapsed = time.perf_counter() - started
    side.answered(("canonical", piece), hashlib.sha256(b"\n".join(written)).hexdigest())
    return elapsed, len(records)


RENJU_MOVES = 200
_LETTERS = "abcdefghijklmno"
RENJU_SGF_BODY = json.dumps(
    {
        "record": "(;FF[4]GM[4]SZ[15]RU[Renju]"
        + "".join(
            f";{'BW'[i % 2]}[{_LETTERS[c]}{_LETTERS[r]}]"
            for i, (r, c) in enumerate(line_game(15, 5, RENJU_MOVES))
        )
        + ")",
        "format": "sgf",
    }
).encode()


async def renju_sgf_audited(side: Side, piece: int) -> tuple[float, int]:
    """The 200-move renju game as SGF."""
    return await record_audited(side, "renju", RENJU_SGF_BODY, RENJU_MOVES)


MEASURES: dict[str, tuple[Piece, str]] = {
    "engine: WTHOR 1988, replay": (replayed, "games/s"),
    "engine: canonical JSON of the move records": (canonical_written, "records/s"),
    "HTTP: WTHOR 1988, audit-batch": (wthor_audited, "games/s"),
    "HTTP: 1,000 transcripts as JSON, audit-batch, full answer": (full_transcripts, "games/s"),
    "HTTP: 1,000 transcripts as JSON, audit-batch, summary (baseline: full)": (
        summary_transcripts,
        "games/s",
    ),
    "HTTP: 1,000-move k-in-a-row record, audit": (line_audited, "moves/s"),
    "HTTP: 200-move renju game as SGF, audit": (renju_sgf_audited, "moves/s"),
}


# The goals, one process ("Fast again"): audits of real games over HTTP.
GOALS = {
    "HTTP: 1,000 transcripts as JSON, audit-batch, full answer": 2_000,
    "HTTP: 1,000 transcripts as JSON, audit-batch, summary (baseline: full)": 2_000,
    "HTTP: WTHOR 1988, audit-batch": 10_000,
}


async def measure(
    sides: list[Side], rounds: int, chosen: list[str]
) -> dict[str, dict[str, list[float]]]:
    """Each side's figure of each measure in each round. A round runs a measure in ``SLICES``
    pieces, the sides back to back on each piece, who goes first alternating: both see the
    same seconds of a noisy machine."""
    figures: dict[str, dict[str, list[float]]] = {s.name: {m: [] for m in chosen} for s in sides}
    async with contextlib.AsyncExitStack() as stack:
        for side in sides:  # each app makes its signing key and store in its lifespan
            await stack.enter_async_context(side.app.router.lifespan_context(side.app))
        gc.collect()
        gc.freeze()  # as a served app's heap is (``served_app``)
        for round_ in range(rounds):
            for name in chosen:
                piece_of = MEASURES[name][0]
                spent = {side.name: [0.0, 0] for side in sides}
                for piece in range(SLICES):
                    order = sides if (round_ + piece) % 2 == 0 else sides[::-1]
                    for side in order:
                        elapsed, count = await piece_of(side, piece)
                        spent[side.name][0] += elapsed
                        spent[side.name][1] += count
                for side in sides:
                    elapsed, count = spent[side.name]
                    figures[side.name][name].append(count / elapsed)
            print(f"round {round_ + 1}/{rounds} done", file=sys.stderr, flush=True)
    if len(sides) == 2:
        assert sides[0].answers == sides[1].answers, "the two versions answer differently"
    return figures


def report(figures: dict[str, dict[str, list[float]]], rounds: int, baseline: str | None) -> None:
    service = figures["service"]
    print(
        f"median of {rounds} rounds"
        + (f", paired with baseline {baseline} (order alternating)" if baseline else "")
        + "; vs baseline: the median of the rounds' service ÷ baseline\n"
    )
    columns = "| measure | unit | service |"
    if baseline:
        columns += " baseline | vs baseline |"
    print(columns)
    print("|---|---|" + "---:|" * (columns.count("|") - 3))
    for name, runs in service.items():
        unit = MEASURES[name][1]
        row = f"| {name} | {unit} | {statistics.median(runs):,.0f} |"
        if baseline:
            base = figures["baseline"][name]
            ratios = [s / b for s, b in zip(runs, base, strict=True)]
            row += f" {statistics.median(base):,.0f} | {statistics.median(ratios):.2f} × |"
        print(row)
    for name, goal in GOALS.items():
        if service.get(name):
            verdict = "met" if statistics.median(service[name]) >= goal else "not met"
            print(f"\ngoal: {name} ≥ {goal:,} games/s — {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", metavar="REV", help="a git revision to compare with")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--only", default="", help="run the measures whose name contains this")
    args = parser.parse_args()
    os.environ.update(NO_CLIENT_LIMITS)
    os.environ["ADJUDICATOR_STORE_URL"] = "memory://"
    logging.disable(logging.CRITICAL)
    with tempfile.TemporaryDirectory() as tmp:
        sides = [Side("service", "app")]
        if args.baseline:
            export(args.baseline, Path(tmp))
            sys.path.insert(0, tmp)
            sides.insert(0, Side("baseline", "app_baseline"))
        wall, cpu = time.perf_counter(), time.process_time()
        chosen = [name for name in MEASURES if args.only in name]
        figures = asyncio.run(measure(sides, args.rounds, chosen))
        share = (time.process_time() - cpu) / (time.perf_counter() - wall)
    report(figures, args.rounds, args.baseline)
    print(f"this process had {share:.0%} of a core (CPU time ÷ wall time of the rounds)")


if __name__ == "__main__":
    main()
