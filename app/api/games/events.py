"""The game's Server-Sent Events stream, and its declaration in OpenAPI.

One event per change of the game, its ``id`` the game's version after it: ``join`` when an open
game's seat is taken (``data`` = the state), ``move`` per accepted move (``data`` = the move's
answer as ``POST …/moves`` gave it), ``offer`` while a draw offer stands (``data`` = the
state), ``takeback`` while a takeback offer stands and when one is accepted (``data`` = the state
right after it: the moves after its ``move_count`` are gone, and those sent next replace them),
``clock`` per gift of time (``data`` = the state right after it: its clocks with the time
given, its instant), ``abort`` when the game is aborted (``data`` = the final state), then one
``end`` (``data`` = the final state) when the game is over — and ``rematch`` (``data`` = the
state) on a stream opened after a rematch was offered or made, the changes that follow the end.
The stream reads the store (``GameStore.changes``: the moves since the last change sent, a page
at a time, the state, and the changes that were no moves among them), waits for the next change
(``GameStore.wait_for_change``) — or for the game's next deadline (a running clock's, a first
move's), so that an ending by time is sent when it comes — and reads again; a keep-alive
comment goes out after a quiet wait (``event_keep_alive_seconds``: clients wait
``KEEP_ALIVES_MISSED`` of its intervals for a line). Its first bytes carry the ``retry:`` field
(``RECONNECT_MS``), and a resume at or past the game's end is answered 204 No Content (the
route), which tells an ``EventSource`` to stop reconnecting.

A stream that reads late (opened after changes, or resumed with ``Last-Event-ID`` or ``since``)
sends every change it missed, in order: a join, a takeback and each gift of time in its place
among the moves (``_between``: its id between theirs; a gift's state rebuilt from the game's
log of gifts, ``session.state_at_gift``), so it sends what a live stream sent — but what is
history by then, which no client needs: a declined offer (a move came after it: the move is
sent), moves a takeback took back (the takeback, then the moves that replace them) and a gift
made after such a move (the takeback's state holds its time: no takeback rolls a clock back).
The last change, if no move, is sent with the state as it is now (an offer standing, a gift).
A game stored before gifts were logged (Redis) sends its last gift only, with the state now,
as streams did then. If the store stops answering, the stream ends with an ``error`` event
(``data`` = the problem) rather than a cut body: the client reconnects with ``Last-Event-ID``.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import replace
from typing import Any, NamedTuple

from fastapi.sse import format_sse_event
from pydantic_core import to_json

from app.api.games.streams import RETRY_AFTER_SECONDS
from app.contract.events import KEEP_ALIVE_SECONDS, KEEP_ALIVES_MISSED, RECONNECT_MS
from app.contract.games import Kind
from app.contract.problems import SERVICE_PROBLEMS, Problem, problem_body
from app.contract.render import Names, move_result_json, state_json, state_names
from app.sessions.errors import GameNotFound, TooManyStreams, Unavailable
from app.sessions.exchange import GameState
from app.sessions.kind import Kinds
from app.sessions.past import result_at
from app.sessions.store import Changes, GameStore

PAGE = 50  # moves read at a time: a long history is sent in pages, other work between them
STOPPING = "the server is stopping: reconnect with Last-Event-ID"


async def move_events(
    store: GameStore,
    kinds: Kinds[Kind],
    game_id: str,
    after: int,
    disconnected: Callable[[], Awaitable[bool]],
    stopping: asyncio.Event,
    first: Changes | None = None,
    evicted: asyncio.Event | None = None,
    keep_alive: float = KEEP_ALIVE_SECONDS,
) -> AsyncIterator[bytes]:
    """The stream's events; ``first`` is its first read of the store, if already made. The
    stream re-reads the game at least every ``keep_alive`` seconds, and sends a keep-alive
    when that brought nothing. It ends with an ``error`` event when ``evicted`` is set (its
    place went to another client's stream)."""
    evicted = evicted or asyncio.Event()
    retry = format_sse_event(retry=RECONNECT_MS)  # sent with the stream's first bytes
    try:
        events = _events(
            store, kinds, game_id, after, disconnected, stopping, first, evicted, keep_alive
        )
        async for event in events:
            yield retry + event
            retry = b""
    except GameNotFound:
        return  # deleted or expired: the stream ends
    except Unavailable as error:
        yield _error_event(error)


NO_OFFERS: tuple[int | None, int | None] = (None, None)


def _state_event(event: str, state: GameState, names: Names | None) -> bytes:
    """An event whose ``data`` is ``state``, its ``id`` the state's version."""
    data = to_json(state_json(state, names)).decode()
    return format_sse_event(data_str=data, event=event, id=str(state.version))


def _clock_event(state: GameState, names: Names | None) -> bytes:
    return _state_event("clock", state, names)


class _Change(NamedTuple):
    """A change that was no move, as a stream sends it in its place among the moves."""

    version: int
    event: bytes
    takeback: bool = False  # an accepted takeback: no offer stands after it


def _between(read: Changes, names: Names | None, sent: int) -> deque[_Change]:
    """The changes after version ``sent`` that were no moves and that ``read`` tells, in order,
    each sent in its place among the moves (its ``id`` between theirs): the join, the takeback
    that left the fewest moves (the moves sent after it replace those it took back), and the
    gifts of time before the last change (the last change's is sent with the state as it is
    now, after the offers standing)."""
    now = read.state
    changes = [
        _Change(gift.version, _clock_event(gift, names))
        for gift in read.gifts or ()
        if sent < gift.version < now.version
    ]
    joined = now.joined
    if joined is not None and joined > sent:
        changes.append(_Change(joined, _join_event(now, names, joined)))
    taken = read.taken_back
    if taken is not None and taken.version > sent:
        changes.append(_Change(taken.version, _state_event("takeback", taken, names), True))
    return deque(sorted(changes))


def _error_event(error: Unavailable) -> bytes:
    problem = problem_body(SERVICE_PROBLEMS.problem_of(type(error)), str(error), error.details())
    return format_sse_event(data_str=to_json(problem).decode(), event="error")


async def _events(
    store: GameStore,
    kinds: Kinds[Kind],
    game_id: str,
    after: int,
    disconnected: Callable[[], Awaitable[bool]],
    stopping: asyncio.Event,
    first: Changes | None,
    evicted: asyncio.Event,
    keep_alive: float,
) -> AsyncIterator[bytes]:
    sent = after  # the version of the last change sent
    offers = NO_OFFERS  # the draw and takeback offers standing as last sent (each sent once)
    idle = False  # the last wait brought nothing: the next empty read sends a keep-alive
    while not await disconnected():
        if stopping.is_set():
            yield format_sse_event(comment=STOPPING)
            return
        if evicted.is_set():
            yield _error_event(TooManyStreams("", 0, RETRY_AFTER_SECONDS, evicted=True))
            return
        read = first or await store.changes(game_id, sent, PAGE)
        first = None
        moves, now = read.moves, read.state
        names = state_names(kinds, now)  # the board's size never changes: nor its names
        between = _between(read, names, sent)
        for move in moves:
            while between and between[0].version < move.changed:
                change = between.popleft()
                yield change.event
                sent = change.version
                offers = NO_OFFERS if change.takeback else offers
            result = result_at(move, now, kinds.find(now.kind))
            data = to_json(move_result_json(result, names)).decode()
            yield format_sse_event(data_str=data, event="move", id=str(move.changed))
            sent, offers = move.changed, NO_OFFERS
        if moves and moves[-1].seq < now.move_count:
            idle = False
            await asyncio.sleep(0)  # a long history: other requests are served between pages
            continue
        for change in between:  # after every move read
            yield change.event
            sent = change.version
            offers = NO_OFFERS if change.takeback else offers
        if now.status != "in_progress":
            # The end is a change of its own (a flag fall, a resignation, an agreed draw), with
            # its version as id, unless the last move ended the game (its event has that id).
            # Sent unless the stream resumed past it; a rematch's changes come after it.
            ended = now.ended_version
            data = to_json(state_json(now, names)).decode()
            if after < ended:
                ending = str(ended) if ended > sent else None
                if now.status == "aborted":  # by a player, or a first move not made in time
                    yield format_sse_event(data_str=data, event="abort", id=ending)
                    ending = None  # the end that follows is the same change
                yield format_sse_event(data_str=data, event="end", id=ending)
            if now.version > max(sent, ended):  # a rematch offered, or made, since
                yield format_sse_event(data_str=data, event="rematch", id=str(now.version))
            return
        if now.version > sent:  # no move came after the last change: a standing offer
            standing = (now.draw_offer, now.takeback_offer)
            if now.draw_offer is not None and now.draw_offer != offers[0]:
                yield _state_event("offer", now, names)
            if now.takeback_offer is not None and now.takeback_offer != offers[1]:
                yield _state_event("takeback", now, names)
            # Time given as the last change (those before it were sent in their places); in a
            # game stored before gifts were logged, the last of those since, whose state holds
            # them all.
            given = now.last_given
            if given is not None and given > sent and (read.gifts is None or given == now.version):
                yield _clock_event(now, names)
            sent, offers = now.version, standing
            idle = False
            continue
        if idle:
            yield format_sse_event(comment="keep-alive")
        due = read.due_in()
        # Past a deadline by a millisecond, so that the next read finds the flag fallen.
        wait = keep_alive if due is None else min(keep_alive, due + 0.001)
        await _change_or(store.wait_for_change(game_id, sent, wait), stopping, evicted)
        idle = due is None or due >= keep_alive


def _join_event(now: GameState, names: Names | None, joined: int) -> bytes:
    """The open seat was taken at version ``joined``: the state as it is now, at the join's
    instant."""
    shown = now if joined == now.version else replace(now, at_ms=now.joined_ms)
    data = to_json(state_json(shown, names)).decode()
    return format_sse_event(data_str=data, event="join", id=str(joined))


async def _change_or(change: Awaitable[None], *ends: asyncio.Event) -> None:
    """Wait for the game's next change, or for one of ``ends`` (the server told to stop, the
    stream's place given to another)."""
    waits = {asyncio.ensure_future(change), *(asyncio.ensure_future(e.wait()) for e in ends)}
    try:
        done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:  # also when the stream itself is cancelled (its client went away)
        for wait in waits:
            wait.cancel()
    for wait in done:
        wait.result()  # a store failure is raised here


def _ref(shape: type) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{shape.__name__}"}


# The stream in OpenAPI 3.1. Its media type has no ``schema``: tools that find one take it for
# the schema of each event as sent (schemathesis checks every event against it) or of the whole
# body, and generated clients then try to parse the stream. What it carries is declared by the
# extension ``x-sse-events``: a reference to ``GameEvent``, the union, by ``event``, of one named
# schema per event. Each event is described as a client reads it: ``event``, ``id`` and ``data``
# — ``data`` being the JSON document the event's one ``data:`` line holds, parsed. (OpenAPI 3.2
# says this with ``itemSchema``, which 3.1 validators and generators refuse.)
SSE_EVENTS = "x-sse-events"
EVENT_UNION = "GameEvent"

VERSION_ID = {
    "type": "string",
    "pattern": "^[0-9]+$",
    "description": "The game's version after this change: resume after it with Last-Event-ID.",
}


# How clients count a quiet stream, declared beside its events for generated clients to read
# (clients/python/generate.py): the default interval of its keep-alives, and how many of them
# a client may miss before it takes the stream for dead.
SSE_KEEP_ALIVE_SECONDS = "x-sse-keep-alive-seconds"
SSE_KEEP_ALIVES_MISSED = "x-sse-keep-alives-missed"


def event_stream() -> dict[str, Any]:
    """The stream's media type: its events declared by ``x-sse-events``, its keep-alives by
    ``x-sse-keep-alive-seconds`` and ``x-sse-keep-alives-missed``."""
    return {
        "text/event-stream": {
            SSE_EVENTS: {"$ref": f"#/components/schemas/{EVENT_UNION}"},
            SSE_KEEP_ALIVE_SECONDS: KEEP_ALIVE_SECONDS,
            SSE_KEEP_ALIVES_MISSED: KEEP_ALIVES_MISSED,
        }
    }


def keep_alives_in_words() -> str:
    """What the stream's answer says of its keep-alives (the numbers its extensions carry)."""
    return (
        "lines starting with `:` are keep-alives, sent at least every "
        f"`event_keep_alive_seconds` ({KEEP_ALIVE_SECONDS:g} s by default) while nothing "
        f"changes: a client that hears nothing for {KEEP_ALIVES_MISSED} times that long may take "
        "the stream for dead and resume it"
    )


def _event(
    name: str, description: str, data: dict[str, Any], with_id: bool | None
) -> dict[str, Any]:
    """One event's schema. ``with_id``: True, always carries an ``id``; None, may; False, never."""
    properties: dict[str, Any] = {"event": {"type": "string", "enum": [name]}}
    if with_id is not False:
        properties["id"] = VERSION_ID
    properties["data"] = data
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": ["event", "id", "data"] if with_id else ["event", "data"],
    }


