"""Tournaments: ``POST /v1/tournaments``, its entrants, its rounds, its document (signed once
finished; ``?format=trf``) and its event stream.

A tournament lives in the archive's database (``app.stores.archive.tournaments``); its games in
the live store, each made for its two players (their seats' tokens derived from their keys'
hashes: each plays with its key) and marked as the tournament's, so that its archiving gives its
board the result (``app.stores.archive.boards``). A round is paired all or nothing: claimed in
the database (racing requests: one pairs it), its games made, then marked paired; a game that
cannot be made undoes the others and the claim.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Annotated, Any, get_args

from fastapi import APIRouter, Request, Response
from fastapi.sse import EventSourceResponse
from pydantic import Field, model_validator
from pydantic_core import PydanticCustomError, to_json

from app.api.archive import archive_of
from app.api.bodies import JsonBody, json_response
from app.api.clients import client_of
from app.api.feeds import feed
from app.api.games import params as game_params
from app.api.games.access import store_errors, store_of
from app.api.games.schemas import GameShapes
from app.api.games.streams import StreamSlots
from app.api.matches import game_told
from app.api.params import Malformed, Param, matching
from app.api.players import (
    NO_PLAYERS,
    PLAYER_ID,
    PLAYER_KEY,
    game_body,
    player_by_key,
    players_of,
    seated_pair,
)
from app.api.resend import Resend, resend
from app.api.routing import api_router
from app.api.seeks import woken
from app.api.work import Meter, charged, meter_of
from app.contract.bodies import BodyInvalid
from app.contract.fields import Body
from app.contract.games import SeatName
from app.contract.problems import (
    NOT_ORGANISER,
    RATE_LIMITED,
    TOURNAMENT_NOT_FOUND,
    TOURNAMENT_REFUSED,
    UNAUTHORIZED,
    VALIDATION_ERROR,
)
from app.contract.render import instant
from app.league.events import LeagueError
from app.league.rounds import pair_next_round, total_rounds
from app.league.standings import System, standings
from app.league.trf import trf16
from app.records.signing import TOURNAMENT, KeyRing
from app.rules.errors import DomainError
from app.sessions import tokens
from app.sessions.errors import (
    CapacityExhausted,
    NotOrganiser,
    StoreUnavailable,
    TournamentNotFound,
    TournamentRefused,
)
from app.stores.archive.tables import ID_LENGTH
from app.stores.archive.tournaments import (
    STALE_CLAIM_MS,
    Board,
    Event,
    Recent,
    Tournament,
    Tournaments,
    UnknownPlayers,
)

SYSTEMS: tuple[System, ...] = get_args(System)


def system_of(event: Event) -> System:
    """The event's system, as the league names it."""
    assert event.system in SYSTEMS
    return event.system


# What a tournament's game body may not say: the tournament seats its games' players itself.
SEATING = ("open", "creator", "rated", "names")
# The actions a tournament's games are made without: a result is the board's, and a rematch is
# no round's.
TOURNAMENT_RULES_OFF = {"abort": False, "rematch": False}
MAX_OPENINGS = 100
TRF = "trf"


