"""What the Redis store's scripts take and answer, each declared once, by name.

Each script (``lua/*.lua``) has one record for its arguments, and every answer a script gives
is one record too (arq's ``serialize_*`` / ``deserialize_*`` are the model):

* **Arguments**: the store sends ``list(Args(...))`` (and, for a script that takes a tail of
  pairs, the tail after them); the script reads ``ARG.<field>`` from a table that the prelude
  ``lua_prelude`` builds from the same record's fields, so the order is written only here. A
  script that names a field its record does not declare, or reads ``ARGV[<number>]`` itself,
  is refused when its text is built (``check_script``).
* **Answers**: a script builds one as ``REPLY.<name>{field = value, ...}``, the prelude's
  encoder turns the table into the list Redis carries (in the record's order; a field left out
  is an error in the script, not a shorter list), and the store reads it back with
  ``decode``/``record(*answer)``. Tagged answers (``TAGGED``: the outcomes of a move or an
  action, and the refusals a script decides) carry their name first, so that one decoder reads
  whichever came.

The meta hash's fields that the store reads without a script (``HMGET``) are records too
(``KnownFields``, ``RecipeFields``): the fields asked for are the record's, read back by name.

The records' values are what Redis carries: texts and integers (a Lua ``false`` arrives as
``None``). What they mean for a game is decided by the codec (``codec.py``); what a refusal a
script answered stands for (the exception, rebuilt for the request) is decided here
(``refusal_of``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from app.rules.errors import DomainError
from app.sessions.errors import (
    NO_OPENING_CHOICE,
    ActionNotAllowed,
    CellOccupied,
    GameNotFound,
    GameNotOver,
    GameOver,
    IdempotencyKeyReused,
    NothingToTakeBack,
    NotYourTurn,
    OutOfBounds,
    PassNotAllowed,
    PreconditionFailed,
    StoreUnavailable,
    TooLateToAbort,
    Unauthorized,
    WaitingForOpponent,
    WrongPlayer,
    WrongStep,
)
from app.sessions.exchange import ActionRequest, MoveRequest
from app.sessions.kind import (
    Placement,
)

Wire = str | int  # what a script's argument is sent as

# --- arguments -------------------------------------------------------------------------------


class CreateArgs(NamedTuple):
    ttl_ms: Wire  # until the first move
    fields: Wire  # the meta hash, as one JSON object of texts (one argument, not two a field)
    records: Wire  # the move records a game starts with (an opening), as one JSON list


class GameArgs(NamedTuple):
    """A read of one game (state.lua, replay.lua's none): its channel, for a flag fall."""

    channel: Wire


class MovesArgs(NamedTuple):
    first: Wire  # index, 0-based
    last: Wire  # index, inclusive
    channel: Wire


class ChangesArgs(NamedTuple):
    after: Wire  # the version the reader has
    most: Wire  # moves at most
    channel: Wire


class DeleteArgs(NamedTuple):
    token_hash: Wire
    channel: Wire


class ReadArgs(NamedTuple):
    """read.lua; its tail: the receipt fields of the request's Idempotency-Key, if any."""

    channel: Wire
    records: Wire = 0  # the last moves' records to read too (a takeback), at most; -1: all


class CommitArgs(NamedTuple):
    """commit.lua: what the generic engine decided in Python, written if the game is still at
    ``version``; an accepted move's fields are left empty for a refusal."""

    version: Wire  # as read
    receipt_field: Wire  # or ''
    receipt_value: Wire
    most_refusals: Wire  # receipts of refusals kept per game
    ttl_ms: Wire
    channel: Wire
    # 'refused' | 'accepted' (a move) | 'offered' | 'stands' | 'taken' (a takeback offer: made,
    # standing already, or accepting the other's; ``left`` moves are left, ``offerer`` moves)
    outcome: Wire
    status: Wire = ""
    winner: Wire = ""
    next_player: Wire = ""
    position: Wire = ""
    facts: Wire = ""
    record: Wire = ""  # the kind's text of the move (commit.lua adds the stamp)
    reason: Wire = ""
    mover: Wire = ""
    left: Wire = ""
    offerer: Wire = ""


class ActArgs(NamedTuple):
    """act.lua: a resignation, a draw offer, an abort, time given, or (a fast path's game) a
    takeback offer."""

    token_hash: Wire
    action: Wire  # 'resign' | 'offer' | 'abort' | 'takeback' | 'give_time'
    claimed: Wire  # the player the body claims, or ''
    expected_version: Wire  # If-Match, or ''
    key: Wire  # Idempotency-Key, or ''
    fingerprint: Wire
    most_refusals: Wire
    channel: Wire
    flag: Wire = ""  # the rule flag that may leave the action out (session.ACTION_FLAGS), or ''
    seconds: Wire = 0  # the time given (give_time)
    most_gifts: Wire = 0  # the most gifts of time a game may have (give_time)


class CellMoveArgs(NamedTuple):
    """A fast path's move of one cell, a pass or a choice (line_move.lua)."""

    token_hash: Wire
    row: Wire  # 'pass' for a pass, 'choice' for a choice
    col: Wire  # '' for a pass or a choice
    claimed: Wire
    ttl_ms: Wire
    expected_version: Wire
    key: Wire
    fingerprint: Wire
    most_refusals: Wire
    channel: Wire
    full: Wire  # '1' if the store holds its most moves (then only a replay is answered)


class LegalArgs(NamedTuple):
    """A fast path's page of legal moves (line_legal.lua)."""

    after: Wire  # the cell index the page starts after (-1: from the first cell)
    most: Wire  # cells at most
    channel: Wire


class ReserveArgs(NamedTuple):
    """reserve.lua; its tail: the report, game id / accepted moves / expires triples."""

    now: Wire  # ms
    unstarted_ms: Wire  # a new game's lifetime until its first move
    max_games: Wire
    max_unstarted: Wire  # the most live games nobody has moved in
    game_id: Wire  # or '': only a recount
    moves: Wire  # the new game's opening's moves
    max_total_moves: Wire
    owner: Wire
    network: Wire  # the owner's network, or ''
    client_games: Wire  # the most live games of one owner
    network_games: Wire  # of one network's owners together
    client_moves: Wire  # the most moves of one owner
    network_moves: Wire  # of one network's owners together
    idle_ms: Wire  # a game's lifetime after a move
    evicted: Wire  # the game the last answer named to give its place (evict.lua), or ''
    evicted_started: Wire  # '1': it was found moved in, and kept
    may_evict: Wire  # '1': a full store may name a game to give its place


class TouchArgs(NamedTuple):
    """touch.lua; its tail: the report, game id / accepted moves / expires triples
    (accounts.lua's ``report``)."""

    now: Wire
    idle_ms: Wire
    client_moves: Wire
    network_moves: Wire


class ForgetArgs(NamedTuple):
    game_id: Wire
    client_moves: Wire
    network_moves: Wire


class EvictArgs(NamedTuple):
    """evict.lua: the game's channel (its streams are told it is gone)."""

    channel: Wire


class NoArgs(NamedTuple):
    pass


class ArchivedArgs(NamedTuple):
    """archived.lua: the game expires this long from now, now that it is archived."""

    idle_ms: Wire


class JoinArgs(NamedTuple):
    """join.lua: the joiner's new token's hash, the token sealed under the Idempotency-Key
    (``tokens.seal``; '' without a key), and the key's digest ('' without one)."""

    token_hash: Wire
    sealed: Wire
    key: Wire
    channel: Wire
    ttl_ms: Wire  # the game's life from the join: its players are seated, nobody moved yet
    name: Wire  # what the joiner's seat is called ('': as the creator called it)
    player: Wire  # the player (an id) taking it ('': none)


class SpectateArgs(NamedTuple):
    """spectate.lua: a new spectator token's hash, asked with a player's token."""

    token_hash: Wire
    new_hash: Wire
    most: Wire  # the game's most spectator tokens


class RematchArgs(NamedTuple):
    """rematch.lua: a rematch offer ('offer'), or the link to the rematch made ('link')."""

    token_hash: Wire
    mode: Wire  # 'offer' | 'link'
    new_hash: Wire  # the hash of the caller's token in the rematch (an offer's)
    sealed: Wire  # that token, sealed under the caller's token here
    new_id: Wire  # the rematch made (a link's), or ''
    channel: Wire


class LobbyAddArgs(NamedTuple):
    game_id: Wire
    owner: Wire
    most: Wire  # open games one owner may hold
    network: Wire  # the owner's network, or ''
    network_most: Wire  # open games one network's owners may hold together


class LobbyRemoveArgs(NamedTuple):
    game_id: Wire


class LobbyPageArgs(NamedTuple):
    after: Wire  # the number the page starts after
    most: Wire


# --- answers ---------------------------------------------------------------------------------


class StateReply(NamedTuple):
    """A game's state as every game script answers it (game.lua's ``state_of``)."""

    kind: str
    facts: str  # JSON
    status: str
    winner: str
    reason: str
    next_player: str
    version: str
    last: str | None  # the last move's record
    moves: int  # made so far
    offer: str
    control: str  # '' without clocks
    r1: str
    r2: str
    since: str
    running: str
    lobby: str = "0"  # '1': created open
    open: str = "0"  # the seat nobody has taken yet, '0' for none
    joined: str = "0"  # the version the open seat was taken at, '0' before
    fmdue: str = "0"  # when a first move is due, '0' for none
    off: str = ""  # the rule flags set false, comma-separated
    private: str = "0"  # '1': a private game
    rmo: str = "0"  # the player whose rematch offer stands, '0' for none
    rm: str = ""  # the rematch's id, once made
    tbo: str = "0"  # the player whose takeback offer stands, '0' for none
    tbl: str = "0"  # the version of the last takeback accepted, '0' for none
    turn: str = "0"  # when the running player's turn began (ms), '0' if never written
    at: str = "0"  # the instant of the game's last change (ms), '0' if never written
    lg: str = "0"  # the version of the last gift of time, '0' for none
    jat: str = "0"  # when the open seat was taken (ms), '0' before (or not kept)
    made: str = "0"  # when the game was created (ms), '0' if not kept
    n1: str = ""  # what seat 1 is called, '' if not named
    n2: str = ""
    p1: str = ""  # the player (an id) holding seat 1, '' for none
    p2: str = ""
    pool: str = ""  # a rated game's pool ('': not rated)
    tour: str = ""  # the tournament the game is a board of ('': none)


class ReadReply(NamedTuple):
    """read.lua: what the generic engine needs to decide a move in Python."""

    kind: str
    params: str
    h1: str
    h2: str
    version: str
    refusals: str | None
    max_moves: str
    position: str | None
    status: str
    winner: str
    reason: str | None
    offer: str | None
    lobby: str
    open: str
    joined: str
    tbo: str  # the player whose takeback offer stands, '0' for none
    opened: str  # the opening's moves (posted at creation: never taken back)
    off: str  # the rule flags set false, comma-separated
    records: list[str]  # the last moves' records asked for (ReadArgs.records)
    receipts: list[str | None]  # for the fields asked, in their order


class MovesReply(NamedTuple):
    kind: str
    version: str
    records: list[str]


class LegalReply(NamedTuple):
    """line_legal.lua: the game's version and the player to move (0: the game is over),
    the board's side, how many legal moves there are in all, the page's cell indices (row-major:
    ``row * n + col``) and whether another legal cell follows them (0 or 1)."""

    version: str
    player: str | int
    n: int
    total: int  # legal moves in all
    cells: list[int]
    more: int


class HistoryReply(NamedTuple):
    """replay.lua: every move record, to rebuild a board."""

    kind: str
    params: str
    records: list[str]


class ChangesReply(NamedTuple):
    at: int  # the store's time, ms
    first: int  # moves made at the version asked about (or left by the takeback below)
    state: list[Any]  # a StateReply
    records: list[str]  # of the moves after them
    # The gifts of time after the version asked about that a stream sends (``Changes.gifts``),
    # each a GiftReply; None for a game stored before gifts were logged.
    gifts: list[Any] | None
    # The takeback after the version asked about that left the fewest moves: its version, the
    # moves it left, and the last one's record ('' and '': none).
    tb_version: str = ""
    tb_left: str = ""
    tb_last: str = ""
    tb_at: str = ""  # its instant (ms; '' where it was not kept)
    # The game's parameters (JSON), when the takeback or a gift came after no move: its start.
    params: str = ""


class GiftReply(NamedTuple):
    """A gift of time as game.lua's ``time_given`` logged it (past.py's ``Gift``), and the
    record of the move it came after ('' for none)."""

    version: str
    at: str  # ms
    moves: int  # made then
    r1: str  # each player's time left right after it (ms)
    r2: str
    running: str  # whose clock ran, 0 for none
    turn: str  # when the running player's turn began (ms)
    offer: str  # the player whose draw offer stood, 0 for none
    tbo: str  # the player whose takeback offer stood, 0 for none
    fmdue: str  # when a first move was due (ms), 0 for none
    tbl: str  # the version of the last takeback, 0 for none
    last: str


class Shares(NamedTuple):
    """accounts.lua's: the owners and networks at their share of moves, and the moves of those
    asked (an owner's and a network's names never meet)."""

    heavy: list[str]
    owned: list[Any]  # name, moves, name, moves, ...


class AccountsReply(NamedTuple):
    """touch.lua and forget.lua."""

    total: int  # moves held
    shares: list[Any]  # a Shares


class ReserveReply(NamedTuple):
    placed: int  # 0 or 1
    wait_ms: int  # until the next game expires, when not placed
    total: int
    # '', 'games', 'unstarted', 'moves', 'client_games', 'network_games', 'client_moves',
    # 'network_moves', or 'evict' (``victim`` must give its place first)
    why: str
    shares: list[Any]
    victim: str = ""


class Settled(NamedTuple):
    """Every game script's answer: the reason of the ending game.lua's ``settle`` applied in it
    (``timeout``, ``no_first_move``; none: 0, and the store counts the ending), the script's
    own answer, and game.lua's ``lived``: the instant the game ended if it went into the
    archive's outbox in it (0: it did not), and its deadline if that changed in it (0: it did
    not, or the game has none)."""

    fell: str | int
    answer: Any
    ended: int = 0
    due: int = 0


# Tagged answers: the outcomes of a move or an action...


class Ok(NamedTuple):
    state: list[Any]


class Accepted(NamedTuple):
    state: list[Any]


class Replay(NamedTuple):
    """A move answered before under the request's key: its number, its record, the state now."""

    seq: int
    record: str
    state: list[Any]


class ReplayState(NamedTuple):
    """An action answered before under the request's key: the state it left, as JSON."""

    state: str


class Refused(NamedTuple):
    pass


class Conflict(NamedTuple):
    pass


class ReceiptFound(NamedTuple):
    """The request's receipt, written in between (by another process)."""

    text: str


class Replayed(NamedTuple):
    """A refusal answered before under the request's key: the refusal's own tagged answer."""

    refusal: list[Any]


class CapacityFull(NamedTuple):
    pass


class NotFound(NamedTuple):
    pass


class NotAuthorized(NamedTuple):
    pass


class KeyReused(NamedTuple):
    pass


# ... and the refusals a script decides (kept in receipts as their code and fields, '|'-joined).


class WrongPlayerReply(NamedTuple):
    player: str


class PreconditionReply(NamedTuple):
    version: str


class OutOfBoundsReply(NamedTuple):
    n: str


class GameOverReply(NamedTuple):
    status: str
    winner: str
    reason: str = ""  # an empty reason is no piece of a receipt


class NotYourTurnReply(NamedTuple):
    next_player: str


class CellOccupiedReply(NamedTuple):
    pass


class NoPassesReply(NamedTuple):
    rule: str


class WrongStepReply(NamedTuple):
    pass


class WaitingReply(NamedTuple):
    open_seat: str


class JoinedReply(NamedTuple):
    """join.lua's seat taken (or, ``replayed`` 1, taken before under the same key), the token
    sealed under the key, and the game's state after it."""

    player: str
    sealed: str
    replayed: int
    state: list[Any]


class SeatTakenReply(NamedTuple):
    # 'own_game': the player joining holds the other seat; 'player_needed': a rated game's seat
    # joined without a player
    why: str = ""


class ActionNotAllowedReply(NamedTuple):
    action: str
    why: str = ""


class TooLateReply(NamedTuple):
    pass


class SpectatorReply(NamedTuple):
    pass


class GameNotOverReply(NamedTuple):
    pass


class NothingToTakeBackReply(NamedTuple):
    player: str


class OfferedReply(NamedTuple):
    state: list[Any]


class NeededReply(NamedTuple):
    """The other player's offer stands: the caller makes the rematch, its seat ``player``
    taking the offerer's token ``hash``."""

    player: str
    hash: str


class LinkedReply(NamedTuple):
    id: str
    player: str  # the caller's seat in the rematch
    sealed: str  # its token there, sealed under its token here
    state: list[Any]


class TooManySpectatorsReply(NamedTuple):
    pass


class LobbyAdded(NamedTuple):
    placed: int  # 0: the owner (or its network) holds its most open games
    held: list[str]  # the owner's listed games (with the new one, if placed), or its network's
    network: int = 0  # 1: the network holds its most (``held``: its listed games)


class LobbyPage(NamedTuple):
    ids: list[str]
    numbers: list[str]


# --- the meta hash's fields read without a script (HMGET), by the same names ------------------


# A field as the client types an HMGET's answer (a text: the clients decode), None if absent.
Field = str | bytes | None


class KnownFields(NamedTuple):
    """What never changes of a game (``codec.known_of``); the fields are the meta hash's, read
    as ``HMGET meta *KnownFields._fields`` (Redis answers None for a field the game lacks)."""

    kind: Field  # None: no such game
    engine: Field
    h1: Field
    h2: Field
    owner: Field
    network: Field
    facts: Field
    private: Field


class RecipeFields(NamedTuple):
    """How a game was made (``codec.recipe_of``), read as ``KnownFields`` are."""

    kind: Field  # None: no such game
    params: Field
    control: Field
    fm: Field  # the first move's deadline, ms
    off: Field
    private: Field
    opened: Field  # the opening's moves
    n1: Field  # what seat 1 is called (None: not named)
    n2: Field


Record = type[tuple[Any, ...]]

REPLIES: dict[str, Record] = {
    "state": StateReply, "read": ReadReply, "moves": MovesReply, "history": HistoryReply,
    "legal": LegalReply,
    "changes": ChangesReply, "gift": GiftReply, "shares": Shares, "accounts": AccountsReply,
    "reserve": ReserveReply, "settled": Settled, "lobby_added": LobbyAdded,
    "lobby_page": LobbyPage,
}  # fmt: skip
REFUSALS: dict[str, Record] = {
    "wrong_player": WrongPlayerReply, "precondition_failed": PreconditionReply,
    "out_of_bounds": OutOfBoundsReply, "game_over": GameOverReply,
    "not_your_turn": NotYourTurnReply, "cell_occupied": CellOccupiedReply,
    "no_passes": NoPassesReply, "wrong_step": WrongStepReply,
    "waiting_for_opponent": WaitingReply, "action_not_allowed": ActionNotAllowedReply,
    "too_late_to_abort": TooLateReply, "game_not_over": GameNotOverReply,
    "nothing_to_take_back": NothingToTakeBackReply,
}  # fmt: skip
TAGGED: dict[str, Record] = {
    "ok": Ok, "accepted": Accepted, "replay": Replay, "replay_state": ReplayState,
    "refused": Refused, "conflict": Conflict, "receipt": ReceiptFound, "replayed": Replayed,
    "capacity_exhausted": CapacityFull, "game_not_found": NotFound,
    "unauthorized": NotAuthorized, "idempotency_key_reused": KeyReused,
    "joined": JoinedReply, "seat_taken": SeatTakenReply, "spectator": SpectatorReply,
    "too_many_spectators": TooManySpectatorsReply, "offered": OfferedReply,
    "needed": NeededReply, "linked": LinkedReply,
} | REFUSALS  # fmt: skip


def decode(answer: list[Any]) -> tuple[Any, ...]:
    """A tagged answer as its record; StoreUnavailable for one no script gives."""
    record = TAGGED.get(answer[0]) if answer else None
    if record is None:
        raise StoreUnavailable(f"unexpected answer from the store: {answer!r}")
    return record(*answer[1:])


# --- the scripts -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Script:
    """A script: its arguments' record, whether a tail follows them, and the answers it builds
    (the encoders its prelude defines)."""

    name: str
    args: Record
    tail: bool = False
    replies: tuple[str, ...] = ()
    game: bool = True  # reads or changes a game: runs after game.lua (its clocks and state)
    cells: bool = False  # changes a fast path's cells and lines: runs after cells.lua too
    accounts: bool = False  # runs after accounts.lua


GAME_REPLIES = ("settled", "state")
MOVE_REPLIES = (*GAME_REPLIES, "ok", "replay", "replay_state", "replayed", "capacity_exhausted",
                "game_not_found", "unauthorized", "idempotency_key_reused", *REFUSALS)  # fmt: skip
ACCOUNT_REPLIES = ("shares", "accounts", "reserve")
SCRIPTS: dict[str, Script] = {
    script.name: script
    for script in (
        Script("create", CreateArgs, replies=GAME_REPLIES),
        Script("delete", DeleteArgs, game=False),
        Script("replay", NoArgs, replies=("history",), game=False),
        Script("state", GameArgs, replies=GAME_REPLIES),
        Script("moves", MovesArgs, replies=(*GAME_REPLIES, "moves")),
        Script("changes", ChangesArgs, replies=(*GAME_REPLIES, "changes", "gift")),
        Script("read", ReadArgs, tail=True, replies=(*GAME_REPLIES, "read")),
        Script(
            "commit",
            CommitArgs,
            replies=(*GAME_REPLIES, "accepted", "refused", "conflict", "receipt", "game_not_found"),
        ),
        Script("act", ActArgs, replies=MOVE_REPLIES, cells=True),
        Script("line_move", CellMoveArgs, replies=MOVE_REPLIES, cells=True),
        Script("line_legal", LegalArgs, replies=(*GAME_REPLIES, "legal")),
        Script(
            "reserve", ReserveArgs, tail=True, replies=ACCOUNT_REPLIES, game=False, accounts=True
        ),
        Script("touch", TouchArgs, tail=True, replies=ACCOUNT_REPLIES, game=False, accounts=True),
        Script("forget", ForgetArgs, replies=ACCOUNT_REPLIES, game=False, accounts=True),
        Script("evict", EvictArgs, game=False),
        Script("join", JoinArgs, replies=(*GAME_REPLIES, "joined", "seat_taken", "game_not_found")),
        Script(
            "spectate",
            SpectateArgs,
            replies=(
                *GAME_REPLIES,
                "ok",
                "game_not_found",
                "unauthorized",
                "spectator",
                "too_many_spectators",
            ),
        ),
        Script(
            "rematch",
            RematchArgs,
            replies=(
                *GAME_REPLIES,
                "offered",
                "needed",
                "linked",
                "game_not_found",
                "unauthorized",
                "action_not_allowed",
                "game_not_over",
            ),
        ),
        Script("lobby_add", LobbyAddArgs, replies=("lobby_added",), game=False),
        Script("forget_game", NoArgs, game=False),
        Script("archived", ArchivedArgs, game=False),
        Script("lobby_remove", LobbyRemoveArgs, game=False),
        Script("lobby_page", LobbyPageArgs, replies=("lobby_page",), game=False),
    )
}


def _encoder(name: str, record: Record) -> str:
    """The Lua function that turns a table with the record's fields into its list."""
    defaults = record._field_defaults  # type: ignore[attr-defined]  # may be left out
    fields = [f"'{name}'"] if name in TAGGED else []
    fields += [
        f"r.{field} or {defaults[field]!r}"
        if field in defaults
        else f"need(r.{field}, '{name}.{field}')"
        for field in record._fields  # type: ignore[attr-defined]
    ]
    return f"REPLY.{name} = function(r) return {{{', '.join(fields)}}} end\n"


def lua_prelude(script: Script) -> str:
    """What a script's text starts with: ``ARG`` (its arguments by name; ``ARG_TAIL``, the
    index of the first argument of its tail) and ``REPLY`` (the encoders of its answers)."""
    fields = script.args._fields  # type: ignore[attr-defined]
    names = ", ".join(f"{field} = ARGV[{i}]" for i, field in enumerate(fields, start=1))
    lines = [f"local ARG = {{{names}}}\n"]
    if script.tail:
        lines.append(f"local ARG_TAIL = {len(fields) + 1}\n")
    if script.replies:
        lines.append(
            "local REPLY = {}\nlocal function need(value, name)\n"
            "  if value == nil then error('the answer has no ' .. name) end\n"
            "  return value\nend\n"
        )
        for name in script.replies:
            lines.append(_encoder(name, REPLIES.get(name) or TAGGED[name]))
    return "".join(lines)


def check_script(script: Script, text: str) -> None:
    """Refuse a script's text that reads an argument or builds an answer its declaration does
    not name, or leaves a declared argument unread (ValueError, when the store is built)."""
    fields = set(script.args._fields)  # type: ignore[attr-defined]
    read = set(re.findall(r"\bARG\.(\w+)", text))
    if read - fields:
        raise ValueError(f"{script.name}.lua reads undeclared arguments {sorted(read - fields)}")
    if fields - read:
        raise ValueError(f"{script.name}.lua never reads its arguments {sorted(fields - read)}")
    if re.search(r"\bARGV\[\d", text):
        raise ValueError(f"{script.name}.lua reads ARGV by position: name it in its record")
    built = set(re.findall(r"\bREPLY\.(\w+)", text)) - set(script.replies)
    if built:
        raise ValueError(f"{script.name}.lua builds undeclared answers {sorted(built)}")
    if "ARG_TAIL" in text and not script.tail:
        raise ValueError(f"{script.name}.lua reads a tail its record does not declare")


# --- refusals: what a script's refusal stands for ------------------------------------------


def _cell(request: MoveRequest | ActionRequest) -> Placement:
    assert isinstance(request, MoveRequest), "only a move has a cell"
    return Placement.of(request.played)


# The refusals a script decides (their answers, and their receipts): the exception, rebuilt for
# the request that is asked (again: same key and body).
Request = MoveRequest | ActionRequest
REFUSED_AS: dict[Record, Callable[[Any, Request], DomainError]] = {
    WrongPlayerReply: lambda a, r: WrongPlayer(int(a.player), r.player or 0),
    PreconditionReply: lambda a, r: PreconditionFailed(int(a.version)),
    OutOfBoundsReply: lambda a, r: OutOfBounds(_cell(r).row, _cell(r).col, int(a.n)),
    GameOverReply: lambda a, r: GameOver(a.status, int(a.winner), a.reason or None),
    NotYourTurnReply: lambda a, r: NotYourTurn(3 - int(a.next_player), int(a.next_player)),
    CellOccupiedReply: lambda a, r: CellOccupied(_cell(r).row, _cell(r).col),
    NoPassesReply: lambda a, r: PassNotAllowed(a.rule),
    WrongStepReply: lambda a, r: WrongStep(NO_OPENING_CHOICE),
    WaitingReply: lambda a, r: WaitingForOpponent(int(a.open_seat)),
    ActionNotAllowedReply: lambda a, r: ActionNotAllowed(a.action, a.why or ""),
    TooLateReply: lambda a, r: TooLateToAbort(),
    GameNotOverReply: lambda a, r: GameNotOver(),
    NothingToTakeBackReply: lambda a, r: NothingToTakeBack(int(a.player)),
}
# Answers of every move script that are no refusal of the move itself.
NOT_MOVES: dict[Record, Callable[[str], DomainError]] = {
    NotFound: GameNotFound,
    NotAuthorized: lambda _: Unauthorized("the token is not valid for this game"),
    KeyReused: lambda _: IdempotencyKeyReused(),
}


def refusal_of(game_id: str, answer: tuple[Any, ...], request: Request) -> DomainError:
    """The exception a move or action script's answer stands for, when it is no success: a
    refusal (replayed: the one remembered under the request's key), or no move at all."""
    if isinstance(answer, Replayed):
        return refusal_of(game_id, decode(answer.refusal), request).copy(replayed=True)
    if type(answer) in NOT_MOVES:
        return NOT_MOVES[type(answer)](game_id)
    refused = REFUSED_AS.get(type(answer))
    if refused is None:
        raise StoreUnavailable(f"unexpected answer from the store: {answer!r}")
    return refused(answer, request)
