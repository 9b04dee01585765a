"""The parameters of the game routes, each declared once (``app/api/params.py``)."""

from __future__ import annotations

from fastapi import Request

from app.api.params import (
    MAX_NUMBER,
    BearerToken,
    Malformed,
    Param,
    anything,
    integer,
    matching,
)
from app.contract.games import etag
from app.rules.reversi import MAX_SIDE
from app.sessions.errors import GameNotFound
from app.sessions.lobby import DEFAULT_PAGE, MAX_PAGE

# Game ids are made by the service (``tokens.new_game_id``: 16 URL-safe characters); anything
# longer, or with other characters, names no game and never reaches the store.
_GAME_ID_SCHEMA, _game_id = matching(
    "[A-Za-z0-9_-]{1,64}", "game_id", "is not a game id", max_length=64
)
GAME_ID = Param(
    "game_id", "path", _GAME_ID_SCHEMA, "The game's id, from `POST /v1/games`.", _game_id, ""
)


def game_id(request: Request) -> str:
    """The path's game id; one that cannot be a game's names no game (404 ``game_not_found``)."""
    raw = GAME_ID.raw(request) or ""
    try:
        return GAME_ID.parse(raw)
    except Malformed:
        raise GameNotFound(raw[:64]) from None


_MOVE_NUMBER, _move_number = integer(0, MAX_NUMBER)
SEQ = Param("seq", "path", _MOVE_NUMBER, "The move's number (1 for the first).", _move_number, 0)
SINCE = Param(
    "since", "query", _MOVE_NUMBER, "After this move number (0: from the first move).",
    _move_number, 0,
)  # fmt: skip
SINCE_VERSION = Param(
    "since", "query", _MOVE_NUMBER,
    "After this version of the game (0: from its creation): the changes made since.",
    _move_number, 0,
)  # fmt: skip
# The lobby's listing: ``open=true`` (the only listing there is), its filters, its page.
_TRUE, _true = matching("true", "open", "must be true: the listing is of open games", 4)
OPEN_ONLY = Param(
    "open", "query", _TRUE, "`true`: list the open games (the lobby).", _true, "", required=True
)
_NAME, _name = matching("[a-z][a-z0-9_]{0,31}", "name", "is not a name", max_length=32)
GAME_FILTER = Param[str | None](
    "game", "query", _NAME, "Only open games of this kind (`tictactoe`, `reversi`, `gomoku`).",
    _name, None,
)  # fmt: skip
RULE_FILTER = Param[str | None](
    "rule", "query", _NAME, "With `game`: only its games under this rule (gomoku's `renju`, …).",
    _name, None,
)  # fmt: skip
_PAGE, _page = integer(1, MAX_PAGE)
LOBBY_LIMIT = Param(
    "limit", "query", _PAGE, f"At most this many games (1 to {MAX_PAGE}).", _page, DEFAULT_PAGE
)
# A cursor is a number the lobby gave (``next_cursor``), written as the service writes it: in
# plain digits, without leading zeros, at most MAX_NUMBER (where a Redis sorted set's scores,
# doubles, are still exact). Anything else is no place in the listing.
_NO_CURSOR = f"must be a next_cursor of this listing: a number from 0 to {MAX_NUMBER} in digits"
_CURSOR_TEXT, _cursor_text = matching(
    "(0|[1-9][0-9]{0,15})", "cursor", _NO_CURSOR, max_length=len(str(MAX_NUMBER))
)


def _cursor(text: str) -> int:
    value = int(_cursor_text(text))
    if value > MAX_NUMBER:  # 16 digits reach past it
        raise Malformed("cursor", _NO_CURSOR)
    return value


