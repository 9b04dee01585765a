"""Game records at the edge: the audit of a whole game, a game's record, and the keys that
verify what is signed.

An audit body (``app.records.bodies``: a kind's creation body plus the moves, one of three ways)
is read and replayed by ``app.records.reading`` and answered by ``app.records.answer``, here and
in ``adjudicator audit``. ``AuditShapes`` derives the bodies from the kinds a service serves, as
``GameShapes`` does the game routes', and says in the OpenAPI document what each way takes.

Every piece of this work is linear in a record's moves, and charged to the client that asked
(``app.api.work``): an audit's replay, its move records, its hash chain and its signature run a
move a step (``Steps``), in slices between other requests, and a record of more moves than the
client's share has left (``Meter.afford``) is 429 before it is replayed; a game's record is
written the same way, and a finished game's once (``KeptRecords``).
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal, NotRequired, cast

from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    create_model,
    with_config,
)
from pydantic_core import from_json, to_json
from starlette.responses import StreamingResponse
from typing_extensions import TypedDict

from app.api.bodies import JsonBody, json_response
from app.api.clients import client_of
from app.api.games import params as game_params
from app.api.games.access import store_errors, viewed
from app.api.games.schemas import (
    GameShapes,
    typed_dict,
)
from app.api.kept_records import KeptRecords
from app.api.params import Malformed, Param
from app.api.problems import problem_responses, validation_problem
from app.api.resend import Resend, resend
from app.api.routing import api_router
from app.api.work import SLICE_SECONDS, Meter, WorkBudget, charged, in_slices
from app.contract.bodies import BodyInvalid, batch_limit
from app.contract.fields import Body
from app.contract.games import Kind, etag
from app.contract.problems import (
    BODY_ERRORS,
    GAME_NOT_FOUND,
    RATE_LIMITED,
    UNAUTHORIZED,
    VALIDATION_ERROR,
    ProblemTable,
    problem_body,
)
from app.contract.render import (
    Json,
)
from app.records.answer import answering, audit_answer, wthor_line
from app.records.bodies import DEFAULT_MAX_RECORD_MOVES, audit_body
from app.records.errors import RecordError
from app.records.reading import audit_of, detail_of, reading
from app.records.signing import AUDIT, TYPES, KeyRing, SigningKey
from app.records.steps import Steps
from app.records.written import (
    JSON_RECORD,
    RECORD_FORMATS,
    refusal,
    written_record,
)
from app.records.wthor import WTHOR_MEDIA_TYPE, WthorGame, read_wthor
from app.sessions.exchange import GameState
from app.sessions.kind import Kinds, board_size
from app.sessions.store import GameStore

# --- answers ---------------------------------------------------------------------------------


SignatureOut = typed_dict(
    "SignatureOut",
    {
        "alg": Annotated[Literal["Ed25519"], Field(description="Always `Ed25519`.")],
        "kid": Annotated[str, Field(description="The key's id: one of `GET /v1/keys`.")],
        "typ": Annotated[
            cast(Any, Literal)[tuple(TYPES)],
            Field(
                description="What the signed document is, signed with it: `record` (a game's "
                "record, `GET /v1/games/{id}/record`) or `audit` (an audit's answer). A record "
                "never verifies as an audit answer, nor an answer as a record."
            ),
        ],
        "value": Annotated[
            str,
            Field(
                description="base64url of the Ed25519 signature of the canonical JSON (RFC "
                "8785) of the whole document, its `signature` holding every member but `value`."
            ),
        ],
    },
)


@with_config(ConfigDict(extra="allow"))  # the refusal's own members (renju's `forbidden`, …)
class IllegalOut(TypedDict, total=False):
    """The first refused move: where it is in what was submitted, as it was written, and the
    refusal a session's move would get (its problem's members: `code`, `detail`, and those of
    its code, as `GET /problems/{code}` describes them)."""

    ply: int
    move: Any
    type: str
    title: str
    status: int
    detail: str
    code: str


CHAIN_DOC = (
    "The record's SHA-256 hash chain, lower-case hex: `h0 = SHA-256(canonical JSON of the "
    "creation parameters, with game)`, `h_i = SHA-256(h_{i-1} ‖ canonical JSON of move record "
    "i)`, the last hash (RFC 8785 canonical JSON)."
)


def _audit_out(games: GameShapes) -> type:
    """The answer to an audit, over the records and states of an app's kinds."""
    answer = typed_dict(
        "AuditOut",
        {
            "verdict": Annotated[
                Literal["finished", "unfinished", "illegal"],
                Field(
                    description="`finished`: a legal game, over; `unfinished`: legal so far, "
                    "the record stops before the end; `illegal`: a move was refused."
                ),
            ],
            "plies": Annotated[
                int,
                Field(
                    description="The submitted moves accepted: all of them, or those before "
                    "the refused one (written passes count; inferred ones are no submitted move)."
                ),
            ],
            "illegal": Annotated[
                IllegalOut | None, Field(description="The first refused move; null if none.")
            ],
            "moves": NotRequired[
                Annotated[
                    list[games.record],  # type: ignore[name-defined]
                    Field(
                        description="The accepted moves, as a session records them (Othello's "
                        'inferred passes are their moves\' `passed`); left out of a `"detail": '
                        '"summary"` answer.'
                    ),
                ]
            ],
            "state": Annotated[
                dict[str, Any],
                Field(
                    description="The game after the accepted moves, as `GET /v1/games/{id}` "
                    "shows it, without `id`, `version` and `clock`."
                ),
            ],
            "chain": Annotated[
                str,
                Field(
                    description="The record's SHA-256 hash chain, lower-case hex: "
                    "`h0 = SHA-256(canonical creation parameters, with game)`, "
                    "`h_i = SHA-256(h_{i-1} ‖ canonical move record i)`."
                ),
            ],
            "assumed": NotRequired[
                Annotated[
                    dict[str, Any],
                    Field(
                        description="Present only when a record left unsaid a parameter its "
                        "format may say and the body gave none beside it: the values the game "
                        "was checked under (a PSQ or SGF record that names no rule: "
                        '`{"rule": "freestyle"}`).'
                    ),
                ]
            ],
            "signature": Annotated[
                SignatureOut, Field(description="The service's signature of the answer.")
            ],
        },
    )
    answer.__doc__ = "A whole game, audited."
    return answer


