"""The codec of a stored game: what the Redis store writes of a game and reads back, one mapping.

A game is a meta hash (``keys.game_keys``: its fields, listed below by the functions that write
them) and its move records. This module is the one place that knows what the fields mean, both
ways, as rq's ``Job.to_dict`` / ``Job.restore`` do for a job:

* **written**: a new game's fields from its ``Session`` and creation (``created_fields``: what
  create.lua writes), an accepted move's and a takeback's from the session that decided it
  (``outcome_fields``, ``takeback_fields``: what commit.lua writes);
* **read**: a ``GameState`` from the state every game script answers (``state_read``), a
  ``Session`` from what read.lua answers (``session_read``: what the generic engine decides on),
  the moves from their records (``record_read``, ``moves_read``, ``gift_read``), and what is read
  without a script (``known_of``, ``recipe_of``: from the named records of their HMGET).

What each script takes and answers, by name, is ``wire.py``'s; the scripts themselves
(``lua/``) write and read the same fields on the server.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast, get_args

from app.sessions.clock import WAITED_FOR, ClockState, TimeControl
from app.sessions.errors import IdempotencyKeyReused, StoreUnavailable
from app.sessions.exchange import ActionRequest, GameState, MoveRequest, MoveResult
from app.sessions.kind import (
    ABORTED,
    ClockReading,
    FastPath,
    GameKind,
    KindRegistry,
    Move,
    Player,
    Reason,
    Status,
    Winner,
    board_size,
)
from app.sessions.past import Gift
from app.sessions.receipts import Receipt, receipt_from, receipt_key
from app.sessions.session import Ending, Session, Terms
from app.sessions.store import Client, NewGame, network_of
from app.stores.redis.wire import GiftReply, KnownFields, ReadReply, RecipeFields, StateReply

# The engine of a game that no fast path plays (its meta hash's ``engine``; a fast path's
# engine is its ``FastPath.engine``).
GENERIC = "generic"

# The endings the session decides (the others are the kind's, or the move limit's).
SESSION_ENDINGS: tuple[str, ...] = ("timeout", "resignation", "agreement", *ABORTED)


@dataclass(frozen=True, slots=True)
class Known:
    """What never changes of a game, once read: its kind and engine, its players' token hashes,
    the client that created it (whose share of the store it holds), and its board's size."""

    kind: str
    engine: str
    hashes: tuple[str, str]
    owner: str
    size: tuple[int, int]  # rows, columns
    private: bool = False  # read only with a player's or a spectator's token


# --- written ---------------------------------------------------------------------------------


def created_fields(
    session: Session, engine: str, fast: FastPath | None, owner: str,
    control: TimeControl | None, terms: Terms,
) -> str:  # fmt: skip
    """A new game's meta hash, as create.lua takes it (one JSON object of texts): ``session`` as
    created (its opening's moves played), on ``engine`` (``fast``'s, or the generic one, which
    keeps the position), for ``owner``, with its clocks (stopped) and terms."""
    state, position, kind, params = session.state(), session.position, session.kind, session.params
    fields: dict[str, object] = {
        "kind": kind.name, "engine": engine, "params": json.dumps(dict(params)),
        "h1": session.token_hashes[0], "h2": session.token_hashes[1], "status": state.status,
        "winner": state.winner, "next": state.next_player or 0, "version": state.version,
        "refusals": 0, "facts": json.dumps(dict(state.facts)), "reason": state.reason or "",
        "max_moves": session.max_moves, "offer": 0, "pm": 0,
        "opened": position.move_count,  # its opening's moves (a rematch plays them again)
    }  # fmt: skip
    if terms.first_move_seconds is not None:  # create.lua sets its first deadline
        fields["fm"] = terms.first_move_seconds * 1000
    if terms.disabled:
        fields["off"] = ",".join(sorted(terms.disabled))
    if terms.private:
        fields["private"] = 1
    for seat, name in enumerate(session.names, 1):
        if name is not None:
            fields[f"n{seat}"] = name
    for seat, player in enumerate(session.players, 1):
        if player is not None:
            fields[f"p{seat}"] = player
    if terms.pool is not None:
        fields["pool"] = terms.pool
    if terms.tournament is not None:
        fields["tour"] = terms.tournament
    if control is not None:
        fields |= {
            "control": control.encode(), "r1": control.initial_ms, "r2": control.initial_ms,
            "since": 0, "running": 0,
            "moved": 0 if kind.clocks_wait(params) else WAITED_FOR,  # game.lua's bits
        }  # fmt: skip
    if fast is None:
        fields["position"] = position.encode()
    else:
        fields |= fast.params(params)
    fields["owner"] = owner
    network = network_of(owner)
    if network is not None:
        fields["network"] = network
    if session.open_seat is not None:  # nobody moves until the seat is taken (join.lua)
        fields |= {"lobby": 1, "open": session.open_seat, "waits": position.next_player or 0}
    return json.dumps({name: str(value) for name, value in fields.items()})


