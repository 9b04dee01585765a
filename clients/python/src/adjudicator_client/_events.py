"""A game's event stream (Server-Sent Events) as the clients follow it: its events as objects,
the parser of its lines, and when to give up on a stream and resume it elsewhere. A
tournament's stream is followed the same way, its events as ``TournamentEvent``s.

How long a quiet stream may stay silent comes from the service's document (``_schema``:
``KEEP_ALIVE_SECONDS``, ``KEEP_ALIVES_MISSED``): a client waits that many keep-alive intervals
for a line before it takes the stream for dead and resumes it with ``Last-Event-ID``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import httpx

from adjudicator_client._operations import Call, events, player_stream, tournament_stream
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


@dataclass(frozen=True)
class TournamentEvent:
    """One event of a tournament's stream: its number (``id``), its name (``event``: ``round``,
    a round paired; ``result``, a game of it ended; ``end``, the standings are final and the
    stream ends) and its JSON ``data`` (``{"round"}``; ``{"round", "board", "game",
    "result"}``)."""

    id: int
    event: str
    data: Any


E = TypeVar("E")


class _Sse(Generic[E]):
    """Server-Sent Events from lines: fields gathered until a blank line; comments skipped.
    ``make`` turns an event's name, number and JSON data into the stream's event (None: not one
    the client knows)."""

    def __init__(self, make: Callable[[str, int | None, Any], E | None]) -> None:
        self.make = make
        self.kind = "message"
        self.data: list[str] = []
        self.id: str | None = None
        self.last_id: str | None = None  # the last event id seen: where a new stream resumes

    def feed(self, line: str) -> E | None:
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

    def _dispatch(self) -> E | None:
        kind, data, event_id = self.kind, "\n".join(self.data), self.id
        self.kind, self.data, self.id = "message", [], None
        if event_id is not None:
            self.last_id = event_id
        if not data:
            return None
        number = int(event_id) if event_id and event_id.isdigit() else None
        return self.make(kind, number, json.loads(data))


def game_event(kind: str, number: int | None, body: Any) -> GameEvent | None:
    """A game's stream's event from its name, number and data."""
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


@dataclass(frozen=True)
class PlayerEvent:
    """One event of a player's stream: its number (``id``), its name (``event``: ``game``, a
    game of the player began — ``{"game", "seat", "via", …}``; ``challenge``, a challenge made
    to the player; ``challenge_declined``; ``seek_expired``, ``{"seek"}``: a seek of the
    player expired, gone) and its JSON ``data``. The stream never ends."""

    id: int
    event: str
    data: Any


def player_event(kind: str, number: int | None, body: Any) -> PlayerEvent:
    """A player's stream's event from its name, number and data."""
    return PlayerEvent(number or 0, kind, body)


def tournament_event(kind: str, number: int | None, body: Any) -> TournamentEvent:
    """A tournament's stream's event from its name, number and data."""
    return TournamentEvent(number or 0, kind, body)


class Stream(Generic[E]):
    """An event stream, as both clients follow it: the call that (re)opens it (``call``), its
    events from its lines, and how long to wait after it dropped (``ConnectionError`` after
    ``reconnects`` drops in a row with no line between them)."""

    def __init__(
        self,
        name: str,
        make: Callable[[str, int | None, Any], E | None],
        reconnects: int,
        backoff: float,
        keep_alive: float,
    ) -> None:
        self.name = name
        self.reconnects, self.backoff = reconnects, backoff
        self.read_timeout = stream_read_timeout(keep_alive)
        self.parser, self.failures = _Sse(make), 0
        self.ended = False

    def call(self) -> Call[None]:
        raise NotImplementedError

    def is_end(self, event: E) -> bool:
        raise NotImplementedError

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

    def event(self, line: str) -> E | None:
        """The event this line completes, if any. An event or a keep-alive (a comment) shows
        the stream alive, and gives back the reconnect budget."""
        event = self.parser.feed(line)
        if event is not None or line.startswith(":"):
            self.failures = 0
        if event is not None:
            self.ended = self.is_end(event)
        return event

    def dropped(self) -> float:
        """The wait before reopening the stream."""
        self.failures += 1
        if self.failures > self.reconnects:
            raise ConnectionError(f"the event stream of {self.name} kept dropping")
        return self.backoff * self.failures


class Following(Stream[GameEvent]):
    """One game's event stream, from version ``since`` or resumed after the last event seen,
    with the viewer's ``token``, if given, on every reconnection."""

    def __init__(
        self,
        game_id: str,
        since: int | None,
        reconnects: int,
        backoff: float,
        keep_alive: float,
        token: str | None = None,
    ) -> None:
        super().__init__(game_id, game_event, reconnects, backoff, keep_alive)
        self.game_id, self.since, self.token = game_id, since, token

    def call(self) -> Call[None]:
        return events(self.game_id, self.since, self.parser.last_id, self.token)

    def is_end(self, event: GameEvent) -> bool:
        return isinstance(event, EndEvent)


class FollowingTournament(Stream[TournamentEvent]):
    """One tournament's event stream, from its first event (or after ``after``) or resumed after
    the last event seen, until its ``end``."""

    def __init__(
        self, tournament_id: str, after: int | None, reconnects: int, backoff: float,
        keep_alive: float,
    ) -> None:  # fmt: skip
        super().__init__(tournament_id, tournament_event, reconnects, backoff, keep_alive)
        self.tournament_id = tournament_id
        if after is not None:
            self.parser.last_id = str(after)

    def call(self) -> Call[None]:
        return tournament_stream(self.tournament_id, self.parser.last_id)

    def is_end(self, event: TournamentEvent) -> bool:
        return event.event == "end"


class FollowingPlayer(Stream[PlayerEvent]):
    """A player's event stream (with its ``key``), from its first event kept (or after
    ``after``) or resumed after the last event seen; it has no end."""

    def __init__(
        self, player_id: str, key: str, after: int | None, reconnects: int, backoff: float,
        keep_alive: float,
    ) -> None:  # fmt: skip
        super().__init__(player_id, player_event, reconnects, backoff, keep_alive)
        self.player_id, self.key = player_id, key
        if after is not None:
            self.parser.last_id = str(after)

    def call(self) -> Call[None]:
        return player_stream(self.player_id, self.key, self.parser.last_id)

    def is_end(self, event: PlayerEvent) -> bool:
        return False
