"""The kind registry: ``KINDS`` is the one list of the game kinds this service serves.

A new kind is a module here (with its rules in ``app/rules/``) whose ``KIND`` is added to
``KINDS``. Everything else derives from the registry a service is given (``create_app(kinds=…)``,
``KINDS`` unless told): the stores find a game's kind in it (``Kinds.find``), and the edge builds
its OpenAPI unions, its move route's refusals, its problem table and the page's kind table from
the kinds' faces.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import get_args, get_type_hints

from app.kinds import gomoku, reversi, tictactoe
from app.sessions.kind import GameKind

KINDS: tuple[GameKind, ...] = (tictactoe.KIND, reversi.KIND, gomoku.KIND)


class Kinds:
    """Game kinds by name, in the order they were given (the first is the default of a
    creation body that names none)."""

    def __init__(self, kinds: Iterable[GameKind]) -> None:
        self._by_name: dict[str, GameKind] = {}
        for kind in kinds:
            if self._by_name.setdefault(kind.name, kind) is not kind:
                raise ValueError(f"two kinds are named {kind.name!r}")
        if not self._by_name:
            raise ValueError("a service serves at least one kind")

    def find(self, name: str) -> GameKind:
        """The kind called ``name``; KeyError for a kind this service does not know."""
        return self._by_name[name]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._by_name)

    def __iter__(self) -> Iterator[GameKind]:
        return iter(self._by_name.values())

    def __len__(self) -> int:
        return len(self._by_name)


def check_face(kind: GameKind) -> None:
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


REGISTRY = Kinds(KINDS)


def find_kind(name: str) -> GameKind:
    """The kind of the default registry called ``name``; KeyError for an unknown kind."""
    return REGISTRY.find(name)