def _record_out(games: GameShapes) -> type:
    record = typed_dict(
        "RecordOut",
        {
            "game": Annotated[str, Field(description="The game's kind.")],
            "moves": Annotated[
                list[str | tuple[int, int] | int],
                Field(
                    description="The moves in order: squares (`f5`), or `[row, col]` pairs on "
                    "a board wider than 26 columns; as the kind's notation writes them where its "
                    "moves are not cells (a drop's 0-based column)."
                ),
            ],
            "state": Annotated[
                dict[str, Any],
                Field(
                    description="The game now, as `GET /v1/games/{id}` shows it, without "
                    "`id`, `version` and `clock`."
                ),
            ],
            "chain": Annotated[str, Field(description=CHAIN_DOC)],
            "signature": Annotated[
                SignatureOut | None,
                Field(
                    description="The service's signature of the record once the game is "
                    "over; null before."
                ),
            ],
        },
    )
    record.__doc__ = (
        "A game as a record: its kind, its creation parameters (as `POST /v1/games` takes them: "
        "`n` and `k`, `height` and `width`, or `board` and `next`), its moves, its state and "
        "its hash chain."
    )
    return record


@dataclass(frozen=True)
class AuditShapes:
    """An app's audit bodies: one per kind it serves, told apart by ``game`` (or by the
    record's ``format``), and the shape of the answer."""

    kinds: Kinds[Kind]
    body: JsonBody[Any]
    answer: type
    record: type
    batch: JsonBody[Any]
    batch_answer: type
    examples: dict[str, Any]

    @classmethod
    def of(cls, games: GameShapes) -> AuditShapes:
        kinds = games.kinds
        body = audit_body(kinds)
        parsed = JsonBody(body, AUDIT_EXAMPLES, tag="game", components=games.components)
        answer = _audit_out(games)
        batch_model = create_model(
            "AuditBatchIn",
            __base__=Body,
            __module__=__name__,
            records=(
                Annotated[
                    list[Annotated[Any, AfterValidator(to_json)]],
                    Field(min_length=1),
                    BeforeValidator(batch_limit),
                ],
                Field(
                    description="The games to audit, 1 to `max_batch`: each an audit body as "
                    "`POST /v1/records/audit` takes it (`AuditIn`). Each is read on its own: one "
                    "that is not an audit body is its result's problem, not the batch's.",
                    json_schema_extra={"items": {}},
                ),
            ),
        )
        batch_model.__doc__ = "Games to audit, each as `POST /v1/records/audit` takes one."
        batch = JsonBody(
            batch_model,
            {
                "two": {
                    "summary": "Two records",
                    "value": {
                        "records": [
                            AUDIT_EXAMPLES["othello-list"]["value"],
                            AUDIT_EXAMPLES["tictactoe-illegal"]["value"],
                        ]
                    },
                }
            },
            components=games.components,
        )
        batch_answer = typed_dict(
            "AuditBatchOut",
            {"results": Annotated[list[answer | dict[str, Any]],  # type: ignore[valid-type]
                                  Field(description="Each record's answer, or `{\"problem\"}`.")]},
        )  # fmt: skip
        shapes = cls(kinds, parsed, answer, _record_out(games), batch, batch_answer, {})
        problems = ProblemTable.of(kind.face for kind in kinds)

        def example(body: BaseModel) -> Json:
            audit = audit_of(kinds, body, DEFAULT_MAX_RECORD_MOVES)
            return EXAMPLE_KEY.signed(audit_answer(audit, problems, detail_of(body)), AUDIT)

        shapes.examples.update(parsed.answers(example))
        return shapes


