"""Builds the ASGI application: ``create_app(settings)``; and, for plain uvicorn, ``app`` and
``protocol`` from the environment (``uvicorn app.main:app --http app.main:protocol``)."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import APIRouter, FastAPI
from starlette.datastructures import State
from starlette.types import Lifespan
from typing_extensions import TypedDict

from app.api import gomoku, operations, reversi, tictactoe
from app.api.archive import archive_router
from app.api.archiving import Archiver
from app.api.clients import Clients, trust_proxies
from app.api.cors import allow_origins
from app.api.docs import build_openapi, mount_docs
from app.api.games.routes import game_router
from app.api.games.schemas import GameShapes
from app.api.games.streams import StreamSlots
from app.api.kept_records import KeptRecords
from app.api.matches import Matches
from app.api.players import players_router
from app.api.problems import install_problem_handlers
from app.api.questions import kind_router
from app.api.ratelimit import RateLimiter
from app.api.records import AuditShapes, records_router
from app.api.routing import index_routes
from app.api.seeks import seeks_router
from app.api.shutdown import watching_for_stop
from app.api.tournaments import tournaments_router
from app.api.web import mount_web
from app.api.work import WorkBudget
from app.contract.games import Kind
from app.contract.problems import ProblemTable
from app.front import Front
from app.kinds import KINDS
from app.kinds.reversi import KIND as REVERSI
from app.kinds.tictactoe import KIND as TICTACTOE
from app.observability import Metrics, configure_logging
from app.records.signing import KeyRing
from app.server import protocol_for
from app.sessions.kind import Kinds
from app.sessions.store import GameStore, client_part
from app.sessions.watchers import Watchers
from app.settings import Settings
from app.stores.archive.archive import Archive
from app.stores.archive.tournaments import Recent
from app.stores.archive.urls import NONE as NO_ARCHIVE
from app.stores.memory import MemoryGameStore
from app.stores.redis.store import RedisGameStore

logger = logging.getLogger("app")


def titles_of(kinds: Kinds[Kind]) -> str:
    """The kinds an app serves, by title: ``Tic-tac-toe, Reversi``."""
    return ", ".join(kind.face.title for kind in kinds)


def summary_of(kinds: Kinds[Kind]) -> str:
    """The app's one-line summary, naming the kinds it serves as their players know them
    (``Face.known_as``): ``… Reversi/Othello, gomoku and renju over HTTP``."""
    names = ", ".join(kind.face.known_as or kind.face.title for kind in kinds)
    return f"Move adjudication service: {names} over HTTP."


def description_of(kinds: Kinds[Kind]) -> str:
    """The app's description in the OpenAPI document (what /docs shows first), naming the kinds
    it serves: a kind the registry gains is named here with nothing else to change."""
    return f"""\
Referees board-game moves so that frontends and other programs need not implement the rules.

* **Reversi/Othello** (stateless): legality, flips, all legal moves, the board after a move.
* **Tic-tac-toe position check** (stateless): can an n × n position with k in a row occur in a
  legal game, and whose turn is it?
* **Gomoku and renju** (stateless): may a stone be played under a rule (`freestyle`,
  `standard`, `renju`, `caro`) and does it win; renju's forbidden points (overline,
  double-four, double-three, real threes only).
* **Live game sessions** of every kind ({titles_of(kinds)}): create a game, move with a player's
  bearer token (every move adjudicated by the service), poll cheaply with `ETag` /
  `If-None-Match`, fetch moves since a version, or stream the changes. Every kind has optional
  clocks (initial time and increment; a flag falls at its instant whether or not anybody
  looks), resignation and draw offers. Use **Authorize** with a token from `POST /v1/games` to
  try moves here.

Cells are `row` and `col` (0-based, row 0 on top) or, on boards of at most 26 columns, a square
name such as `f5` (`square`): Reversi counts rows from the top as Othello players do (`a1` is the
top-left corner), tic-tac-toe from the bottom as gomoku players do (`a1` is the bottom-left).
Answers give both.

