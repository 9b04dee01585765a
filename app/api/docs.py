"""What people read: the OpenAPI document (its error responses, its server, who may call each
operation, its license), and the offline docs pages.

Swagger UI and ReDoc are served from the JS/CSS bundled in the ``fastapi-offline`` package, so
``/docs`` and ``/redoc`` work on a machine with no internet access (ReDoc's script with the one
address it would fetch from elsewhere taken out: ``redoc_script``). Every error response in the
schema is ``application/problem+json`` with the ``Problem`` schema (FastAPI's default 422 schema
is replaced, since the app never answers with it).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.metadata
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import APIRouter, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_oauth2_redirect_html
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema
from starlette.routing import BaseRoute

from app.api.bodies import BODY_MODELS
from app.api.games.events import SSE_EVENTS, event_components
from app.api.operations import document_problem_types
from app.api.params import SECURITY_SCHEMES
from app.api.resend import declare_resending
from app.api.web import WEB_DIR
from app.contract.problems import PROBLEM_MEDIA_TYPE

ASSETS_PATH = "/docs-assets"
ASSETS_DIR = Path(fastapi_offline.__file__).parent / "static"
OAUTH2_REDIRECT = "/docs/oauth2-redirect"
SCHEMAS = "#/components/schemas/"


def _problem_content(operation: dict[str, Any]) -> None:
    """An error response is problem+json only (FastAPI adds the route's own media type), with
    the examples ``problem_responses`` gave it."""
    for status, response in operation.get("responses", {}).items():
        if status[0] in "45" and "content" in response:
            examples = response["content"].get(PROBLEM_MEDIA_TYPE, {}).get("examples")
            content: dict[str, Any] = {"schema": {"$ref": "#/components/schemas/Problem"}}
            if examples:
                content["examples"] = examples
            response["content"] = {PROBLEM_MEDIA_TYPE: content}


def _sequential_content(operation: dict[str, Any]) -> None:
    """A stream declared by ``x-sse-events`` keeps no ``schema``: FastAPI adds ``{"type":
    "string"}`` for a response class it does not render itself."""
    for response in operation.get("responses", {}).values():
        for media in response.get("content", {}).values():
            if SSE_EVENTS in media:
                media.pop("schema", None)


def _defaults_in_words(components: dict[str, Any]) -> None:
    """An optional field says it is optional by not being ``required``, and its default in its
    description: a ``default`` makes generators (openapi-typescript) type the field as always
    present, and a request that leaves it out (``{"n": 3}``) as wrong. Pydantic's defaults are
    the one source; ``null`` (no value) goes without saying."""
    for schema in components.values():
        required = set(schema.get("required", ()))
        for name, field in schema.get("properties", {}).items():
            if name in required or "default" not in field:
                continue
            default = field.pop("default")
            if default is not None:
                said = f"Default: `{json.dumps(default)}`."
                field["description"] = f"{field.get('description', '')} {said}".strip()


def _declared_examples(schema: dict[str, Any], routes: list[BaseRoute]) -> None:
    """The examples of bodies and answers as the routes declare them. FastAPI drops every null
    member of the document it builds (``exclude_none``), the examples' too; but an answer's
    ``"reason": null`` is part of the answer."""
    for route in routes:
        if not isinstance(route, APIRoute) or not route.include_in_schema:
            continue
        for method in route.methods or ():
            operation = schema["paths"][route.path_format][method.lower()]
            declared = [
                (operation["responses"][str(status)], response)
                for status, response in route.responses.items()
            ]
            if route.openapi_extra and "requestBody" in route.openapi_extra:
                declared.append((operation["requestBody"], route.openapi_extra["requestBody"]))
            for documented, given in declared:
                for media, content in given.get("content", {}).items():
                    if "examples" in content:
                        documented["content"][media]["examples"] = content["examples"]


# Where the operations are: on the host that serves the document, whatever its name or port.
# Tools resolve a relative URL against the document's own (Swagger UI's "Try it out" calls the
# host /docs was loaded from, offline too); without any, some tools assume a host of their own.
THIS_SERVICE = {"url": "/", "description": "This service: the host serving this document."}
DISTRIBUTION = "adjudicator"


def license_of(distribution: str) -> dict[str, str] | None:
    """The license of the installed ``distribution`` (its ``pyproject.toml``'s) as OpenAPI
    states one; None where it is not installed or states none."""
    try:
        expression = importlib.metadata.metadata(distribution)["License-Expression"]
    except importlib.metadata.PackageNotFoundError:
        return None
    return {"name": expression, "identifier": expression} if expression else None


def build_openapi(app: FastAPI) -> dict[str, Any]:
    """The app's OpenAPI document, with problem+json errors; cached on the app."""
    if app.openapi_schema:
        return app.openapi_schema
    schema = get_openapi(
        title=app.title,
        version=app.version,
        summary=app.summary,
        description=app.description,
        routes=app.routes,
        tags=app.openapi_tags,
        servers=[THIS_SERVICE],
        license_info=license_of(DISTRIBUTION),
    )
    _declared_examples(schema, app.routes)
    for path in schema["paths"].values():
        for operation in path.values():
            _problem_content(operation)
            _sequential_content(operation)
            # A route that takes a token declares it (``BearerToken.openapi``); any other is
            # public, and says so: a document without a word on it leaves it to each tool.
            operation.setdefault("security", [])
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    components.pop("HTTPValidationError", None)
    components.pop("ValidationError", None)
    shapes = app.state.games
    _add_body_models(components, [*BODY_MODELS, *shapes.components])
    components.update(
        event_components(shapes.move_result, {k.name: k.face.state for k in shapes.kinds})
    )
    _defaults_in_words(components)
    document_problem_types(schema, app.state.problems)
    declare_resending(schema)
    schema["components"]["securitySchemes"] = dict(SECURITY_SCHEMES)
    schema["components"]["schemas"] = dict(sorted(components.items()))
    app.openapi_schema = schema
    return schema


def _add_body_models(components: dict[str, Any], models: list[type[BaseModel]]) -> None:
    """Schemas of the bodies parsed by JsonBody (FastAPI does not see them as parameters), and
    of what they refer to: pydantic also defines the models a body parses with but its schema
    does not show (an audit's, ``shown_as``), which no document needs."""
    roots, definitions = models_json_schema(
        [(model, "validation") for model in models],
        ref_template=f"{SCHEMAS}{{model}}",
    )
    defined = definitions.get("$defs", {})
    pending = [*roots.values()]
    while pending:
        for name in _refs_in(pending.pop()):
            if name in defined and name not in components:
                components[name] = defined[name]
                pending.append(defined[name])


def _refs_in(node: Any) -> Iterator[str]:
    """The names of the components a schema refers to (``$ref`` anywhere in it)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith(SCHEMAS):
            yield ref.removeprefix(SCHEMAS)
        for value in node.values():
            yield from _refs_in(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs_in(item)


router = APIRouter(include_in_schema=False)

# The docs pages load nothing from elsewhere, and this policy would stop them if a library
# began to, and run no inline script: each page's configuration is a script file of ours. Both
# libraries style elements inline, and ReDoc parses in a blob: worker.
DOCS_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; connect-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SWAGGER_PAGE = (WEB_DIR / "swagger.html").read_text(encoding="utf-8")
REDOC_PAGE = (WEB_DIR / "redoc.html").read_text(encoding="utf-8")


def _offline(page: str) -> HTMLResponse:
    return HTMLResponse(page, headers={"Content-Security-Policy": DOCS_POLICY})


@router.get("/docs")
async def swagger_ui() -> HTMLResponse:
    return _offline(SWAGGER_PAGE)


@router.get(OAUTH2_REDIRECT)
async def swagger_ui_redirect() -> HTMLResponse:
    return get_swagger_ui_oauth2_redirect_html()


@router.get("/redoc")
async def redoc() -> HTMLResponse:
    return _offline(REDOC_PAGE)


REDOC_SCRIPT = "redoc.standalone.js"
# ReDoc's menu always shows Redocly's logo from their CDN (no option hides it). Its script is
# served with that address replaced by an empty data: URL: the image fails at once, with no
# request leaving the machine, and ReDoc's own fallback for a logo that fails drops it (the
# "API docs by Redocly" text stays).
REDOC_LOGO = b'"https://cdn.redoc.ly/redoc/logo-mini.svg"'
NO_IMAGE = b'"data:,"'


@functools.cache
def redoc_script() -> tuple[bytes, str]:
    """ReDoc's script as the service serves it, and its ETag (read once, on first use)."""
    script = (ASSETS_DIR / REDOC_SCRIPT).read_bytes().replace(REDOC_LOGO, NO_IMAGE)
    return script, f'"{hashlib.sha256(script).hexdigest()[:32]}"'


@router.get(f"{ASSETS_PATH}/{REDOC_SCRIPT}")
async def redoc_standalone(request: Request) -> Response:
    script, tag = redoc_script()
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers={"ETag": tag})
    return Response(script, media_type="text/javascript", headers={"ETag": tag})


def mount_docs(app: FastAPI) -> None:
    app.include_router(router)  # before the assets: ReDoc's script is the router's
    app.mount(ASSETS_PATH, StaticFiles(directory=ASSETS_DIR), name="docs-assets")
