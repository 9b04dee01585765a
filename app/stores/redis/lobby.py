"""The Redis store's lobby: open games listed by kind and rule, in indexes every process shares.

A game created with an open seat is listed in the indexes of every filter it matches
(``app.sessions.lobby.filters``; ``keys.lobby_index``) by ``lobby_add.lua``, which also keeps
each owner's and each network's count of listed games under their most; it leaves them all
(``lobby_remove.lua``) when it is joined, deleted, aborted or evicted. Redis forgets an expired
game, not its entries: a page read (``lobby_page.lua``) drops each listed game found no longer
open, as a listing refused at an owner's most does first for the games that owner holds.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from app.sessions.errors import CapacityExhausted, GameNotFound
from app.sessions.exchange import GameState
from app.sessions.kind import KindRegistry
from app.sessions.lobby import STALE_READS, Filter, filters
from app.sessions.store import CLIENT_OPEN_GAMES, NETWORK_OPEN_GAMES, OpenGames, network_of
from app.stores.redis.accounts import seconds
from app.stores.redis.keys import (
    LOBBY_COUNTER,
    LOBBY_NETWORK_OF,
    LOBBY_OWNED,
    LOBBY_OWNER_OF,
    lobby_index,
)
from app.stores.redis.scripts import Call
from app.stores.redis.wire import (
    LobbyAddArgs,
    LobbyAdded,
    LobbyPage,
    LobbyPageArgs,
    LobbyRemoveArgs,
)


class Lobby:
    """The lobby of one store: its listings, and pages of them."""

    def __init__(
        self,
        kinds: KindRegistry,
        run: Callable[[Call], Awaitable[Any]],
        read_state: Callable[[str], Awaitable[GameState]],
        *,
        client_open_games: int,
        network_open_games: int,
        unstarted_ms: int,
    ) -> None:
        """``run`` runs a script (the store's); ``read_state`` is the store's read of a game."""
        self.run = run
        self.read_state = read_state
        self.client_open_games = client_open_games
        self.network_open_games = network_open_games
        self.unstarted_ms = unstarted_ms
        # Every lobby index a game of the served kinds may be listed in (a game leaves them all).
        self.indexes = sorted(
            {lobby_index(where) for kind in kinds for where in filters(kind.name, {})}
            | {lobby_index((kind.name, rule)) for kind in kinds for rule in kind.rules}
        )

    async def add(self, game_id: str, kind: str, params: Mapping[str, object], owner: str) -> None:
        """List a new open game in the lobby, or CapacityExhausted: its owner (or its network)
        holds its most. Before refusing, the listed games it names that are no longer open
        (taken, over, or expired: Redis forgets a game, not its entry in the lobby) leave it,
        and the game is listed if that made room: an owner's count never outlives its games."""
        indexes = [lobby_index(where) for where in filters(kind, params)]
        args = LobbyAddArgs(
            game_id=game_id, owner=owner, most=self.client_open_games,
            network=network_of(owner) or "", network_most=self.network_open_games,
        )  # fmt: skip
        keys = [LOBBY_OWNER_OF, LOBBY_OWNED, LOBBY_COUNTER, LOBBY_NETWORK_OF, *indexes]
        for attempt in range(2):
            added = LobbyAdded(*(await self.run(Call("lobby_add", keys, args))))
            if int(added.placed):
                return
            if attempt == 0:
                for held in added.held:
                    if not await self._still_open(held):
                        await self.remove(held)
        # Its open games go when joined, deleted, or at the end of their unstarted lifetime.
        wait = seconds(self.unstarted_ms)
        if int(added.network):
            raise CapacityExhausted(self.network_open_games, wait, NETWORK_OPEN_GAMES)
        raise CapacityExhausted(self.client_open_games, wait, CLIENT_OPEN_GAMES)

    async def _still_open(self, game_id: str) -> bool:
        try:
            return (await self.read_state(game_id)).open_seat is not None
        except GameNotFound:
            return False

    async def remove(self, game_id: str) -> None:
        keys = [LOBBY_OWNER_OF, LOBBY_OWNED, LOBBY_NETWORK_OF, *self.indexes]
        await self.run(Call("lobby_remove", keys, LobbyRemoveArgs(game_id=game_id)))

    async def page(self, where: Filter, after: int, limit: int) -> OpenGames:
        """A page of the lobby's index: each listed game's state read (a script a game: on a
        cluster each is in its own slot), and a game no longer open dropped from the lobby;
        at most ``STALE_READS`` entries read per game asked for."""
        games: list[GameState] = []
        cursor, more = after, True
        budget = limit * STALE_READS
        while len(games) < limit and more and budget > 0:
            most = min(limit - len(games), budget)
            args = LobbyPageArgs(after=cursor, most=most)
            page = LobbyPage(*(await self.run(Call("lobby_page", [lobby_index(where)], args))))
            budget -= len(page.ids)
            more = len(page.ids) == most
            for game_id, number in zip(page.ids, page.numbers, strict=True):
                cursor = int(float(number))
                try:
                    state: GameState | None = await self.read_state(game_id)
                except GameNotFound:
                    state = None
                if state is None or state.open_seat is None:
                    await self.remove(game_id)
                else:
                    games.append(state)
        return OpenGames(games, cursor if more else None)
