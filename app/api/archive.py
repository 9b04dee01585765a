"""The archive's routes: finished games listed (``GET /v1/archive/games``) and read back as their
signed records (``GET /v1/archive/games/{id}``).

Every filter and the cursor are read by hand (``Param``: one declaration for the docs and the
parser), each bounded; a page reads at most ``limit`` games, each counted against the client's
history reads (429 past its share), and walks one index of the archive from the cursor. A private
game is never listed, and its record is read only with a token of one of its players or
spectators.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any

from fastapi import APIRouter, Request, Response
from pydantic import ConfigDict, Field, with_config
from starlette.responses import StreamingResponse
from typing_extensions import TypedDict

from app.api.bodies import json_response
from app.api.clients import client_of
from app.api.games import params as game_params
from app.api.games.access import store_errors
from app.api.params import Malformed, Param, integer, matching
from app.api.ratelimit import RateLimiter
from app.api.records import NDJSON_MEDIA_TYPE, RECORD_FORMAT, format_problem
from app.api.routing import api_router
from app.contract.problems import GAME_NOT_FOUND, RATE_LIMITED, UNAUTHORIZED, VALIDATION_ERROR
from app.records.written import JSON_RECORD, TEXT_MEDIA_TYPE
from app.records.wthor import WTHOR, WTHOR_MEDIA_TYPE, header_bytes, wthor_header
from app.sessions import tokens
from app.sessions.errors import PRIVATE_GAME, GameNotFound, Unauthorized
from app.stores.archive.archive import Archive, Cursor, Where
from app.stores.archive.tables import ID_LENGTH, NAME_LENGTH

MAX_PAGE, DEFAULT_PAGE = 1000, 100

_WORD, _word = matching("[a-z][a-z0-9_]{0,31}", "name", "is not a name", max_length=32)


def _filter(name: str, description: str) -> Param[str | None]:
    return Param[str | None](name, "query", _WORD, description, _word, None)


GAME = _filter("game", "Only games of this kind (its `game`, as `POST /v1/games` names it).")
RULE = _filter("rule", "Only games under this rule (gomoku's `renju`, …).")
STATUS = _filter("status", "Only games that ended so: `won`, `draw` or `aborted`.")
REASON = _filter("reason", "Only games that ended for this reason (`line`, `timeout`, …).")
_PLAYER, _player = matching(
    "[A-Za-z0-9_-]{1,64}", "player", "is not a player's id", max_length=ID_LENGTH
)
PLAYER = Param[str | None]("player", "query", _PLAYER, "Only games a player played.", _player, None)


def _name(text: str) -> str:
    if not 1 <= len(text) <= NAME_LENGTH or not text.isprintable():
        raise Malformed(
            "name", f"must be 1 to {NAME_LENGTH} characters, none of them a control character"
        )
    return text


NAME = Param[str | None](
    "name", "query", {"type": "string", "minLength": 1, "maxLength": NAME_LENGTH},
    "Only games with a seat of this name (exactly).", _name, None,
)  # fmt: skip
# RFC 3339: a date, a time (seconds, up to microseconds) and a zone (Z or an offset).
_RFC3339 = re.compile(r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([Zz]|[+-]\d{2}:\d{2})")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _instant(text: str) -> int:
    """An RFC 3339 instant, as ms since the epoch."""
    if len(text) > 40 or not _RFC3339.fullmatch(text):
        raise Malformed("datetime", "must be an RFC 3339 instant, e.g. 2026-12-02T10:00:00Z")
    try:
        moment = datetime.fromisoformat(text.upper())
    except ValueError:
        raise Malformed("datetime", "is not a date and time that exists") from None
    return (moment - EPOCH) // timedelta(milliseconds=1)


_INSTANT = {"type": "string", "format": "date-time", "maxLength": 40}
ENDED_AFTER = Param[int | None](
    "ended_after", "query", _INSTANT, "Only games that ended after this instant (RFC 3339).",
    _instant, None,
)  # fmt: skip
ENDED_BEFORE = Param[int | None](
    "ended_before", "query", _INSTANT, "Only games that ended before this instant (RFC 3339).",
    _instant, None,
)  # fmt: skip


def _cursor(text: str) -> Cursor:
    try:
        return Cursor.decode(text)
    except ValueError:
        raise Malformed("cursor", "must be a `next` of this listing") from None


CURSOR = Param[Cursor | None](
    "cursor", "query", {"type": "string", "maxLength": 200},
    "Where the page starts: the previous page's `next`.", _cursor, None,
)  # fmt: skip
_LIMIT, _limit = integer(1, MAX_PAGE)
LIMIT = Param(
    "limit", "query", _LIMIT, f"At most this many games (1 to {MAX_PAGE}).", _limit, DEFAULT_PAGE
)
FILTERS = (GAME, RULE, PLAYER, NAME, STATUS, REASON, ENDED_AFTER, ENDED_BEFORE)


def where_of(request: Request) -> Where:
    """The filters a listing or an export asks for (each a 422 naming it if malformed)."""
    return Where(
        game=GAME.read(request), rule=RULE.read(request), player=PLAYER.read(request),
        name=NAME.read(request), status=STATUS.read(request), reason=REASON.read(request),
        ended_after=ENDED_AFTER.read(request), ended_before=ENDED_BEFORE.read(request),
    )  # fmt: skip


@with_config(ConfigDict(extra="allow"))
class ArchivedGameOut(TypedDict):
    """A finished game, as listed: its creation parameters (as `POST /v1/games` took them) are
    members too."""

    id: str
    game: str
    names: Annotated[dict[str, str], Field(description="The seats' names, by seat.")]
    players: Annotated[dict[str, str], Field(description="The seats' players, by seat.")]
    status: Annotated[str, Field(description="`won`, `draw` or `aborted`.")]
    winner: Annotated[int | None, Field(description="1 or 2; null for a draw or an abort.")]
    reason: Annotated[str | None, Field(description="Why it ended.")]
    move_count: int
    created_at: Annotated[str, Field(description="RFC 3339, UTC, ms.")]
    ended_at: Annotated[str, Field(description="RFC 3339, UTC, ms.")]
    chain: Annotated[str, Field(description="The record's hash chain.")]


class ArchivedGamesOut(TypedDict):
    games: list[ArchivedGameOut]
    next: Annotated[str | None, Field(description="Send as `cursor` for the next page.")]


def archive_of(request: Request) -> Archive | None:
    archive: Archive | None = request.app.state.archive
    return archive


async def list_archived_games(request: Request) -> Response:
    where = where_of(request)
    after = CURSOR.read(request)
    limit = LIMIT.read(request)
    reads: RateLimiter = request.app.state.history_reads
    reads.take(client_of(request), limit)  # a page reads up to ``limit`` games
    archive = archive_of(request)
    if archive is None:  # no archive: nothing was kept
        return json_response({"games": [], "next": None})
    page = await archive.page(where, after, limit)
    cursor = None if page.next is None else page.next.encode()
    return json_response({"games": page.games, "next": cursor})


async def get_archived_game(request: Request) -> Response:
    game_id = game_params.game_id(request)
    wanted = RECORD_FORMAT.read(request)
    archive = archive_of(request)
    kept = None if archive is None else await archive.kept(game_id, wanted)
    if kept is None:
        if archive is not None and await archive.exists(game_id):
            raise format_problem(f"no {wanted} record is kept of this game")
        raise GameNotFound(game_id)
    if kept.private:
        try:
            token = game_params.VIEWER_TOKEN.read_if_sent(request)
        except Unauthorized:
            token = None
        seat = None if token is None else tokens.seat_token(token, game_id)  # a key: its seat's
        if seat is None or tokens.token_hash(seat) not in kept.readers:
            raise Unauthorized(PRIVATE_GAME)
    record = kept.record
    if record.refused is not None:
        raise format_problem(record.refused)
    cache = "private" if kept.private else "public"
    headers = {"Cache-Control": f"{cache}, max-age=86400, immutable"}
    return Response(record.body, media_type=record.media_type, headers=headers)


# What ``GET /v1/archive/export`` writes: each format, the records it is made of (the archive's
# name for them) and its media type.
EXPORTS = {
    "ndjson": (JSON_RECORD, NDJSON_MEDIA_TYPE),
    "ggf": ("ggf", TEXT_MEDIA_TYPE),
    "sgf": ("sgf", TEXT_MEDIA_TYPE),
    WTHOR: (WTHOR, WTHOR_MEDIA_TYPE),
}


def _export_format(text: str) -> str:
    if text not in EXPORTS:
        raise Malformed("enum", f"must be one of {', '.join(EXPORTS)}")
    return text


EXPORT_FORMAT = Param(
    "format", "query", {"type": "string", "enum": list(EXPORTS), "maxLength": 16},
    "`ndjson` (each game's signed JSON record, a line each), `ggf` (Othello games as GGS "
    "writes them, one after another), `sgf` (gomoku games, SGF FF[4]) or `wtb` (a WTHOR "
    "database file of the 8 × 8 Othello games from the standard start that ended on the board, "
    "as the federation keeps them: what `POST /v1/records/audit-batch` reads).",
    _export_format, "ndjson",
)  # fmt: skip
# Games read from the archive at a time: what an export holds in memory, whatever its size.
EXPORT_BATCH = 500


async def _paced(reads: RateLimiter, client: str, most: int) -> int:
    """Up to ``most`` games of ``client``'s history reads, waiting for its bucket to refill
    rather than refusing: an export goes on at the client's share."""
    while True:
        granted = reads.take_up_to(client, most, refuse=False)
        if granted:
            return granted
        await asyncio.sleep(min(1.0, most / reads.rate))


