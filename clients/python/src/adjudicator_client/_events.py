"""A game's event stream (Server-Sent Events) as the clients follow it: its events as objects,
the parser of its lines, and when to give up on a stream and resume it elsewhere.

How long a quiet stream may stay silent comes from the service's document (``_schema``:
``KEEP_ALIVE_SECONDS``, ``KEEP_ALIVES_MISSED``): a client waits that many keep-alive intervals
for a line before it takes the stream for dead and resumes it with ``Last-Event-ID``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import httpx

from adjudicator_client._operations import Call, events
from adjudicator_client._schema import (
    KEEP_ALIVE_SECONDS,
    KEEP_ALIVES_MISSED,
    GetGameAnswer,
    GetMoveAnswer,
)


def stream_read_timeout(keep_alive_seconds: float = KEEP_ALIVE_SECONDS) -> float:
    """How long a client waits for the next line of a stream whose server sends a keep-alive
    every ``keep_alive_seconds``."""
    return KEEP_ALIVES_MISSED * keep_alive_seconds


@dataclass(frozen=True)
class JoinEvent:
    """An open game's free seat was taken (``event: join``): the state when it was sent."""

    id: int
    state: GetGameAnswer


@dataclass(frozen=True)
class MoveEvent:
    """A move was accepted (``event: move``): the move and the state after it."""

    id: int
    move: GetMoveAnswer
    state: GetGameAnswer


@dataclass(frozen=True)
class OfferEvent:
    """A draw offer stands (``event: offer``)."""

    id: int
    state: GetGameAnswer


@dataclass(frozen=True)
class TakebackEvent:
    """A takeback offer stands (``takeback_offer``), or one was accepted (``event: takeback``):
    the state right after it. After an accepted one, the moves after its ``move_count`` are
    gone: the ``MoveEvent``s that follow replace them (their numbers are used again)."""

    id: int
    state: GetGameAnswer


@dataclass(frozen=True)
class ClockEvent:
    """Time was given to a player (``event: clock``): the state, its clocks with the time
    added."""

    id: int
    state: GetGameAnswer


@dataclass(frozen=True)
class AbortEvent:
    """The game was aborted (``event: abort``: by a player, or a first move not made in time):
    the final state (``status`` ``aborted``). The ``end`` event follows it."""

    id: int
    state: GetGameAnswer


@dataclass(frozen=True)
class RematchEvent:
    """After the end, a rematch was offered or made (``event: rematch``, sent by a stream
    opened after it): the state (``rematch_offer``, ``rematch``)."""

    id: int
    state: GetGameAnswer


@dataclass(frozen=True)
class EndEvent:
    """The game is over (``event: end``), by a move or otherwise (a flag fall, a resignation,
    an agreed draw, an abort); the stream ends after it."""

    id: int | None
    state: GetGameAnswer


GameEvent = (
    JoinEvent
    | MoveEvent
    | OfferEvent
    | TakebackEvent
    | ClockEvent
    | AbortEvent
    | RematchEvent
    | EndEvent
)


class _Sse:
    """Server-Sent Events from lines: fields gathered until a blank line; comments skipped."""

    def __init__(self) -> None:
        self.kind = "message"
        self.data: list[str] = []
        self.id: str | None = None
        self.last_id: str | None = None  # the last event id seen: where a new stream resumes

    def feed(self, line: str) -> GameEvent | None:
        if not line:
            return self._dispatch()
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "event":
            self.kind = value
        elif name == "data":
            self.data.append(value)
        elif name == "id":
            self.id = value
        return None

    def _dispatch(self) -> GameEvent | None:
        kind, data, event_id = self.kind, "\n".join(self.data), self.id
        self.kind, self.data, self.id = "message", [], None
        if event_id is not None:
            self.last_id = event_id
        if not data:
            return None
        body = json.loads(data)
        number = int(event_id) if event_id and event_id.isdigit() else None
        if kind == "join":
            return JoinEvent(number or 0, body)
        if kind == "move":
            return MoveEvent(number or 0, body["move"], body["state"])
        if kind == "offer":
            return OfferEvent(number or 0, body)
        if kind == "takeback":
            return TakebackEvent(number or 0, body)
        if kind == "clock":
            return ClockEvent(number or 0, body)
        if kind == "abort":
            return AbortEvent(number or 0, body)
        if kind == "rematch":
            return RematchEvent(number or 0, body)
        if kind == "end":
            return EndEvent(number, body)
        return None


class Following:
    """One game's event stream, as both clients follow it: the call that (re)opens it (with the
    viewer's ``token``, if given, on every reconnection), its events from its lines, and how long
    to wait after it dropped (``ConnectionError`` after ``reconnects`` drops in a row with no
    line between them)."""

    def __init__(
        self,
        game_id: str,
        since: int | None,
        reconnects: int,
        backoff: float,
        keep_alive: float,
        token: str | None = None,
    ) -> None:
        self.game_id, self.since, self.token = game_id, since, token
        self.reconnects, self.backoff = reconnects, backoff
        self.read_timeout = stream_read_timeout(keep_alive)
        self.parser, self.failures = _Sse(), 0
        self.ended = False

    def call(self) -> Call[None]:
        return events(self.game_id, self.since, self.parser.last_id, self.token)

    def timeout(self, http: httpx.Client | httpx.AsyncClient) -> httpx.Timeout:
        """The client's timeouts, but a read waits for the server's keep-alives."""
        given = http.timeout
        return httpx.Timeout(
            connect=given.connect, read=self.read_timeout, write=given.write, pool=given.pool
        )

    def opened(self, response: httpx.Response) -> bool:
        """Whether the stream opened (200); False when there is nothing more to send (204: it
        was resumed at or past the game's end). Any other answer is raised after it is read."""
        if response.status_code == 204:
            self.ended = True
            return False
        return response.status_code == 200

    def event(self, line: str) -> GameEvent | None:
        """The event this line completes, if any. An event or a keep-alive (a comment) shows
        the stream alive, and gives back the reconnect budget."""
        event = self.parser.feed(line)
        if event is not None or line.startswith(":"):
            self.failures = 0
        if event is not None:
            self.ended = isinstance(event, EndEvent)
        return event

    def dropped(self) -> float:
        """The wait before reopening the stream."""
        self.failures += 1
        if self.failures > self.reconnects:
            raise ConnectionError(f"the event stream of {self.game_id} kept dropping")
        return self.backoff * self.failures