def event_components(move_result: type, states: Mapping[str, type]) -> dict[str, dict[str, Any]]:
    """The named schemas of the stream's events, and their union ``GameEvent``, for the
    OpenAPI document's components: a move's answer, and the kinds' states by kind."""
    state: dict[str, Any] = {
        "oneOf": [_ref(shape) for shape in states.values()],
        "discriminator": {
            "propertyName": "game",
            "mapping": {name: _ref(shape)["$ref"] for name, shape in states.items()},
        },
    }
    events = {
        "JoinEvent": _event(
            "join",
            "An open game's free seat was taken (`POST …/join`): `data` is the game's state "
            "as it is when the event is sent (moves may follow it). Before any move.",
            state,
            True,
        ),
        "MoveEvent": _event(
            "move", "A move was accepted: `data` is the move's answer.", _ref(move_result), True
        ),
        "OfferEvent": _event(
            "offer", "A draw offer stands (`draw_offer`): `data` is the state.", state, True
        ),
        "TakebackEvent": _event(
            "takeback",
            "A takeback offer stands (`takeback_offer`), or one was accepted: `data` is the "
            "state right after it. After an accepted one, the moves after its `move_count` are "
            "gone: the `move` events that follow replace them (their `seq` numbers are used "
            "again).",
            state,
            True,
        ),
        "ClockEvent": _event(
            "clock",
            "Time was given to a player (`POST …/give-time`): `data` is the state, its clocks "
            "with the time added.",
            state,
            True,
        ),
        "AbortEvent": _event(
            "abort",
            "The game was aborted (`status` `aborted`: by a player, or a first move not made "
            "in time): `data` is the final state. The `end` event follows it, without an `id`.",
            state,
            True,
        ),
        "RematchEvent": _event(
            "rematch",
            "After the end, a rematch was offered (`rematch_offer`) or made (`rematch`): `data` "
            "is the state. Sent by a stream opened (or resumed) after it: a stream ends with "
            "the game's end.",
            state,
            True,
        ),
        "EndEvent": _event(
            "end",
            "The game is over: `data` is the final state. Its `id` is the version of the "
            "ending when the ending is a change of its own (a flag fall, a resignation, an "
            "agreed draw); without one when the last move ended the game, or an `abort` event "
            "carried it.",
            state,
            None,
        ),
        "ErrorEvent": _event(
            "error",
            "The store stopped answering: `data` is the problem. The stream ends; resume it "
            "with `Last-Event-ID`.",
            _ref(Problem),
            False,
        ),
    }
    names = {name: schema["properties"]["event"]["enum"][0] for name, schema in events.items()}
    union = {
        "description": "One event of a game's stream (`GET /v1/games/{game_id}/events`), as a "
        "client reads it: the event's name, its `id` and its `data` line parsed as JSON.",
        "oneOf": [{"$ref": f"#/components/schemas/{name}"} for name in events],
        "discriminator": {
            "propertyName": "event",
            "mapping": {event: f"#/components/schemas/{name}" for name, event in names.items()},
        },
    }
    return {**events, EVENT_UNION: union}
