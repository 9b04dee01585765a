"""Metrics equal the work done; request ids are accepted or generated, echoed and logged."""

from __future__ import annotations

import json
import logging
import re
from typing import ClassVar

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from app.main import create_app
from app.observability import JsonLogFormatter
from app.settings import Settings


def metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample in Prometheus text output (0 if absent)."""
    label_text = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
    pattern = re.escape(name) + (r"\{" + re.escape(label_text) + r"\}" if labels else "")
    found = re.search(rf"^{pattern} (\S+)$", text, re.M)
    return float(found.group(1)) if found else 0.0


def test_metrics_count_the_work_done() -> None:
    with TestClient(create_app(Settings()), raise_server_exceptions=False) as client:
        games = [client.post("/v1/games", json={"n": 3}).json() for _ in range(2)]
        for game in games:
            auth = {"Authorization": f"Bearer {game['tokens']['1']}"}
            client.post(f"/v1/games/{game['id']}/moves", json={"row": 0, "col": 0}, headers=auth)
            client.post(f"/v1/games/{game['id']}/moves", json={"row": 1, "col": 1}, headers=auth)
        replay = {"Authorization": f"Bearer {games[0]['tokens']['2']}", "Idempotency-Key": "k"}
        for _ in range(2):
            client.post(f"/v1/games/{games[0]['id']}/moves", json={"row": 2, "col": 2},
                        headers=replay)  # fmt: skip
        client.post("/v1/tictactoe/validate", json={"board": ["XO"]})
        client.get("/nowhere")
        text = client.get("/metrics").text

    assert metric(text, "adjudicator_moves_adjudicated_total") == 3  # the replay is not a move
    assert "_created" not in text  # no timestamp series that a scraper could mistake for counts
    assert metric(text, "adjudicator_refusals_total", code="not_your_turn") == 2
    assert metric(text, "adjudicator_refusals_total", code="validation_error") == 1
    assert metric(text, "adjudicator_refusals_total", code="not_found") == 1
    assert metric(text, "adjudicator_live_games") == 2
    assert (
        metric(text, "adjudicator_requests_total", route="/v1/games", method="POST", status="201")
        == 2
    )
    assert metric(
        text, "adjudicator_requests_total",
        route="/v1/games/{game_id}/moves", method="POST", status="201",
    ) == 4  # fmt: skip
    assert (
        metric(text, "adjudicator_requests_total", route="unmatched", method="GET", status="404")
        == 1
    )
    assert (
        metric(
            text, "adjudicator_request_duration_seconds_count", route="/v1/games/{game_id}/moves"
        )
        == 6
    )


def test_requests_are_counted_once_across_the_pending_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Answers are noted and counted in batches (``ANSWERS_PENDING``): every answer is counted
    once, whether a batch was counted when full or when scraped, and no more wait than that."""
    monkeypatch.setattr("app.front.ANSWERS_PENDING", 3)
    app = create_app(Settings())
    with TestClient(app) as client:
        for asked in range(1, 11):
            client.get("/healthz")
            assert len(app.state.metrics.answered.pending) < 3
            if asked in (4, 10):
                text = client.get("/metrics").text
                route = {"route": "/healthz", "method": "GET", "status": "200"}
                assert metric(text, "adjudicator_requests_total", **route) == asked
                seconds = "adjudicator_request_duration_seconds_count"
                assert metric(text, seconds, route="/healthz") == asked


def test_head_requests_are_counted_by_their_routes() -> None:
    with TestClient(create_app(Settings())) as client:
        assert client.head("/healthz").status_code == 200
        text = client.get("/metrics").text
    route = {"route": "/healthz", "method": "HEAD", "status": "200"}
    assert metric(text, "adjudicator_requests_total", **route) == 1


def test_request_id_is_echoed_or_generated(client: TestClient) -> None:
    given = client.get("/healthz", headers={"X-Request-ID": "abc-123"})
    assert given.headers["x-request-id"] == "abc-123"
    made = client.get("/healthz")
    assert re.fullmatch(r"[0-9a-f]{12}-[0-9a-f]+", made.headers["x-request-id"])
    assert client.get("/healthz").headers["x-request-id"] != made.headers["x-request-id"]
    odd = client.get("/healthz", headers={"X-Request-ID": "x" * 200})
    assert odd.headers["x-request-id"] != "x" * 200
    problem = client.get("/nowhere", headers={"X-Request-ID": "r-404"})
    assert problem.headers["x-request-id"] == "r-404"


