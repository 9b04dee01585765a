"""The audit body: a kind's creation body (the same model, so the same parameters and the same
checks; no clock) plus the moves, written one of three ways — a list (``moves``), a transcript
(``transcript``) or a record in a community format (``record`` and ``format``) — and at most
``max_record_moves`` of them. ``audit_model`` makes a kind's, ``audit_body`` the one body of the
kinds a service serves (``AuditIn``), which the OpenAPI document shows one shape a way of giving
the moves (``audit_shapes``); ``app.records.reading`` reads a parsed one into the game to
replay. The endpoint and ``adjudicator audit`` parse the same body."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal, Union, cast, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    ValidationInfo,
    create_model,
    model_validator,
)
from pydantic.json_schema import SkipJsonSchema
from pydantic_core import PydanticCustomError

from app.contract.fields import Body, JsonInt
from app.contract.games import Kind
from app.contract.squares import SquareError, check_syntax
from app.contract.unions import (
    default_kind,
    game_of_body,
    one_of,
    root_model,
    shown_as,
    tagged_union,
)
from app.records.formats import FORMATS
from app.sessions.kind import Kinds

# Moves one audited record may hold by default (ADJUDICATOR_MAX_RECORD_MOVES: the setting
# ``max_record_moves``).
DEFAULT_MAX_RECORD_MOVES = 10_000

PASS = "pass"


def _square_or_pass(text: str) -> str:
    """A square's name (``f5``, any case) or ``pass``, in lower case."""
    if text.lower() == PASS:
        return PASS
    try:
        return check_syntax(text)
    except SquareError as error:
        raise PydanticCustomError(
            error.type, "{message}, or pass", {"message": str(error)}
        ) from None


def record_moves_limit(moves: Any, info: ValidationInfo) -> Any:
    """Before-validator of a record's move list: more than ``max_record_moves`` is refused
    before any move is looked at."""
    settings = (info.context or {}).get("settings")
    limit = DEFAULT_MAX_RECORD_MOVES if settings is None else settings.max_record_moves
    if isinstance(moves, list) and len(moves) > limit:
        raise PydanticCustomError(
            "too_long",
            "a record has at most {max} moves, this one has {length}: move {beyond} is beyond",
            {"max": limit, "length": len(moves), "beyond": limit + 1},
        )
    return moves


WrittenMove = Annotated[
    Annotated[str, Field(max_length=8), AfterValidator(_square_or_pass)]
    | tuple[JsonInt, JsonInt]
    | Annotated[dict[str, Any], Field(max_length=2)],
    Field(description="A square (`f5`), a `[row, col]` pair (0-based, row 0 the top row), "
          "`pass`, or a choice as `POST /v1/games/{id}/choice` takes it (a swap2 opening's: "
          '`{"color": "W"}`, `{"place_two": true}`).'),
]  # fmt: skip


# How much an audit's answer says (``detail``): everything, or what a bulk client needs to know
# of a game (the verdict, the plies, the refusal, the state, the chain), without the move list.
Detail = Literal["full", "summary"]
FULL: Detail = "full"
SUMMARY: Detail = "summary"
DETAIL_DOC = (
    "How much the answer says: `full` (the default: the accepted move records too) or "
    "`summary` (the verdict, `plies`, `illegal`, the state, the chain and the signature, "
    "without `moves`: the answer a bulk client reads, a few hundred bytes a game). The chain is "
    "the same either way, and the summary is signed as a whole, as the full answer is."
)


# The ways an audit body gives the moves, each by its fields (``RecordSource``'s), named by the
# first: a body gives exactly one.
WAYS: dict[str, tuple[str, ...]] = {
    "moves": ("moves",),
    "transcript": ("transcript",),
    "record": ("record", "format"),
}


