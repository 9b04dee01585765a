"""The TypeScript client knows every problem code of the service: the codes its generated
``problems.d.ts`` takes from the spec's operations, with the ``ServiceProblemCode`` its
``index.d.ts`` lists by hand (those the service's edge answers to any request, which no operation
of the spec lists), are the service's table of problems. Read as text: no node needed."""

from __future__ import annotations

import re
from pathlib import Path

from app.client import PROBLEM_TABLE

SOURCES = Path(__file__).resolve().parents[2] / "clients" / "typescript" / "src"


def union(source: str, name: str) -> set[str]:
    """The string literals of ``export type {name} = "a" | "b" | …;`` in a declarations file."""
    found = re.search(rf"export type {name} =([^;]*);", source)
    assert found, f"no type {name}"
    return set(re.findall(r'"([a-z_]+)"', found.group(1)))


def test_the_typescript_problem_codes_are_the_service_table() -> None:
    listed = union((SOURCES / "problems.d.ts").read_text(), "ProblemCode")
    edge = union((SOURCES / "index.d.ts").read_text(), "ServiceProblemCode")
    assert not listed & edge, "a code the spec lists need not be listed by hand"
    assert listed | edge == set(PROBLEM_TABLE.by_code)