def test_request_id_is_in_the_apps_log_lines(caplog: pytest.LogCaptureFixture) -> None:
    class Broken:
        endings: ClassVar[dict[str, int]] = {}

        async def ready(self) -> bool:
            raise RuntimeError("boom")

        async def close(self) -> None:
            return None

    app = create_app(Settings(), store=Broken())  # type: ignore[arg-type]
    with (
        caplog.at_level(logging.ERROR, logger="app"),
        TestClient(app, raise_server_exceptions=False) as client,
    ):
        response = client.get("/readyz", headers={"X-Request-ID": "trace-me"})
    assert response.status_code == 500
    assert response.json()["code"] == "internal_error"
    assert [getattr(r, "request_id", None) for r in caplog.records] == ["trace-me"]
    line = json.loads(JsonLogFormatter().format(caplog.records[0]))
    assert (line["request_id"], line["level"]) == ("trace-me", "ERROR")


def test_cors_only_for_configured_origins() -> None:
    settings = Settings(cors_origins=["https://play.example"])
    with TestClient(create_app(settings)) as client:
        allowed = client.options(
            "/v1/games",
            headers={"Origin": "https://play.example", "Access-Control-Request-Method": "POST"},
        )
        other = client.get("/healthz", headers={"Origin": "https://evil.example"})
    assert allowed.headers["access-control-allow-origin"] == "https://play.example"
    assert "access-control-allow-origin" not in other.headers


def test_a_page_on_an_allowed_origin_may_read_the_headers_it_needs() -> None:
    # Date corrects a clock countdown; ETag polls; Location follows; Retry-After waits.
    settings = Settings(cors_origins=["https://play.example"])
    with TestClient(create_app(settings)) as client:
        created = client.post(
            "/v1/games", json={"n": 3}, headers={"Origin": "https://play.example"}
        )
    exposed = {
        h.strip().lower() for h in created.headers["access-control-expose-headers"].split(",")
    }
    assert {"date", "etag", "location", "retry-after"} <= exposed  # Date: sent by the server


@pytest.mark.parametrize(
    ("asked", "failure"),
    [
        ({"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"}, "origin"),
        ({"Origin": "https://play.example", "Access-Control-Request-Method": "PUT"}, "method"),
        (
            {"Origin": "https://play.example", "Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "X-Secret"},
            "headers",
        ),
    ],
)  # fmt: skip
def test_a_refused_preflight_is_a_problem(asked: dict[str, str], failure: str) -> None:
    settings = Settings(cors_origins=["https://play.example"])
    with TestClient(create_app(settings)) as client:
        refused = client.options("/v1/games", headers=asked)
    assert refused.status_code == 400
    assert refused.headers["content-type"] == "application/problem+json"
    assert refused.json()["code"] == "cors_refused"
    assert failure in refused.json()["detail"]


@pytest.mark.parametrize(
    "origin",
    ["not a url", "play.example", "https://play.example/", "https://play.example/app",
     "ftp://play.example", "https://user@play.example", "https://play.example:port"],
)  # fmt: skip
def test_an_origin_that_no_browser_sends_is_refused_at_start(origin: str) -> None:
    with pytest.raises(ValidationError, match="is not an origin"):
        Settings(cors_origins=[origin])
    assert Settings(cors_origins=["*", "http://127.0.0.1:5173"]).cors_origins


@pytest.mark.parametrize("path", ["/healthz", "/v1/nope", "/", "/docs", "/openapi.json"])
def test_every_answer_carries_the_safe_defaults(client: TestClient, path: str) -> None:
    headers = client.get(path).headers
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize("page", ["/", "/docs", "/redoc"])
def test_pages_cannot_be_framed(client: TestClient, page: str) -> None:
    assert "frame-ancestors 'none'" in client.get(page).headers["content-security-policy"]


def test_access_log_lines_show_no_query_values(client: TestClient) -> None:
    # As uvicorn writes them: client, method, path with query, HTTP version, status.
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5000", "GET", "/v1/games/g/moves?since=3&token=s3cret", "1.1", 200), None,
    )  # fmt: skip
    access = logging.getLogger("uvicorn.access")
    assert all(f.filter(record) for f in access.filters)  # the app installed its filter
    line = record.getMessage()
    assert "s3cret" not in line
    assert "/v1/games/g/moves?since=…&token=…" in line
