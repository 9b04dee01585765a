"""A tournament's board taking its game's result, in the transaction that archives the game
(``result_steps``, run as the ratings' steps are: ``app.stores.archive.ratings``), and what
tells a tournament's stream (``told``) and finishes it (``ended_if_done``): shared with the
tournaments' own writes (``app.stores.archive.tournaments``)."""

from __future__ import annotations

import json
from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update

from app.league.events import Result
from app.stores.archive.ratings import Step
from app.stores.archive.tables import pairings, tournament_events, tournament_rounds, tournaments

REGISTERING, RUNNING, FINISHED = "registering", "running", "finished"


@dataclass(frozen=True, slots=True)
class BoardResult:
    """A finished game's result as its board takes it (``result_steps``)."""

    result: Result
    discs: tuple[int, int] | None = None


def told(tournament_id: str, event: str, data: Mapping[str, Any]) -> Generator[Step, Any, None]:
    """The statements that number an event of the tournament's stream and keep it."""
    numbered = yield (
        update(tournaments)
        .where(tournaments.c.id == tournament_id)
        .values(changes=tournaments.c.changes + 1)
        .returning(tournaments.c.changes),
    )
    seq = numbered.scalar_one()
    row = {"tournament": tournament_id, "seq": seq, "event": event, "data": json.dumps(data)}
    yield (tournament_events.insert().values(row),)


def ended_if_done(tournament_id: str, at_ms: int) -> Generator[Step, Any, None]:
    """The statements that finish the tournament if every round is paired and every board has
    its result: its status, and the stream's ``end``."""
    event = (
        yield (select(tournaments.c.rounds, tournaments.c.status).where(
            tournaments.c.id == tournament_id),)
    ).one()  # fmt: skip
    if event.status == FINISHED:
        return
    paired = (
        yield (select(func.count()).select_from(tournament_rounds).where(
            tournament_rounds.c.tournament == tournament_id,
            tournament_rounds.c.paired_at.is_not(None)),)
    ).scalar_one()  # fmt: skip
    open_boards = (
        yield (select(func.count()).select_from(pairings).where(
            pairings.c.tournament == tournament_id, pairings.c.result.is_(None)),)
    ).scalar_one()  # fmt: skip
    if paired < event.rounds or open_boards:
        return
    yield (
        update(tournaments)
        .where(tournaments.c.id == tournament_id)
        .values(status=FINISHED, ended_at=at_ms),
    )
    yield from told(tournament_id, "end", {})


def result_steps(
    game_id: str, tournament_id: str, taken: BoardResult, at_ms: int, postgres: bool
) -> Generator[Step, Any, None]:
    """The statements that give the board whose game ``game_id`` is its result (once: a game
    archived again changes nothing), tell the stream, and finish the tournament if it was the
    last (see the module)."""
    if postgres:
        yield (select(tournaments.c.id).where(tournaments.c.id == tournament_id).with_for_update(),)
    discs = taken.discs or (None, None)
    done = yield (
        update(pairings)
        .where(pairings.c.game_id == game_id, pairings.c.result.is_(None))
        .values(result=taken.result, discs1=discs[0], discs2=discs[1])
        .returning(pairings.c.round, pairings.c.board),
    )
    board = done.first()
    if board is None:  # no board of a tournament (any more), or given its result already
        return
    data = {"round": board.round, "board": board.board, "game": game_id, "result": taken.result}
    yield from told(tournament_id, "result", data)
    yield from ended_if_done(tournament_id, at_ms)
