"""The kind registry: ``KINDS`` is the one list of the game kinds this service serves.

A new kind is a module (or a package) here (with its rules in ``app/rules/``) whose ``KIND`` is
added to ``KINDS``. Everything else derives from the registry a service is given
(``create_app(kinds=…)``, ``KINDS`` unless told): the stores find a game's kind in it
(``Kinds.find``), and the edge builds its OpenAPI unions, its move route's refusals, its problem
table and the page's kind table from the kinds' faces.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import get_args, get_type_hints

from app.contract.games import Kind
from app.kinds import connect4, gomoku, reversi, tictactoe
from app.sessions.kind import Kinds

KINDS: tuple[Kind, ...] = (tictactoe.KIND, reversi.KIND, gomoku.KIND, connect4.KIND)


def check_face(kind: Kind) -> None:
    """A kind's face names the kind as ``name`` does: its state's and its creation body's
    ``game`` are the ``Literal`` of its name."""
    face = kind.face
    for shape, field in ((face.state, "game"), (face.create, "game")):
        hints = get_type_hints(shape, include_extras=True)
        named = set(_literals(hints.get(field)))
        if named != {kind.name}:
            raise ValueError(f"{shape.__name__}.{field} must be Literal[{kind.name!r}]")


def _literals(annotation: object) -> Iterator[object]:
    """The values of the ``Literal`` inside an (``Annotated``) annotation."""
    for arg in get_args(annotation):
        if isinstance(arg, str):
            yield arg
        else:
            yield from _literals(arg)


REGISTRY: Kinds[Kind] = Kinds(KINDS)


def find_kind(name: str) -> Kind:
    """The kind of the default registry called ``name``; KeyError for an unknown kind."""
    return REGISTRY.find(name)
