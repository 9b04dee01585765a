"""A route class that hands the request straight to endpoints that need nothing else.

The hot endpoints are written as ``async def endpoint(request: Request) -> Response``: they
parse their body themselves (``JsonBody``, from bytes) and render their answer once
(``json_response``). For them FastAPI's per-request machinery — solving dependencies, checking
parameters, validating and serialising the return value — has nothing to do, yet costs about as
much as everything else in the request (measured in-process: a minimal POST took 28 µs through
``APIRoute`` and 14 µs through ``DirectRoute``).

``DirectRoute`` is an ``APIRoute`` in every other respect: the OpenAPI document comes from the
decorator's arguments as usual, and exception handlers apply. An endpoint that declares any other
parameter is served by FastAPI's normal handler.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Coroutine, Mapping
from enum import Enum
from typing import Any, cast

from fastapi import APIRouter, FastAPI, Request, Response
from fastapi._body_limit import wrap_app_with_body_limit
from fastapi.routing import APIRoute
from starlette._utils import get_route_path, is_async_callable
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import URLPath
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Match, Mount, NoMatchFound, Route
from starlette.types import ASGIApp, Receive, Scope, Send


def is_direct(endpoint: Callable[..., Any]) -> bool:
    """True for ``async def f(request: Request) -> Response`` (or a Response subclass)."""
    signature = inspect.signature(endpoint, eval_str=True)
    parameters = list(signature.parameters.values())
    returns = signature.return_annotation
    return (
        inspect.iscoroutinefunction(endpoint)
        and len(parameters) == 1
        and parameters[0].annotation is Request
        and isinstance(returns, type)
        and issubclass(returns, Response)
    )


class DirectRoute(APIRoute):
    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        super().__init__(path, endpoint, **kwargs)
        if is_direct(self.endpoint):
            limit = getattr(self, "max_body_size", None)
            self.app = wrap_app_with_body_limit(direct_response(self.endpoint), limit)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        if is_direct(self.endpoint):
            handler: Callable[[Request], Coroutine[Any, Any, Response]] = self.endpoint
            return handler
        return super().get_route_handler()


def direct_response(endpoint: Callable[[Request], Coroutine[Any, Any, Response]]) -> ASGIApp:
    """The ASGI app of a direct endpoint: FastAPI's ``request_response`` without the two exit
    stacks it opens a request for dependencies that clean up (a direct endpoint has none; two
    ``async with`` a request, some µs), and without its own try of the exception handlers: the
    app's ``ExceptionMiddleware``, around every route, tries the same handlers (the scope's
    ``starlette.exception_handlers``) on whatever the endpoint raises (~3 µs a request)."""

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        response = await endpoint(Request(scope, receive, send))
        await response(scope, receive, send)

    return app


def operation_id(name: str) -> str:
    """The OpenAPI operationId of the endpoint function ``name``: ``make_move`` -> ``makeMove``.

    The function's name is the one declaration; clients generated from the spec and the spec's
    links use the derived id.
    """
    first, *rest = name.split("_")
    return first + "".join(word.capitalize() for word in rest)


def api_router(prefix: str = "", tags: list[str | Enum] | None = None) -> APIRouter:
    """A router of ``DirectRoute``s whose operation ids are their endpoints' names."""
    return APIRouter(
        prefix=prefix,
        tags=tags,
        route_class=DirectRoute,
        generate_unique_id_function=lambda route: operation_id(route.name),
    )


# --- finding a request's route without trying every route ---------------------------------------

_ANY = "*"  # a request's path segment that is no route's literal segment at its place
_ROUTE_SEGMENT = tuple[str, str]  # ("literal", text), ("one", "") or ("rest", "")


def _segments_of(route: BaseRoute) -> tuple[_ROUTE_SEGMENT, ...] | None:
    """A route's path as segments, or None if the route may match any path (one this index does
    not read: it is always tried). ``one`` is any one segment (a parameter, whatever text is
    beside it); ``rest`` is anything from there on (a ``:path`` parameter, or a mount's
    inside)."""
    if isinstance(route, Mount):
        pattern, tail = route.path, True
    elif isinstance(route, Route):
        pattern, tail = route.path, False
    else:
        return None
    segments: list[_ROUTE_SEGMENT] = []
    for text in pattern.split("/"):
        if ":path}" in text:
            segments.append(("rest", ""))
            return tuple(segments)
        segments.append(("one", "") if "{" in text else ("literal", text))
    if tail:
        segments.append(("rest", ""))
    return tuple(segments)