class TournamentIn(Body):
    """A new tournament."""

    name: SeatName = Field(description="The tournament's name.")
    system: System = Field(
        description="`round_robin` (FIDE's Berger tables), `double_round_robin` (the cycle "
        "again, seats swapped) or `swiss` (the FIDE Dutch system)."
    )
    rounds: int | None = Field(
        None, strict=True, ge=1,
        description="A Swiss's rounds (required for it; a round robin's are its entrants' "
        "count less one, twice that double; at most `ADJUDICATOR_MAX_TOURNAMENT_ROUNDS`).",
    )  # fmt: skip
    game: dict[str, Any] = Field(
        description="The creation body of each of its games, as `POST /v1/games` takes it "
        "(without `open`, `creator`, `rated` or `names`: the tournament seats its players)."
    )
    players: list[Annotated[str, Field(min_length=1, max_length=ID_LENGTH)]] = Field(
        default_factory=list,
        description="Its players' ids in the seeding order (more may enter before round 1).",
    )
    openings: list[dict[str, Any]] = Field(
        default_factory=list,
        max_length=MAX_OPENINGS,
        description="Members laid over `game` for each round: round r plays "
        "`openings[(r − 1) mod len]` (an Othello `opening`, gomoku `stones`, …).",
    )
    rated: bool = Field(
        False, strict=True, description="`true`: its games are rated (in their pool)."
    )

    @model_validator(mode="after")
    def _rounds_of_a_swiss(self) -> TournamentIn:
        if self.system == "swiss" and self.rounds is None:
            raise PydanticCustomError("rounds_missing", "a swiss needs its number of rounds")
        if self.system != "swiss" and self.rounds is not None:
            raise PydanticCustomError(
                "rounds_of_a_round_robin", "a round robin's rounds are its entrants' count"
            )
        if len(set(self.players)) != len(self.players):
            raise PydanticCustomError("players_twice", "a player is entered twice")
        seating = [name for name in SEATING if name in self.game]
        if seating:
            raise PydanticCustomError(
                "game_seating", "the game may not say {members}: the tournament seats its players",
                {"members": ", ".join(seating)},
            )  # fmt: skip
        return self


class EntrantIn(Body):
    player: str = Field(min_length=1, max_length=ID_LENGTH, description="The player's id.")


TOURNAMENT_BODY = JsonBody(
    TournamentIn,
    {
        "swiss": {
            "summary": "A Swiss of Othello games, rated",
            "value": {
                "name": "Club Swiss",
                "system": "swiss",
                "rounds": 5,
                "game": {"game": "reversi"},
                "players": [],
                "rated": True,
            },
        },
        "round_robin": {
            "summary": "A round robin of renju games",
            "value": {
                "name": "Renju league",
                "system": "round_robin",
                "game": {"game": "gomoku", "rule": "renju"},
                "players": [],
            },
        },
    },
)
ENTRANT_BODY = JsonBody(
    EntrantIn, {"enter": {"summary": "Enter a player", "value": {"player": "Xq3pV0aLm8TzR2kd"}}}
)
_ID, _id = matching("[A-Za-z0-9_-]{1,64}", "tournament_id", "is not a tournament id", 64)
TOURNAMENT_ID = Param(
    "tournament_id", "path", _ID, "The tournament's id, from `POST /v1/tournaments`.", _id, ""
)


def _format(text: str) -> str:
    if text not in ("json", TRF):
        raise Malformed("enum", "must be json or trf")
    return text


FORMAT = Param(
    "format", "query", {"type": "string", "enum": ["json", TRF]},
    "`json` (the tournament) or `trf` (its FIDE TRF-16 report, text).", _format, "json",
)  # fmt: skip


def tournaments_of(request: Request) -> Tournaments:
    archive = archive_of(request)
    if archive is None:
        raise StoreUnavailable(NO_PLAYERS)
    return Tournaments(archive, request.app.state.tournaments_read)


def tournament_id(request: Request) -> str:
    raw = TOURNAMENT_ID.raw(request) or ""
    try:
        return TOURNAMENT_ID.parse(raw)
    except Malformed:
        raise TournamentNotFound(raw[:64]) from None


async def found(request: Request, wanted: str) -> Tournament:
    tournament = await tournaments_of(request).find(wanted)
    if tournament is None:
        raise TournamentNotFound(wanted)
    return tournament


def _now_ms() -> int:
    return int(time.time() * 1000)


def round_body(event: Event, number: int) -> dict[str, Any]:
    """Round ``number``'s game body: the event's, its opening laid over it, made without the
    actions a tournament's game leaves out."""
    body = dict(event.game)
    if event.openings:
        body |= event.openings[(number - 1) % len(event.openings)]
    rules = dict(body.get("rules") or {})
    body["rules"] = rules | TOURNAMENT_RULES_OFF
    return body


# --- the document -----------------------------------------------------------------------------


RESULT_OF_BYE = "bye"


def is_reversi(event: Event) -> bool:
    return event.game.get("game") == "reversi"


def planned_rounds(event: Event, count: int) -> int:
    if event.system != "swiss" and count < 2:
        return 0
    return total_rounds(system_of(event), count, event.rounds)


