"""Bodies of one of several models, told apart by a tag (``tagged_union``: the kinds' creation
bodies by ``game``, a kind's move shapes by their members), and how the OpenAPI document shows
a body whose documentation is best told apart from its parser (``shown_as``, ``one_of``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Annotated, Any, Union, cast

from pydantic import BaseModel, BeforeValidator, Discriminator, RootModel, Tag, create_model

from app.contract.fields import UNKNOWN_TAG
from app.contract.games import Kind


def tagged_union(
    tag_of: Callable[[object], str | None], members: Mapping[str, type[BaseModel]], what: str
) -> Any:
    """A union of body models told apart by ``tag_of``; a tag none has is an error of ``what``."""
    if len(members) == 1:
        return next(iter(members.values()))
    names = ", ".join(repr(name) for name in members)
    return Annotated[
        Union[tuple(Annotated[model, Tag(tag)] for tag, model in members.items())],  # noqa: UP007
        Discriminator(
            tag_of,
            custom_error_type=UNKNOWN_TAG,
            custom_error_message=f"{what} must be one of {names}",
        ),
    ]


def _no_tag(body: object) -> None:
    return None


def one_of(members: Mapping[str, type[BaseModel]]) -> Any:
    """A union of ``members`` that JSON Schema shows as a ``oneOf`` (pydantic writes one for a
    tagged union only), for ``shown_as``: nothing is parsed with it, so its tags are never read."""
    return tagged_union(_no_tag, members, "")


def _unchanged(value: object) -> object:
    return value


def shown_as(shown: Any) -> BeforeValidator:
    """A marker of a type that JSON Schema shows as ``shown`` and that parses as itself: for a
    body whose documentation is best told apart from its parser (an audit's)."""
    return BeforeValidator(_unchanged, json_schema_input_type=shown)


def root_model(name: str, root: Any) -> type[BaseModel]:
    """A root model over a run-time type (a union of the kinds' bodies)."""
    base: type[BaseModel] = cast(Any, RootModel)[root]
    return create_model(name, __base__=base, __module__=__name__)


def game_of_body(
    default: str | None, by_format: Mapping[str, str] | None = None
) -> Callable[[object], str | None]:
    def game_of(body: object) -> str | None:
        """The kind a creation body names (without ``game``: the kind of the record format it
        names, in an audit, else the default kind; a body that is no object: the default,
        whose schema then says what is wrong)."""
        if isinstance(body, dict):
            written = body.get("format")
            implied = (by_format or {}).get(written) if isinstance(written, str) else None
            game = body.get("game", implied or default)
            return game if isinstance(game, str) else None
        return cast(str | None, getattr(body, "game", default))

    return game_of


def default_kind(kinds: Iterable[Kind]) -> str | None:
    """The kind a creation body without ``game`` makes: the one whose ``game`` has a default."""
    return next(
        (kind.name for kind in kinds if not kind.face.create.model_fields["game"].is_required()),
        None,
    )
