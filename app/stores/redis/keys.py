"""Where the Redis store keeps things: every key and channel name, in one place.

Keys of one game share the hash tag ``{game:ID}`` so they live in one Redis Cluster slot (a
script may only touch keys of one slot):

* ``{game:ID}:meta``  hash: the game's fields (kind, params, token hashes, status, version, ...;
  what each is written from and read as: ``codec.py``); the generic engine adds ``position``
  (the kind's text), the line engine (a fast path) its parameters (``n``, ``k``, ...)
* ``{game:ID}:moves`` list: one record per accepted move, in order, as the kind encodes it
* ``{game:ID}:receipts`` hash: "player:Idempotency-Key" -> the request's fingerprint and its
  first answer (``ok|<seq>``, or the refusal's code and arguments)
* ``{game:ID}:cells``, ``{game:ID}:lines`` hashes: the line engine's board and line
  counters ("row:col" -> player; "r<row>", "c<col>", "d", "a" -> counter), or run lengths, and
  with ``early_draw`` the open windows' counts (``cells.lua``)
* ``{game:ID}:stones`` sorted set: with ``early_draw`` and k < n (k or more in a row wins), each
  stone's place on its four lines, so that its nearest neighbours are found (``cells.lua``)

The store's accounting lives in a slot of its own, tag ``{adjudicator}`` (``ACCOUNTS``, touched
only by ``reserve.lua``, ``touch.lua`` and ``forget.lua``, never in one script with a game's
keys): ``{adjudicator}:games``, a sorted set (game id -> the instant it expires, ms: its
deadline's plus the idle time while one is pending, ``accounts.FAR_MS`` while it waits in the
archive's outbox) that counts live games; ``{adjudicator}:moves``, a hash (game id -> moves
counted);
``{adjudicator}:total_moves``, their sum; and each client's share: ``{adjudicator}:owner`` (game
id -> the client that created it), ``{adjudicator}:owned_games`` (client -> its live games) and
``{adjudicator}:owned_moves``, a sorted set (client -> the moves of its live games); each
network's share as each client's: ``{adjudicator}:network`` (game id -> its client's network,
for a client that has one), ``{adjudicator}:network_games`` and ``{adjudicator}:network_moves``;
and the games nobody has moved in: ``{adjudicator}:unstarted`` (game id -> its entry,
``holder\nnumber\ngame id``: the holder its client's network, or the client without one, the
number from ``{adjudicator}:unstarted_number``, the order of creation),
``{adjudicator}:unstarted_order`` (those entries, a sorted set of one score: by holder, oldest
first), ``{adjudicator}:unstarted_held`` (holder -> its rank: how many it holds, and since when)
and ``{adjudicator}:unstarted_ranks`` (the ranks, a sorted set of one score: the holder of the
most first). On a Redis
Cluster that slot is on one node: the store reports moves to it in the background rather than
with each move (``RedisGameStore``).

A game's life beyond its keys (``life.py``) is kept per hash slot, so that the script that
changes a game may write it in the game's own slot (on a cluster a script touches one slot):
``{T}:deadlines``, a sorted set (game id -> its pending deadline, ms: the running clock's flag
fall, or a first move's deadline; ``game.lua``'s ``lived``), and ``{T}:outbox``, a sorted set
(game id -> the instant it ended, ms: an archiving store's ended games waiting to be archived),
where ``T`` is the slot's tag (``slot_tag``: a text whose own hash slot is that slot). On one
Redis every game's slot is 0 (``SLOTS`` is 1): one deadlines set, one outbox. Which slots hold
any is found from two sorted sets of the accounting's slot, hints written right after the
script by the process that ran it: ``{adjudicator}:due_slots`` (slot -> the earliest deadline
it may hold) and ``{adjudicator}:outbox_slots`` (slot -> the oldest ending it may hold); a hint
a process died before writing is found by a pass over every slot, a few at a time.

A game's changes are announced on its channel, ``{game:ID}:events``: under the game's hash tag,
so that on a Redis Cluster a script may ``SPUBLISH`` it (sharded pub/sub, in the game's slot) and
a process subscribes to it on the node that holds the game. One Redis takes ``PUBLISH`` and one
``PSUBSCRIBE`` of every game's channel (``CHANNELS``).
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from redis.crc import key_slot

LIVE_GAMES = "{adjudicator}:games"
MOVE_COUNTS = "{adjudicator}:moves"
TOTAL_MOVES = "{adjudicator}:total_moves"
OWNERS = "{adjudicator}:owner"
OWNED_GAMES = "{adjudicator}:owned_games"
OWNED_MOVES = "{adjudicator}:owned_moves"
NETWORKS = "{adjudicator}:network"
NETWORK_GAMES = "{adjudicator}:network_games"
NETWORK_MOVES = "{adjudicator}:network_moves"
UNSTARTED = "{adjudicator}:unstarted"
UNSTARTED_ORDER = "{adjudicator}:unstarted_order"
UNSTARTED_HELD = "{adjudicator}:unstarted_held"
UNSTARTED_RANKS = "{adjudicator}:unstarted_ranks"
UNSTARTED_NUMBER = "{adjudicator}:unstarted_number"
# The KEYS of the accounting scripts (accounts.lua), in this order.
ACCOUNTS = [
    LIVE_GAMES, MOVE_COUNTS, TOTAL_MOVES, OWNERS, OWNED_GAMES, OWNED_MOVES, NETWORKS,
    NETWORK_GAMES, NETWORK_MOVES, UNSTARTED, UNSTARTED_ORDER, UNSTARTED_HELD, UNSTARTED_RANKS,
    UNSTARTED_NUMBER,
]  # fmt: skip
# The lobby, in a slot of its own (``{lobby}``; lobby_*.lua, never in one script with a game's
# keys): each index a sorted set (game id -> the lobby's number of it: the order of creation),
# the owner of each listed game (and its network, if it has one) and each owner's and network's
# listed games, and the counter of numbers.
LOBBY_OWNER_OF = "{lobby}:owner_of"
LOBBY_NETWORK_OF = "{lobby}:network_of"
LOBBY_OWNED = "{lobby}:owned"
LOBBY_COUNTER = "{lobby}:counter"


def lobby_index(where: tuple[str, ...]) -> str:
    """The sorted set of the lobby's index ``where`` (``app.sessions.lobby.Filter``)."""
    return "{lobby}:open" + "".join(f":{part}" for part in where)