async def _exported(
    archive: Archive, where: Where, stored: str, below: int, first: int, reads: RateLimiter,
    client: str, header: bytes,
) -> AsyncIterator[bytes]:  # fmt: skip
    """The export's bytes: ``header``, then the records, a batch at a time (``first`` games of
    the client's share taken already), each line ended (``\n``) but a WTHOR file's."""
    if header:
        yield header
    after: Cursor | None = None
    granted = first
    end = b"" if stored == WTHOR else b"\n"
    while True:
        bodies, after = await archive.exported(where, stored, after, below, granted)
        if bodies:
            yield end.join(bodies) + end
        if after is None:
            reads.refund(client, granted - len(bodies))
            return
        granted = await _paced(reads, client, EXPORT_BATCH)


async def export_archive(request: Request) -> Response:
    where = where_of(request)
    wanted = EXPORT_FORMAT.read(request)
    stored, media_type = EXPORTS[wanted]
    reads: RateLimiter = request.app.state.history_reads
    client = client_of(request)
    first = reads.take_up_to(client, EXPORT_BATCH, refuse=True)  # 429 before any byte
    archive = archive_of(request)
    below = 0 if archive is None else await archive.newest()
    header = b""
    if wanted == WTHOR:  # the header counts the games: those archived when the export began
        count = 0 if archive is None or not below else await archive.counted(where, stored, below)
        header = header_bytes(wthor_header(count, datetime.now(UTC)))
    if archive is None or not below:
        reads.refund(client, first)
        return Response(header, media_type=media_type)
    name = f"adjudicator-archive.{'wtb' if wanted == WTHOR else wanted}"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    body = _exported(archive, where, stored, below, first, reads, client, header)
    return StreamingResponse(body, media_type=media_type, headers=headers)