def outcome_fields(session: Session, result: MoveResult) -> dict[str, str | int]:
    """What commit.lua writes for an accepted move: the game's new fields, the record (the kind's
    text: commit.lua adds the stamp) and the mover (``CommitArgs``' fields)."""
    state, move = result.state, result.move
    return {
        "status": state.status, "winner": state.winner, "next_player": state.next_player or 0,
        "position": session.position.encode(), "facts": json.dumps(dict(state.facts)),
        "record": session.kind.encode_move(move), "reason": state.reason or "",
        "mover": move.player,
    }  # fmt: skip


def takeback_fields(session: Session, outcome: str) -> dict[str, str | int]:
    """What commit.lua writes for a takeback offer's ``outcome`` (``CommitArgs.outcome``; ''
    for its refusal): the position and facts the session left, the moves left, and the player
    whose offer stands (an offer) or who moves (``CommitArgs``' fields)."""
    state = session.state()
    return {
        "position": session.position.encode(), "facts": json.dumps(dict(state.facts)),
        "left": state.move_count,
        "offerer": (state.takeback_offer if outcome == "offered" else state.next_player) or "",
    }  # fmt: skip


# --- read ------------------------------------------------------------------------------------


def status_of(value: str) -> Status:
    if value not in get_args(Status):
        raise StoreUnavailable(f"the store holds an unknown game status {value!r}")
    return cast(Status, value)


def winner_of(value: Any) -> Winner:
    winner = int(value)
    if winner not in (0, 1, 2):
        raise StoreUnavailable(f"the store holds an unknown winner {winner!r}")
    return cast(Winner, winner)


def player_or_none(value: Any) -> Player | None:
    return None if int(value) == 0 else (1 if int(value) == 1 else 2)


def reason_of(value: str | None) -> Reason | None:
    if value and value not in get_args(Reason):
        raise StoreUnavailable(f"the store holds an unknown reason {value!r}")
    return cast(Reason, value) if value else None


def record_read(kind: GameKind, seq: int, text: str) -> Move:
    """Move number ``seq`` from its record: the kind's text, then the stamp game.lua's ``moved``
    wrote — the game's version after it, and with clocks their reading — if any."""
    record, *stamp = text.split("|")
    move = kind.decode_move(seq, record)
    if not stamp:
        return move
    version = int(stamp[0])
    reading, at = None, None
    if len(stamp) >= 5:  # (a record written before spent times were kept has none: 0)
        at, first, second, running, spent = (int(value) for value in [*stamp[1:], "0"][:5])
        reading = ClockReading(at, (first, second), player_or_none(running), spent)
    elif len(stamp) == 2:  # a game without clocks: the instant alone
        at = int(stamp[1])
    return move.stamped(None if version == seq else version, reading, at)


def state_read(kinds: KindRegistry, game_id: str, found: Iterable[Any]) -> GameState:
    """The state a script answered (a ``StateReply``)."""
    s = StateReply(*found)
    kind = kinds.find(s.kind)
    moves = int(s.moves)
    clock = None
    if s.control:
        since = int(s.since)
        clock = ClockState.at(
            TimeControl.decode(s.control), (int(s.r1), int(s.r2)), player_or_none(s.running),
            since, int(s.turn) or since,
        )  # fmt: skip
    last = record_read(kind, moves, s.last) if s.last else None
    status, winner, reason = status_of(s.status), winner_of(s.winner), reason_of(s.reason)
    facts = kind.ended(json.loads(s.facts), status, winner, reason)
    return GameState(
        game_id, s.kind, facts, status, winner, reason, player_or_none(s.next_player),
        int(s.version), moves, last, player_or_none(s.offer), clock,
        lobby=s.lobby == "1", open_seat=player_or_none(s.open) if status == "in_progress" else None,
        joined=int(s.joined) or None,
        first_move_due=(int(s.fmdue) or None) if status == "in_progress" else None,
        disabled=frozenset(s.off.split(",")) - {""}, private=s.private == "1",
        rematch_offer=player_or_none(s.rmo), rematch=s.rm or None,
        takeback_offer=player_or_none(s.tbo), last_takeback=int(s.tbl) or None,
        at_ms=int(s.at) or None, last_given=int(s.lg) or None, joined_ms=int(s.jat) or None,
        created_ms=int(s.made) or None, names=(s.n1 or None, s.n2 or None),
        players=(s.p1 or None, s.p2 or None), pool=s.pool or None, tournament=s.tour or None,
    )  # fmt: skip


