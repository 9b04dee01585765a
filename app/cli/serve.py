"""``adjudicator serve`` (the default command) and ``adjudicator openapi``: the service, with
every setting a flag (``app.cli.settings``), and the OpenAPI document it serves."""

from __future__ import annotations

import functools
import gc
import json

import click
import uvicorn
from click.core import ParameterSource
from fastapi import FastAPI
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors import Multiprocess

from app.cli.settings import load_settings, setting_option
from app.main import create_app
from app.server import protocol_for
from app.settings import Settings


@click.command(params=[setting_option(n, f) for n, f in Settings.model_fields.items()])
@click.pass_context
def serve(ctx: click.Context, /, **values: object) -> None:
    """Serve the API with uvicorn over the bounded HTTP/1.1 protocol of app.server (the
    default command). Each flag overrides its environment variable."""
    flags = {
        name: value
        for name, value in values.items()
        if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE
    }
    run(uvicorn_config(load_settings(flags)))


def uvicorn_config(settings: Settings) -> uvicorn.Config:
    """uvicorn's configuration for ``settings``: the app and the bounded protocol are made from
    them, in this process and in each worker process (the configuration is pickled into those,
    settings and all), so nothing reads the environment again."""
    return uvicorn.Config(
        functools.partial(served_app, settings),
        factory=True,
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        workers=settings.workers,
        timeout_graceful_shutdown=int(max(1, settings.shutdown_grace_seconds)),
        http=protocol_for(settings),  # type: ignore[arg-type]  # a class's partial: uvicorn calls it
        ws="none",  # no WebSocket routes: an Upgrade request is answered as plain HTTP
        timeout_keep_alive=settings.keep_alive_seconds,  # type: ignore[arg-type]
        # The app reads forwarding headers itself (ADJUDICATOR_FORWARDED_ALLOW_IPS,
        # app.api.clients): under any server, and with Forwarded as well as X-Forwarded-For.
        proxy_headers=False,
        server_header=False,  # no `server: uvicorn`: nothing to fingerprint
    )


def served_app(settings: Settings) -> FastAPI:
    """The app the command serves, in each process: built, then its startup heap frozen
    (``gc.freeze``), so that the full collections a long request's allocations set off walk
    only what requests made since, not the hundred thousand objects of the app itself (pauses
    of 130–185 ms inside a long audit on a loaded machine; 15–34 ms frozen)."""
    app = create_app(settings)
    gc.collect()
    gc.freeze()
    return app


def run(config: uvicorn.Config) -> None:
    """Serve ``config`` as ``uvicorn.run`` does, but with an app that is not an import string:
    ``uvicorn.run`` refuses one for several workers, though its supervisor pickles the whole
    configuration into each worker, and the app factory with it. (``Multiprocess(config,
    sockets)`` is uvicorn 0.51's signature: tests/test_server_hooks.py checks it.)"""
    if config.workers > 1:
        Multiprocess(config, sockets=[config.bind_socket()]).run()
        return
    server = uvicorn.Server(config)
    server.run()
    if not server.started:
        raise SystemExit(STARTUP_FAILURE)


def openapi_document(settings: Settings) -> str:
    """The OpenAPI document the app serves, as committed in openapi/openapi.json."""
    return json.dumps(create_app(settings).openapi(), indent=2, ensure_ascii=False) + "\n"


@click.command()
def openapi() -> None:
    """Print the OpenAPI document the service serves (openapi/openapi.json is this output)."""
    click.echo(openapi_document(load_settings({})).encode(), nl=False)