# The examples' answers are signed by this key, made from a published seed: real signatures,
# that no service's key makes (its own are at GET /v1/keys).
EXAMPLE_KEY = SigningKey.from_seed(bytes(range(32)))

AUDIT_EXAMPLES: dict[str, Any] = {
    "othello-transcript": {
        "summary": "An Othello game as a transcript",
        "value": {"game": "reversi", "transcript": "f5d6c3d3c4f4f6f3e6e7d7"},
    },
    "othello-list": {
        "summary": "The same opening as a list of squares",
        "value": {"game": "reversi", "moves": ["f5", "d6", "c3", "d3", "c4"]},
    },
    "othello-ggf": {
        "summary": "The opening of a real GGS game (Saio1200–Saio3000, 2003) as GGF",
        "value": {
            "record": "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]"
            "PW[Saio3000]TI[05:00//02:00]TY[8]BO[8 -------- -------- -------- ---O*--- "
            "---*O--- -------- -------- -------- *]B[d3//0.01]W[c5//0.01]B[e6//0.01]"
            "W[d2//0.01];)",
            "format": "ggf",
        },
    },
    "gomoku-psq": {
        "summary": "A freestyle gomoku game on 20 × 20 as Gomocup's manager writes it (PSQ)",
        "value": {
            "record": "Piskvorky 20x20, 11:11, 0\n10,10,0\n11,11,0\n11,10,812\n12,10,640\n"
            "10,11,1210\n9,12,977\npbrain-one.zip\npbrain-two.zip\n-1\n",
            "format": "psq",
            "rule": "freestyle",
        },
    },
    "renju-sgf": {
        "summary": "A renju game as SGF (GM[4]): Black's ninth stone, h9, is a double three",
        "value": {
            "record": "(;FF[4]GM[4]SZ[15]RU[Renju];B[hh];W[ob];B[ig];W[mb];B[hf];W[kb];"
            "B[jg];W[ib];B[hg])",
            "format": "sgf",
        },
    },
    "othello-summary": {
        "summary": "The same game, answered as a summary: no move list",
        "value": {"game": "reversi", "transcript": "f5d6c3d3c4f4f6f3e6e7d7", "detail": "summary"},
    },
    "tictactoe-pairs": {
        "summary": "Tic-tac-toe as [row, col] pairs: X wins on the diagonal",
        "value": {"n": 3, "moves": [[1, 1], [0, 1], [0, 0], [2, 1], [2, 2]]},
    },
    "tictactoe-illegal": {
        "summary": "A tic-tac-toe record whose fourth move plays an occupied square",
        "value": {"n": 3, "transcript": "b2a1c3b2"},
    },
}