Every error is `application/problem+json` with a stable `code` to branch on.
"""


# The kinds whose questions (``Face.questions``) come with batches the edge declares: each
# one's router (``app.api.reversi``, ``app.api.tictactoe``) mounts them beside its batch, under
# the tag ``tags_of`` describes. Every other kind's are mounted by ``kind_router``.
BATCHED = frozenset({REVERSI.name, TICTACTOE.name})


def routed_alone(kind: Kind) -> bool:
    """Whether ``kind``'s questions are mounted by ``kind_router``, under a tag of its own."""
    return bool(kind.face.questions) and kind.name not in BATCHED


def tags_of(kinds: Kinds[Kind]) -> list[dict[str, str]]:
    return [
        {
            "name": "Reversi",
            "description": "Stateless Reversi/Othello adjudication, boards 1×1 to 32×32.",
        },
        {"name": "Tic-tac-toe", "description": "Stateless n × n tic-tac-toe position check."},
        {
            "name": "Gomoku",
            "description": "Stateless five in a row under freestyle, standard, renju and caro "
            "rules: a move's legality and win, renju's forbidden points.",
        },
        *(
            {
                "name": kind.face.title,
                "description": f"Stateless {kind.face.title}: "
                + "; ".join(asked.summary for asked in kind.face.questions),
            }
            for kind in kinds
            if routed_alone(kind)
        ),
        {
            "name": "Game sessions",
            "description": f"Live games of every kind ({titles_of(kinds)}), with optional "
            "clocks, resignation and draw offers.",
        },
        {
            "name": "Records",
            "description": "Game records: the audit of a whole game, and the keys that verify "
            "what the service signs.",
        },
        {"name": "Operations", "description": "Health, readiness and error-type descriptions."},
    ]


def add_routes_flat(app: FastAPI, router: APIRouter) -> None:
    """Put a router's routes straight on the app, in order (the route index finds each as fast,
    wherever it is: ``app.api.routing.RouteIndex``).

    ``include_router`` keeps each router as a nested router that is matched, route by route, on
    every request; on this FastAPI that doubled the routing cost of a late route (47 → 68 µs
    per request, measured in-process). The routes already carry their prefix and tags, and this
    runs before the app serves anything, so FastAPI's route caches are built with all of them.
    """
    app.router.routes.extend(router.routes)


def lifespan_for(settings: Settings, store: GameStore) -> Lifespan[FastAPI]:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if isinstance(store, MemoryGameStore) and settings.workers > 1:
            logger.warning(
                "the memory store lives in one process: with %d workers each has its own "
                "games, and a move sent to another worker finds no game. Run one worker, or "
                "set ADJUDICATOR_STORE_URL=redis://… to share games between processes.",
                settings.workers,
            )
        logger.info("game store: %s", type(store).__name__)
        keys: KeyRing = app.state.keys
        if keys.current.ephemeral:
            # Said always; a warning where other processes may sign for the same games.
            shared = not isinstance(store, MemoryGameStore) or settings.workers > 1
            kept = (
                "the archive keeps its public key, so the finished games' records it keeps "
                "verify after this process stops; any other"
                if app.state.archiver is not None
                else "what"
            )
            logger.log(
                logging.WARNING if shared else logging.INFO,
                "signing key: ephemeral (kid %s), made at start: %s this process signs "
                "verifies only against its own GET /v1/keys, and only until it stops. Set "
                "ADJUDICATOR_SIGNING_KEY_FILE (one file for every process sharing a store).",
                keys.current.kid, kept,
            )  # fmt: skip
        else:
            logger.info("signing key: kid %s", keys.current.kid)
        archiver: Archiver | None = app.state.archiver
        if archiver is not None:
            await archiver.open()
            archiver.start()
        try:
            with watching_for_stop(app.state.stopping):
                yield
        finally:
            if archiver is not None:
                await archiver.stop()
                await archiver.archive.close()
            await store.close()

    return lifespan


