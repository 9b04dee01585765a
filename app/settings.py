"""The service's configuration: one class, read from ``ADJUDICATOR_*`` environment variables.

Nothing else in the app reads ``os.environ``; code receives a ``Settings`` instance.
"""

import ipaddress
import json
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from app.contract.bodies import DEFAULT_MAX_BATCH
from app.contract.events import KEEP_ALIVE_SECONDS
from app.contract.games import LARGEST_N
from app.records.bodies import DEFAULT_MAX_RECORD_MOVES
from app.records.signing import load_private_key, load_public_key
from app.sessions.session import (
    DEFAULT_GAME_SPECTATORS,
    DEFAULT_GAME_TIME_GIFTS,
    DEFAULT_MAX_MOVES,
    DEFAULT_MAX_REFUSALS,
)
from app.sessions.store import DEFAULT_CLIENT_OPEN_GAMES, DEFAULT_MAX_TOTAL_MOVES
from app.stores.archive.urls import PATTERN as ARCHIVE_URL_PATTERN

# Client addresses a per-client limit remembers by default (ADJUDICATOR_MAX_TRACKED_CLIENTS).
DEFAULT_TRACKED_CLIENTS = 50_000
# CPU time (µs) one move of a record is reckoned to cost to audit or to write, before the work
# starts (ADJUDICATOR_RECORD_MOVE_CPU_US): measured, 10 to 18 µs a move for the replay, the
# move records, the hash chain and the signature, 2026-12.
DEFAULT_RECORD_MOVE_CPU_US = 20.0
# Who a client is, and the network it is counted with too (ADJUDICATOR_CLIENT_IPV6_PREFIX,
# ADJUDICATOR_NETWORK_IPV4_PREFIX, ADJUDICATOR_NETWORK_IPV6_PREFIX), and how many clients' worth
# of each share a network holds (ADJUDICATOR_NETWORK_FACTOR).
DEFAULT_CLIENT_IPV6_PREFIX = 64
DEFAULT_NETWORK_IPV4_PREFIX = 24
DEFAULT_NETWORK_IPV6_PREFIX = 48
DEFAULT_NETWORK_FACTOR = 4.0
# The part of MAX_GAMES games nobody has moved in may hold (ADJUDICATOR_UNSTARTED_GAMES_SHARE).
DEFAULT_UNSTARTED_GAMES_SHARE = 0.5

LogLevel = Literal["critical", "error", "warning", "info", "debug", "trace"]


UNSTARTED_GAME_SECONDS = 600.0  # a game nobody moved in, unless game_idle_seconds is shorter


def is_origin(text: str) -> bool:
    """Whether ``text`` is a serialized origin (RFC 6454) of http or https."""
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018  # a port that is no number raises here
    except ValueError:
        return False
    return (
        parts.scheme in ("http", "https")
        and bool(parts.hostname)
        and "@" not in parts.netloc
        and text == f"{parts.scheme}://{parts.netloc}"
    )


def proxy_network(text: object) -> ipaddress.IPv4Network | ipaddress.IPv6Network:
    """A trusted proxy's address (a network of one) or network, from its text; ValueError
    saying what is wrong with it."""
    if isinstance(text, ipaddress.IPv4Network | ipaddress.IPv6Network):
        return text
    if not isinstance(text, str):
        raise ValueError(f"{text!r} is not an address or network (a string)")
    if text == "*":
        raise ValueError(
            "* is not taken: with every address trusted, a client names itself in the header "
            "and escapes every per-client limit; name the proxies' addresses or networks"
        )
    try:
        network = ipaddress.ip_network(text, strict=True)
    except ValueError as error:
        raise ValueError(
            f"{text!r} is not an IPv4 or IPv6 address or network (CIDR): {error}"
        ) from None
    if network.prefixlen == 0:
        raise ValueError(
            f"{text} is every address: as with *, a client would name itself in the header "
            "and escape every per-client limit; name the proxies' addresses or networks"
        )
    if isinstance(network, ipaddress.IPv6Network) and network.prefixlen >= 96:
        mapped = network.network_address.ipv4_mapped  # a dual-stack socket's IPv4 peers,
        if mapped is not None:  # compared as IPv4
            return ipaddress.IPv4Network((mapped, network.prefixlen - 96))
    return network