# --- routes ----------------------------------------------------------------------------------

# The keys change only when the service restarts with another key file: a cache may keep them a
# while, and must look again before it refuses a signature of a key it does not know.
KEYS_CACHE = "public, max-age=300"


class Jwk(BaseModel):
    """An Ed25519 public key as a JWK (RFC 8037); `kid` is its RFC 7638 thumbprint."""

    kty: str = Field(description="`OKP`.", examples=["OKP"])
    crv: str = Field(description="`Ed25519`.", examples=["Ed25519"])
    x: str = Field(description="The public key, base64url (32 bytes).")
    kid: str = Field(description="The key's id: the signatures it made carry it.")


class Keys(BaseModel):
    """The keys that verify the service's signatures: the current one first."""

    keys: list[Jwk] = Field(description="The current key, then older ones still published.")


async def get_keys(request: Request) -> Response:
    keys: KeyRing = request.app.state.keys
    published = keys.jwks()
    archiver = request.app.state.archiver
    if archiver is not None:  # the keys that signed archived records, this one's first
        listed = {key["kid"] for key in published["keys"]}
        published["keys"] += [key for key in archiver.published if key["kid"] not in listed]
    body = Keys.model_validate(published).model_dump_json()
    return Response(body, media_type="application/json", headers={"Cache-Control": KEYS_CACHE})


def _shapes(request: Request) -> AuditShapes:
    return cast(AuditShapes, request.app.state.audits)


def audited(
    shapes: AuditShapes, parsed: BaseModel, max_moves: int, meter: Meter,
    problems: ProblemTable, keys: KeyRing,
) -> Steps[Json]:  # fmt: skip
    """The signed answer to an audit, in steps: its moves read (refused 429 first if they are
    reckoned to cost more than the client has left: ``Meter.afford``), the replay, then the
    move records chained (and written for the signature as they are)."""
    to_replay = yield from reading(shapes.kinds, parsed, max_moves, meter.afford)
    audit = yield from to_replay.replaying()
    answer, written = yield from answering(audit, problems, detail_of(parsed))
    return keys.current.signed(answer, AUDIT, written)


@charged
async def audit_record(request: Request, meter: Meter) -> Response:
    shapes = _shapes(request)
    parsed = await shapes.body.parse(request, meter)
    max_moves = request.app.state.settings.max_record_moves
    state = request.app.state
    answer = audited(shapes, parsed, max_moves, meter, state.problems, state.keys)
    return json_response(await in_slices(answer, meter))


def _format_of(text: str) -> str:
    if not (text.isascii() and text.isalpha() and text.islower() and len(text) <= 16):
        raise Malformed("format", "must be json, transcript, or the game's own format")
    return text