def _may_match(segments: tuple[_ROUTE_SEGMENT, ...], shape: tuple[str, ...]) -> bool:
    """Whether a route of these segments may match a path of this shape (a superset: the route's
    own ``matches`` decides). A shape's last item is ``_ANY`` for a path longer than any route
    pattern, standing for every segment beyond."""
    for place, (kind, text) in enumerate(segments):
        if kind == "rest":
            return True
        if place >= len(shape) or (kind == "literal" and shape[place] != text):
            return False
    return len(shape) == len(segments)


class RouteIndex(BaseRoute):
    """The first of an app's routes: it tries only the routes a request's path may match.

    Starlette's router tries every route in order, and one try of a FastAPI route costs about a
    µs: a route declared 35th cost 35 µs a request before its endpoint ran (measured in-process:
    ``/healthz`` 48 µs as it was declared, 15 µs first). This index knows, for each *shape* of a
    path, which routes may match it: a path's segments, each kept if some route has that literal
    segment at that place and ``*`` otherwise (``/v1/games/Xy3/moves`` is
    ``("", "v1", "games", "*", "moves")``). It tries those, in their order, with their own
    ``matches``, and answers as the router would have over all of them: the first full match,
    else the first partial one (a path served for another method), else none — and then the
    router goes on over the routes after this one, which then cost what they always did (a 404
    or a 405, rare). A route this index does not read (neither a Route nor a Mount) is tried
    for every path. Shapes are few (a literal segment or ``*`` at each place of a route's
    length); at most ``MAX_SHAPES`` are remembered. The index is built on the first request,
    and again when the number of routes changes (a route declared later); a route replaced in
    place is not seen.

    Not with FastAPI's OpenTelemetry on: its tracing names a request's route by the route the
    router chose, which would be this index (``index_routes``).
    """

    MAX_SHAPES = 1024

    def __init__(self, routes: list[BaseRoute]) -> None:
        self._routes = routes  # the router's own list (this index among them)
        self._indexed = 0  # how many routes the index was built from; rebuilt when it changes
        self._literals: list[frozenset[str]] = []  # by place: the literal segments there
        self._patterns: list[tuple[BaseRoute, tuple[_ROUTE_SEGMENT, ...] | None]] = []
        self._by_shape: dict[tuple[str, ...], tuple[BaseRoute, ...]] = {}

    def _build(self) -> None:
        self._patterns = [(r, _segments_of(r)) for r in self._routes if r is not self]
        longest = max((len(s) for _, s in self._patterns if s), default=0)
        self._literals = [
            frozenset(
                text
                for _, segments in self._patterns
                if segments and place < len(segments)
                for kind, text in (segments[place],)
                if kind == "literal"
            )
            for place in range(longest)
        ]
        self._by_shape.clear()
        self._indexed = len(self._routes)

    def candidates(self, path: str) -> tuple[BaseRoute, ...]:
        """The routes a request for ``path`` (as routes see it) may match, in their order."""
        if len(self._routes) != self._indexed:
            self._build()
        literals = self._literals
        # A route's pattern ends in ``$``, which matches before a final newline too: the path
        # without it has the same routes.
        parts = path.removesuffix("\n").split("/", len(literals))  # the last: all beyond
        shape = tuple(
            part if place < len(literals) and part in literals[place] else _ANY
            for place, part in enumerate(parts)
        )
        found = self._by_shape.get(shape)
        if found is None:
            found = tuple(
                route
                for route, segments in self._patterns
                if segments is None or _may_match(segments, shape)
            )
            if len(self._by_shape) >= self.MAX_SHAPES:
                self._by_shape.clear()
            self._by_shape[shape] = found
        return found

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope["type"] not in ("http", "websocket"):
            return Match.NONE, {}
        partial: tuple[BaseRoute, Scope] | None = None
        for route in self.candidates(get_route_path(scope)):
            match, child_scope = route.matches(scope)
            if match is Match.FULL:
                return match, {**child_scope, _CHOSEN: route}
            if match is Match.PARTIAL and partial is None:
                partial = route, child_scope
        if partial is None:
            return Match.NONE, {}
        route, child_scope = partial
        return Match.PARTIAL, {**child_scope, _CHOSEN: route}

    def url_path_for(self, name: str, /, **path_params: Any) -> URLPath:
        raise NoMatchFound(name, path_params)  # the routes themselves answer

    async def handle(self, scope: Scope, receive: Receive, send: Send) -> None:
        route: BaseRoute = scope[_CHOSEN]
        await route.handle(scope, receive, send)


