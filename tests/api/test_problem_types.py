"""The one table of problems: every domain error has its entry, and docs/api.md agrees with it."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from app.contract.problems import ProblemTable
from app.kinds import KINDS
from app.rules.errors import DomainError

# The service's problems with the registry's kinds.
TABLE = ProblemTable.of(kind.face for kind in KINDS)
ALL_PROBLEMS, PROBLEM_TYPES = TABLE.all, TABLE.by_code

API_DOCS = Path(__file__).resolve().parents[2] / "docs" / "api.md"


def concrete_errors(root: type[DomainError] = DomainError) -> set[type[DomainError]]:
    """Every domain error class of the service that carries a code of its own (not those of
    kinds declared in tests, which their tests serve)."""
    found: set[type[DomainError]] = set()
    for cls in root.__subclasses__():
        if "code" in vars(cls) and cls.__module__.startswith("app."):
            found.add(cls)
        found |= concrete_errors(cls)
    return found


def test_every_domain_error_has_a_problem_type() -> None:
    errors = concrete_errors()
    assert errors, "the domain declares errors"
    missing = [cls.__name__ for cls in errors if cls not in TABLE.domain]
    assert missing == [], "add them to contract/problems.py or to their kind's refusals"
    for cls in errors:
        assert TABLE.problem_of(cls).code == cls.code


def test_codes_are_snake_case_with_a_client_or_server_error_status_and_one_title() -> None:
    pairs = [(problem.code, problem.status) for problem in ALL_PROBLEMS]
    assert len(pairs) == len(set(pairs))
    titles = {problem.code: problem.title for problem in ALL_PROBLEMS}
    for problem in ALL_PROBLEMS:
        assert problem.title == titles[problem.code], problem
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", problem.code), problem.code
        assert 400 <= problem.status < 600, problem
        assert problem.title
        assert problem.when
        assert problem.todo


def test_problem_type_route_describes_every_code(client: TestClient) -> None:
    for code, entries in PROBLEM_TYPES.items():
        answer = client.get(f"/problems/{code}").json()
        first = entries[0]
        assert (answer["code"], answer["status"], answer["title"]) == (
            code, first.status, first.title)  # fmt: skip
        assert answer["statuses"] == [entry.status for entry in entries]
        for entry in entries:  # what it means and what to do, for each status it comes with
            assert entry.when in answer["when"]
            assert entry.todo in answer["todo"]
        example = answer["example"]
        assert (example["code"], example["status"], example["title"]) == (
            code, first.status, first.title)  # fmt: skip
        assert example["type"] == f"/problems/{code}"


def test_the_openapi_document_lists_every_code_as_the_route_describes_it(
    client: TestClient,
) -> None:
    """Clients generated from the document (clients/python/generate.py) learn every code from
    the examples of ``/problems/{code}``'s answer: each is what the route answers."""
    spec = client.get("/openapi.json").json()
    answer = spec["paths"]["/problems/{code}"]["get"]["responses"]["200"]
    examples = answer["content"]["application/json"]["examples"]
    assert list(examples) == list(PROBLEM_TYPES)
    for code, example in examples.items():
        assert example["value"] == client.get(f"/problems/{code}").json()
        assert example["summary"] == PROBLEM_TYPES[code][0].title


def test_every_problem_says_what_to_do_and_has_an_example_of_its_own() -> None:
    details = [problem.detail for problem in ALL_PROBLEMS]
    for problem in ALL_PROBLEMS:
        assert problem.todo, problem.code
        example = problem.example()
        assert (example["code"], example["status"]) == (problem.code, problem.status)
    assert len(set(details)) == len(details), "each example says something of its own"


def test_readme_error_table_lists_every_code_with_its_status() -> None:
    rows = re.findall(r"^\| (\d{3}) \| `([a-z_]+)` \|", API_DOCS.read_text(), flags=re.M)
    assert {(code, int(status)) for status, code in rows} == {
        (problem.code, problem.status) for problem in ALL_PROBLEMS
    }