class RecordSource(BaseModel):
    """What an audit body adds to a kind's creation body: the moves, one of three ways."""

    formats: ClassVar[tuple[str, ...]] = ()  # the kind's (``Face.formats``)
    title: ClassVar[str] = ""  # the kind's (``Face.title``)

    moves: Annotated[list[WrittenMove], BeforeValidator(record_moves_limit)] | None = Field(
        None,
        description="The moves in order: squares (`f5`), `[row, col]` pairs, `pass` where "
        "the kind has passes (Othello's are inferred: a written one is checked), and choices "
        'where an opening rule asks for them (swap2: `{"color": "W"}`, `{"place_two": '
        "true}`). At most `max_record_moves` (default 10,000).",
    )
    transcript: str | None = Field(
        None,
        description="The squares written one after another (`f5d6c3d3c4`; `h8i9j10` where rows "
        "have two digits), case-insensitive, spaces and line breaks allowed between them; no "
        "passes (Othello's are inferred).",
    )
    record: str | None = Field(
        None,
        description="A game in a community format, named by `format`: its text. The game's "
        "parameters come from the record, and those its format cannot carry from the body "
        "(`format` says which).",
    )
    _beside: dict[str, Any] = PrivateAttr(default_factory=dict)  # given beside the record
    detail: Detail = Field(FULL, description=DETAIL_DOC)

    format: str | None = Field(
        None, description="The format of `record`: one of the game's community formats."
    )

    @model_validator(mode="after")
    def _one_source(self) -> RecordSource:
        given = [way for way in WAYS if getattr(self, way) is not None]
        if len(given) != 1:
            raise PydanticCustomError(
                "one_source",
                "give the moves one way: moves, transcript, or record with its format",
            )
        if (self.record is None) != (self.format is None):
            raise PydanticCustomError("record_and_format", "record and format go together")
        if self.format is not None and self.format not in self.formats:
            known = ", ".join(self.formats) or "none"
            raise PydanticCustomError(
                "unknown_format",
                "{kind} records come in these formats: {known}",
                {"kind": self.title, "known": known},
            )
        if self.record is not None:
            assert self.format is not None
            beside = FORMATS[self.format].given  # set aside already (``_set_aside``)
            others = self.model_fields_set - {"game", "record", "format", "detail"}
            if others:
                allowed = f" (only {', '.join(sorted(beside))})" if beside else ""
                raise PydanticCustomError(
                    "record_and_parameters",
                    "a record gives the game's parameters: give no {names} with it{allowed}",
                    {"names": ", ".join(sorted(others)), "allowed": allowed},
                )
        return self

    @model_validator(mode="wrap")
    @classmethod
    def _set_aside(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        """Beside a record, the parameters its format cannot carry (``Format.given``) are set
        aside, unread: they are read with the record's own, as one game's (``foul`` beside a
        record that says renju is renju's), once the record is read."""
        beside: dict[str, Any] = {}
        if isinstance(data, dict) and data.get("record") is not None:
            written = data.get("format")
            if isinstance(written, str) and written in FORMATS:
                given = FORMATS[written].given
                beside = {name: value for name, value in data.items() if name in given}
                data = {name: value for name, value in data.items() if name not in given}
        model = handler(data)
        model._beside = beside
        return model


def _no_clock(value: object) -> None:
    if value is not None:
        raise PydanticCustomError("no_clock", "an audit replays moves without time: no clock")
    return


# A creation body's ``clock``, which an audit body does not take: not in its schema, refused.
NO_CLOCK: Any = (cast(Any, SkipJsonSchema)[Annotated[None, BeforeValidator(_no_clock)]], None)


def audit_model(kind: Kind) -> type[BaseModel]:
    """The audit body of ``kind``: its creation body (``Create…In``) with the moves, as
    ``Audit…In``."""
    create = kind.face.create
    name = "Audit" + create.__name__.removeprefix("Create")
    fields: dict[str, Any] = {"clock": NO_CLOCK}
    if kind.face.formats:  # a record in the kind's format names the kind: `game` may be left out
        game = create.model_fields["game"]
        fields["game"] = (game.annotation, Field(kind.name, description=game.description))
        formats = " ".join(FORMATS[written].doc for written in kind.face.formats)
        doc = f"The format of `record`: {formats}"
        fields["format"] = (str | None, Field(None, description=doc))
    notation = kind.face.notation
    if notation is not None:  # its moves are not cells: written as its notation writes them
        item: Any = notation.item
        written = Annotated[list[item], BeforeValidator(record_moves_limit)] | None
        fields["moves"] = (written, Field(None, description=notation.moves_doc))
        fields["transcript"] = (str | None, Field(None, description=notation.transcript_doc))
    bases: tuple[type[BaseModel], ...] = (create, RecordSource)
    made = create_model(name, __base__=bases, __module__=__name__, **fields)
    model = cast(type[RecordSource], made)
    model.formats = kind.face.formats
    model.title = kind.face.title
    model.__doc__ = (create.__doc__ or "").strip() + " With the moves of the game to audit."
    return model


# What each way's shape of an audit body adds to its kind's description in the OpenAPI document.
WAY_DOCS = {
    "moves": "With the moves of the game to audit as a list (`moves`).",
    "transcript": "With the moves of the game to audit as a transcript (`transcript`).",
    "record": "With the game to audit as a record in one of the kind's formats (`record` and "
    "`format`), which gives the game's parameters: beside it, only those its format cannot "
    "carry.",
}


def _not_null(annotation: Any) -> Any:
    """``annotation`` without its ``None``: ``list[str] | None`` → ``list[str]``."""
    members = [member for member in get_args(annotation) if member is not type(None)]
    return Union[tuple(members)] if len(members) > 1 else members[0]  # noqa: UP007 - at run time


def audit_shapes(kind: Kind, model: type[BaseModel]) -> dict[str, type[BaseModel]]:
    """How the OpenAPI document shows ``kind``'s audit body (``model``, ``Audit…In``): one shape
    a way of giving the moves (``Audit…MovesIn``, ``…TranscriptIn``, ``…RecordIn`` where the kind
    has formats), none of which a body of another way or kind fits, so that every body fits one
    shape at most (``oneOf``).

    The document's only: ``model`` parses the body (its errors name the field), and the shapes
    say what it takes. A way's fields are required in its shape and absent from the others'
    (``model`` also reads a null one as left out, but a shape that took a null would seem to
    share bodies with another to every tool that reads only what each shape requires). A
    record's shape takes only the parameters its formats cannot carry (``Format.given``) and
    may leave ``game`` out (the format names the kind, as ``game_of_body`` reads it); the other
    shapes take the kind's creation body as it is, whose ``game`` only the default kind may
    leave out.
    """
    create = kind.face.create
    stem = model.__name__.removesuffix("In")
    shapes: dict[str, type[BaseModel]] = {}
    for way, own in WAYS.items():
        formats = kind.face.formats
        if way == "record" and not formats:
            continue
        fields: dict[str, Any] = {}
        for name in own:
            info = model.model_fields[name]
            shown = cast(Any, Literal)[formats] if name == "format" else _not_null(info.annotation)
            fields[name] = (shown, Field(description=info.description))
        if way == "record":
            beside = frozenset[str]().union(*(FORMATS[written].given for written in formats))
            game = model.model_fields["game"]
            fields["game"] = (game.annotation, game)
            parameters = [name for name in create.model_fields if name in beside]
        else:
            parameters = [name for name in create.model_fields if name != "clock"]
        for name in parameters:
            info = create.model_fields[name]
            fields[name] = (info.annotation, info)
        info = model.model_fields["detail"]
        fields["detail"] = (info.annotation, info)
        doc = (create.__doc__ or "").strip() + " " + WAY_DOCS[way]
        name = f"{stem}{way.capitalize()}In"
        made = create_model(name, __base__=Body, __module__=__name__, __doc__=doc, **fields)
        shapes[name] = made
    return shapes


def audit_body(kinds: Kinds[Kind]) -> type[BaseModel]:
    """The audit body of ``kinds`` (``AuditIn``): one kind's audit body (``audit_model``), told
    apart by ``game`` (or by the record's ``format``, which names its kind; else the kind whose
    ``game`` has a default), which the OpenAPI document shows as one shape a way of giving the
    moves (``audit_shapes``)."""
    models = {kind.name: audit_model(kind) for kind in kinds}
    by_format = {f: kind.name for kind in kinds for f in kind.face.formats}
    union = tagged_union(game_of_body(default_kind(kinds), by_format), models, "game")
    shown = {
        name: shape
        for kind in kinds
        for name, shape in audit_shapes(kind, models[kind.name]).items()
    }
    body = root_model("AuditIn", Annotated[union, shown_as(one_of(shown))])
    body.__doc__ = (
        "A game to audit: its kind's creation parameters and its moves, given one way: a "
        "list (`moves`), a transcript (`transcript`), or a record (`record` and `format`)."
    )
    return body
