"""The store ``ADJUDICATOR_STORE_URL`` names: the embedded memory store, or Redis (one server
or a cluster)."""

from __future__ import annotations

from app.sessions.kinds import REGISTRY, Kinds
from app.sessions.memory_store import MemoryGameStore
from app.sessions.redis_store import RedisGameStore
from app.sessions.store import GameStore, client_part
from app.settings import Settings


def max_unstarted(settings: Settings) -> int:
    """The places of the store games nobody has moved in may hold."""
    return client_part(settings.max_games, settings.unstarted_games_share)


def store_from(settings: Settings, kinds: Kinds = REGISTRY) -> GameStore:
    """The store the settings name, keeping games of ``kinds``."""
    if not settings.store_url.startswith("memory://"):
        return RedisGameStore(
            settings.store_url,
            max_games=settings.max_games,
            idle_seconds=settings.game_idle_seconds,
            timeout_seconds=settings.store_timeout_seconds,
            max_connections=settings.store_connections,
            stream_connections=settings.store_stream_connections,
            kept_games=settings.store_kept_games,
            max_moves=settings.max_moves_per_game,
            max_total_moves=settings.max_total_moves,
            max_refusals=settings.max_refusals_per_game,
            unstarted_seconds=settings.unstarted_game_seconds,
            max_unstarted=max_unstarted(settings),
            client_share=settings.client_share,
            network_factor=settings.network_factor,
            client_open_games=settings.client_open_games,
            game_spectators=settings.game_spectators,
            game_time_gifts=settings.game_time_gifts,
            kinds=kinds,
        )
    return MemoryGameStore(
        settings.max_games,
        settings.game_idle_seconds,
        max_moves=settings.max_moves_per_game,
        max_total_moves=settings.max_total_moves,
        max_refusals=settings.max_refusals_per_game,
        unstarted_seconds=settings.unstarted_game_seconds,
        max_unstarted=max_unstarted(settings),
        client_share=settings.client_share,
        network_factor=settings.network_factor,
        client_open_games=settings.client_open_games,
        game_spectators=settings.game_spectators,
        game_time_gifts=settings.game_time_gifts,
        kinds=kinds,
    )
