"""A move body read: the shape a JSON object is (``shape_for``: by the members that tell the
kind's move shapes apart), and what a parsed one plays and the player it claims
(``played_by``) — for a session's move route and for a choice an audited record writes."""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, RootModel

from app.contract.games import MoveBody, claimed
from app.sessions.kind import Played, Player


def _keys(shape: type[MoveBody]) -> tuple[str, ...]:
    """The members that tell a move's shape apart (its ``key``, unless it names more)."""
    return shape.keys or (shape.key,)


def shape_for(shapes: tuple[type[MoveBody], ...], body: Mapping[str, object]) -> type[MoveBody]:
    """The move shape a JSON object is: the first whose key it has (else the first shape, whose
    errors say what is missing)."""
    return next((shape for shape in shapes if any(k in body for k in _keys(shape))), shapes[0])


def move_of(body: BaseModel) -> MoveBody:
    """The move body inside a parsed one (a root model's member)."""
    inner = body.root if isinstance(body, RootModel) else body
    assert isinstance(inner, MoveBody)
    return inner


def played_by(body: BaseModel) -> tuple[Played, Player | None]:
    """What a parsed move body plays, and the player it claims."""
    move = move_of(body)
    return move.played(), claimed(move.player)
