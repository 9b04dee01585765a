"""``"detail": "summary"``: an audit's answer without its move records, for bulk clients — the
same verdict, plies, refusal, state and chain as the full answer (the chain recomputed here from
the full answer's moves), signed as a whole; asked for record by record in a batch; and any
other value of ``detail`` refused 422 naming the field, alone or inside a batch."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from jsonschema_rs import Draft202012Validator

from app.main import create_app
from app.records.canonical import chain
from app.records.signing import SIGNATURE, NotVerified, verify
from app.settings import Settings
from tests.api.problems import assert_problem
from tests.records.test_canonical import BODIES


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    settings = Settings(create_rate_per_minute=0, client_cpu_ms_per_minute=0)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


def audit(client: TestClient, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/v1/records/audit", json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def unsigned(answer: dict[str, Any], *without: str) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k not in (SIGNATURE, *without)}


@pytest.mark.parametrize("name", sorted(BODIES))
def test_a_summary_is_the_full_answer_without_its_moves_and_verifies(
    client: TestClient, name: str
) -> None:
    full = audit(client, BODIES[name])
    summary = audit(client, {**BODIES[name], "detail": "summary"})
    assert "moves" not in summary
    assert unsigned(summary) == unsigned(full, "moves")
    assert set(summary) >= {"verdict", "plies", "illegal", "state", "chain", "signature"}
    assert audit(client, {**BODIES[name], "detail": "full"}) == full
    game = full["state"]["game"]
    params = {"game": game, **{k: v for k, v in full["state"].items() if k in ("n", "k")}}
    if game == "tictactoe":  # the creation parameters are the state's: the chain recomputed
        assert summary["chain"] == chain(params, full["moves"])
    published = client.get("/v1/keys").json()["keys"]
    assert verify(summary, published, "audit") == (published[0]["kid"], "audit")
    changed = {**summary, "plies": summary["plies"] + 1}
    with pytest.raises(NotVerified):
        verify(changed, published)
    with pytest.raises(NotVerified):  # a summary is not the full answer with its moves dropped
        verify({**full, "signature": summary["signature"]}, published)


def test_a_batch_answers_each_record_as_it_asks(client: TestClient) -> None:
    bodies = [
        {**BODIES["othello"], "detail": "summary"},
        BODIES["othello"],
        {**BODIES["connect4"], "detail": "summary"},
        {**BODIES["renju-forbidden"], "detail": "full"},
    ]
    response = client.post("/v1/records/audit-batch", json={"records": bodies})
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    assert ["moves" in result for result in results] == [False, True, False, True]
    for body, result in zip(bodies, results, strict=True):
        alone = audit(client, body)
        assert unsigned(result) == unsigned(alone)


BAD_DETAILS = ["SUMMARY", "brief", "", None, 1, True, [], {"summary": True}, "summary " * 100]


@pytest.mark.parametrize("detail", BAD_DETAILS)
def test_another_detail_is_422_naming_the_field(client: TestClient, detail: object) -> None:
    for body in (BODIES["othello"], BODIES["othello-ggf"], BODIES["connect4"]):
        response = client.post("/v1/records/audit", json={**body, "detail": detail})
        problem = assert_problem(response, 422, "validation_error")
        assert [error["loc"] for error in problem["errors"]] == [["body", "detail"]]


@pytest.mark.parametrize("detail", BAD_DETAILS)
def test_another_detail_in_a_batch_is_that_records_problem(
    client: TestClient, detail: object
) -> None:
    bodies = [BODIES["othello"], {**BODIES["othello"], "detail": detail}]
    response = client.post("/v1/records/audit-batch", json={"records": bodies})
    assert response.status_code == 200, response.text
    first, second = response.json()["results"]
    assert first["verdict"] == "unfinished"
    errors = second["problem"]["errors"]
    assert [error["loc"] for error in errors] == [["body", "records", 1, "detail"]]


def test_every_documented_audit_shape_takes_detail_and_no_other_value(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    components = {"components": spec["components"]}
    shapes = spec["components"]["schemas"]["AuditIn"]["oneOf"]
    for body in BODIES.values():
        for detail, fits in (("summary", 1), ("full", 1), ("brief", 0)):
            with_detail = {**body, "detail": detail}
            fitting = [
                s for s in shapes if Draft202012Validator({**s, **components}).is_valid(with_detail)
            ]
            assert len(fitting) == fits, (with_detail, fitting)
    answer = spec["components"]["schemas"]["AuditOut"]
    assert "moves" not in answer["required"]
    assert {"verdict", "plies", "illegal", "state", "chain", "signature"} <= set(answer["required"])
