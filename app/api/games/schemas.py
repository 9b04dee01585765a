"""The game routes' bodies and answers, derived from the kinds a service serves.

Each kind declares its face once (``app.contract.games.Face``): its creation body, the shapes of
its state, move records, legal moves and board, the move bodies it takes, its refusals.
``GameShapes.of`` joins the faces of an app's kinds into what the routes declare and parse: the
unions of states, records, pages of legal moves and boards (told apart by ``game``), the
creation body (by ``game``; a body without it is the kind whose ``game`` has a default,
tic-tac-toe), the move body of each kind and the union of them all that the docs show, the choice
bodies of the kinds that have some (gomoku's swap2) likewise, and the refusals the move route
documents. Nothing here names a kind.

Response shapes are ``TypedDict``s: FastAPI documents them (``response_model``) at no cost per
request; ``app.contract.render`` builds the answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Union, cast

from pydantic import (
    BaseModel,
    Field,
    RootModel,
)
from typing_extensions import TypedDict

from app.api.bodies import JsonBody
from app.contract.games import KIND_DOC, ActionIn, CreateIn, GiveTimeIn, JoinIn, Kind, MoveBody
from app.contract.moves import shape_for
from app.contract.problems import Refusal
from app.contract.unions import default_kind, game_of_body, root_model, tagged_union
from app.kinds import check_face
from app.sessions.kind import Kinds, Player, Winner


def _union(members: Iterable[Any]) -> Any:
    """The union of these types (each once), or the one type."""
    unique = tuple(dict.fromkeys(members))
    return unique[0] if len(unique) == 1 else Union[unique]  # noqa: UP007 - built at run time


def _by_game(members: Iterable[Any]) -> Any:
    """A union of states told apart by ``game``."""
    unique = tuple(dict.fromkeys(members))
    if len(unique) == 1:
        return unique[0]
    return Annotated[Union[unique], Field(discriminator="game")]  # noqa: UP007


def typed_dict(name: str, fields: dict[str, Any]) -> type:
    """A ``TypedDict`` of run-time types (the kinds' shapes), for FastAPI to document."""
    made: type = TypedDict(name, fields)  # type: ignore[misc]
    return made


def _legal_moves_page(kind: Kind) -> type:
    """The page of legal moves of a game of ``kind``: its items are the kind's
    ``Face.legal_move``, and its ``game`` tells it apart from the other kinds' pages."""
    face = kind.face
    title = "".join(word.capitalize() for word in re.split(r"[^A-Za-z0-9]+", face.title))
    page = typed_dict(
        f"{title}LegalMovesOut",
        {
            "id": str,
            "game": Annotated[cast(Any, Literal)[kind.name], Field(description=KIND_DOC)],
            "version": Annotated[
                int,
                Field(description="The game's version these moves are of (its `ETag` says it)."),
            ],
            "player": Annotated[
                Player | None,
                Field(description="Who moves now; null once the game is over (then no moves)."),
            ],
            "count": Annotated[
                int, Field(description="How many legal moves the player has, on every page.")
            ],
            "moves": Annotated[
                cast(Any, list)[face.legal_move],
                Field(
                    description="This page's legal moves, in row-major order (by row, then column)."
                ),
            ],
            "next_after": Annotated[
                int | None,
                Field(
                    description="The `after` of the next page (this page's last cell index); "
                    "null when no legal move follows this page."
                ),
            ],
        },
    )
    page.__doc__ = f"A page of the legal moves of the player to move, in a game of {face.title}."
    return page


def _shape_of(shapes: tuple[type[MoveBody], ...]) -> Callable[[object], str | None]:
    def shape_of(body: object) -> str | None:
        """The move shape a body is (``shape_for``), or the shape a parsed one is of."""
        if isinstance(body, dict):
            return shape_for(shapes, body).key
        return next((shape.key for shape in shapes if isinstance(body, shape)), None)

    return shape_of


class MoveBodies:
    """A move body of one of ``shapes`` (``what`` they are: a move, a choice), parsed into what
    it plays."""

    def __init__(
        self,
        shapes: tuple[type[MoveBody], ...],
        name: str,
        components: list[type[BaseModel]],
        what: str = "a move",
    ) -> None:
        self.shapes = shapes
        if len(shapes) == 1:
            model: type[BaseModel] = shapes[0]
        else:
            union = tagged_union(_shape_of(shapes), {shape.key: shape for shape in shapes}, what)
            model = root_model(name, union)
            model.__doc__ = f"{what.capitalize()}: " + ", or ".join(
                (shape.__doc__ or shape.__name__).strip().rstrip(".").lower() for shape in shapes
            )
        examples = {name: example for shape in shapes for name, example in shape.examples.items()}
        # A shape's errors are located where its members are in the body, not under its tag.
        self.body = JsonBody(model, examples, tagged=len(shapes) > 1, components=components)


@dataclass(frozen=True)
class GameShapes:
    """An app's game bodies and answers: its kinds' faces joined."""

    kinds: Kinds[Kind]
    default: str | None  # the kind a creation body without `game` makes
    game: Any  # a state: the union of the kinds' states, by `game`
    created: Any  # a creation answer
    record: Any  # a move record
    board: Any  # a board answer
    legal_moves: Any  # a page of legal moves: the union of the kinds' pages, by `game`
    move_result: type  # the answer to a move
    moves_page: type  # a page of moves
    create: JsonBody[Any]
    move: MoveBodies  # what the docs show: a move of any kind's shape
    moves_of: Mapping[str, MoveBodies]  # each kind's own move bodies, by its name
    choice: MoveBodies | None  # what the docs show: a choice of any kind's (None: no kind has one)
    choices_of: Mapping[str, MoveBodies]  # the choice bodies of each kind that has some
    refusals: tuple[Refusal, ...]  # the refusals of the kinds' rules, each once
    components: list[type[BaseModel]] = field(default_factory=list)  # the bodies, for OpenAPI

    @classmethod
    def of(cls, kinds: Kinds[Kind]) -> GameShapes:
        for kind in kinds:
            check_face(kind)
        faces = [kind.face for kind in kinds]
        components: list[type[BaseModel]] = []
        game, record = _by_game(f.state for f in faces), _union(f.record for f in faces)
        move_result = typed_dict(
            "MoveResultOut",
            {
                "winner": Annotated[
                    Winner, Field(description="0 while nobody has won, else the winner.")
                ],
                "move": record,
                "state": game,
            },
        )
        moves_page = typed_dict(
            "MovesPage",
            {
                "moves": cast(Any, list)[record],
                "version": Annotated[
                    int,
                    Field(
                        description="The game's version now: its number of moves too, unless "
                        "changes other than moves were made (draw offers, an ending). Pass the "
                        "last move's `seq` as `since` next time."
                    ),
                ],
            },
        )
        creates = {kind.name: kind.face.create for kind in kinds}
        default = default_kind(kinds)
        create = root_model("CreateGameIn", tagged_union(game_of_body(default), creates, "game"))
        create.__doc__ = "A new game of one kind, named by `game`" + (
            f" ({kinds.find(default).face.title.lower()} without it)." if default else "."
        )
        examples = {name: example for f in faces for name, example in f.examples.items()}
        every_shape = tuple(dict.fromkeys(s for f in faces for s in f.moves))
        by_shapes: dict[tuple[type[MoveBody], ...], MoveBodies] = {}
        for kind in kinds:
            shapes = kind.face.moves
            if shapes not in by_shapes:  # a component only if the document shows it (`move`)
                shown = components if shapes == every_shape else []
                by_shapes[shapes] = MoveBodies(shapes, f"{kind.name.title()}MoveIn", shown)
        choosing = [kind for kind in kinds if kind.face.choices]
        choices_of = {
            kind.name: MoveBodies(
                kind.face.choices, f"{kind.name.title()}ChoiceIn", components, "a choice"
            )
            for kind in choosing
        }
        every_choice = tuple(dict.fromkeys(s for f in faces for s in f.choices))
        refusals = {id(r): r for f in faces for r in f.refusals}
        return cls(
            kinds=kinds,
            default=default,
            game=game,
            created=_by_game(f.created for f in faces),
            record=record,
            board=_union(f.board for f in faces),
            legal_moves=_by_game(_legal_moves_page(kind) for kind in kinds),
            move_result=move_result,
            moves_page=moves_page,
            create=JsonBody(create, examples, tag="game", components=components),
            move=by_shapes.get(every_shape) or MoveBodies(every_shape, "AnyMoveIn", components),
            moves_of={kind.name: by_shapes[kind.face.moves] for kind in kinds},
            choice=(
                None
                if not every_choice
                else choices_of[choosing[0].name]
                if len(choosing) == 1
                else MoveBodies(every_choice, "AnyChoiceIn", components, "a choice")
            ),
            choices_of=choices_of,
            refusals=tuple(refusals.values()),
            components=components,
        )

    def create_body(self, body: BaseModel) -> CreateIn:
        """The kind's creation body inside a parsed one."""
        inner = body.root if isinstance(body, RootModel) else body
        assert isinstance(inner, CreateIn)
        return inner


ACTION_BODY = JsonBody(
    ActionIn, {"anyone": {"summary": "The token says who", "value": {}}}, optional=True
)
JOIN_BODY = JsonBody(
    JoinIn, {"named": {"summary": "Join as Bo", "value": {"name": "Bo"}}}, optional=True
)
GIVE_TIME_BODY = JsonBody(
    GiveTimeIn, {"fifteen": {"summary": "15 seconds to the other player", "value": {"seconds": 15}}}
)
