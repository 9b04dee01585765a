"""The Redis store's fast paths: the engines of its own that play a kind's games on the server.

A kind declares the games a fast path applies to (``FastPath``: its engine's name and
parameters); such a game keeps a board of the engine's (its cells, lines and stones) beside its
meta hash, and one script checks and applies a move in O(1) there, one round trip
(``line_move.lua``). A page of legal moves is listed by the engine's other script from the
board it keeps (``line_legal.lua``: the cells hash, probed from the page's first cell on).
The store contract suite runs on both engines.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.sessions import tokens
from app.sessions.errors import CapacityExhausted, GameNotFound
from app.sessions.exchange import LegalMovesPage, MoveRequest, MoveResult
from app.sessions.kind import KindRegistry, LegalMove, LegalMoves, Pass, Placement
from app.sessions.past import result_at
from app.stores.redis.accounts import MoveAccounts
from app.stores.redis.cluster import Client
from app.stores.redis.codec import player_or_none, record_read, state_read
from app.stores.redis.keys import channel, game_keys
from app.stores.redis.scripts import Call, ScriptRunner
from app.stores.redis.wire import (
    CapacityFull,
    CellMoveArgs,
    LegalArgs,
    LegalReply,
    Ok,
    Replay,
    decode,
    refusal_of,
)

# The scripts of each fast path's engine (``FastPath.engine``): its moves, and the page of legal
# moves it lists from what the first keeps.
ENGINES = {"lines": ("line_move", "line_legal")}


class FastPaths:
    """The fast paths' moves and pages of legal moves, for the games a fast path plays."""

    def __init__(
        self,
        kinds: KindRegistry,
        client: Client,
        scripts: ScriptRunner,
        accounts: MoveAccounts,
        *,
        max_refusals: int,
        idle_ms: int,
        accepted: Callable[[str, list[Any]], MoveResult],
    ) -> None:
        """``accepted`` answers a move a script accepted (the store counts it)."""
        self.kinds = kinds
        self.client = client
        self.scripts = scripts
        self.accounts = accounts
        self.max_refusals = max_refusals
        self.idle_ms = idle_ms
        self.accepted = accepted

    def _scripts(self, kind: str) -> tuple[str, str]:
        """The scripts of a game of ``kind`` on its fast path: its moves', its legal moves'."""
        path = self.kinds.find(kind).fast_path
        assert path is not None, "a game is on a fast path only if its kind has one"
        return ENGINES[path.engine]

    async def move(
        self, game_id: str, kind: str, token: str, request: MoveRequest,
        full: CapacityExhausted | None,
    ) -> MoveResult:  # fmt: skip
        """The move, checked and applied by the script of the fast path of ``kind``; at the
        store's most moves (``full``) only a replay is answered."""
        played = request.played
        row: int | str
        col: int | str
        if isinstance(played, Placement):
            row, col = played.row, played.col
        else:  # refused by the engine's rules: a pass (where a rule has none), or a choice
            row, col = ("pass" if isinstance(played, Pass) else "choice"), ""
        args = CellMoveArgs(
            token_hash=tokens.token_hash(token), row=row, col=col,
            claimed=request.player or "", ttl_ms=self.idle_ms,
            expected_version="" if request.expected_version is None else request.expected_version,
            key=request.idempotency_key or "", fingerprint=request.fingerprint(),
            most_refusals=self.max_refusals, channel=channel(game_id), full="1" if full else "",
        )  # fmt: skip
        call = Call(self._scripts(kind)[0], game_keys(game_id), args)
        answer = decode(await self.accounts.with_move(call))
        if isinstance(answer, CapacityFull) and full is not None:
            raise full
        if isinstance(answer, Ok):
            return self.accepted(game_id, answer.state)
        if isinstance(answer, Replay):
            now = state_read(self.kinds, game_id, answer.state)
            game_kind = self.kinds.find(now.kind)
            return result_at(record_read(game_kind, int(answer.seq), answer.record), now, game_kind)
        raise refusal_of(game_id, answer, request)

    async def legal_moves(self, game_id: str, kind: str, after: int, limit: int) -> LegalMovesPage:
        """The page the fast path's script lists on the server, from the board it keeps (its
        cells). One read, so the page is the game's at the version it says."""
        keys = game_keys(game_id)
        args = LegalArgs(after=after, most=limit, channel=channel(game_id))
        call = Call(self._scripts(kind)[1], [keys.meta, keys.cells], args)
        found = await self.scripts.run(self.client, call)
        if not found:
            raise GameNotFound(game_id)
        page = LegalReply(*found)
        cells = [int(index) for index in page.cells]
        moves = tuple(LegalMove(Placement(*divmod(index, int(page.n)))) for index in cells)
        next_after = cells[-1] if cells and int(page.more) else None
        return LegalMovesPage(
            game_id, kind, int(page.version), player_or_none(page.player),
            LegalMoves(int(page.total), moves, next_after),
        )  # fmt: skip
