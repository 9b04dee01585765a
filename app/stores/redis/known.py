"""What this process knows of the Redis store's games: who plays them, and who watches.

What never changes of a game (``codec.Known``: its kind, engine, players' token hashes, owner,
board size and privacy) is read once (one HMGET of its meta hash) and kept, for as many games
as the store holds at most; a token is a player's by those hashes (read again where an open
seat was known: it may have been taken since), or a spectator's by the meta hash's
``s:<hash>`` fields (spectate.lua writes them).
"""

from __future__ import annotations

from collections import OrderedDict

from app.sessions import tokens
from app.sessions.errors import GameNotFound, Unauthorized
from app.sessions.kind import KindRegistry, Player
from app.sessions.session import player_by_hash
from app.stores.redis.cluster import Client
from app.stores.redis.codec import Known, known_of
from app.stores.redis.keys import game_keys
from app.stores.redis.scripts import ScriptRunner
from app.stores.redis.wire import KnownFields


class KnownGames:
    """The games this process knows, least recently used forgotten first."""

    def __init__(
        self, kinds: KindRegistry, client: Client, scripts: ScriptRunner, most: int
    ) -> None:
        self.kinds = kinds
        self.client = client
        self.scripts = scripts
        self.most = most
        self._known: OrderedDict[str, Known] = OrderedDict()

    def know(self, game_id: str, known: Known) -> None:
        self._known[game_id] = known
        self._known.move_to_end(game_id)
        if len(self._known) > self.most:  # what is known of more is of dead games
            self._known.popitem(last=False)

    def forget(self, game_id: str) -> None:
        """The game is gone, or its token hashes changed."""
        self._known.pop(game_id, None)

    def known(self, game_id: str) -> Known:
        """What is known of a game this process has just read or written."""
        return self._known[game_id]

    async def game(self, game_id: str) -> Known:
        """The game's engine, token hashes and size: as this process knows them, else read
        (one round trip, once); GameNotFound for a game that does not exist."""
        known = self._known.get(game_id)
        if known is None:
            read = self.client.hmget(game_keys(game_id).meta, list(KnownFields._fields))
            known = known_of(self.kinds, KnownFields(*await self.scripts.guard(read, self.client)))
            if known is None:
                raise GameNotFound(game_id)
        self.know(game_id, known)
        return known

    async def player(self, game_id: str, known: Known, token: str) -> Player:
        """The player whose token this is, by the hashes known (read again where an open seat
        was known: it may have been taken since), or Unauthorized."""
        try:
            return player_by_hash(known.hashes, token)
        except Unauthorized:
            if "" not in known.hashes:
                raise
            self.forget(game_id)
            known = await self.game(game_id)
            return player_by_hash(known.hashes, token)

    async def spectators(self, game_id: str) -> frozenset[str]:
        """The hashes of the game's spectator tokens (its meta hash's ``s:<hash>`` fields)."""
        fields = self.client.hkeys(game_keys(game_id).meta)
        found = await self.scripts.guard(fields, self.client)
        return frozenset(
            str(name).removeprefix("s:") for name in found if str(name).startswith("s:")
        )

    async def spectates(self, game_id: str, token: str) -> bool:
        """Whether ``token`` is one of the game's spectator tokens (spectate.lua keeps them)."""
        asked = self.client.hexists(game_keys(game_id).meta, f"s:{tokens.token_hash(token)}")
        return bool(await self.scripts.guard(asked, self.client))
