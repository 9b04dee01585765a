"""The route index: a request reaches the route that trying every route in order would find."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI, Request, Response
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from starlette.exceptions import HTTPException
from starlette.routing import BaseRoute, Match, Mount, Route

from app.api.problems import BodyInvalid
from app.api.routing import DirectLane, RouteIndex, api_router, index_routes
from app.main import add_routes_flat, create_app
from app.settings import Settings

APP = create_app(Settings())
INDEX = APP.router.routes[0]
ROUTES: list[BaseRoute] = APP.router.routes[1:]
METHODS = ("GET", "POST", "DELETE", "PUT", "HEAD", "PATCH")
# Every literal segment of the routes' paths, and segments no route names.
LITERALS = sorted({part for r in ROUTES for part in getattr(r, "path", "").split("/")})
PATTERNS = sorted({r.path for r in ROUTES if isinstance(r, Route | Mount)})
SEGMENTS = [*LITERALS, "x1", "7", "*", "", "%2F", "v1 ", "games.json", "\n", "games\n"]


def scope_of(method: str, path: str, root_path: str = "") -> dict[str, Any]:
    return {
        "type": "http", "method": method, "path": root_path + path, "root_path": root_path,
        "headers": [], "query_string": b"",
    }  # fmt: skip


def every_route(scope: dict[str, Any]) -> tuple[Match, BaseRoute | None]:
    """What the router finds trying every route in order: the first full match, else the first
    partial one."""
    partial = None
    for route in ROUTES:
        match, _ = route.matches(dict(scope))
        if match is Match.FULL:
            return match, route
        if match is Match.PARTIAL and partial is None:
            partial = route
    return (Match.PARTIAL, partial) if partial is not None else (Match.NONE, None)


def indexed(scope: dict[str, Any]) -> tuple[Match, BaseRoute | None]:
    match, child = INDEX.matches(dict(scope))
    return match, child.get("adjudicator.route")


def filled(path: str) -> str:
    """A route's path with each parameter given a value."""
    return "/".join("x1" if "{" in part else part for part in path.split("/"))


def lane_of(app: FastAPI) -> DirectLane:
    """The app's direct lane, as its middleware stack makes it (innermost)."""
    [lane] = [m for m in app.user_middleware if m.cls is DirectLane]
    assert app.user_middleware[-1] is lane
    return DirectLane(app.router, *lane.args, **lane.kwargs)


LANE = lane_of(APP)


def test_the_index_is_first_and_every_route_is_still_listed() -> None:
    assert isinstance(INDEX, RouteIndex)
    assert "/v1/games/{game_id}/moves" in {getattr(r, "path", None) for r in ROUTES}


@pytest.mark.parametrize(
    "pattern", sorted({r.path for r in ROUTES if isinstance(r, APIRoute | Mount)})
)
@pytest.mark.parametrize("method", METHODS)
def test_each_route_path_finds_what_every_route_would(pattern: str, method: str) -> None:
    path = filled(pattern)
    for variant in (path, path + "/", path + "/x1", path.rsplit("/", 1)[0], path + "//"):
        for root in ("", "/prefix"):
            scope = scope_of(method, variant, root)
            assert indexed(scope) == every_route(scope), (method, root, variant)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(SEGMENTS), min_size=0, max_size=9),
    st.sampled_from(METHODS),
    st.sampled_from(["", "/prefix"]),
)
def test_any_path_finds_what_every_route_would(parts: list[str], method: str, root: str) -> None:
    scope = scope_of(method, "/" + "/".join(parts), root)
    assert indexed(scope) == every_route(scope)


def test_a_path_ending_in_a_newline_finds_what_every_route_would() -> None:
    # A route's pattern ends in `$`, which also matches before a final newline: `/things/new\n`
    # is the literal route's, not the parameter's declared after it.
    app = FastAPI()
    app.add_api_route("/things/new", lambda: None, name="literal")
    app.add_api_route("/things/{name}", lambda: None, name="parameter")
    index = RouteIndex(app.router.routes)
    for path in ("/things/new\n", "/things/other\n", "/things/\n", "/things/new\n\n"):
        scope = scope_of("GET", path)
        plain = next(
            (r for r in app.router.routes if r.matches(dict(scope))[0] is Match.FULL), None
        )
        match, child = index.matches(dict(scope))
        assert child.get("adjudicator.route") is plain, path
        assert match is (Match.NONE if plain is None else Match.FULL)


def test_with_opentelemetry_on_the_router_tries_every_route() -> None:
    """FastAPI's spans name a request's route by the route the router chose: no index then."""
    traced = create_app(Settings(opentelemetry=True))
    assert not any(isinstance(r, RouteIndex) for r in traced.router.routes)
    with TestClient(traced) as client:
        assert client.get("/healthz").status_code == 200


