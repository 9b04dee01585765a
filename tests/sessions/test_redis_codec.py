"""The Redis store's codec (app/stores/redis/codec.py) reads back what it writes: the fields a
new game's meta hash is created with, read by name through the records of the store's HMGETs
(``KnownFields``, ``RecipeFields``), give back the game's creation. (What the scripts answer
of a game is the store contract suite's: tests/sessions/test_store.py.)"""

from __future__ import annotations

import json
from typing import TypeVar

import pytest

from app.kinds import REGISTRY
from app.sessions.clock import TimeControl
from app.sessions.kind import Placement
from app.sessions.session import Session, Terms
from app.sessions.store import Client, NewGame, opened
from app.stores.redis.codec import GENERIC, created_fields, known_of, opening_moves, recipe_of
from app.stores.redis.wire import KnownFields, RecipeFields

Fields = TypeVar("Fields", KnownFields, RecipeFields)


def hmget(record: type[Fields], meta: dict[str, str]) -> Fields:
    """What Redis answers an HMGET of ``record``'s fields of a hash holding ``meta``."""
    return record(*(meta.get(field) for field in record._fields))


def created(recipe: NewGame, owner: str, engine: str = GENERIC) -> dict[str, str]:
    """The meta hash a game made from ``recipe`` is created with (create.lua writes it)."""
    kind = REGISTRY.find(recipe.kind)
    position = opened(kind, recipe.params, recipe.opening)
    session = Session(
        "g", kind, recipe.params, ("hash1", "hash2"), position, 100,
        version=position.move_count, names=recipe.names,
    )  # fmt: skip
    fast = None if engine == GENERIC else kind.fast_path
    meta: dict[str, str] = json.loads(
        created_fields(session, engine, fast, owner, recipe.control, recipe.terms)
    )
    return meta


RECIPES = {
    "plain": NewGame("tictactoe", {"n": 3}, None, (), Terms()),
    "every term": NewGame(
        "reversi",
        {},
        TimeControl(300, 2, "bronstein"),
        (),
        Terms(30, frozenset({"abort", "takeback"}), True),
        names=("Ann", "Bo"),
    ),
    "an opening": NewGame(
        "tictactoe",
        {"n": 4, "k": 3},
        TimeControl(60, 0),
        (Placement(1, 1), Placement(0, 2)),
        Terms(),
    ),
}


@pytest.mark.parametrize("name", sorted(RECIPES))
def test_a_games_recipe_is_read_back_from_the_fields_it_was_created_with(name: str) -> None:
    recipe = RECIPES[name]
    found = hmget(RecipeFields, created(recipe, "owner"))
    assert opening_moves(found) == len(recipe.opening)
    assert recipe_of(REGISTRY, found, []) == NewGame(
        recipe.kind, recipe.params, recipe.control, (), recipe.terms, names=recipe.names
    )


@pytest.mark.parametrize("private", [False, True])
@pytest.mark.parametrize("network", [None, "198.51.100.0/24"])
def test_what_never_changes_of_a_game_is_read_back_from_its_fields(
    private: bool, network: str | None
) -> None:
    owner = Client("198.51.100.7", network)
    recipe = NewGame("tictactoe", {"n": 5, "k": 4}, None, (), Terms(private=private))
    kind = REGISTRY.find("tictactoe")
    assert kind.fast_path is not None
    known = known_of(REGISTRY, hmget(KnownFields, created(recipe, owner, kind.fast_path.engine)))
    assert known is not None
    assert (known.kind, known.hashes) == ("tictactoe", ("hash1", "hash2"))
    assert known.engine == kind.fast_path.engine
    assert (known.owner, known.size, known.private) == (owner, (5, 5), private)
    assert isinstance(known.owner, Client)
    assert known.owner.network == network


def test_a_game_that_is_not_there_is_known_as_none() -> None:
    assert known_of(REGISTRY, KnownFields(*[None] * len(KnownFields._fields))) is None


def test_every_field_the_store_reads_by_name_is_one_a_new_game_is_created_with() -> None:
    meta = created(RECIPES["every term"], Client("198.51.100.7", "198.51.100.0/24"))
    unread = [
        (record.__name__, field)
        for record in (KnownFields, RecipeFields)
        for field in record._fields
        if field not in meta
    ]
    assert unread == []
