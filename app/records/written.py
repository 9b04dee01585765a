"""A live game's record, written: the JSON record (signed once the game is over), its
transcript, or a community format of its kind — what ``GET /v1/games/{id}/record`` answers and
what the archive keeps of a finished game, in every format (``every_format``).

Each is written a move a step (``Steps``): a long game's record is work in slices, charged to
whoever asked for it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from pydantic_core import to_json

from app.contract.games import Kind, Notation
from app.contract.render import (
    NO_NAMES,
    Json,
    Names,
    clock_json,
    move_json,
    names_json,
    names_of,
    players_json,
    state_json,
    untimed,
)
from app.records.bodies import PASS
from app.records.canonical import Chain
from app.records.errors import RecordError
from app.records.formats import FORMATS, write_record
from app.records.signing import RECORD, KeyRing
from app.records.steps import Steps, completed
from app.records.transcript import write_transcript
from app.sessions.exchange import GameState
from app.sessions.kind import Choice, Pass, Placement, Played, board_size
from app.sessions.store import History

# What ``?format=`` names: the JSON record, a transcript, or a community format of a kind's.
JSON_RECORD, TRANSCRIPT = "json", "transcript"
RECORD_FORMATS = (JSON_RECORD, TRANSCRIPT, *FORMATS)
JSON_MEDIA_TYPE = "application/json"
TEXT_MEDIA_TYPE = "text/plain; charset=utf-8"


@dataclass(frozen=True, slots=True)
class WrittenRecord:
    """A game's record in one format: its bytes and their media type, or why the format cannot
    write this game (``refused``: the 422's message)."""

    body: bytes = b""
    media_type: str = ""
    refused: str | None = None


def refusal(kind: Kind, size: tuple[int, int], wanted: str) -> str | None:
    """Why a game of ``kind`` on a board of ``size`` cannot be written in ``wanted`` whatever
    its moves (not one of the kind's formats; a transcript of a board with no square names);
    None if it may be."""
    formats = (JSON_RECORD, TRANSCRIPT, *kind.face.formats)
    if wanted not in formats:
        return f"a {kind.face.title} game is written as {', '.join(formats)}"
    if wanted == TRANSCRIPT and kind.face.notation is None and names_of(kind, size) is None:
        return "this board is wider than 26 columns: its squares have no names"
    return None


def _written_move(played: Played, names: Names | None, notation: Notation | None) -> object:
    """A move as a record writes it: a square (a ``[row, col]`` pair on a board without names),
    ``pass`` (a renju pass, as the audit reads it), a choice as the choice route takes it, or
    as the kind's ``notation`` writes it (a column)."""
    if notation is not None:
        return notation.written(played)
    if isinstance(played, Pass):
        return PASS
    if isinstance(played, Placement):
        row, col = played.row, played.col
        return [row, col] if names is None else names.squares.name(row, col)
    return dict(cast(Choice, played).body())  # a swap2 opening's choice


def recording(kind: Kind, history: History, state: GameState) -> Steps[tuple[Json, list[Json]]]:
    """A session's game as a record, unsigned, a move a step: its creation parameters, its moves
    as squares (``[row, col]`` pairs on a board without names), its state now, and the hash
    chain of its move records (the audit's, for the same moves); and those move records."""
    names = names_of(kind, board_size(kind, state.facts))
    moves = history.moves[: state.move_count]  # a move that landed between the two reads waits
    params = {"game": kind.name, **history.params}
    # The chain and the state are the audit's, which replays the moves without time.
    chained = Chain(params)
    written: list[object] = []
    records: list[Json] = []
    for move in moves:
        written.append(_written_move(move.played, names, kind.face.notation))
        shown = move_json(move, names)
        records.append(shown)
        chained.add(untimed(shown))
        yield
    now = state_json(state, names)
    for private in ("id", "version", "clock", "at"):
        now.pop(private, None)
    if now.get("last_move"):
        now["last_move"] = untimed(now["last_move"])
    record = {**params, "moves": written, "state": now, "chain": chained.hex()}
    seats: dict[str, object] = {}  # what seats are called, who holds them: unchained
    if state.names != NO_NAMES:
        seats["names"] = names_json(state.names)
    if state.players != NO_NAMES:
        seats["players"] = players_json(state.players)
    if seats:
        record = {**params, **seats, **record}
    return record, records


def _transcript(kind: Kind, history: History, state: GameState) -> Steps[WrittenRecord]:
    """The game's squares one after another, a move a step; refused for a game that has a pass
    or a choice (``_writable`` refused a board without names); as the kind's notation writes it,
    where it has one."""
    notation = kind.face.notation
    if notation is not None:
        drops = [move.played for move in history.moves[: state.move_count]]
        text = notation.write_transcript(drops, state.facts)
        return WrittenRecord(text.encode(), TEXT_MEDIA_TYPE)
    names = names_of(kind, board_size(kind, state.facts))
    assert names is not None, "refused before (_writable)"
    squares: list[str] = []
    for move in history.moves[: state.move_count]:
        played = move.played
        if isinstance(played, Pass):
            return WrittenRecord(refused="a transcript writes no pass, and this game has one: "
                                 "read its JSON record")  # fmt: skip
        if not isinstance(played, Placement):
            return WrittenRecord(refused="a transcript writes no choice, and this game has its "
                                 "opening's: read its JSON record")  # fmt: skip
        squares.append(names.squares.name(played.row, played.col))
        yield
    return WrittenRecord(write_transcript(squares).encode(), TEXT_MEDIA_TYPE)


def written_record(
    kind: Kind, history: History, state: GameState, wanted: str, keys: KeyRing
) -> Steps[WrittenRecord]:
    """The game's record in the format ``wanted`` (one ``_writable`` let through), a move a
    step: the JSON record signed once the game is over, or a format's text, or why that format
    cannot write this game."""
    if wanted == TRANSCRIPT:
        return (yield from _transcript(kind, history, state))
    record, records = yield from recording(kind, history, state)
    return _formatted(record, records, state, wanted, keys)


def _formatted(
    record: Json, records: list[Json], state: GameState, wanted: str, keys: KeyRing
) -> WrittenRecord:
    """The game's ``record`` (with its move ``records``) in ``wanted``, a format other than a
    transcript: the JSON record signed once the game is over, or a format's text, or why that
    format cannot write this game."""
    if wanted == JSON_RECORD:
        over = state.status != "in_progress"
        signed = keys.current.signed(record, RECORD) if over else {**record, "signature": None}
        return WrittenRecord(to_json(signed), JSON_MEDIA_TYPE)
    try:
        # What a format writes beyond the JSON record: the move records, and the clock (a
        # creation parameter the JSON record leaves out, as an audit replays without time).
        clock = None if state.clock is None else clock_json(state.clock)
        text = write_record(wanted, {**record, "records": records, "clock": clock})
    except RecordError as error:
        return WrittenRecord(refused=str(error))
    return WrittenRecord(text.encode(), TEXT_MEDIA_TYPE)


def every_format(
    kind: Kind, history: History, state: GameState, keys: KeyRing
) -> tuple[Json, dict[str, WrittenRecord]]:
    """A finished game's record (unsigned), and the record in every format ``?format=`` names
    (``RECORD_FORMATS``) as ``written_record`` writes it, or why it cannot be: the game
    rendered once for all of them."""
    size = board_size(kind, state.facts)
    record, records = completed(recording(kind, history, state))
    written: dict[str, WrittenRecord] = {}
    for wanted in RECORD_FORMATS:
        refused = refusal(kind, size, wanted)
        if refused is not None:
            written[wanted] = WrittenRecord(refused=refused)
        elif wanted == TRANSCRIPT:
            written[wanted] = completed(_transcript(kind, history, state))
        else:
            written[wanted] = _formatted(record, records, state, wanted, keys)
    return record, written