def _number(value: float) -> float | int:
    """A sum of half points as JSON writes it best: a whole one as an integer (``4``, as
    ECMAScript and RFC 8785 write it: a finished tournament's signed document is then written
    in C, not walked in Python — 70 ms for 500 players), any other as it is (``4.5``)."""
    return int(value) if value.is_integer() else value


def document(tournament: Tournament, keys: KeyRing) -> dict[str, Any]:
    """The tournament as ``GET /v1/tournaments/{id}`` answers it; signed once finished."""
    event = tournament.event
    ids = [None, *(entrant.id for entrant in tournament.entrants)]  # by number: 1 to n
    rounds: dict[int, list[dict[str, Any]]] = {}
    paired = tournament.paired
    for board in tournament.boards:
        pairing = board.pairing
        if pairing.round > paired:
            break  # claimed, its games being made (boards come by round)
        second = pairing.seat2
        row: dict[str, Any] = {
            "board": pairing.board,
            "players": {"1": ids[pairing.seat1], "2": None if second is None else ids[second]},
            "game": board.game_id, "result": pairing.result,
        }  # fmt: skip
        discs = pairing.discs
        if discs is not None:
            row["discs"] = {"1": discs[0], "2": discs[1]}
        rows_of = rounds.get(pairing.round)
        if rows_of is None:
            rows_of = rounds[pairing.round] = []
        rows_of.append(row)
    ranked = standings(
        tournament.entrants, tournament.played, system_of(event), reversi=is_reversi(event),
        checked=True,
    )  # fmt: skip
    answer: dict[str, Any] = {
        "id": event.id, "name": event.name, "system": event.system, "status": event.status,
        "organiser": event.organiser, "game": event.game, "openings": list(event.openings),
        "rated": event.rated,
        "rounds_planned": planned_rounds(event, len(tournament.entrants)),
        "created_at": instant(event.created_ms),
        "players": [
            {"id": e.id, "name": e.name, **({"withdrawn": e.withdrawn} if e.withdrawn is not None
                                            else {})}
            for e in tournament.entrants
        ],
        "rounds": [{"number": number, "pairings": rows} for number, rows in sorted(rounds.items())],
        "standings": [
            {"rank": row.rank, "player": row.id, "points": _number(row.points),
             "tiebreaks": {name: _number(value) for name, value in row.tiebreaks.items()}}
            for row in ranked
        ],
    }  # fmt: skip
    if event.ended_ms is not None:
        answer["ended_at"] = instant(event.ended_ms)
        return keys.current.signed(answer, TOURNAMENT)
    return answer


# --- routes -------------------------------------------------------------------------------------


async def create_tournament(request: Request) -> Response:
    organiser = await player_by_key(request, PLAYER_KEY.read(request))
    request.app.state.creation_limiter.take(client_of(request))
    body = await TOURNAMENT_BODY.parse(request)
    settings = request.app.state.settings
    game_body(request, body.game, ("game",))
    for index, opening in enumerate(body.openings):
        game_body(request, body.game | opening, ("openings", index))
    if body.rounds is not None and body.rounds > settings.max_tournament_rounds:
        raise _invalid(("rounds",), f"at most {settings.max_tournament_rounds}")
    if len(body.players) > settings.max_tournament_players:
        raise _invalid(("players",), f"at most {settings.max_tournament_players} players")
    event = Event(
        tokens.new_tournament_id(), body.name, organiser.id, body.system, body.rounds or 0,
        body.game, body.openings, body.rated, "registering", 0, _now_ms(), None,
    )  # fmt: skip
    try:
        made = await tournaments_of(request).make(
            event, body.players, settings.max_tournaments_per_player
        )
    except UnknownPlayers as unknown:
        raise _invalid(("players",), f"no such players: {', '.join(unknown.ids)}") from None
    if not made:
        most = settings.max_tournaments_per_player
        raise CapacityExhausted(most, 3600, "tournaments for this organiser")
    tournament = await found(request, event.id)
    headers = {"Location": f"/v1/tournaments/{event.id}"}
    return json_response(document(tournament, request.app.state.keys), 201, headers)


def _invalid(where: Sequence[str | int], message: str) -> BodyInvalid:
    return BodyInvalid([{"loc": ("body", *where), "msg": message, "type": "value_error"}])