RECORD_FORMAT = Param(
    "format",
    "query",
    {"type": "string", "enum": list(RECORD_FORMATS), "maxLength": 16},
    "How the game is written: `json` (the default: the creation parameters, the moves, the "
    "state, the hash chain and, once the game is over, the signature), `transcript` (its "
    "squares, one after another, as `text/plain`), or the kind's community format: `ggf` "
    "(Othello, as GGS writes it), `psq` (gomoku, as Gomocup's manager writes it) or `sgf` "
    "(gomoku, SGF FF[4] with `GM[4]`).",
    _format_of,
    JSON_RECORD,
)


def format_problem(message: str) -> RequestValidationError:
    """A ``?format=`` that cannot write the game, as the 422 that says why."""
    return RequestValidationError([{"loc": ("query", "format"), "type": "format", "msg": message}])


def _writable(kind: Kind, state: GameState, wanted: str) -> None:
    """422 unless ``wanted`` is a format of the game's kind that can write it (``refusal``):
    what can be told before a move is read."""
    refused = refusal(kind, board_size(kind, state.facts), wanted)
    if refused is not None:
        raise format_problem(refused)


@charged
async def get_record(request: Request, meter: Meter) -> Response:
    game_id = game_params.game_id(request)
    wanted = RECORD_FORMAT.read(request)
    await viewed(request, game_id)
    store: GameStore = request.app.state.store
    state = await store.state(game_id)
    tag = etag(state.id, state.version)
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    kind = _shapes(request).kinds.find(state.kind)
    _writable(kind, state, wanted)
    if game_params.etag_matches(request, tag):
        return Response(status_code=304, headers=headers)
    # A finished game's record is written once (at this version) and kept; a live game's is
    # written at each read, charged to the reader, and refused before it is read if the
    # reader's share has not what its moves are reckoned to cost.
    kept: KeptRecords = request.app.state.kept_records
    over = state.status != "in_progress"
    written = kept.get(game_id, state.version, wanted) if over else None
    if written is None:
        meter.afford(state.move_count)
        history = await store.history(game_id)
        keys: KeyRing = request.app.state.keys
        written = await in_slices(written_record(kind, history, state, wanted, keys), meter)
        if over:
            kept.keep(game_id, state.version, wanted, written)
    if written.refused is not None:
        raise format_problem(written.refused)
    return Response(written.body, media_type=written.media_type, headers=headers)


# --- batches: JSON, and WTHOR files streamed back as NDJSON -----------------------------------

NDJSON_MEDIA_TYPE = "application/x-ndjson"


def _batch_problem(errors: Sequence[Mapping[str, Any]]) -> Json:
    """One record's problem in a batch: the 422 it would get on its own."""
    return cast(Json, from_json(bytes(validation_problem(errors).body)))


def _audit_batch(request: Request, records: list[bytes], meter: Meter) -> Steps[list[bytes]]:
    """The results of a batch's records in order, each written as JSON as soon as it is made
    (a megabyte of answers is kept as text, not as objects), a move a step: a record that
    cannot be read is its problem; one of more moves than the client's share has left
    (``Meter.afford``) refuses the batch 429 before it is replayed."""
    shapes = _shapes(request)
    context: dict[str, Any] = request.app.state.validation_context
    keys: KeyRing = request.app.state.keys
    problems: ProblemTable = request.app.state.problems
    max_moves = context["settings"].max_record_moves
    results: list[bytes] = []
    for index, item in enumerate(records):
        try:
            parsed = shapes.body.validate(item, context)
            yield
            answer = yield from audited(shapes, parsed, max_moves, meter, problems, keys)
            results.append(to_json(answer))
        except BodyInvalid as refused:  # the body's parser's, or the reading's
            errors = refused.errors()
            located = [{**e, "loc": ("body", "records", index, *e["loc"][1:])} for e in errors]
            results.append(to_json({"problem": _batch_problem(located)}))
        yield
    return results


async def _audit_json_batch(request: Request, meter: Meter) -> Response:
    records = await _shapes(request).batch.parse_items(request, meter, "records")
    results = await in_slices(_audit_batch(request, records, meter), meter)
    body = b'{"results":[' + b",".join(results) + b"]}"  # as to_json writes it, whole
    return Response(body, media_type="application/json")