def gift_read(kind: GameKind, found: Iterable[Any]) -> tuple[Gift, Move | None]:
    """A gift of time changes.lua answered (a ``GiftReply``), and the move it came after."""
    g = GiftReply(*found)
    made, running = int(g.moves), player_or_none(g.running)
    gift = Gift(
        int(g.version), int(g.at), made, (int(g.r1), int(g.r2)), running, int(g.turn),
        player_or_none(g.offer), player_or_none(g.tbo), int(g.fmdue) or None, int(g.tbl) or None,
    )  # fmt: skip
    return gift, record_read(kind, made, g.last) if made else None


def moves_read(kinds: KindRegistry, kind_name: str, first: int, records: list[Any]) -> list[Move]:
    """Move records read from index ``first`` (0-based) on, as moves."""
    kind = kinds.find(kind_name)
    return [record_read(kind, first + 1 + i, record) for i, record in enumerate(records)]


def session_read(
    kinds: KindRegistry, game_id: str, read: ReadReply, max_refusals: int,
    request: MoveRequest | ActionRequest | None,
) -> tuple[Session, int]:  # fmt: skip
    """The game as the generic engine read it (read.lua): a Session holding just the receipts of
    this request's Idempotency-Key (under either player; none without a request), and the
    version read."""
    kind = kinds.find(read.kind)
    params = json.loads(read.params)
    session = Session(
        game_id, kind, params, (read.h1, read.h2), kind.decode(params, read.position or ""),
        int(read.max_moves), max_refusals, int(read.version),
        draw_offer=player_or_none(read.offer or 0), lobby=read.lobby == "1",
        open_seat=player_or_none(read.open), joined=int(read.joined) or None,
        takeback_offer=player_or_none(read.tbo), untimed=int(read.opened),
        disabled=frozenset(read.off.split(",")) - {""},
    )  # fmt: skip
    if read.records:  # the last moves' records (a takeback's), with their stamps
        first = session.position.move_count - len(read.records) + 1
        session.earlier = {
            first + i: record_read(kind, first + i, record) for i, record in enumerate(read.records)
        }
    if read.reason in SESSION_ENDINGS:
        session.ending = Ending(
            status_of(read.status), winner_of(read.winner), cast(Reason, read.reason)
        )
    session.refusals = int(read.refusals or 0)
    key = None if request is None else request.idempotency_key
    for player, text in zip((1, 2), read.receipts, strict=False):  # read only for a keyed one
        if not text or key is None or request is None:
            continue
        fingerprint = text.partition("|")[0]
        if fingerprint == request.fingerprint():
            receipt = receipt_from(text, lambda found: state_read(kinds, game_id, found))
        else:  # another request's answer (an action's, kept by act.lua): only reused
            receipt = Receipt(fingerprint, IdempotencyKeyReused())
        session.receipts[receipt_key(cast(Player, player), key)] = receipt
    return session, int(read.version)


def known_of(kinds: KindRegistry, found: KnownFields) -> Known | None:
    """What never changes of a game, from its meta hash's fields; None: no such game."""
    if found.engine is None:
        return None
    # The facts change with the moves (a score), the board's size never.
    size = board_size(kinds.find(str(found.kind)), json.loads(str(found.facts)))
    hashes = (str(found.h1), str(found.h2))
    client = Client(str(found.owner or ""), str(found.network) if found.network else None)
    return Known(
        str(found.kind), str(found.engine), hashes, client, size, found.private in ("1", b"1")
    )


def opening_moves(found: RecipeFields) -> int:
    """How many of the game's first moves its opening laid (a rematch plays them again)."""
    return int(found.opened or 0)


def recipe_of(kinds: KindRegistry, found: RecipeFields, opening: Sequence[Move]) -> NewGame:
    """What the game was made of (no holders: ``NewGame``), from its meta hash's fields and its
    opening's moves (its first ``opening_moves``)."""
    terms = Terms(
        None if found.fm is None else int(found.fm) // 1000,
        frozenset(str(found.off or "").split(",")) - {""}, str(found.private) == "1",
    )  # fmt: skip
    return NewGame(
        kinds.find(str(found.kind)).name, json.loads(str(found.params)),
        None if found.control is None else TimeControl.decode(str(found.control)),
        tuple(move.played for move in opening), terms,
        names=(None if found.n1 is None else str(found.n1),
               None if found.n2 is None else str(found.n2)),
    )  # fmt: skip