def test_a_route_declared_after_the_index_is_served_and_a_miss_is_still_404_or_405() -> None:
    app = create_app(Settings())

    @app.get("/late/{name}")
    async def late(name: str) -> Response:
        return Response(name)

    with TestClient(app) as client:
        assert client.get("/late/here").text == "here"
        assert client.get("/healthz").status_code == 200
        assert client.get("/nowhere").status_code == 404
        refused = client.put("/healthz")
        assert refused.status_code == 405
        assert refused.headers["allow"] == "GET"


def test_shapes_remembered_are_bounded() -> None:
    app = FastAPI()
    for n in range(40):  # literals at two places: 41 × 41 shapes of two segments
        app.add_api_route(f"/p{n}/{{x}}", lambda: None)
        app.add_api_route(f"/{{x}}/q{n}", lambda: None)
    paths = [r.path for r in app.router.routes if isinstance(r, APIRoute)]
    index = RouteIndex(app.router.routes)
    app.router.routes.insert(0, index)
    seen = set()
    for i in range(40):
        for j in range(40):
            found = [r.path for r in index.candidates(f"/p{i}/q{j}")]  # type: ignore[attr-defined]
            assert found == [p for p in paths if p in (f"/p{i}/{{x}}", f"/{{x}}/q{j}")]
            seen.add((i, j))
            assert 0 < len(index._by_shape) <= RouteIndex.MAX_SHAPES
    assert len(seen) > RouteIndex.MAX_SHAPES


def test_the_stateless_questions_take_the_direct_lane() -> None:
    assert isinstance(LANE, DirectLane)
    for path in ("/v1/reversi/legal-moves", "/v1/reversi/check-move", "/v1/tictactoe/validate"):
        assert LANE.chosen(scope_of("POST", path)) is not None, path
    assert LANE.chosen(scope_of("GET", "/healthz")) is not None


@pytest.mark.parametrize(
    "pattern", sorted({r.path for r in ROUTES if isinstance(r, APIRoute | Mount)})
)
@pytest.mark.parametrize("method", METHODS)
def test_the_direct_lane_serves_a_path_only_with_the_route_every_route_would(
    pattern: str, method: str
) -> None:
    path = filled(pattern)
    for variant in (pattern, path, path + "/", path + "\n", path + "//"):
        for root in ("", "/prefix"):
            scope = scope_of(method, variant, root)
            lane = LANE.chosen(scope)
            if lane is not None:
                assert every_route(scope) == (Match.FULL, lane), (method, root, variant)


def test_a_literal_path_an_earlier_route_matches_is_left_to_the_router() -> None:
    app = FastAPI()
    router = api_router()

    @router.get("/things/{name}")
    async def parameter(request: Request) -> Response:
        return Response("parameter")

    @router.get("/things/new")
    async def literal(request: Request) -> Response:
        return Response("literal")

    @router.get("/other")
    async def other(request: Request) -> Response:
        return Response("other")

    add_routes_flat(app, router)
    index_routes(app, traced=False)
    lane = lane_of(app)
    assert lane.chosen(scope_of("GET", "/things/new")) is None
    assert lane.chosen(scope_of("GET", "/other")) is not None
    assert lane.chosen(scope_of("POST", "/other")) is None  # a 405, the router's
    with TestClient(app) as client:
        assert client.get("/things/new").text == "parameter"
        assert client.get("/other").text == "other"
        assert client.post("/other").status_code == 405


def test_what_a_direct_lanes_endpoint_raises_is_answered_by_the_apps_handlers() -> None:
    app = create_app(Settings())
    router = api_router()

    @router.post("/refused")
    async def refused(request: Request) -> Response:
        raise BodyInvalid([{"loc": ("body", "x"), "msg": "no", "type": "value_error"}])

    @router.get("/teapot")
    async def teapot(request: Request) -> Response:
        raise HTTPException(418, "short and stout")

    @router.get("/broken")
    async def broken(request: Request) -> Response:
        raise ZeroDivisionError

    add_routes_flat(app, router)
    lane = lane_of(app)
    for method, path in (("POST", "/refused"), ("GET", "/teapot"), ("GET", "/broken")):
        assert lane.chosen(scope_of(method, path)) is not None, path
    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.post("/refused")
        assert answer.status_code == 422
        assert answer.headers["content-type"] == "application/problem+json"
        assert answer.json()["errors"][0]["loc"] == ["body", "x"]
        answer = client.get("/teapot")
        assert answer.status_code == 418
        assert answer.json()["detail"] == "short and stout"
        answer = client.get("/broken")  # no handler but the server error's: a 500 problem
        assert answer.status_code == 500
        assert answer.headers["content-type"] == "application/problem+json"