async def _wthor_lines(
    games: Iterator[WthorGame], kind: Kind, meter: Meter, client: str, budget: WorkBudget
) -> AsyncIterator[bytes]:
    """The NDJSON lines of a WTHOR file's games, a slice at a time; a game that cannot be read
    is a line of its problem, and the stream ends early (with a line of the 429) once the client
    has used its share of CPU time."""
    index = 0
    while True:
        lines: list[bytes] = []
        with meter:
            ends = time.perf_counter() + SLICE_SECONDS
            try:
                for game in games:
                    index = game.index
                    lines.append(to_json(wthor_line(game, kind)) + b"\n")
                    if time.perf_counter() >= ends:
                        break
                else:
                    yield b"".join(lines)
                    return
            except RecordError as error:  # the rest of the file is not read
                problem = _batch_problem([{"loc": ("body",), "type": "record", "msg": str(error)}])
                lines.append(to_json({"index": index + 1, "problem": problem}) + b"\n")
                yield b"".join(lines)
                return
        yield b"".join(lines)
        try:
            budget.limiter.admit(client)
        except HTTPException as refused:
            body = problem_body(RATE_LIMITED, str(refused.detail))
            yield to_json({"index": index + 1, "problem": body}) + b"\n"
            return


async def _audit_wthor(request: Request, meter: Meter) -> Response:
    shapes = _shapes(request)
    data = await request.body()
    meter.admit()
    try:
        _, games = read_wthor(data, request.app.state.settings.max_record_moves)
    except RecordError as error:
        raise RequestValidationError(
            [{"loc": ("body",), "type": "record", "msg": str(error)}]
        ) from None
    kind = shapes.kinds.find("reversi")
    budget: WorkBudget = request.app.state.work_budget
    lines = _wthor_lines(games, kind, meter, client_of(request), budget)
    return StreamingResponse(lines, media_type=NDJSON_MEDIA_TYPE)


@charged
async def audit_batch(request: Request, meter: Meter) -> Response:
    media = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media == WTHOR_MEDIA_TYPE:
        return await _audit_wthor(request, meter)
    return await _audit_json_batch(request, meter)