CURSOR = Param[int | None](
    "cursor", "query", _CURSOR_TEXT,
    "Where the page starts: the previous page's `next_cursor` (absent, or 0: the oldest open "
    f"game). A number from 0 to {MAX_NUMBER} in digits, as the service writes it.",
    _cursor, None,
)  # fmt: skip
_LIMIT, _limit = integer(1, 10_000)
LIMIT = Param("limit", "query", _LIMIT, "At most this many moves.", _limit, 1000)
# A page of legal moves lists at most every cell of the largest Reversi board (32 × 32), by
# default too: one page holds every legal move of any Reversi position, and of any board up to
# 32 × 32; a larger tic-tac-toe board is read a page at a time.
MAX_LEGAL_MOVES = MAX_SIDE * MAX_SIDE
_LEGAL_LIMIT, _legal_limit = integer(1, MAX_LEGAL_MOVES)
LEGAL_LIMIT = Param(
    "limit", "query", _LEGAL_LIMIT,
    f"At most this many moves on the page (1 to {MAX_LEGAL_MOVES}: every legal move of any "
    "Reversi position fits on one).",
    _legal_limit, MAX_LEGAL_MOVES,
)  # fmt: skip
_CELL, _cell = integer(0, MAX_NUMBER)
AFTER_CELL = Param[int | None](
    "after", "query", _CELL,
    "The page starts after this cell: its index `row × width + col` (width: the board's "
    "columns, n for tic-tac-toe). Send the previous page's `next_after`; absent, the page "
    "starts at the first cell.",
    _cell, None,
)  # fmt: skip
LAST_EVENT_ID = Param[int | None](
    "Last-Event-ID", "header",
    # Empty is "no event received yet", as if it were not sent.
    {"anyOf": [_MOVE_NUMBER, {"type": "string", "maxLength": 0}]},
    "The last event id received (a version of the game): resume after it (wins over "
    "`since`). Sent by browsers' EventSource when they reconnect.",
    _move_number, None, empty_is_absent=True,
)  # fmt: skip

_KEY_SCHEMA, _key = matching(
    "[!-~]{1,255}", "idempotency_key", "must be 1 to 255 visible ASCII characters", 255
)
IDEMPOTENCY_KEY = Param[str | None](
    "Idempotency-Key", "header", _KEY_SCHEMA,
    "Any client-chosen string (1–255 visible ASCII characters). A retry with the same key and "
    "body gets the first answer again (header `Idempotent-Replayed: true`) and applies "
    "nothing; the same key with another body is 422 `idempotency_key_reused`. Keys live as "
    "long as the game.",
    _key, None,
)  # fmt: skip
IF_MATCH = Param[str | None](
    "If-Match", "header", {"type": "string"},
    "The game's `ETag`: the request applies only if the game is still at that version, else 412 "
    "`precondition_failed` (also for a tag that names no version of this game).",
    anything, None,
)  # fmt: skip
IF_NONE_MATCH = Param[str | None](
    "If-None-Match", "header", {"type": "string"},
    "An ETag from an earlier answer: 304 while the game is unchanged.", anything, None,
)  # fmt: skip

PLAYER_TOKEN = BearerToken(
    "PlayerToken", "A player's token, as returned once by `POST /v1/games` in `tokens`."
)
VIEWER_TOKEN = BearerToken(
    "ViewerToken",
    "A player's or a spectator's token (`POST /v1/games/{id}/spectators`): needed to read a "
    "private game, and not needed for a public one.",
    optional=True,
)


def expected_version(request: Request, game_id: str) -> int | None:
    """The version ``If-Match`` asks for: None without one (or with ``*``); -1, which no game
    has, when it names no version of this game. Tags are compared as the text the service
    issued (``"<id>.<version>"``), so a weak, foreign or malformed tag, or one spelling the
    version another way (``00``), never matches: the move is refused 412."""
    header = IF_MATCH.read(request)
    if header is None:
        return None
    prefix = f'"{game_id}.'
    for tag in (part.strip() for part in header.split(",")):
        if tag == "*":
            return None
        if tag.startswith(prefix) and tag.endswith('"'):
            try:
                version = _move_number(tag[len(prefix) : -1])
            except Malformed:
                continue
            if tag == etag(game_id, version):
                return version
    return -1


def etag_matches(request: Request, current: str) -> bool:
    """True when ``If-None-Match`` lists ``current`` (weakly compared) or ``*``."""
    header = IF_NONE_MATCH.read(request)
    if not header:
        return False
    candidates = {part.strip().removeprefix("W/") for part in header.split(",")}
    return "*" in candidates or current in candidates


def resume_point(request: Request) -> int:
    """The version after which an event stream starts: ``Last-Event-ID`` (a reconnecting
    EventSource), else ``since``. Both are validated whenever sent, even when ``Last-Event-ID``
    wins."""
    since = SINCE_VERSION.read(request)
    last = LAST_EVENT_ID.read(request)
    return since if last is None else last