class StoreBounds(TypedDict):
    """What every store is bounded by, from the settings (each store takes them by name)."""

    max_games: int
    idle_seconds: float
    max_moves: int
    max_total_moves: int
    max_refusals: int
    unstarted_seconds: float
    max_unstarted: int
    client_share: float
    network_factor: float
    client_open_games: int
    game_spectators: int
    game_time_gifts: int


def store_bounds(settings: Settings) -> StoreBounds:
    """The bounds the settings give a store; the places games nobody has moved in may hold are
    their share of ``max_games``."""
    return StoreBounds(
        max_games=settings.max_games,
        idle_seconds=settings.game_idle_seconds,
        max_moves=settings.max_moves_per_game,
        max_total_moves=settings.max_total_moves,
        max_refusals=settings.max_refusals_per_game,
        unstarted_seconds=settings.unstarted_game_seconds,
        max_unstarted=client_part(settings.max_games, settings.unstarted_games_share),
        client_share=settings.client_share,
        network_factor=settings.network_factor,
        client_open_games=settings.client_open_games,
        game_spectators=settings.game_spectators,
        game_time_gifts=settings.game_time_gifts,
    )


def store_from(settings: Settings, kinds: Kinds[Kind]) -> GameStore:
    """The store the settings name, keeping games of ``kinds``; with an archive, it keeps each
    finished game until it is archived (``GameStore.unarchived``)."""
    archive = settings.archive_url != NO_ARCHIVE
    if not settings.store_url.startswith("memory://"):
        return RedisGameStore(
            kinds,
            settings.store_url,
            timeout_seconds=settings.store_timeout_seconds,
            max_connections=settings.store_connections,
            stream_connections=settings.store_stream_connections,
            kept_games=settings.store_kept_games,
            archive=archive,
            **store_bounds(settings),
        )
    return MemoryGameStore(kinds, archive=archive, **store_bounds(settings))


def archive_from(settings: Settings) -> Archive | None:
    """The archive the settings name (None: ``none``)."""
    if settings.archive_url == NO_ARCHIVE:
        return None
    return Archive(
        settings.archive_url,
        timeout_seconds=settings.archive_timeout_seconds,
        connections=settings.archive_connections,
    )


class AppState(State):
    """``app.state`` whose values are read as plain attributes: Starlette's ``State`` keeps them
    in a dict of its own and finds each through ``__getattr__``, a Python call (~0.3 µs, a few
    a request); here that dict is the instance's own ``__dict__`` (and ``_state`` a slot)."""

    __slots__ = ("_state",)

    def __init__(self, state: State) -> None:
        super().__init__(self.__dict__)
        self.__dict__.update(state._state)