async def _organised(request: Request) -> tuple[str, Tournament]:
    wanted = tournament_id(request)
    player = await player_by_key(request, PLAYER_KEY.read(request))
    tournament = await found(request, wanted)
    if tournament.event.organiser != player.id:
        raise NotOrganiser()
    return wanted, tournament


async def enter_player(request: Request) -> Response:
    wanted, _ = await _organised(request)
    body = await ENTRANT_BODY.parse(request)
    most = request.app.state.settings.max_tournament_players
    try:
        outcome = await tournaments_of(request).enter(wanted, body.player, most)
    except UnknownPlayers:
        raise _invalid(("player",), "no such player") from None
    if outcome != "entered":
        why = {
            "started": "players enter before round 1",
            "entered_already": "the player is entered already",
            "full": f"the tournament has its most players ({most})",
        }[outcome]
        raise TournamentRefused(why)
    return json_response(document(await found(request, wanted), request.app.state.keys), 201)


async def withdraw_player(request: Request) -> Response:
    wanted, _ = await _organised(request)
    player = PLAYER_ID.read(request)
    if not await tournaments_of(request).withdraw(wanted, player):
        raise TournamentRefused("the player is not an entrant still playing")
    return json_response(document(await found(request, wanted), request.app.state.keys))


async def pair_round(request: Request) -> Response:
    meter = meter_of(request)  # the pairing's CPU time is its client's (429 if in debt)
    wanted, tournament = await _organised(request)
    book = tournaments_of(request)
    event = tournament.event
    number = tournament.paired + 1
    stale = tournament.claimed.get(number)
    if stale is not None and _now_ms() - stale < STALE_CLAIM_MS:
        raise TournamentRefused(f"round {number} is being paired")
    if event.status == "finished":
        raise TournamentRefused("the tournament is finished")
    total = planned_rounds(event, len(tournament.entrants))
    if number > total:
        raise TournamentRefused(f"all {total} rounds are paired")
    if any(pairing.result is None for pairing in tournament.played):
        raise TournamentRefused(f"round {number - 1} has an unfinished game")
    try:  # in a thread: a large Swiss takes seconds to pair (its engine's scoring is Python)
        paired = await meter.in_thread(
            pair_next_round, system_of(event), tournament.entrants, tournament.played,
            event.rounds if event.system == "swiss" else None,
        )  # fmt: skip
    except LeagueError as error:
        raise TournamentRefused(str(error)) from None
    boards = [
        Board(pairing, None if pairing.seat2 is None else tokens.new_game_id())
        for pairing in paired
    ]
    claimed_ms = _now_ms()
    if not await book.claim(wanted, number, boards, claimed_ms, stale):
        raise TournamentRefused(f"round {number} is being paired")
    try:
        made = await _make_games(request, tournament, number, boards)
    except BaseException:
        await asyncio.shield(book.unclaim(wanted, number, claimed_ms))
        raise
    by_number = {entrant.number: entrant.id for entrant in tournament.entrants}
    told = [
        game_told(by_number[entrant], board.game_id, seat, "tournament", wanted)
        for board in boards if board.game_id is not None
        for seat, entrant in ((1, board.pairing.seat1), (2, board.pairing.seat2 or 0))
    ]  # fmt: skip
    kept = request.app.state.settings.player_events_kept
    if not await book.paired(wanted, number, claimed_ms, _now_ms(), total, told, kept):
        # This claim went stale meanwhile (games made for over STALE_CLAIM_MS) and another
        # request claimed the round again: its boards are the round's, these games nobody's.
        await _delete_games(request, made)
        raise TournamentRefused(f"round {number} was paired by another request")
    woken(request, told)
    return json_response(document(await found(request, wanted), request.app.state.keys), 201)