# What /readyz writes to learn that the store takes writes, and how long it is kept.
READY = "{adjudicator}:ready"
DUE_SLOTS = "{adjudicator}:due_slots"
OUTBOX_SLOTS = "{adjudicator}:outbox_slots"
CLUSTER_SLOTS = 16_384  # a Redis Cluster's hash slots
READY_MS = 10_000
CHANNEL_PREFIX, CHANNEL_SUFFIX = "{game:", "}:events"
CHANNELS = CHANNEL_PREFIX + "*" + CHANNEL_SUFFIX  # the pattern of every game's channel


class GameKeys(NamedTuple):
    meta: str
    cells: str
    lines: str
    moves: str
    receipts: str
    stones: str


def game_keys(game_id: str) -> GameKeys:
    tag = f"{{game:{game_id}}}"
    return GameKeys(*(f"{tag}:{name}" for name in GameKeys._fields))


def channel(game_id: str) -> str:
    return CHANNEL_PREFIX + game_id + CHANNEL_SUFFIX


def game_of(channel_name: str) -> str:
    """The game id a channel name announces."""
    return channel_name[len(CHANNEL_PREFIX) : -len(CHANNEL_SUFFIX)]


@lru_cache(maxsize=64)
def ready_key(first: int, last: int) -> str:
    """A readiness key whose hash slot is one of ``first`` … ``last`` (a primary's range of a
    cluster): ``{ready:N}`` for the least such N."""
    for n in range(1_000_000):
        key = f"{{ready:{n}}}"
        if first <= key_slot(key.encode()) <= last:
            return key
    raise LookupError(f"no readiness key in slots {first}-{last}")


@lru_cache(maxsize=1)
def _slot_tags() -> tuple[str, ...]:
    """For each hash slot of a cluster, the first text ``l<N>`` whose hash slot it is."""
    tags: list[str | None] = [None] * CLUSTER_SLOTS
    left, n = CLUSTER_SLOTS, 0
    while left:
        tag = f"l{n}"
        slot = key_slot(tag.encode())
        if tags[slot] is None:
            tags[slot] = tag
            left -= 1
        n += 1
    return tuple(tag or "" for tag in tags)


def slot_tag(slot: int) -> str:
    """A hash tag whose keys live in ``slot``."""
    return _slot_tags()[slot]


def slot_of(game_id: str, cluster: bool) -> int:
    """The slot a game's life is kept in: its keys' hash slot on a cluster; 0 on one Redis."""
    return key_slot(f"game:{game_id}".encode()) if cluster else 0


class SlotKeys(NamedTuple):
    deadlines: str
    outbox: str


def slot_keys(slot: int) -> SlotKeys:
    tag = "{" + slot_tag(slot) + "}"
    return SlotKeys(f"{tag}:deadlines", f"{tag}:outbox")
