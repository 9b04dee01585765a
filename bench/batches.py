"""Batch throughput over HTTP: questions answered a second, every answer checked first.

    python -m bench.batches [--duration 3] [--rounds 3] [--connections 8] [--baseline REV]

The servers of ``bench.http`` (the service, the bare FastAPI app, and with ``--baseline`` REV's
service, all pinned to core 0, wrk on core 1): each batch scenario is run against the service
(and REV's, back to back, who goes first alternating between rounds), with the bare FastAPI GET
run right before it to say what the machine gave the round. Before the clock starts, every answer
of every batch is compared with the answers of the single endpoint, asked one question at a time
(``check-move``, ``validate``): a fast wrong answer is no figure. The table gives medians over
rounds of checks a second and the paired ratio to the baseline.

The scenarios: the opening's board asked about each of its 64 cells for both colours (1,000
queries, the bench.http batch), a random 32 × 32 position asked 1,000 distinct questions (no
question asked twice: every answer is the engine's), a 15 × 15 renju position, and 1,000
tic-tac-toe positions (500 distinct).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from app.rules.reversi import OPENING
from bench.http import RENJU_40, Scenario, exported, run_wrk, servers


@dataclass
class Batch:
    name: str
    path: str  # the batch's route
    single: str  # the route that answers one of its questions
    body: dict[str, object]
    member: str  # the body's list of questions
    shared: tuple[str, ...]  # what each single question takes from the batch's body
    rates: dict[str, list[float]] = field(default_factory=dict)  # checks/s by server, a round
    ceiling: list[float] = field(default_factory=list)

    @property
    def items(self) -> int:
        questions = self.body[self.member]
        assert isinstance(questions, list)
        return len(questions)


def batches() -> list[Batch]:
    rng = random.Random(32)
    big = ["".join(rng.choices(".BW", (2, 1, 1), k=32)) for _ in range(32)]
    every = [(r, c, color) for r in range(32) for c in range(32) for color in "BW"]
    cells = rng.sample(every, 1000)
    opening = [{"row": i // 8 % 8, "col": i % 8, "color": "BW"[i % 2]} for i in range(1000)]
    renju = [
        {"row": rng.randrange(15), "col": rng.randrange(15), "color": rng.choice("BW")}
        for _ in range(1000)
    ]
    positions = [
        {"board": ["".join(rng.choices("XO.", k=3)) for _ in range(3)]} for _ in range(500)
    ] * 2
    return [
        Batch(
            "reversi/check-moves: opening, 1,000 queries",
            "/v1/reversi/check-moves", "/v1/reversi/check-move",
            {"board": list(OPENING), "queries": opening}, "queries", ("board",),
        ),
        Batch(
            "reversi/check-moves: 32×32, 1,000 distinct",
            "/v1/reversi/check-moves", "/v1/reversi/check-move",
            {"board": big, "queries": [{"row": r, "col": c, "color": k} for r, c, k in cells]},
            "queries", ("board",),
        ),
        Batch(
            "gomoku/check-moves: renju 15×15, 1,000 queries",
            "/v1/gomoku/check-moves", "/v1/gomoku/check-move",
            {"board": RENJU_40, "rule": "renju", "queries": renju}, "queries", ("board", "rule"),
        ),
        Batch(
            "tictactoe/validate-batch: 1,000 × 3×3",
            "/v1/tictactoe/validate-batch", "/v1/tictactoe/validate",
            {"items": positions}, "items", (),
        ),
    ]  # fmt: skip


def check_answers(url: str, batch: Batch) -> None:
    """Every answer of the batch is the single endpoint's answer to its question."""
    answer = httpx.post(url + batch.path, json=batch.body, timeout=60)
    answer.raise_for_status()
    results = answer.json()["results"]
    questions = batch.body[batch.member]
    assert isinstance(questions, list)
    assert len(results) == len(questions)
    shared = {name: batch.body[name] for name in batch.shared}
    singles: dict[str, object] = {}
    with httpx.Client(base_url=url, timeout=60) as client:
        for question, result in zip(questions, results, strict=True):
            key = json.dumps(question, sort_keys=True)
            if key not in singles:
                singles[key] = client.post(batch.single, json={**shared, **question}).json()
            if result != singles[key]:
                wrong = f"{question} → {result}, not {singles[key]}"
                raise AssertionError(f"{url} {batch.name}: {wrong}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--only", default="", help="run batches whose name contains this")
    parser.add_argument("--baseline", metavar="REV", help="also measure this git revision's app")
    args = parser.parse_args()
    chosen = [batch for batch in batches() if args.only in batch.name]
    ceiling = Scenario("ceiling: bare FastAPI GET", "fastapi", "/ping")
    with contextlib.ExitStack() as stack:
        baseline, sha = (
            stack.enter_context(exported(args.baseline)) if args.baseline else (None, "")
        )
        urls = stack.enter_context(servers(baseline))
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        sides = ["service", *(["baseline"] if baseline is not None else [])]
        for batch in chosen:
            for side in sides:
                check_answers(urls[side], batch)
        for round_ in range(args.rounds):
            for index, batch in enumerate(chosen):
                run = Scenario(batch.name, "service", batch.path, "POST", batch.body)
                got = run_wrk(urls["fastapi"], ceiling, args.connections, args.duration, workdir)
                batch.ceiling.append(got[0])
                order = sides if (round_ + index) % 2 == 0 else sides[::-1]
                for side in order:
                    rps = run_wrk(urls[side], run, args.connections, args.duration, workdir)[0]
                    batch.rates.setdefault(side, []).append(rps * batch.items)
    print(
        f"wrk, {args.connections} connections, {args.duration:g} s per run, {args.rounds} rounds; "
        "medians; every answer checked against the single endpoint's first"
        + (f"; baseline {args.baseline} = {sha[:12]}" if args.baseline else "")
        + "\n"
    )
    columns = "| batch | bare GET req/s | checks/s |"
    if baseline is not None:
        columns += " baseline checks/s | vs baseline |"
    print(columns)
    print("|---|" + "---:|" * (columns.count("|") - 2))
    for batch in chosen:
        rates = batch.rates["service"]
        row = f"| {batch.name} | {statistics.median(batch.ceiling):,.0f} | "
        row += f"{statistics.median(rates):,.0f} |"
        if baseline is not None:
            base = batch.rates["baseline"]
            ratio = statistics.median(s / b for s, b in zip(rates, base, strict=True))
            row += f" {statistics.median(base):,.0f} | {ratio:.2f} |"
        print(row)


if __name__ == "__main__":
    main()
