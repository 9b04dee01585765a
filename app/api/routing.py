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
from collections.abc import Callable, Coroutine
from enum import Enum
from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.routing import APIRoute


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
    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        if is_direct(self.endpoint):
            handler: Callable[[Request], Coroutine[Any, Any, Response]] = self.endpoint
            return handler
        return super().get_route_handler()


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
