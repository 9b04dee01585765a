"""What the TypeScript client (``clients/typescript/src``) shares with the service, read from
its sources as text (no node needed):

* every problem code of the service: the codes its generated ``problems.d.ts`` takes from the
  spec's operations, with the ``ServiceProblemCode`` its ``index.d.ts`` lists by hand (those the
  service's edge answers to any request, which no operation of the spec lists), are the
  service's table of problems;
* the event stream's timing: its default keep-alive interval and how many intervals of silence
  make a stream dead are ``app.contract.events``'."""

from __future__ import annotations

import re
from pathlib import Path

from app.client import PROBLEM_TABLE
from app.contract.events import KEEP_ALIVE_SECONDS, KEEP_ALIVES_MISSED

SOURCES = Path(__file__).resolve().parents[2] / "clients" / "typescript" / "src"


def union(source: str, name: str) -> set[str]:
    """The string literals of ``export type {name} = "a" | "b" | …;`` in a declarations file."""
    found = re.search(rf"export type {name} =([^;]*);", source)
    assert found, f"no type {name}"
    return set(re.findall(r'"([a-z_]+)"', found.group(1)))


def constant(source: str, name: str) -> float:
    found = re.search(rf"^export const {name} = ([0-9.]+);$", source, re.MULTILINE)
    assert found, f"no constant {name}"
    return float(found.group(1))


def test_the_typescript_problem_codes_are_the_service_table() -> None:
    listed = union((SOURCES / "problems.d.ts").read_text(), "ProblemCode")
    edge = union((SOURCES / "index.d.ts").read_text(), "ServiceProblemCode")
    assert not listed & edge, "a code the spec lists need not be listed by hand"
    assert listed | edge == set(PROBLEM_TABLE.by_code)


def test_the_typescript_stream_timing_is_the_contract() -> None:
    source = (SOURCES / "index.js").read_text()
    assert constant(source, "KEEP_ALIVE_MS") == KEEP_ALIVE_SECONDS * 1000
    assert constant(source, "KEEP_ALIVES_MISSED") == KEEP_ALIVES_MISSED