def records_router(shapes: AuditShapes) -> APIRouter:
    router = api_router("/v1", ["Records"])
    router.get(
        "/keys",
        summary="The keys that verify signed records",
        description="Ed25519 public keys as JWKs (RFC 8037): the key the service signs "
        "finished games' records and audit answers with, then older keys whose signatures "
        'still verify. A signature is `{"alg": "Ed25519", "kid", "typ", "value"}` over the '
        "canonical JSON (RFC 8785) of the signed document whose `signature` holds every member "
        "but `value`; `typ` says what the document is (`record` or `audit`). Verify it with the "
        "key of its `kid`.",
        response_model=Keys,
    )(get_keys)
    router.get(
        "/games/{game_id}/record",
        summary="A game's record",
        description="The game as a record: by default JSON with its creation parameters (as "
        "`POST /v1/games` takes them), its moves as squares (`[row, col]` pairs on a board "
        "wider than 26 columns), its state (as `GET /v1/games/{id}` shows it, without `id`, "
        "`version` and `clock`), the SHA-256 hash chain of its move records and, once the "
        "game is over, the service's Ed25519 signature (`GET /v1/keys`); null before. `POST "
        "/v1/records/audit` of it (without `state`, `chain` and `signature`) replays the same "
        "moves to the same state, unless the game ended off the board (a resignation, a flag "
        "fall, an agreed draw, the move limit). `?format=transcript` gives the squares as "
        "`text/plain`; `?format=ggf` an Othello game as GGS writes it. ETag / "
        "`If-None-Match` as for the game. A finished game's record is written once and "
        "answered the same bytes at every read; a live game's is written at each read, its CPU "
        "time charged to the reader's share (429 `rate_limited`, before it is written if its "
        "moves are reckoned to cost more than the share has left).",
        response_model=shapes.record,
        responses={
            200: {
                "headers": {"ETag": {"description": "The game's.", "schema": {"type": "string"}}},
                "content": {"text/plain": {"schema": {"type": "string"}}},
            },
            304: {"description": "Unchanged since the ETag in `If-None-Match`."},
            **store_errors(VALIDATION_ERROR, GAME_NOT_FOUND, UNAUTHORIZED, RATE_LIMITED),
        },
        openapi_extra={
            **game_params.VIEWER_TOKEN.openapi,
            "parameters": [
                game_params.GAME_ID.openapi,
                RECORD_FORMAT.openapi,
                game_params.IF_NONE_MATCH.openapi,
            ],
        },
    )(get_record)
    router.post(
        "/records/audit",
        summary="Audit a whole game",
        description="Replays a game move by move with the rules every session plays by, and "
        "says whether it is a legal game and how it stands: `finished`, `unfinished` (the "
        "record stops before the end) or `illegal` (the first refused move, with the refusal "
        "a session's move would get). The body is the kind's creation body (as `POST "
        "/v1/games` takes it, without a clock) and the moves: a list, a transcript, or a "
        "record in the kind's community format. Othello passes are inferred. The answer "
        "holds the accepted move records, the state after them, the record's SHA-256 hash "
        'chain and the service\'s Ed25519 signature (`GET /v1/keys`); `"detail": '
        '"summary"` leaves the move records out (the chain is the same; the summary is signed '
        "as a whole). A record that cannot be read, or of more than `max_record_moves` moves, "
        "is 422 naming where it broke. The "
        "audit's CPU time is charged to the client's share as it goes; a record of more moves "
        "than the share has left (`record_move_cpu_us` a move) is 429 `rate_limited` before "
        "it is replayed.",
        response_model=shapes.answer,
        responses={200: shapes.examples, **problem_responses(*BODY_ERRORS)},
        openapi_extra=resend(Resend.ALWAYS, shapes.body.openapi),
    )(audit_record)
    router.post(
        "/records/audit-batch",
        summary="Audit many games",
        description='`application/json`: `{"records": [<audit body>, …]}` (1 to '
        '`max_batch`) → `{"results": [<audit answer>, …]}` in order; a record that cannot be '
        'read is its own result, `{"problem": <its 422>}`, never the batch\'s failure; each '
        'record says its own `detail` (`"detail": "summary"`: its answer without the move '
        "records); once "
        "the client's CPU share is used (between two slices of the work, or before a record "
        "of more moves than it has left), the batch is 429 `rate_limited`. "
        "`application/octet-stream`: a WTHOR database file (`.wtb`: the French Othello "
        "Federation's format, 8 × 8), up to the body limit → `application/x-ndjson`, one line "
        "a game in file order, streamed as it is audited: `index`, `tournament`, `black`, "
        "`white` (the file's numbers), `stored_score` (Black's, as the file stores it), "
        "`verdict`, `plies`, `illegal`, `final_score` (the federation's: the empty squares to "
        "the winner; null unless the game is finished) and `agrees` (`stored_score` is "
        '`final_score.B`). A game record that cannot be read is a line `{"index", '
        '"problem"}` and ends the stream. A file whose header does not match its length is '
        "422. (The WTHOR form is said here rather than as a second request media type, which "
        "the common client generators cannot yet read.)",
        response_model=shapes.batch_answer,
        responses={
            200: {"content": {NDJSON_MEDIA_TYPE: {"schema": {"type": "string"}}}},
            **problem_responses(*BODY_ERRORS),
        },
        openapi_extra=resend(Resend.ALWAYS, shapes.batch.openapi),
    )(audit_batch)
    return router