# Where ``RouteIndex.matches`` leaves the route it chose, for its ``handle``.
_CHOSEN = "adjudicator.route"


def index_routes(app: FastAPI, traced: bool) -> None:
    """Put a ``RouteIndex`` first in ``app``'s routes (once all are declared; one declared
    later is indexed on the next request), and a ``DirectLane`` innermost of its middleware —
    unless requests are ``traced`` by FastAPI's OpenTelemetry, whose spans take their route from
    the route the router chose."""
    if not traced:
        app.router.routes.insert(0, RouteIndex(app.router.routes))
        # Appended, not added: ``add_middleware`` puts a middleware outermost.
        app.user_middleware.append(
            Middleware(DirectLane, router=app.router, handlers=app.exception_handlers)
        )


class DirectLane:
    """Innermost of the app's middleware: a request for a direct endpoint's path with no
    parameter (the stateless questions, ``/healthz``…) goes straight to that endpoint, found by
    its method and path in a dict, past what is below the app's own middleware — FastAPI's
    exception middleware (which makes a request object and wraps ``send`` a request), its exit
    stack (for dependencies that clean up: a direct endpoint has none) and the router's walk
    (~8 µs a request even when its index knows the route: FastAPI's router applies form limits
    and its telemetry's route for each request, and the route checks its included-router
    context and its method again). What the endpoint raises is answered by the app's exception
    handlers (``handlers``, read when it is raised), as the exception middleware would answer
    it; what it raises while its answer is sent goes on up, as there (an answer begun cannot
    be replaced). The scope is left as the router leaves it (``router``, ``route``,
    ``endpoint``, ``path_params``). A path is in the table only if the router would choose that
    very route for it (every route before it tried, in order) and the route has no body limit
    of its own; any other request — another method (a 405), a path with parameters, a trailing
    slash to redirect — goes on down. Built on the first request, again when the number of
    routes changes."""

    def __init__(
        self, app: ASGIApp, router: APIRouter, handlers: Mapping[Any, Callable[..., Any]]
    ) -> None:
        self.app = app
        self.router = router
        self.handlers = handlers
        self._exact: dict[tuple[str, str], DirectRoute] = {}
        self._indexed = -1

    def _build(self) -> None:
        self._exact = {}
        routes = [r for r in self.router.routes if not isinstance(r, RouteIndex)]
        for route in routes:
            if not isinstance(route, DirectRoute) or "{" in route.path:
                continue
            if not is_direct(route.endpoint) or getattr(route, "max_body_size", None) is not None:
                continue
            for method in route.methods or ():
                probe = {"type": "http", "method": method, "path": route.path, "root_path": ""}
                first = next((r for r in routes if r.matches(probe)[0] is Match.FULL), None)
                if first is route:
                    self._exact.setdefault((method, route.path), route)
        self._indexed = len(self.router.routes)

    def chosen(self, scope: Scope) -> DirectRoute | None:
        """The direct route that serves this request straight away, if any."""
        if len(self.router.routes) != self._indexed:
            self._build()
        if scope["type"] != "http":
            return None
        path = get_route_path(scope) if scope.get("root_path") else scope["path"]
        return self._exact.get((scope["method"], path))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        route = self.chosen(scope)
        if route is None:
            await self.app(scope, receive, send)
            return
        if "router" not in scope:
            scope["router"] = self.router
        scope["route"] = route
        scope["endpoint"] = endpoint = route.endpoint
        scope["path_params"] = {}
        request = Request(scope, receive, send)
        try:
            response = await endpoint(request)
        except Exception as error:
            response = await self._handled(request, error)
            if response is None:
                return
        await response(scope, receive, send)

    async def _handled(self, request: Request, error: Exception) -> Response | None:
        """The answer the app's handlers give ``error``, as Starlette's exception middleware
        finds the handler (an ``HTTPException``'s status first, then the error's classes in
        order) among those FastAPI gives it (all but ``500``'s and ``Exception``'s); re-raised
        if none handles it (the server-error middleware answers it, with those two)."""
        handlers = self.handlers
        handler = None
        if isinstance(error, HTTPException) and error.status_code != 500:  # 500: not here
            handler = handlers.get(error.status_code)
        if handler is None:
            handler = next(
                (handlers[cls] for cls in type(error).__mro__ if cls is not Exception
                 and cls in handlers),
                None,
            )  # fmt: skip
        if handler is None:
            raise error
        if is_async_callable(handler):
            answer = await handler(request, error)
        else:
            answer = await run_in_threadpool(handler, request, error)
        return cast(Response | None, answer)