async def _make_games(
    request: Request, tournament: Tournament, number: int, boards: Sequence[Board]
) -> list[tuple[str, str]]:
    """Make round ``number``'s games, all or none (those made are deleted if one cannot be):
    each one's id and a token of it."""
    event = tournament.event
    shapes: GameShapes = request.app.state.games
    body = game_body(request, round_body(event, number), ("game",))
    store = store_of(request)
    owner = client_of(request)
    by_number = {entrant.number: entrant for entrant in tournament.entrants}
    ids = {by_number[n].id for b in boards for n in (b.pairing.seat1, b.pairing.seat2) if n}
    found_players = await players_of(request).many(sorted(ids))
    made: list[tuple[str, str]] = []
    try:
        for board in boards:
            if board.game_id is None:
                continue
            first = found_players[by_number[board.pairing.seat1].id]
            second = found_players[by_number[board.pairing.seat2 or 0].id]
            game = seated_pair(
                body.new_game(owner), board.game_id, first, second, shapes.kinds, event.rated
            )
            game = replace(game, terms=replace(game.terms, tournament=event.id))
            created = await store.create(game)
            token = created.tokens[0]
            assert token is not None
            made.append((created.state.id, token))
    except BaseException:
        await _delete_games(request, made)
        raise
    return made


async def _delete_games(request: Request, made: Sequence[tuple[str, str]]) -> None:
    """Delete games a round made (their ids and a token of each), whatever else happens."""
    store = store_of(request)
    for game_id, token in made:
        with contextlib.suppress(DomainError):
            await asyncio.shield(store.delete(game_id, token))


async def get_tournament(request: Request, meter: Meter) -> Response:
    # Served ``charged``: its CPU time on the event loop, reading and ranking included, is the
    # client's (429 first if in debt).
    wanted = tournament_id(request)
    shown = FORMAT.read(request)
    version = await tournaments_of(request).version(wanted)
    if version is None:
        raise TournamentNotFound(wanted)
    keys: KeyRing = request.app.state.keys
    key = (wanted, shown, version, keys.current.kid)
    # Documents as answered, by tournament, format and version (its count of changes: a document
    # changes only with it): one read again unchanged — a standings page many watch — costs one
    # small query, not its every result read, ranked and signed again.
    documents: Recent[tuple[str, str, int, str], bytes] = request.app.state.tournament_documents
    media = "text/plain; charset=utf-8" if shown == TRF else "application/json"
    kept = documents.get(key)
    if kept is None:
        kept = await _document_bytes(request, wanted, shown)
        documents.put(key, kept)
    return Response(kept, media_type=media)


async def _document_bytes(request: Request, wanted: str, shown: str) -> bytes:
    tournament = await found(request, wanted)
    if shown == TRF:
        event = tournament.event
        total = planned_rounds(event, len(tournament.entrants))
        text = trf16(
            event.name, tournament.entrants, tournament.played, system_of(event), total,
            reversi=is_reversi(event),
        )  # fmt: skip
        return text.encode()
    return to_json(document(tournament, request.app.state.keys))


async def tournament_events(request: Request) -> Response:
    wanted = tournament_id(request)
    after = game_params.resume_point(request)
    book = tournaments_of(request)
    tournament = await found(request, wanted)
    streams: StreamSlots = request.app.state.streams
    client = client_of(request)
    key = f"tournament:{wanted}"
    streams.check(key, client)
    if tournament.event.status == "finished" and after >= tournament.event.changes:
        return Response(status_code=204)  # resumed at or past the end: stop reconnecting
    slot = streams.take(key, client)
    return feed(
        request, slot, lambda seen, most: book.events(wanted, seen, most), after, last="end"
    )