def create_app(
    settings: Settings, store: GameStore | None = None, kinds: Iterable[Kind] = KINDS
) -> FastAPI:
    """The application, serving game sessions of ``kinds`` (the registry's, unless told).
    ``store`` defaults to the one ``settings.store_url`` names (with those kinds)."""
    served = Kinds(kinds)
    if store is None:
        store = store_from(settings, served)
    app = FastAPI(
        title="Move adjudication API",
        version="1.0.0",
        summary=summary_of(served),
        description=description_of(served),
        openapi_tags=tags_of(served),
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan_for(settings, store),
        # `/v1/games/` is not `/v1/games`: a redirect would be built from the request's Host.
        redirect_slashes=False,
        # Off, FastAPI skips its per-request provider lookups (several environment reads).
        telemetry=None
        if settings.opentelemetry
        else {"tracing": False, "metrics": False, "logs": False},
    )
    app.state = AppState(app.state)
    app.state.settings = settings
    app.state.store = store
    app.state.validation_context = {"settings": settings}
    app.state.games = GameShapes.of(served)
    app.state.audits = AuditShapes.of(app.state.games)
    app.state.problems = ProblemTable.of(kind.face for kind in served)
    app.state.keys = KeyRing.load(settings.signing_key_file, settings.signing_previous_key_files)
    app.state.clients = Clients.from_settings(settings)  # who a client is: ``client_of``
    tracked, factor = settings.max_tracked_clients, settings.network_factor
    app.state.creation_limiter = RateLimiter(
        settings.create_rate_per_minute, settings.create_burst, max_clients=tracked,
        network_factor=factor,
    )  # fmt: skip
    app.state.auth_failures = RateLimiter(
        settings.auth_failures_per_minute, settings.auth_failures_burst, max_clients=tracked,
        what="requests with a wrong token", network_factor=factor,
    )  # fmt: skip
    app.state.history_reads = RateLimiter(
        settings.history_moves_per_minute, settings.history_moves_burst, max_clients=tracked,
        what="moves read", network_factor=factor,
    )  # fmt: skip
    app.state.work_budget = WorkBudget(
        settings.client_cpu_ms_per_minute, settings.client_cpu_burst_ms, max_clients=tracked,
        record_move_us=settings.record_move_cpu_us, network_factor=factor,
    )  # fmt: skip
    app.state.kept_records = KeptRecords(settings.record_cache_bytes)
    app.state.archive = archive = archive_from(settings)
    app.state.tournament_documents = Recent(settings.tournament_documents)
    app.state.tournaments_read = Recent(settings.tournaments_kept)
    app.state.player_watchers = Watchers()  # players' streams, woken by this process's events
    app.state.archiver = (
        None
        if archive is None
        else Archiver(
            store,
            archive,
            served,
            app.state.keys,
            poll_seconds=settings.archive_poll_seconds,
            migrate=settings.archive_upgrade_at_start,
            retention_days=settings.archive_retention_days,
            chores=(Matches.of(app.state, archive).sweep,),
        )
    )
    app.state.streams = StreamSlots(
        settings.max_streams, settings.max_streams_per_game, settings.max_streams_per_client,
        max_clients=tracked, network_factor=factor,
    )  # fmt: skip
    app.state.stopping = asyncio.Event()  # set when the server is told to stop
    install_problem_handlers(app)
    app.state.metrics = Metrics(store.endings)
    app.add_middleware(Front, metrics=app.state.metrics, max_body_bytes=settings.max_body_bytes)
    allow_origins(app, settings.cors_origins)
    # Outermost: all inside see the client.
    trust_proxies(app, settings.forwarded_allow_ips, settings.forwarded_header)
    configure_logging(settings)
    games = game_router(app.state.games)
    records = records_router(app.state.audits)
    asked = tuple(kind_router(kind) for kind in app.state.games.kinds if routed_alone(kind))
    routers = (reversi.router, tictactoe.router, gomoku.router, *asked, games, records,
               archive_router(), players_router(), tournaments_router(), seeks_router(),
               operations.router)  # fmt: skip
    for router in routers:
        add_routes_flat(app, router)
    mount_docs(app)
    mount_web(app)
    index_routes(app, traced=settings.opentelemetry)

    def openapi() -> dict[str, Any]:
        return build_openapi(app)

    app.openapi = openapi  # type: ignore[method-assign]
    return app


# What plain uvicorn imports by name, each built from the same settings.
FROM_THE_ENVIRONMENT: dict[str, Callable[[Settings], object]] = {
    "app": create_app,
    "protocol": protocol_for,
}


@functools.cache
def _environment_settings() -> Settings:
    return Settings()


@functools.cache
def _from_the_environment(name: str) -> object:
    return FROM_THE_ENVIRONMENT[name](_environment_settings())


def __getattr__(name: str) -> object:
    """``app`` and ``protocol``, built on first use from one reading of the environment.

    Not at import: the ``adjudicator`` command, and each of its worker processes, import
    ``create_app`` to serve settings of their own (flags over the environment); built at
    import, ``app`` would read the environment again, fail on a variable a flag mended, and
    open a store nobody uses."""
    if name not in FROM_THE_ENVIRONMENT:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _from_the_environment(name)