class Settings(BaseSettings):
    """Every setting, its default, and what it bounds. See the README's configuration table."""

    model_config = SettingsConfigDict(env_prefix="ADJUDICATOR_", frozen=True)

    host: str = Field("127.0.0.1", description="Interface the `adjudicator` command binds to.")
    port: int = Field(8000, ge=0, le=65535, description="TCP port of the `adjudicator` command.")
    log_level: LogLevel = Field("info", description="uvicorn log level.")
    log_format: Literal["text", "json"] = Field(
        "text", description="The app's own log lines: text, or one JSON object a line."
    )
    cors_origins: list[str] = Field(
        default_factory=list,
        description="Browser origins allowed to call the API (CORS), e.g. "
        '["https://game.example"] (scheme://host[:port], nothing after; "*" for any); '
        "empty: none but the service's own pages.",
    )

    @field_validator("cors_origins")
    @classmethod
    def _origins_are_origins(cls, origins: list[str]) -> list[str]:
        """Each origin as a browser sends it (``Origin``): one that is not (a path, a slash at
        the end, no scheme) would never match, and the pages it is meant for fail silently."""
        for origin in origins:
            if origin != "*" and not is_origin(origin):
                raise ValueError(
                    f"{origin!r} is not an origin: scheme://host[:port] with http or https and "
                    "nothing after (no path, no slash at the end), or *"
                )
        return origins

    max_body_bytes: int = Field(
        1024 * 1024, ge=1, description="Largest accepted request body; larger ones get 413."
    )
    max_batch: int = Field(
        DEFAULT_MAX_BATCH, ge=1, description="Most items in one batch request; more get 422."
    )
    opentelemetry: bool = Field(
        False,
        description="FastAPI's native OpenTelemetry instrumentation (needs a configured "
        "provider). Off by default: when off it costs nothing per request. On, routes are "
        "found by trying each in turn, as spans name the route the router chose (no route "
        "index).",
    )
    store_url: str = Field(
        "memory://",
        pattern=r"^(memory://|rediss?://.+|redis\+cluster://[^\s,/]+:\d+(,[^\s,/]+:\d+)*/?)$",
        description="Where games live: `memory://` (embedded, one process), "
        "`redis://host:port/db` / `rediss://…` (one Redis, shared by many processes) or "
        "`redis+cluster://host:port[,host:port…]` (a Redis Cluster ≥ 7, by its seed nodes).",
    )
    archive_url: str = Field(
        "sqlite:///adjudicator.sqlite3",
        pattern=ARCHIVE_URL_PATTERN,
        description="Where finished games are archived: `sqlite:///PATH` (a file, relative to "
        "the working directory; `sqlite:////abs/path` for an absolute one; the default keeps "
        "finished games across restarts), `postgresql://user:pass@host:port/db` (one database "
        "for many processes), or `none` (nothing archived: a finished game goes with its live "
        "copy).",
    )
    archive_timeout_seconds: float = Field(
        5.0, gt=0, description="Connect and statement timeout for the archive's database."
    )
    archive_connections: int = Field(
        5, ge=1, description="Connections to the archive's database one process opens."
    )
    archive_upgrade_at_start: bool = Field(
        True,
        description="Apply the archive's migrations at start on PostgreSQL too (processes "
        "starting together take turns). Off, `adjudicator db upgrade` does it, and a process "
        "that finds the database behind says so and archives nothing until it is done. On "
        "SQLite they are always applied at start.",
    )
    archive_retention_days: float = Field(
        0,
        ge=0,
        description="Finished games are removed from the archive this many days after they "
        "ended (checked hourly); 0 keeps every game.",
    )
    max_players_per_client: int = Field(
        100,
        ge=1,
        description="Players (`POST /v1/players`) a client address may make, ever (an IPv6 "
        "address's /64 counts as one client).",
    )
    max_tournaments_per_player: int = Field(
        20,
        ge=1,
        description="Tournaments (`POST /v1/tournaments`) a player may organise, ever.",
    )
    max_seeks_per_player: int = Field(
        10,
        ge=1,
        description="Open seeks (`POST /v1/seeks`) a player may hold at once; one more is 503 "
        "`capacity_exhausted` until one is matched or withdrawn.",
    )
    seek_seconds: float = Field(
        3600,
        gt=0,
        description="A seek (`POST /v1/seeks`) expires this long after it was made: never "
        "matched, listed nor counted after, and deleted with a `seek_expired` event on its "
        "player's stream (within about `ADJUDICATOR_ARCHIVE_POLL_SECONDS`).",
    )
    pending_game_seconds: float = Field(
        10,
        gt=0,
        description="A game two seeks or an accepted challenge drew and left unmade this long "
        "(its process died between the match and the game) is made and told by another "
        "process's periodic work, once; longer than a game's making takes.",
    )
    max_challenges_per_player: int = Field(
        20,
        ge=1,
        description="Open challenges (`POST /v1/challenges`) a player may have made at once; "
        "one more is 503 `capacity_exhausted` until one is accepted, declined or withdrawn.",
    )
    player_events_kept: int = Field(
        1000,
        ge=1,
        description="Events of a player's stream (`GET /v1/players/{id}/events`) kept for a "
        "resume with `Last-Event-ID`, the most recent; older ones are gone.",
    )
    max_tournament_players: int = Field(
        500,
        ge=2,
        description="Entrants a tournament may have (each round makes up to half as many "
        "games at once, counted against the organiser's client share).",
    )
    max_tournament_rounds: int = Field(
        50,
        ge=1,
        description="Rounds a Swiss tournament may have (`rounds`); a round robin has its "
        "entrants' count less one (twice that, double).",
    )
    tournament_documents: int = Field(
        256,
        ge=1,
        description="Tournaments' documents (and TRF reports) each process keeps as last "
        "answered, for reads of an unchanged one (the most recent kept).",
    )
    tournaments_kept: int = Field(
        32,
        ge=1,
        description="Tournaments each process keeps as last read, whose finished rounds a read "
        "after a result does not read again (the most recent kept; a 500-player Swiss of nine "
        "rounds is about 1 MB).",
    )
    archive_poll_seconds: float = Field(
        1.0,
        gt=0,
        description="How often each process looks for finished games waiting to be archived "
        "that it was not told of (ended by another process, or left while the archive was "
        "down).",
    )
    store_timeout_seconds: float = Field(
        1.0, gt=0, description="Connect and command timeout for a networked store."
    )
    store_connections: int = Field(
        50, ge=1, description="Connections to a networked store one process opens for requests."
    )
    store_stream_connections: int = Field(
        10,
        ge=1,
        description="Connections to a networked store one process opens for event streams' "
        "reads (apart from those of requests, plus one subscription).",
    )
    store_kept_games: int = Field(
        256,
        ge=0,
        description="Games (decided in Python: Reversi, the generic engine) one process keeps "
        "as it last wrote them to Redis, so that their next move takes one round trip.",
    )
    shutdown_grace_seconds: float = Field(
        10.0,
        gt=0,
        description="On SIGTERM, how long in-flight requests may finish (open event streams "
        "end at once; clients resume with Last-Event-ID).",
    )
    workers: int = Field(1, ge=1, description="Worker processes the `adjudicator` command starts.")
    create_rate_per_minute: float = Field(
        60.0, ge=0, description="Games one client address may create a minute (0: no limit)."
    )
    create_burst: int = Field(20, ge=1, description="Games a client may create at once.")
    max_tracked_clients: int = Field(
        DEFAULT_TRACKED_CLIENTS,
        ge=1,
        description="Client addresses each per-client limit (creation, wrong tokens, moves "
        "read, CPU time, streams ended for it) remembers, per process; the least recently seen "
        "are forgotten first (about 250 bytes each).",
    )
    client_ipv6_prefix: int = Field(
        DEFAULT_CLIENT_IPV6_PREFIX,
        ge=32,
        le=128,
        description="The IPv6 network one client is (its /N): every per-client share and limit "
        "counts an IPv6 address's /64 as one client by default, since one host commonly holds "
        "a whole /64 (128: each address alone).",
    )
    network_ipv4_prefix: int = Field(
        DEFAULT_NETWORK_IPV4_PREFIX,
        ge=8,
        le=32,
        description="The IPv4 network (/N) a client address is counted with too: every "
        "per-client share and limit is also kept for the network, which holds at most "
        "network_factor times one client's (32: none, each address alone).",
    )
    network_ipv6_prefix: int = Field(
        DEFAULT_NETWORK_IPV6_PREFIX,
        ge=16,
        le=128,
        description="The IPv6 network (/N) a client (client_ipv6_prefix) is counted with too, "
        "as network_ipv4_prefix: at most client_ipv6_prefix (equal: none).",
    )
    network_factor: float = Field(
        DEFAULT_NETWORK_FACTOR,
        ge=1,
        le=1000,
        description="How many clients' worth of every per-client share and limit (creation, "
        "wrong tokens, moves read, CPU time, streams, the store's games, moves and open games) "
        "the clients of one network (network_ipv4_prefix, network_ipv6_prefix) hold together.",
    )
    forwarded_allow_ips: Annotated[
        list[ipaddress.IPv4Network | ipaddress.IPv6Network], NoDecode
    ] = Field(
        default_factory=list,
        description="Proxies (addresses or networks, IPv4 or IPv6: 10.0.0.5, 10.0.0.0/8, "
        "fd00::/8) whose forwarding header (forwarded_header) names the client that every "
        "per-client limit counts; a request from any other peer is counted as that peer's "
        "address, its headers ignored. Separated by commas as uvicorn takes them "
        "(10.0.0.5,10.0.0.6), or a JSON list. Empty: nobody is trusted.",
    )
    forwarded_header: Literal["x-forwarded-for", "forwarded"] = Field(
        "x-forwarded-for",
        description="The header the trusted proxies write the client in: X-Forwarded-For "
        "(nginx, HAProxy and most load balancers; uvicorn's) or RFC 7239 Forwarded. The other "
        "is never read: a client may have written it, and the proxies passed it on.",
    )

    @field_validator("forwarded_allow_ips", mode="before")
    @classmethod
    def _proxies_are_addresses_or_networks(cls, proxies: Any) -> Any:
        """Each proxy an address or a network, or the setting is refused at start: one taken
        as something else would trust nobody, or everybody, without a word. A text (the
        variable, or one flag) is a JSON list, or addresses separated by commas."""
        if isinstance(proxies, str):
            text = proxies.strip()
            proxies = json.loads(text) if text.startswith("[") else text.split(",") if text else []
        if not isinstance(proxies, list | tuple):
            return proxies  # the field's own validation says it is no list
        items = [
            part.strip() if isinstance(part, str) else part
            for proxy in proxies
            for part in (proxy.split(",") if isinstance(proxy, str) else [proxy])
        ]
        return [proxy_network(item) for item in items]

    auth_failures_per_minute: float = Field(
        60,
        ge=0,
        description="Requests with a wrong player token one client address may make a minute, "
        "per process (0: no limit); beyond, its requests that carry a token are 429 before the "
        "token is checked, until the rate allows one more.",
    )
    auth_failures_burst: int = Field(
        20, ge=1, description="Requests with a wrong token a client may make at once."
    )
    history_moves_per_minute: float = Field(
        600_000,
        ge=0,
        description="Moves one client address may read a minute from games' move lists "
        "(GET …/moves), per process (0: no limit); beyond, 429 before its next read.",
    )
    history_moves_burst: int = Field(
        20_000, ge=1, description="Moves one client address may read at once."
    )
    client_cpu_ms_per_minute: float = Field(
        15_000,
        ge=0,
        description="CPU time (ms) one client address may have a process spend a minute "
        "parsing its request bodies, answering its stateless questions, auditing its records, "
        "writing the game records, legal moves and boards it reads and pairing its tournaments' "
        "rounds (0: no limit); beyond, "
        "429 before its next request's work starts. 15,000: a quarter of a core.",
    )
    client_cpu_burst_ms: float = Field(
        2_000, gt=0, description="CPU time (ms) one client address may have spent at once."
    )
    record_move_cpu_us: float = Field(
        DEFAULT_RECORD_MOVE_CPU_US,
        ge=0,
        description="CPU time (µs) one move of a record is reckoned to cost to audit or to "
        "write (`POST /v1/records/audit`, each record of a batch, a live game's "
        "`GET …/record`): a client whose share has less left than a record's moves at this "
        "rate (at most client_cpu_burst_ms) is 429 before the work starts.",
    )
    record_cache_bytes: int = Field(
        32 * 1024 * 1024,
        ge=0,
        description="Bytes of finished games' records (`GET /v1/games/{id}/record`, each "
        "format as answered) one process keeps, so that reading one again costs no rebuild "
        "and no signature; the least recently read go first (0: none kept).",
    )
    max_games: int = Field(
        10_000, ge=1, description="Live games the store holds; more get 503 capacity_exhausted."
    )
    game_idle_seconds: float = Field(
        3600.0, gt=0, description="A game with no move for this long disappears (404)."
    )
    unstarted_game_seconds: float = Field(
        UNSTARTED_GAME_SECONDS,
        gt=0,
        description="A game nobody has moved in disappears this long after its creation (404), "
        "so that games created and never played give their places back soon; at most "
        "game_idle_seconds (when not set: 600, or game_idle_seconds if shorter).",
    )
    unstarted_games_share: float = Field(
        DEFAULT_UNSTARTED_GAMES_SHARE,
        gt=0,
        le=1,
        description="The part of max_games that games nobody has moved in may hold. At it (or "
        "at max_games), a new game takes the place of the oldest game nobody moved in of the "
        "network (or client) that holds the most of them, if that holds more than the "
        "newcomer's; else 503 capacity_exhausted. A game's first move makes it a started game, "
        "which never gives its place.",
    )
    client_share: float = Field(
        0.1,
        ge=0.001,
        le=1,
        description="The part of each store-wide bound one client address may hold: of "
        "max_games, the games it created; of max_total_moves, their moves. Past it, that "
        "client's new games and moves get 503 capacity_exhausted, everyone else's do not.",
    )
    client_open_games: int = Field(
        DEFAULT_CLIENT_OPEN_GAMES,
        ge=1,
        description="Open games (created with `open`, waiting in the lobby for a second player) "
        "one client address may hold at once; one more gets 503 capacity_exhausted, so that no "
        "client fills the lobby for everyone.",
    )
    game_spectators: int = Field(
        DEFAULT_GAME_SPECTATORS,
        ge=1,
        description="Spectator tokens (`POST /v1/games/{id}/spectators`) one game may issue; "
        "one more is 409 too_many_spectators.",
    )
    game_time_gifts: int = Field(
        DEFAULT_GAME_TIME_GIFTS,
        ge=1,
        description="Gifts of time (`POST /v1/games/{id}/give-time`) one game may have, both "
        "players together; one more is 409 action_not_allowed (`why` `too_many_gifts`). Each "
        "gift's answer is kept under its Idempotency-Key as long as the game, so that a retry "
        "never gives twice.",
    )
    max_moves_per_game: int = Field(
        DEFAULT_MAX_MOVES,
        ge=1,
        description="Most moves a game may have: the move that reaches it ends the game in a "
        "draw (reason `move_limit`).",
    )
    max_total_moves: int = Field(
        DEFAULT_MAX_TOTAL_MOVES,
        ge=1,
        description="Moves the store holds in all its games (with Redis: of all processes "
        "together); at it, new games and moves get 503 capacity_exhausted until idle games "
        "expire or are deleted.",
    )
    max_refusals_per_game: int = Field(
        DEFAULT_MAX_REFUSALS,
        ge=0,
        description="Answers other than accepted moves (refusals, a resignation's or a draw "
        "offer's state) a game remembers under their Idempotency-Key, so that a retry gets the "
        "same answer; past it, a keyed request that is refused is not remembered (accepted "
        "moves always are).",
    )
    max_streams: int = Field(
        1000,
        ge=1,
        description="Event streams one process holds open at once; at it, a newcomer takes the "
        "place of the oldest stream of the client holding the most, if it holds two more than "
        "the newcomer would; else 503.",
    )
    max_streams_per_game: int = Field(
        100,
        ge=1,
        description="Event streams of one game one process holds open; at it, places are made "
        "as at max_streams.",
    )
    max_streams_per_client: int = Field(
        100,
        ge=1,
        description="Event streams one client address may hold open in one process; more get "
        "503 too_many_streams.",
    )
    max_connections: int = Field(
        4096,
        ge=1,
        description="HTTP connections one process holds open (raised open-files limit "
        "permitting); one more takes the place of the longest-waiting idle connection, or is "
        "answered 503 when every connection is busy.",
    )
    max_url_bytes: int = Field(8192, ge=64, description="Longest request URL; longer gets 414.")
    max_header_bytes: int = Field(
        16384, ge=256, description="Largest request head (URL and header fields); larger gets 431."
    )
    max_headers: int = Field(100, ge=1, description="Most header fields a request; more get 431.")
    header_timeout_seconds: float = Field(
        10.0,
        gt=0,
        description="A connection's request head must arrive within this long of its first "
        "byte (or of the connection opening); else 408 and closed.",
    )
    body_timeout_seconds: float = Field(
        30.0, gt=0, description="A request's body must arrive within this long of its head."
    )
    send_timeout_seconds: float = Field(
        30.0,
        gt=0,
        description="A client that reads nothing of its answer for this long (the server's "
        "send buffer full all that time) is cut off.",
    )
    keep_alive_seconds: float = Field(
        5.0, gt=0, description="An idle keep-alive connection is closed after this long."
    )
    linger_seconds: float = Field(
        0.5,
        gt=0,
        le=60,
        description="After an answer that closes the connection (a refusal, or an answer given "
        "before the request's body was read), the server reads at most 64 KiB more of it, then "
        "nothing, and closes it when the client does or after this long; a client still "
        "sending then gets a reset.",
    )
    event_keep_alive_seconds: float = Field(
        KEEP_ALIVE_SECONDS,
        gt=0,
        le=3600,
        description="A game's event stream sends a keep-alive comment at least this often while "
        "nothing changes. Clients wait three intervals for a line before they reconnect: "
        "raising it past the default makes clients built for the default reconnect.",
    )
    max_pipelined_requests: int = Field(
        16, ge=1, description="Requests a connection may pipeline behind the one being answered."
    )
    max_n: int = Field(
        LARGEST_N, ge=1, le=LARGEST_N, description="Largest board side a new game may have."
    )
    max_record_moves: int = Field(
        DEFAULT_MAX_RECORD_MOVES,
        ge=1,
        description="Most moves one record may hold in an audit (`POST /v1/records/audit`, "
        "each record of a batch, `adjudicator audit`); more is 422 naming the first move "
        "beyond, found before the rest is read.",
    )
    signing_key_file: Path | None = Field(
        None,
        description="PEM file of the Ed25519 private key (PKCS #8, unencrypted) that signs "
        "finished games' records and audit answers; its public key is published at "
        "`GET /v1/keys`. Unset: an ephemeral key made at start (said in the log). Processes "
        "sharing a store must be given the same file.",
    )
    signing_previous_key_files: list[Path] = Field(
        default_factory=list,
        description="PEM files of older keys (public or private) published beside the current "
        "one, so that what they signed still verifies after the key changed.",
    )

    @field_validator("signing_key_file")
    @classmethod
    def _signing_key_is_usable(cls, path: Path | None) -> Path | None:
        """A key file that cannot sign is refused at start, in one line."""
        if path is not None:
            load_private_key(path)
        return path

    @field_validator("signing_previous_key_files")
    @classmethod
    def _previous_keys_are_usable(cls, paths: list[Path]) -> list[Path]:
        for path in paths:
            load_public_key(path)
        return paths

    @model_validator(mode="before")
    @classmethod
    def _unstarted_games_live_at_most_idle_by_default(cls, data: Any) -> Any:
        """A shorter ``game_idle_seconds`` shortens the default of ``unstarted_game_seconds``
        (only a value set too large is refused)."""
        if not isinstance(data, dict) or "unstarted_game_seconds" in data:
            return data
        try:
            idle = float(data.get("game_idle_seconds", UNSTARTED_GAME_SECONDS))
        except (TypeError, ValueError):
            return data  # the field's own validation names it
        if 0 < idle < UNSTARTED_GAME_SECONDS:
            return {**data, "unstarted_game_seconds": idle}
        return data

    @model_validator(mode="after")
    def _a_network_holds_its_clients(self) -> "Settings":
        if self.network_ipv6_prefix > self.client_ipv6_prefix:
            raise ValueError(
                f"network_ipv6_prefix (/{self.network_ipv6_prefix}) must be at most "
                f"client_ipv6_prefix (/{self.client_ipv6_prefix}): a network holds its clients"
            )
        return self

    @model_validator(mode="after")
    def _unstarted_games_expire_first(self) -> "Settings":
        if self.unstarted_game_seconds > self.game_idle_seconds:
            raise ValueError(
                "unstarted_game_seconds must be at most game_idle_seconds: a move only ever "
                "lengthens a game's life"
            )
        return self