def tournaments_router() -> APIRouter:
    router = api_router("/v1/tournaments", ["Tournaments"])
    key = PLAYER_KEY.openapi
    path = {"parameters": [TOURNAMENT_ID.openapi]}
    router.post(
        "",
        summary="Make a tournament",
        status_code=201,
        description="A round robin (FIDE's Berger tables), a double round robin (seats swapped "
        "the second time) or a Swiss (the FIDE Dutch system) of one kind of game, organised by "
        "the player whose key is the bearer token. `players`: the seeding order. Each round's "
        "games are made by `POST /v1/tournaments/{id}/rounds`, each for its two players (who "
        "play with their keys), seat 1 moving first. At most "
        "`ADJUDICATOR_MAX_TOURNAMENTS_PER_PLAYER` tournaments an organiser (503 "
        "`capacity_exhausted`), `ADJUDICATOR_MAX_TOURNAMENT_PLAYERS` players and "
        "`ADJUDICATOR_MAX_TOURNAMENT_ROUNDS` Swiss rounds (422).",
        responses={201: {}, **store_errors(VALIDATION_ERROR, UNAUTHORIZED, RATE_LIMITED)},
        openapi_extra=resend(Resend.UNSENT, {**TOURNAMENT_BODY.openapi, **key}),
    )(create_tournament)
    router.get(
        "/{tournament_id}",
        summary="A tournament",
        description="Its players, rounds (each board's players, game and result: `1-0`, `0-1`, "
        "`½-½`, `bye`, or null while its game goes on) and standings (points — a win 1, a draw "
        "½, a bye 1 — then the tie-breaks: a Swiss's `buchholz` then `sonneborn_berger`, a "
        "round robin's `sonneborn_berger`, and for Reversi `brightwell` and `discs`). A "
        "finished tournament's is signed (`signature`, verified with `GET /v1/keys`). "
        "`?format=trf`: its FIDE TRF-16 report. Reading and ranking it is charged to the "
        "client's share of CPU time (429 `rate_limited` past it).",
        responses={
            200: {"content": {"text/plain": {"schema": {"type": "string"}}}},
            **store_errors(VALIDATION_ERROR, TOURNAMENT_NOT_FOUND, RATE_LIMITED),
        },
        openapi_extra={"parameters": [TOURNAMENT_ID.openapi, FORMAT.openapi]},
    )(charged(get_tournament))
    router.post(
        "/{tournament_id}/players",
        summary="Enter a player",
        status_code=201,
        description="Enters a player last in the seeding order, before round 1 (the "
        "organiser's key; 409 `tournament_refused` after it).",
        responses={
            201: {},
            **store_errors(
                VALIDATION_ERROR,
                UNAUTHORIZED,
                NOT_ORGANISER,
                TOURNAMENT_NOT_FOUND,
                TOURNAMENT_REFUSED,
            ),
        },
        openapi_extra=resend(Resend.UNSENT, {**ENTRANT_BODY.openapi, **key, **path}),
    )(enter_player)
    router.delete(
        "/{tournament_id}/players/{player_id}",
        summary="Withdraw a player",
        description="The player is not paired in later rounds (the organiser's key); a round "
        "robin's later opponents of theirs get byes.",
        responses={
            200: {},
            **store_errors(UNAUTHORIZED, NOT_ORGANISER, TOURNAMENT_NOT_FOUND, TOURNAMENT_REFUSED),
        },
        openapi_extra=resend(
            Resend.UNSENT,
            {**key, "parameters": [TOURNAMENT_ID.openapi, PLAYER_ID.openapi]},
        ),
    )(withdraw_player)
    router.post(
        "/{tournament_id}/rounds",
        summary="Pair the next round",
        status_code=201,
        description="Pairs the next round and makes all its games at once, or none (the "
        "organiser's key). 409 `tournament_refused` while a game of the round before is "
        "unfinished, while another request pairs it (racing requests pair it once), or past the "
        "last round.",
        responses={
            201: {},
            **store_errors(UNAUTHORIZED, NOT_ORGANISER, TOURNAMENT_NOT_FOUND, TOURNAMENT_REFUSED),
        },
        openapi_extra=resend(Resend.UNSENT, {**key, **path}),
    )(pair_round)
    router.get(
        "/{tournament_id}/events",
        summary="Follow a tournament",
        description='Server-sent events: `round` (a round paired: `{"round"}`), `result` (a '
        'game of it ended: `{"round", "board", "game", "result"}`) and `end` (the '
        "standings are final; the stream ends). Each event's `id` numbers it: a reconnect with "
        "`Last-Event-ID` resumes after it.",
        response_class=EventSourceResponse,
        responses={
            200: {
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
                "description": "The tournament's events until its end; lines starting with "
                "`:` are keep-alives.",
            },
            204: {"description": "Resumed at or past the end: nothing more to send."},
            **store_errors(TOURNAMENT_NOT_FOUND),
        },
        openapi_extra={"parameters": [TOURNAMENT_ID.openapi]},
    )(tournament_events)
    return router


__all__ = ["tournaments_router"]