def archive_router() -> APIRouter:
    router = api_router("/v1/archive", ["Archive"])
    router.get(
        "/games",
        summary="List finished games",
        description="Finished public games from the archive, newest end first, a page at a "
        "time (`limit`, 1 to 1000, default 100; `cursor`: the previous page's `next`), "
        "filtered by kind, rule, a player, a seat's name, status, reason and when they ended. "
        "Private games are never listed. Each listed game counts as a read against the "
        "client's history limit (429 `rate_limited` past it); 503 `store_unavailable` while "
        "the archive cannot be reached.",
        response_model=ArchivedGamesOut,
        responses={200: {}, **store_errors(VALIDATION_ERROR, RATE_LIMITED)},
        openapi_extra={
            "parameters": [param.openapi for param in (*FILTERS, CURSOR, LIMIT)],
        },
    )(list_archived_games)
    viewer: dict[str, Any] = dict(game_params.VIEWER_TOKEN.openapi)
    router.get(
        "/games/{game_id}",
        summary="A finished game's record, from the archive",
        description="The finished game's signed record exactly as `GET /v1/games/{id}/record` "
        "answered it at the end, in the same formats (`?format=`), after its live copy is "
        "gone. A private game's needs a token of one of its players or spectators (401). 404 "
        "`game_not_found` for no such game archived.",
        responses={
            200: {"content": {"text/plain": {"schema": {"type": "string"}}}},
            **store_errors(VALIDATION_ERROR, GAME_NOT_FOUND, UNAUTHORIZED),
        },
        openapi_extra={
            **viewer,
            "parameters": [game_params.GAME_ID.openapi, RECORD_FORMAT.openapi],
        },
    )(get_archived_game)
    router.get(
        "/export",
        summary="Export finished games",
        description="Every finished public game the filters select (those of `GET "
        "/v1/archive/games`), newest end first, streamed in one `format`: the archive as it was "
        "when the export began. Its memory is a batch of games whatever the archive's size. "
        "Each game counts as a read against the client's history limit: an export past it "
        "goes on at the client's share (it waits for its bucket); 429 `rate_limited` if the "
        "share is spent when it begins. A game a format cannot write is left out (an Othello "
        "game in `sgf`, a game ended off the board in `wtb`).",
        responses={
            200: {
                "content": {
                    media: {"schema": {"type": "string", "format": "binary"}}
                    for media in sorted({media for _, media in EXPORTS.values()})
                }
            },
            **store_errors(VALIDATION_ERROR, RATE_LIMITED),
        },
        openapi_extra={
            "parameters": [*(param.openapi for param in FILTERS), EXPORT_FORMAT.openapi],
        },
    )(export_archive)
    return router
