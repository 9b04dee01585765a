"""The Redis scripts' arguments and answers are declared once (app/stores/redis/wire.py) and the
scripts are held to the declarations: a name that is not declared, a declared argument left
unread, an argument read by position, or an answer with a field left out is an error, not a
silently shifted list."""

from __future__ import annotations

import re
from dataclasses import fields, replace
from typing import NamedTuple

import pytest
import redis

from app.sessions.errors import StoreUnavailable
from app.sessions.kind import ClockReading, Move, Placement
from app.stores.redis.scripts import script_text
from app.stores.redis.wire import (
    REPLIES,
    SCRIPTS,
    TAGGED,
    GameOverReply,
    MovesReply,
    Script,
    check_script,
    decode,
    lua_prelude,
)


class Pair(NamedTuple):
    left: str
    right: str


PAIR = Script("pair", Pair, replies=("moves",), game=False)


@pytest.mark.parametrize("name", sorted(SCRIPTS))
@pytest.mark.parametrize("caller_time", [False, True])
def test_every_script_builds_against_its_declaration(name: str, caller_time: bool) -> None:
    text = script_text(SCRIPTS[name], "SPUBLISH", caller_time)
    assert "local ARG = {" in text
    assert ("CALLER_NOW" in text) == (caller_time and SCRIPTS[name].game)


@pytest.mark.parametrize(
    ("body", "complaint"),
    [
        ("return ARG.left .. ARG.right .. ARG.middle", "undeclared arguments ['middle']"),
        ("return ARG.left", "never reads its arguments ['right']"),
        ("return ARG.left .. ARG.right .. ARGV[2]", "by position"),
        ("return REPLY.state{} .. ARG.left .. ARG.right", "undeclared answers ['state']"),
        ("for i = ARG_TAIL, #ARGV do end return ARG.left .. ARG.right", "tail"),
    ],
)
def test_a_script_that_strays_from_its_declaration_is_refused(body: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=re.escape(complaint)):
        check_script(PAIR, body)


def test_tags_and_replies_do_not_clash() -> None:
    assert not set(TAGGED) & set(REPLIES)
    assert decode(["game_over", "won", "1"]) == GameOverReply("won", "1", "")  # reason omitted


def test_an_unknown_answer_is_the_stores_failure() -> None:
    with pytest.raises(StoreUnavailable):
        decode(["no_such_answer"])


def test_the_lua_encoders_keep_the_declared_order_and_refuse_a_missing_field(
    redis_url: str,
) -> None:
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        built = client.eval(
            lua_prelude(PAIR)
            + "return REPLY.moves{records = {ARG.right}, version = ARG.left, kind = 'k'}",
            0, "7", "r1",
        )  # fmt: skip
        assert MovesReply(*built) == MovesReply("k", "7", ["r1"])
        with pytest.raises(redis.ResponseError, match=r"the answer has no moves\.records"):
            client.eval(lua_prelude(PAIR) + "return REPLY.moves{kind = 'k', version = '1'}", 0)
    finally:
        client.close()


def test_a_move_stamped_is_the_move_with_those_facts_replaced_and_every_other_field_kept() -> None:
    # ``Move.stamped`` lists the fields itself (a fifth of ``dataclasses.replace``'s cost): a
    # field added to Move and not copied there fails here.
    values: dict[str, object] = {
        "seq": 3, "played": Placement(1, 2), "player": 2, "facts": {"color": "W"},
        "state_facts": {"score": [1, 2]}, "version": 9, "clock": None, "at_ms": 1,
    }  # fmt: skip
    assert {f.name for f in fields(Move)} == set(values)  # every field has a value of its own
    move = Move(**values)  # type: ignore[arg-type]
    reading = ClockReading(5, (60_000, 59_000), 1, 250)
    assert move.stamped(11, reading, 7) == replace(move, version=11, clock=reading, at_ms=7)
    assert move.stamped(None, None, None) == replace(move, version=None, clock=None, at_ms=None)
