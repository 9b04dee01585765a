"""The GameStore contract, run against both stores; then what is particular to each."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
import redis

from app.api.games.events import move_events
from app.kinds import KINDS, REGISTRY, Kinds
from app.kinds.reversi.kind import NoBracket
from app.kinds.tictactoe import TicTacToe, TicTacToeKind
from app.rules.reversi import IllegalMove
from app.sessions import tokens
from app.sessions.clock import CLOCK_MODES, ClockMode, TimeControl
from app.sessions.errors import (
    CapacityExhausted,
    CellOccupied,
    GameNotFound,
    GameOver,
    IdempotencyKeyReused,
    MoveNotFound,
    NotYourTurn,
    OutOfBounds,
    PreconditionFailed,
    Unauthorized,
    WrongPlayer,
)
from app.sessions.exchange import ActionRequest, GameState, MoveRequest, MoveResult
from app.sessions.kind import NO_LEGAL_MOVES, LegalMove, Placement, Player
from app.sessions.past import result_at
from app.sessions.session import DEFAULT_MAX_REFUSALS
from app.sessions.store import Client, GameStore, NewGame
from app.sessions.watchers import SharedReads, Watchers
from app.stores.memory import MemoryGameStore
from app.stores.redis.keys import game_keys
from app.stores.redis.store import RedisGameStore
from tests.api.test_games_api import parse_events
from tests.conftest import empty_store
from tests.fakes import FakeClock
from tests.rules import reference
from tests.rules.reference import has_k_in_row


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_000_000.0)


class NoDiagonal(TicTacToe):
    """A kind the stores have never heard of, whose refusal no store script knows either."""

    def check(self, placement: Placement, player: Player) -> None:
        super().check(placement, player)
        if placement.row == placement.col:
            raise IllegalMove(placement.row, placement.col, "B", "no_bracket")


class NoDiagonalKind(TicTacToeKind):
    name = "no-diagonal"
    position = NoDiagonal
    fast_path = None  # its rules are not the line engine's: a store plays it generically


# The stores serve the registry's kinds and one no store has heard of.
SERVED = Kinds((*KINDS, NoDiagonalKind()))
STORES = ["memory", "redis", "redis-generic", "cluster", "cluster-generic"]


def build(request: pytest.FixtureRequest, clock: FakeClock, **limits: int) -> GameStore:
    """The store of the test's parameter: memory, or one Redis or a Redis Cluster, each with
    the kinds' fast paths (tic-tac-toe's O(1) script) or through the generic compare-and-set
    engine. Its timeout is generous: on a loaded machine a connection took over 2 s (a CI run,
    Timeout connecting to server), which no test of this suite is about."""
    max_games = limits.pop("max_games", 3)
    if request.param == "memory":
        return MemoryGameStore(SERVED, max_games=max_games, idle_seconds=60, clock=clock, **limits)
    server, _, engine = request.param.partition("-")
    url = empty_store(request, server)
    return RedisGameStore(
        SERVED, url, max_games=max_games, idle_seconds=60, timeout_seconds=10, clock=clock,
        fast_paths=engine != "generic", **limits,
    )  # fmt: skip


@pytest.fixture(params=STORES)
async def store(request: pytest.FixtureRequest, clock: FakeClock) -> AsyncIterator[GameStore]:
    """Every contract test runs on each store."""
    built = build(request, clock)
    yield built
    await built.close()


@pytest.fixture(params=STORES)
async def store_of_three_moves(
    request: pytest.FixtureRequest, clock: FakeClock
) -> AsyncIterator[GameStore]:
    """Each store, with games of at most three moves."""
    built = build(request, clock, max_moves=3)
    yield built
    await built.close()


def move(
    row: int,
    col: int,
    player: Player | None = None,
    *,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> MoveRequest:
    return MoveRequest(Placement(row, col), player, expected_version, idempotency_key)


def tictactoe(n: int) -> tuple[str, dict[str, int]]:
    return "tictactoe", {"n": n}


pytestmark = pytest.mark.anyio


async def test_token_decides_the_player(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (first, second) = created.state.id, created.tokens
    assert created.tokens[0] != created.tokens[1]
    assert (await store.play(game_id, first, move(0, 0))).move.player == 1
    assert (await store.play(game_id, second, move(1, 1, 2))).move.player == 2
    with pytest.raises(WrongPlayer):
        await store.play(game_id, first, move(2, 2, 2))
    with pytest.raises(Unauthorized):
        await store.play(game_id, "not-a-token", move(2, 2))
    other = await store.create(NewGame(*tictactoe(3)))
    with pytest.raises(Unauthorized):
        await store.play(game_id, other.tokens[0], move(2, 2))
    assert (await store.state(game_id)).version == 2


async def test_a_token_is_checked_apart_from_a_move(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (first, second) = created.state.id, created.tokens
    assert (await store.seat(game_id, first)).player == 1
    assert (await store.seat(game_id, second)).player == 2
    other = await store.create(NewGame(*tictactoe(3)))
    for wrong in ("not-a-token", other.tokens[0], first + "x"):
        with pytest.raises(Unauthorized):
            await store.seat(game_id, wrong)
    with pytest.raises(GameNotFound):
        await store.seat("no-such-game", first)
    assert (await store.state(game_id)).version == 0  # nothing changed


async def test_a_seat_and_a_board_shape_say_the_kind_and_the_size(store: GameStore) -> None:
    """What a move's square is read by (the board's size, with its kind's direction) is known
    before the move reaches the store, and never changes: a Reversi score does, its size not."""
    for kind, params, size in (
        ("tictactoe", {"n": 15, "k": 5}, (15, 15)),
        ("reversi", {"height": 6, "width": 10}, (6, 10)),
        ("reversi", {"board": ["BW..", "....", "...."], "next": "B"}, (3, 4)),
    ):
        created = await store.create(NewGame(kind, params))
        game_id, (first, second) = created.state.id, created.tokens
        assert await store.seat(game_id, second) == (2, kind, size)
        assert await store.board_shape(game_id) == (kind, size)
        if kind == "reversi":  # a move changes the facts the size is read from, not the size
            legal = (await store.legal_moves(game_id, -1, 1)).legal.moves[0]
            await store.play(game_id, first, MoveRequest(legal.played))
            assert await store.board_shape(game_id) == (kind, size)
    with pytest.raises(GameNotFound):
        await store.board_shape("no-such-game")


async def test_redis_knows_a_game_it_did_not_create_by_its_tokens(redis_store_url: str) -> None:
    creator, other = (
        RedisGameStore(REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2)
        for _ in range(2)
    )
    created = await creator.create(NewGame(*tictactoe(3)))
    game_id, (first, second) = created.state.id, created.tokens
    assert await other.seat(game_id, second) == (2, "tictactoe", (3, 3))  # read once, known
    assert await other.board_shape(game_id) == ("tictactoe", (3, 3))
    with pytest.raises(Unauthorized):
        await other.seat(game_id, "not-a-token")
    await creator.delete(game_id, first)
    with pytest.raises(GameNotFound):  # what never changes is known; the game is gone
        await other.play(game_id, first, move(0, 0))
    for store in (creator, other):
        await store.close()


async def test_classic_game_and_every_refusal(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (first, second) = created.state.id, created.tokens
    script = [(0, 0, first), (0, 2, second), (2, 2, first), (1, 1, second), (2, 0, first),
              (1, 0, second), (2, 1, first)]  # fmt: skip
    winners = [(await store.play(game_id, t, move(r, c))).winner for r, c, t in script]
    assert winners == [0, 0, 0, 0, 0, 0, 1]
    state = await store.state(game_id)
    assert (state.status, state.winner, state.next_player, state.version) == ("won", 1, None, 7)
    assert state.last_move is not None
    assert (state.last_move.seq, state.last_move.played) == (7, Placement(2, 1))
    assert await store.rows(game_id) == ["X.O", "OO.", "XXX"]
    with pytest.raises(GameOver):
        await store.play(game_id, second, move(0, 1))
    with pytest.raises(OutOfBounds):
        await store.play(game_id, second, move(3, 0))

    fresh = await store.create(NewGame(*tictactoe(2)))
    await store.play(fresh.state.id, fresh.tokens[0], move(0, 0))
    with pytest.raises(NotYourTurn):
        await store.play(fresh.state.id, fresh.tokens[0], move(1, 1))
    with pytest.raises(CellOccupied):
        await store.play(fresh.state.id, fresh.tokens[1], move(0, 0))
    assert (await store.state(fresh.state.id)).version == 1  # refusals changed nothing


async def test_draw(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    cells = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)]
    for i, (r, c) in enumerate(cells):
        result = await store.play(created.state.id, created.tokens[i % 2], move(r, c))
    assert (result.state.status, result.winner, result.state.next_player) == ("draw", 0, None)
    assert result.state.reason == (await store.state(created.state.id)).reason == "board_full"


async def test_huge_board_moves(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(1_000_000)))
    await store.play(created.state.id, created.tokens[0], move(999_999, 0))
    result = await store.play(created.state.id, created.tokens[1], move(0, 999_999))
    assert (result.winner, result.state.version, result.state.next_player) == (0, 2, 1)
    with pytest.raises(OutOfBounds):
        await store.play(created.state.id, created.tokens[0], move(1_000_000, 0))


async def test_capacity_refuses_with_time_until_a_slot_frees(
    store: GameStore, clock: FakeClock
) -> None:
    for _ in range(3):
        await store.create(NewGame(*tictactoe(3)))
        clock.now += 10
    with pytest.raises(CapacityExhausted) as full:
        await store.create(NewGame(*tictactoe(3)))
    assert full.value.retry_after == 30  # the oldest was touched 30 s ago of its 60
    clock.now += 30
    await store.create(NewGame(*tictactoe(3)))  # the oldest expired, making room


async def test_a_game_given_its_id_is_made_once_however_often_it_is_created(
    store: GameStore,
) -> None:
    """Made again by its id (a process that died not knowing whether it made a drawn game):
    the game is left as it is, with its moves, and counted once against the store's most."""
    given = (tokens.new_token(), tokens.new_token())
    game = NewGame(*tictactoe(3), id=tokens.new_game_id(), given=given, owner="c")
    made = await store.create(game)
    assert made.tokens == given
    await store.play(made.state.id, given[0], move(0, 0))
    for _ in range(3):  # three creations of it: the store holds at most three games
        again = await store.create(game)
        assert again.state.id == made.state.id
        assert again.tokens == given
        assert again.state.version == 1  # its move kept
    racing = await asyncio.gather(*(store.create(game) for _ in range(4)))
    assert {answer.state.version for answer in racing} == {1}
    await store.create(NewGame(*tictactoe(3)))  # two more places, as if it were made once
    await store.create(NewGame(*tictactoe(3)))
    with pytest.raises(CapacityExhausted):
        await store.create(NewGame(*tictactoe(3)))


async def test_moves_since_and_single_move(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (first, second) = created.state.id, created.tokens
    for i, (r, c) in enumerate([(0, 0), (1, 1), (2, 2), (0, 1)]):
        await store.play(game_id, (first, second)[i % 2], move(r, c))
    moves, version = await store.moves(game_id, since=1, limit=2)
    assert [(m.seq, m.played, m.player) for m in moves] == [
        (2, Placement(1, 1), 2),
        (3, Placement(2, 2), 1),
    ]
    assert version == 4
    assert (await store.moves(game_id, since=4, limit=10))[0] == []
    assert (await store.move(game_id, 4)).played == Placement(0, 1)
    for seq in (0, 5, -1):
        with pytest.raises(MoveNotFound):
            await store.move(game_id, seq)
    with pytest.raises(GameNotFound):
        await store.moves("nope", 0, 10)


async def test_changes_read_moves_and_state_together(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (first, second) = created.state.id, created.tokens
    for i, (r, c) in enumerate([(0, 0), (1, 1), (2, 2)]):
        await store.play(game_id, (first, second)[i % 2], move(r, c))
    read = await store.changes(game_id, since=1, limit=1)
    moves, state = read.moves, read.state
    assert [(m.seq, m.played) for m in moves] == [(2, Placement(1, 1))]
    assert state == await store.state(game_id)
    assert state.version == 3
    assert (await store.changes(game_id, since=3, limit=10))[0] == []
    with pytest.raises(GameNotFound):
        await store.changes("nope", 0, 10)


async def test_delete_needs_a_player_token(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    with pytest.raises(Unauthorized):
        await store.delete(created.state.id, "nope")
    await store.delete(created.state.id, created.tokens[1])
    with pytest.raises(GameNotFound):
        await store.state(created.state.id)
    with pytest.raises(GameNotFound):
        await store.delete(created.state.id, created.tokens[1])


async def test_store_is_ready(store: GameStore) -> None:
    assert await store.ready()


async def test_idempotent_retry_gets_the_first_answer_and_applies_nothing(
    store: GameStore,
) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (first, second) = created.state.id, created.tokens
    accepted = await store.play(game_id, first, move(1, 1, idempotency_key="a"))
    # The same key from the other player is another request, not a replay.
    answered = await store.play(game_id, second, move(0, 0, idempotency_key="a"))
    assert (answered.replayed, answered.move.seq) == (False, 2)
    again = await store.play(game_id, first, move(1, 1, idempotency_key="a"))
    assert again.replayed
    assert (again.move, again.state, again.winner) == (accepted.move, accepted.state, 0)
    assert (await store.state(game_id)).version == 2  # nothing applied twice
    with pytest.raises(IdempotencyKeyReused):
        await store.play(game_id, first, move(2, 2, idempotency_key="a"))


async def test_idempotent_retry_of_a_refusal_is_refused_the_same_way(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (first, second) = created.state.id, created.tokens
    with pytest.raises(NotYourTurn) as refused:
        await store.play(game_id, second, move(0, 0, idempotency_key="b"))
    await store.play(game_id, first, move(1, 1))  # now it would be player 2's turn...
    with pytest.raises(NotYourTurn) as again:  # ...but the retry gets the first answer
        await store.play(game_id, second, move(0, 0, idempotency_key="b"))
    assert str(again.value) == str(refused.value)
    assert (refused.value.replayed, again.value.replayed) == (False, True)
    assert (await store.state(game_id)).version == 1


async def test_replay_of_the_winning_move_reports_the_win(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(1)))
    first = await store.play(created.state.id, created.tokens[0], move(0, 0, idempotency_key="w"))
    again = await store.play(created.state.id, created.tokens[0], move(0, 0, idempotency_key="w"))
    assert (again.winner, again.state) == (1, first.state)


async def test_if_match_applies_only_at_that_version(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (first, second) = created.state.id, created.tokens
    await store.play(game_id, first, move(0, 0, expected_version=0))
    with pytest.raises(PreconditionFailed) as stale:
        await store.play(game_id, second, move(1, 1, expected_version=0))
    assert stale.value.version == 1
    assert (await store.state(game_id)).version == 1
    await store.play(game_id, second, move(1, 1, expected_version=1))


async def test_concurrent_moves_are_each_decided_once(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(5)))
    game_id, (first, second) = created.state.id, created.tokens
    # Five moves of player 1 at once: one is accepted, the others find it is not their turn.
    answers = await asyncio.gather(
        *(store.play(game_id, first, move(0, col)) for col in range(5)), return_exceptions=True
    )
    accepted = [a for a in answers if isinstance(a, MoveResult)]
    assert len(accepted) == 1
    assert all(isinstance(a, NotYourTurn) for a in answers if a not in accepted)
    # The same keyed request five times at once: applied once, the other four replay it.
    twins = await asyncio.gather(
        *(store.play(game_id, second, move(4, 4, idempotency_key="t")) for _ in range(5))
    )
    assert [twin.replayed for twin in twins].count(False) == 1
    assert all((t.move, t.state) == (twins[0].move, twins[0].state) for t in twins)
    assert twins[0].state.next_player == 1
    assert (await store.state(game_id)).version == 2


async def test_concurrent_reversi_moves_are_each_decided_once(store: GameStore) -> None:
    created = await store.create(NewGame("reversi", {}))
    game_id, (black, white) = created.state.id, created.tokens
    # Black's four opening moves at once: one is accepted, the others find it is White's turn.
    openings = [(2, 3), (3, 2), (4, 5), (5, 4)]
    answers = await asyncio.gather(
        *(store.play(game_id, black, move(*cell)) for cell in openings), return_exceptions=True
    )
    accepted = [a for a in answers if isinstance(a, MoveResult)]
    assert len(accepted) == 1
    assert all(isinstance(a, NotYourTurn) for a in answers if a not in accepted)
    # White's same keyed request five times at once: applied once, the other four replay it.
    grid = await store.rows(game_id)
    reply = reference.reversi_moves(grid, "W")[0]
    twins = await asyncio.gather(
        *(store.play(game_id, white, move(*reply, idempotency_key="t")) for _ in range(5))
    )
    assert [twin.replayed for twin in twins].count(False) == 1
    assert all((t.move, t.state) == (twins[0].move, twins[0].state) for t in twins)
    state = await store.state(game_id)
    assert (state.version, state.facts["score"]) == (2, twins[0].state.facts["score"])
    assert await store.rows(game_id) == reference.reversi_play(grid, *reply, "W")


async def test_a_refused_request_is_refused_again_after_many_keyed_moves(store: GameStore) -> None:
    # Accepted moves are remembered too, but never count against the refusals' cap.
    created = await store.create(NewGame(*tictactoe(100)))
    game_id, tokens_ = created.state.id, created.tokens
    for i in range(DEFAULT_MAX_REFUSALS + 6):
        await store.play(game_id, tokens_[i % 2], move(i // 100, i % 100, idempotency_key=f"k{i}"))
    with pytest.raises(NotYourTurn):  # player 1 moves next
        await store.play(game_id, tokens_[1], move(99, 99, idempotency_key="late"))
    await store.play(game_id, tokens_[0], move(99, 98))
    with pytest.raises(NotYourTurn):  # now it would be player 2's turn: the retry is refused
        await store.play(game_id, tokens_[1], move(99, 99, idempotency_key="late"))
    again = await store.play(game_id, tokens_[0], move(0, 0, idempotency_key="k0"))
    assert (again.replayed, again.move.seq) == (True, 1)


@pytest.fixture(params=STORES)
async def store_of_two_refusals(
    request: pytest.FixtureRequest, clock: FakeClock
) -> AsyncIterator[GameStore]:
    """Each store, remembering at most two refusals a game."""
    built = build(request, clock, max_refusals=2)
    yield built
    await built.close()


async def test_a_game_remembers_at_most_its_bound_of_refusals(
    store_of_two_refusals: GameStore,
) -> None:
    store = store_of_two_refusals
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (first, second) = created.state.id, created.tokens
    for key in ("a", "b", "c"):  # player 2 first: not their turn
        with pytest.raises(NotYourTurn):
            await store.play(game_id, second, move(0, 0, idempotency_key=key))
    await store.play(game_id, first, move(1, 1))
    for key in ("a", "b"):  # remembered: refused again, though it is player 2's turn now
        with pytest.raises(NotYourTurn) as refused:
            await store.play(game_id, second, move(0, 0, idempotency_key=key))
        assert refused.value.replayed
    # Past the bound, a refusal is not remembered: the retry is decided afresh.
    again = await store.play(game_id, second, move(0, 0, idempotency_key="c"))
    assert (again.replayed, again.move.seq) == (False, 2)


async def test_any_kind_is_played_and_its_refusals_remembered(
    store: GameStore,
) -> None:
    created = await store.create(NewGame(NoDiagonalKind.name, {"n": 3}))
    game_id, (first, second) = created.state.id, created.tokens
    assert (await store.play(game_id, first, move(0, 1))).state.kind == NoDiagonalKind.name
    with pytest.raises(IllegalMove) as refused:
        await store.play(game_id, second, move(1, 1, idempotency_key="d"))
    with pytest.raises(IllegalMove) as again:
        await store.play(game_id, second, move(1, 1, idempotency_key="d"))
    assert (str(again.value), again.value.details()) == (
        str(refused.value),
        refused.value.details(),
    )
    assert (await store.state(game_id)).version == 1
    assert await store.rows(game_id) == [".X.", "...", "..."]


async def test_the_move_that_reaches_the_limit_draws_the_game(
    store_of_three_moves: GameStore,
) -> None:
    store = store_of_three_moves
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (first, second) = created.state.id, created.tokens
    await store.play(game_id, first, move(0, 0))
    await store.play(game_id, second, move(1, 1))
    last = await store.play(game_id, first, move(2, 2, idempotency_key="last"))
    state = last.state
    assert (state.status, state.winner, state.reason, state.next_player) == (
        "draw", 0, "move_limit", None,
    )  # fmt: skip
    assert await store.state(game_id) == state
    with pytest.raises(GameOver):  # refused first, wherever the move would go
        await store.play(game_id, second, move(5, 5))
    again = await store.play(game_id, first, move(2, 2, idempotency_key="last"))
    assert (again.replayed, again.state) == (True, state)
    assert (await store.state(game_id)).version == 3


async def test_a_game_says_why_it_ended(store: GameStore) -> None:
    won = await store.create(NewGame(*tictactoe(1)))
    assert won.state.reason is None
    result = await store.play(won.state.id, won.tokens[0], move(0, 0))
    assert (result.state.status, result.state.reason) == ("won", "line")
    assert (await store.state(won.state.id)).reason == "line"


# --- legal moves ------------------------------------------------------------------------------


def cell(move: LegalMove) -> tuple[int, int]:
    placed = Placement.of(move.played)
    return placed.row, placed.col


async def every_page(store: GameStore, game_id: str, limit: int) -> list[tuple[int, int]]:
    """The legal moves of a game, read in pages of ``limit`` from its first cell to its last."""
    cells: list[tuple[int, int]] = []
    after: int | None = -1
    while after is not None:
        page = await store.legal_moves(game_id, after, limit)
        cells += [cell(m) for m in page.legal.moves]
        after = page.legal.next_after
    return cells


async def test_legal_moves_are_the_empty_cells_in_pages(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (first, second) = created.state.id, created.tokens
    fresh = await store.legal_moves(game_id, -1, 100)
    everything = [(r, c) for r in range(3) for c in range(3)]
    assert (fresh.id, fresh.kind, fresh.version, fresh.player) == (game_id, "tictactoe", 0, 1)
    assert ([cell(m) for m in fresh.legal.moves], fresh.legal.count) == (everything, 9)
    assert fresh.legal.next_after is None
    await store.play(game_id, first, move(1, 1))
    await store.play(game_id, second, move(0, 2))
    left = [at for at in everything if at not in {(1, 1), (0, 2)}]
    now = await store.legal_moves(game_id, -1, 100)
    assert (now.version, now.player, now.legal.count) == (2, 1, 7)
    assert [cell(m) for m in now.legal.moves] == left
    for limit in (1, 2, 3, 7):
        assert await every_page(store, game_id, limit) == left
    page = await store.legal_moves(game_id, 1, 2)  # after (0, 1): (0, 2) is taken
    assert ([cell(m) for m in page.legal.moves], page.legal.next_after) == ([(1, 0), (1, 2)], 5)
    past = await store.legal_moves(game_id, 2**53 - 1, 5)
    assert (past.legal.moves, past.legal.count, past.legal.next_after) == ((), 7, None)


async def test_a_page_of_a_board_of_a_million_is_its_first_cells(store: GameStore) -> None:
    created = await store.create(NewGame("tictactoe", {"n": 1_000_000, "k": 5}))
    game_id, (first, second) = created.state.id, created.tokens
    await store.play(game_id, first, move(0, 0))
    await store.play(game_id, second, move(0, 2))
    await store.play(game_id, first, move(999_999, 999_999))
    page = await store.legal_moves(game_id, -1, 4)
    assert [cell(m) for m in page.legal.moves] == [(0, 1), (0, 3), (0, 4), (0, 5)]
    assert (page.player, page.legal.count, page.legal.next_after) == (2, 10**12 - 3, 5)
    end = await store.legal_moves(game_id, 10**12 - 4, 4)
    assert ([cell(m) for m in end.legal.moves], end.legal.next_after) == (
        [(999_999, 999_997), (999_999, 999_998)], None)  # fmt: skip


async def test_nobody_has_a_legal_move_once_the_game_is_over(store: GameStore) -> None:
    won = await store.create(NewGame(*tictactoe(1)))
    await store.play(won.state.id, won.tokens[0], move(0, 0))
    resigned = await store.create(NewGame(*tictactoe(3)))
    await store.act(resigned.state.id, resigned.tokens[1], ActionRequest("resign"))
    for game_id, version in ((won.state.id, 1), (resigned.state.id, 1)):
        over = await store.legal_moves(game_id, -1, 10)
        assert (over.version, over.player, over.legal) == (version, None, NO_LEGAL_MOVES)


async def test_no_legal_move_at_the_move_limit(store_of_three_moves: GameStore) -> None:
    store = store_of_three_moves
    created = await store.create(NewGame(*tictactoe(3)))
    for i, at in enumerate([(0, 0), (1, 1), (2, 2)]):
        await store.play(created.state.id, created.tokens[i % 2], move(*at))
    over = await store.legal_moves(created.state.id, -1, 10)
    assert (over.version, over.player, over.legal) == (3, None, NO_LEGAL_MOVES)


async def test_the_legal_moves_of_no_game_are_not_found(store: GameStore) -> None:
    with pytest.raises(GameNotFound):
        await store.legal_moves("nosuchgame", -1, 10)
    created = await store.create(NewGame(*tictactoe(3)))
    await store.delete(created.state.id, created.tokens[0])
    with pytest.raises(GameNotFound):
        await store.legal_moves(created.state.id, -1, 10)


# --- in-memory store ----------------------------------------------------------------------------


async def test_memory_store_keeps_only_token_hashes(clock: FakeClock) -> None:
    store = MemoryGameStore(REGISTRY, max_games=3, idle_seconds=60, clock=clock)
    created = await store.create(NewGame(*tictactoe(3)))
    game = store._entry(created.state.id).session
    assert created.tokens[0] not in game.token_hashes
    assert game.token_hashes == tuple(tokens.token_hash(t) for t in created.tokens)


async def test_memory_idle_games_expire_and_moves_keep_them_alive(clock: FakeClock) -> None:
    store = MemoryGameStore(REGISTRY, max_games=3, idle_seconds=60, clock=clock)
    idle = await store.create(NewGame(*tictactoe(3)))
    active = await store.create(NewGame(*tictactoe(3)))
    clock.now += 50
    await store.play(active.state.id, active.tokens[0], move(0, 0))
    await store.state(idle.state.id)  # reading does not extend a game's life
    clock.now += 15
    with pytest.raises(GameNotFound):
        await store.state(idle.state.id)
    assert (await store.state(active.state.id)).version == 1
    assert len(store) == 1


@pytest.fixture(params=STORES)
async def store_of_three_stored_moves(
    request: pytest.FixtureRequest, clock: FakeClock
) -> AsyncIterator[GameStore]:
    """Each store, holding at most three moves in all its games."""
    built = build(request, clock, max_total_moves=3)
    yield built
    await built.close()


async def test_a_store_bounds_the_moves_of_all_its_games(
    store_of_three_stored_moves: GameStore,
) -> None:
    store = store_of_three_stored_moves
    full = await store.create(NewGame(*tictactoe(5)))
    other = await store.create(NewGame(*tictactoe(5)))
    answers = [
        await store.play(full.state.id, full.tokens[i % 2], move(0, i, idempotency_key=f"m{i}"))
        for i in range(3)
    ]
    with pytest.raises(CapacityExhausted) as refused:
        await store.create(NewGame(*tictactoe(3)))
    assert refused.value.retry_after == 60  # until the oldest idle game frees its moves
    with pytest.raises(CapacityExhausted):
        await store.play(other.state.id, other.tokens[0], move(0, 0))
    assert (await store.state(other.state.id)).version == 0
    # At the bound a retried move still gets its first answer, an unknown game is still 404.
    again = await store.play(full.state.id, full.tokens[0], move(0, 2, idempotency_key="m2"))
    assert (again.replayed, again.move) == (True, answers[2].move)
    with pytest.raises(GameNotFound):
        await store.play("nope", full.tokens[0], move(0, 0))
    await store.delete(full.state.id, full.tokens[0])  # its three moves are freed
    await store.play(other.state.id, other.tokens[0], move(0, 0))
    await store.create(NewGame(*tictactoe(3)))


async def test_expired_games_free_their_moves(
    store_of_three_stored_moves: GameStore, clock: FakeClock
) -> None:
    store = store_of_three_stored_moves
    game = await store.create(NewGame(*tictactoe(5)))
    for i in range(3):
        await store.play(game.state.id, game.tokens[i % 2], move(0, i))
    with pytest.raises(CapacityExhausted):
        await store.create(NewGame(*tictactoe(3)))
    clock.now += 61  # the game expires, and its moves with it
    fresh = await store.create(NewGame(*tictactoe(3)))
    await store.play(fresh.state.id, fresh.tokens[0], move(0, 0))


@pytest.fixture(params=STORES)
async def store_of_quick_unstarted_games(
    request: pytest.FixtureRequest, clock: FakeClock
) -> AsyncIterator[GameStore]:
    """Each store, where a game nobody moved in lives 10 s (60 s after a move), and each
    client holds at most half of the three games (one) and of the four stored moves (two), the
    clients of a network together all of them."""
    built = build(
        request, clock, max_total_moves=4, unstarted_seconds=10, client_share=0.5,
        network_factor=2,
    )  # fmt: skip
    yield built
    await built.close()


async def test_a_game_nobody_moved_in_gives_its_place_back_soon(
    store_of_quick_unstarted_games: GameStore, clock: FakeClock
) -> None:
    store = store_of_quick_unstarted_games
    unstarted = await store.create(NewGame(*tictactoe(3), owner=Client("10.0.0.1", "10.0.0.0/24")))
    started = await store.create(NewGame(*tictactoe(3), owner="b"))
    await store.play(started.state.id, started.tokens[0], move(0, 0))
    await store.create(NewGame(*tictactoe(3), owner="c"))
    # Three games: the store is full, and no network holds more games nobody moved in than the
    # newcomer's (one: its neighbour's), so none gives its place.
    with pytest.raises(CapacityExhausted) as refused:
        await store.create(NewGame(*tictactoe(3), owner=Client("10.0.0.2", "10.0.0.0/24")))
    assert refused.value.retry_after == 10  # until the first game nobody moved in expires
    clock.now += 11
    assert await store.live_games() == 1  # the started game lives on
    assert (await store.state(started.state.id)).move_count == 1
    await store.create(NewGame(*tictactoe(3), owner="d"))
    if isinstance(store, MemoryGameStore):  # Redis's own keys expire by Redis's own time
        with pytest.raises(GameNotFound):
            await store.state(unstarted.state.id)


async def test_one_client_holds_at_most_its_share(
    store_of_quick_unstarted_games: GameStore,
) -> None:
    store = store_of_quick_unstarted_games
    mine = await store.create(NewGame(*tictactoe(5), owner="greedy"))
    with pytest.raises(CapacityExhausted) as refused:  # one game of three is its share
        await store.create(NewGame(*tictactoe(5), owner="greedy"))
    assert "one client" in str(refused.value)
    yours = await store.create(NewGame(*tictactoe(5), owner="polite"))
    await store.play(mine.state.id, mine.tokens[0], move(0, 0))
    await store.play(mine.state.id, mine.tokens[1], move(1, 1))
    with pytest.raises(CapacityExhausted) as refused:  # two moves of four are its share
        await store.play(mine.state.id, mine.tokens[0], move(2, 2))
    assert "one client" in str(refused.value)
    assert (await store.state(mine.state.id)).move_count == 2
    await store.play(yours.state.id, yours.tokens[0], move(0, 0))  # the others play on
    await store.play(yours.state.id, yours.tokens[1], move(1, 1))
    await store.delete(mine.state.id, mine.tokens[0])  # its share is free again
    again = await store.create(NewGame(*tictactoe(5), owner="greedy"))
    await store.play(again.state.id, again.tokens[0], move(0, 0))


@pytest.fixture(params=STORES)
async def store_of_two_games_and_moves_each(
    request: pytest.FixtureRequest, clock: FakeClock
) -> AsyncIterator[GameStore]:
    """Each store, where each client holds at most two of eight games and of eight moves."""
    built = build(request, clock, max_games=8, max_total_moves=8, client_share=0.25)
    yield built
    await built.close()


async def test_every_client_whose_games_expired_moves_again_at_once(
    store_of_two_games_and_moves_each: GameStore, clock: FakeClock
) -> None:
    store = store_of_two_games_and_moves_each
    owners = ("a", "b")
    older = [await store.create(NewGame(*tictactoe(3), owner=owner)) for owner in owners]
    newer = [await store.create(NewGame(*tictactoe(3), owner=owner)) for owner in owners]
    for game in older:  # each client's older game: moved in now (it expires in 60 s)
        await store.play(game.state.id, game.tokens[0], move(0, 0))
    await store.create(NewGame(*tictactoe(3), owner="c"))  # Redis: moves reported (else within 1 s)
    clock.now += 30
    for game in newer:  # its newer one 30 s later: two moves, each client's share
        await store.play(game.state.id, game.tokens[0], move(0, 0))
        with pytest.raises(CapacityExhausted):
            await store.play(game.state.id, game.tokens[1], move(1, 1))
    clock.now += 31  # the older games expire, and their moves with them: both clients move
    for game in newer:
        await store.play(game.state.id, game.tokens[1], move(1, 1))


# --- games nobody has moved in, and networks -----------------------------------------------------


@pytest.fixture(params=STORES)
async def store_of_four_unstarted_places(
    request: pytest.FixtureRequest, clock: FakeClock
) -> AsyncIterator[GameStore]:
    """Each store, of six games, of which games nobody has moved in hold at most four."""
    built = build(request, clock, max_games=6, max_unstarted=4)
    yield built
    await built.close()


async def test_a_crowd_of_unstarted_games_gives_way_to_a_client_that_plays(
    store_of_four_unstarted_places: GameStore,
) -> None:
    store = store_of_four_unstarted_places
    crowd = [await store.create(NewGame(*tictactoe(3), owner="crowd")) for _ in range(3)]
    await store.create(NewGame(*tictactoe(3), owner="other"))  # the pool is full
    # A newcomer takes the place of the oldest game of the holder of the most (3 ≥ 0 + 2).
    mine = await store.create(NewGame(*tictactoe(3), owner="player"))
    with pytest.raises(GameNotFound):
        await store.state(crowd[0].state.id)
    assert (await store.state(crowd[1].state.id)).move_count == 0
    await store.play(mine.state.id, mine.tokens[0], move(0, 0))  # started: out of the pool
    late = await store.create(NewGame(*tictactoe(3), owner="late"))  # a free place in the pool
    again = await store.create(NewGame(*tictactoe(3), owner="player"))  # the crowd's 2 ≥ 0 + 2
    with pytest.raises(GameNotFound):
        await store.state(crowd[1].state.id)
    # The crowd, other, late and player hold one each: nobody holds two more than another.
    with pytest.raises(CapacityExhausted) as refused:
        await store.create(NewGame(*tictactoe(3), owner="crowd"))
    assert "nobody has moved in" in str(refused.value)
    for game in (crowd[2], late, again):  # a first move is never refused: it leaves the pool
        await store.play(game.state.id, game.tokens[0], move(1, 1))
    assert await store.live_games() == 5


async def test_a_started_game_never_gives_its_place(
    store_of_four_unstarted_places: GameStore,
) -> None:
    store = store_of_four_unstarted_places
    started = []
    for _ in range(6):  # the store full of games that were moved in
        started.append(await store.create(NewGame(*tictactoe(3), owner="busy")))
        await store.play(started[-1].state.id, started[-1].tokens[0], move(0, 0))
    with pytest.raises(CapacityExhausted) as refused:
        await store.create(NewGame(*tictactoe(3), owner="newcomer"))
    assert "live games" in str(refused.value)
    for game in started:  # every started game plays on
        assert (await store.play(game.state.id, game.tokens[1], move(1, 1))).move.seq == 2


async def test_a_full_store_makes_room_among_the_games_nobody_moved_in(
    store_of_four_unstarted_places: GameStore,
) -> None:
    store = store_of_four_unstarted_places
    started = []
    for _ in range(5):
        started.append(await store.create(NewGame(*tictactoe(3), owner="busy")))
        await store.play(started[-1].state.id, started[-1].tokens[0], move(0, 0))
    idle = await store.create(NewGame(*tictactoe(3), owner="idle"))  # the store's sixth game
    mine = await store.create(NewGame(*tictactoe(3), owner="newcomer"))  # idle holds more (1 > 0)
    with pytest.raises(GameNotFound):
        await store.state(idle.state.id)
    await store.play(mine.state.id, mine.tokens[0], move(0, 0))  # moved in: it keeps its place
    with pytest.raises(CapacityExhausted) as refused:
        await store.create(NewGame(*tictactoe(3), owner="idle"))
    assert "live games" in str(refused.value)
    assert (await store.state(mine.state.id)).move_count == 1


async def test_a_network_holds_the_unstarted_games_of_all_its_clients(
    store_of_four_unstarted_places: GameStore,
) -> None:
    store = store_of_four_unstarted_places
    # Four addresses of one /24, a game each: one holder of four, not four of one.
    crowd = [
        await store.create(NewGame(*tictactoe(3), owner=Client(f"10.0.0.{i}", "10.0.0.0/24")))
        for i in range(1, 5)
    ]
    await store.create(NewGame(*tictactoe(3), owner=Client("10.0.1.1", "10.0.1.0/24")))
    with pytest.raises(GameNotFound):
        await store.state(crowd[0].state.id)
    for game in crowd[1:]:
        assert (await store.state(game.state.id)).move_count == 0


@pytest.fixture(params=STORES)
async def store_of_shares_by_network(
    request: pytest.FixtureRequest, clock: FakeClock
) -> AsyncIterator[GameStore]:
    """Each store, where a client holds at most six of forty games, three of twenty moves and
    three open games, and the clients of one network one and a half times that together (nine
    games, four moves, four open games)."""
    built = build(
        request, clock, max_games=40, max_total_moves=20, client_share=0.15,
        network_factor=1.5, client_open_games=3,
    )  # fmt: skip
    yield built
    await built.close()


ONE_NETWORK = [Client(f"192.0.2.{i}", "192.0.2.0/24") for i in (1, 2, 3)]
ANOTHER_NETWORK = Client("198.51.100.1", "198.51.100.0/24")


async def test_the_clients_of_one_network_share_its_part_of_the_store(
    store_of_shares_by_network: GameStore,
) -> None:
    store = store_of_shares_by_network
    a, b, c = ONE_NETWORK
    games = [await store.create(NewGame(*tictactoe(5), owner=owner)) for owner in [a] * 5 + [b] * 4]
    for owner in (c, a):  # each below its own six, their /24 at its nine
        with pytest.raises(CapacityExhausted) as refused:
            await store.create(NewGame(*tictactoe(5), owner=owner))
        assert "one network" in str(refused.value)
    elsewhere = await store.create(NewGame(*tictactoe(5), owner=ANOTHER_NETWORK))
    for game in (games[0], games[1], games[5], games[6]):  # two moves each: the /24's four
        await store.play(game.state.id, game.tokens[0], move(0, 0))
    with pytest.raises(CapacityExhausted) as refused:  # b's third of its own three
        await store.play(games[7].state.id, games[7].tokens[0], move(0, 0))
    assert "one network" in str(refused.value)
    await store.play(elsewhere.state.id, elsewhere.tokens[0], move(0, 0))  # another network's
    await store.delete(games[0].state.id, games[0].tokens[0])  # a game and its move given back
    await store.create(NewGame(*tictactoe(5), owner=c))
    await store.play(games[7].state.id, games[7].tokens[0], move(0, 0))


async def test_the_clients_of_one_network_share_its_open_games(
    store_of_shares_by_network: GameStore,
) -> None:
    store = store_of_shares_by_network
    a, b, c = ONE_NETWORK
    for owner in (a, a, b, b):
        await store.create(NewGame(*tictactoe(3), owner=owner, open_seat=2))
    for owner in (c, a):  # each below its own three, their /24 at its four
        with pytest.raises(CapacityExhausted) as refused:
            await store.create(NewGame(*tictactoe(3), owner=owner, open_seat=2))
        assert "open games created by the clients of one network" in str(refused.value)
    await store.create(NewGame(*tictactoe(3), owner=c))  # a game that is not open
    await store.create(NewGame(*tictactoe(3), owner=ANOTHER_NETWORK, open_seat=2))


# --- Redis store --------------------------------------------------------------------------------


@pytest.fixture
def redis_store_url(redis_url: str) -> str:
    redis.Redis.from_url(redis_url).flushdb()
    return redis_url


async def test_redis_keeps_only_token_hashes_under_one_hash_tag(redis_store_url: str) -> None:
    store = RedisGameStore(
        REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2
    )
    created = await store.create(NewGame(*tictactoe(3)))
    await store.play(created.state.id, created.tokens[0], move(1, 1, idempotency_key="k"))
    raw = redis.Redis.from_url(redis_store_url, decode_responses=True)
    keys = set(raw.keys(f"{{game:{created.state.id}}}:*"))
    every = game_keys(created.state.id)
    assert keys == set(every) - {every.stones}  # sorted stones: an early draw's, k < n
    meta = raw.hgetall(game_keys(created.state.id)[0])
    assert (meta["h1"], meta["h2"]) == tuple(tokens.token_hash(t) for t in created.tokens)
    dump = repr([raw.dump(key) for key in raw.keys("*")])
    assert created.tokens[0] not in dump
    assert created.tokens[1] not in dump
    await store.close()


@pytest.mark.parametrize(
    ("params", "opening", "engine"),
    [
        ({"rule": "freestyle", "size": 15}, [], "lines"),
        ({"rule": "standard", "size": 1_000_000}, [], "lines"),
        ({"rule": "caro", "size": 19}, [], "lines"),
        ({"rule": "renju", "size": 15}, [], "generic"),
        ({"rule": "freestyle", "size": 15}, [Placement(7, 7)], "generic"),
        ({"rule": "freestyle", "size": 15, "opening": "swap2"}, [], "generic"),
        ({"rule": "standard", "size": 15, "early_draw": True}, [], "lines"),
    ],
)
async def test_a_gomoku_game_takes_the_fast_path_its_rule_and_start_allow(
    redis_store_url: str, params: dict[str, object], opening: list[Placement], engine: str
) -> None:
    """Freestyle, standard and caro are decided by a run's length and ends (tic-tac-toe's
    script); renju's forbidden points, and a board an opening laid, by the generic engine."""
    store = RedisGameStore(
        REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2
    )
    created = await store.create(NewGame("gomoku", params, opening=tuple(opening)))
    raw = redis.Redis.from_url(redis_store_url, decode_responses=True)
    assert raw.hget(game_keys(created.state.id)[0], "engine") == engine
    await store.close()


async def test_a_fast_path_game_kept_under_its_scripts_old_name_plays_on(
    redis_store_url: str,
) -> None:
    """Before the kinds declared their fast paths, a game's meta kept its move script's name
    (``tictactoe_move``) as its engine: a game so kept, live across the upgrade, still plays on
    its fast path (the scripts are its kind's), to its end."""
    store = RedisGameStore(
        REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2
    )
    created = await store.create(NewGame("tictactoe", {"n": 3}))
    raw = redis.Redis.from_url(redis_store_url, decode_responses=True)
    raw.hset(game_keys(created.state.id).meta, "engine", "tictactoe_move")
    x, o = created.tokens
    store = RedisGameStore(
        REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2
    )
    for token, cell in ((x, (0, 0)), (o, (1, 0)), (x, (0, 1)), (o, (1, 1)), (x, (0, 2))):
        result = await store.play(created.state.id, token, move(*cell))
    assert (result.state.status, result.state.winner) == ("won", 1)
    page = await store.legal_moves(created.state.id, -1, 10)
    assert (page.player, page.legal.count) == (None, 0)
    await store.close()


async def test_a_gomoku_game_kept_from_before_swap2_reads_and_replays(
    redis_store_url: str,
) -> None:
    """A game an earlier release wrote keeps facts without ``colors`` and ``opening``: its
    state gets those it was played with, and a keyed move answered again after the game went
    on (rebuilt from the colours now) is the first answer."""
    store = RedisGameStore(
        REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2
    )
    created = await store.create(NewGame("gomoku", {"rule": "freestyle", "size": 15}))
    game_id, (black, white) = created.state.id, created.tokens
    raw = redis.Redis.from_url(redis_store_url, decode_responses=True)
    raw.hset(game_keys(game_id)[0], "facts", '{"rule":"freestyle","size":15,"foul":"refuse"}')
    first = await store.play(game_id, black, move(7, 7, idempotency_key="k"))
    await store.play(game_id, white, move(6, 7))
    again = await store.play(game_id, black, move(7, 7, idempotency_key="k"))
    assert again.replayed
    assert (again.move, again.state.next_player, again.state.facts) == (
        first.move, 2, {**first.state.facts, "colors": {"1": "B", "2": "W"}, "opening": None},
    )  # fmt: skip
    assert (await store.state(game_id)).facts["colors"] == {"1": "B", "2": "W"}
    await store.close()


@pytest.mark.parametrize("fast_paths", [True, False], ids=["fast-path", "generic"])
async def test_redis_game_keys_expire_when_idle_and_moves_refresh_them(
    redis_store_url: str, fast_paths: bool
) -> None:
    store = RedisGameStore(
        REGISTRY,
        redis_store_url,
        max_games=10,
        idle_seconds=30,
        timeout_seconds=2,
        fast_paths=fast_paths,
    )
    raw = redis.Redis.from_url(redis_store_url, decode_responses=True)
    created = await store.create(NewGame(*tictactoe(3)))
    meta = game_keys(created.state.id)[0]
    assert 25_000 < raw.pttl(meta) <= 30_000
    raw.pexpire(meta, 5_000)  # as if 25 s had passed
    await store.play(created.state.id, created.tokens[0], move(0, 0, idempotency_key="k"))
    keys = set(raw.keys(f"{{game:{created.state.id}}}:*"))
    every = game_keys(created.state.id)
    assert {meta, every.moves, every.receipts} <= keys <= set(every)
    for key in keys:  # receipts too: keys expire with the game
        assert 25_000 < raw.pttl(key) <= 30_000
    await store.close()


async def test_redis_game_nobody_moved_in_expires_sooner(redis_store_url: str) -> None:
    store = RedisGameStore(
        REGISTRY,
        redis_store_url,
        max_games=10,
        idle_seconds=30,
        timeout_seconds=2,
        unstarted_seconds=5,
    )
    raw = redis.Redis.from_url(redis_store_url, decode_responses=True)
    created = await store.create(NewGame(*tictactoe(3)))
    meta = game_keys(created.state.id)[0]
    assert 4_000 < raw.pttl(meta) <= 5_000
    await store.play(created.state.id, created.tokens[0], move(0, 0))
    assert 25_000 < raw.pttl(meta) <= 30_000  # the first move gives it a game's whole life
    await store.close()


@pytest.mark.parametrize("fast_paths", [True, False], ids=["fast-path", "generic"])
async def test_redis_refusals_remembered_expire_with_their_game(
    redis_store_url: str, fast_paths: bool
) -> None:
    store = RedisGameStore(
        REGISTRY,
        redis_store_url, max_games=10, idle_seconds=30, timeout_seconds=2, unstarted_seconds=5,
        fast_paths=fast_paths,
    )  # fmt: skip
    raw = redis.Redis.from_url(redis_store_url, decode_responses=True)
    created = await store.create(NewGame(*tictactoe(3)))
    with pytest.raises(NotYourTurn):  # the second player first: refused, and remembered
        await store.play(created.state.id, created.tokens[1], move(0, 0, idempotency_key="k"))
    keys = game_keys(created.state.id)
    meta, receipts = keys.meta, keys.receipts
    assert raw.hlen(receipts) == 1
    assert 0 < raw.pttl(receipts) <= raw.pttl(meta) + 100 <= 5_100  # not the idle 30 s
    await store.close()


async def test_a_redis_game_stored_before_gifts_were_logged_streams_as_it_did(
    redis_store_url: str,
) -> None:
    """A game an earlier release wrote keeps its last gift's version ('lg') but no log of its
    gifts ('gl'): a stream reads no gifts (None) and sends the last, if among the changes
    since, with the state now, once, as that release did; after the end, the moves and the
    end."""
    store = RedisGameStore(
        REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2
    )
    created = await store.create(NewGame(*tictactoe(3), TimeControl(60, 0)))
    game_id, (one, two) = created.state.id, created.tokens
    await store.play(game_id, one, move(0, 0))
    await store.act(game_id, one, ActionRequest("give_time", seconds=5))
    await store.play(game_id, two, move(1, 1))
    await store.act(game_id, two, ActionRequest("give_time", seconds=5))
    await store.act(game_id, one, ActionRequest("offer"))
    redis.Redis.from_url(redis_store_url).hdel(game_keys(game_id).meta, "gl")
    assert (await store.changes(game_id, 0, 10)).gifts is None

    async def disconnected() -> bool:
        return False  # the stream's client never goes away

    async def stream(until: str | None) -> list[tuple[str, str | None]]:
        sent: list[tuple[str, str | None]] = []
        events = move_events(store, REGISTRY, game_id, 0, disconnected, asyncio.Event())
        async for chunk in events:
            sent += [(e["event"], e.get("id")) for e in parse_events(chunk.decode())]
            if sent and sent[-1][0] == until:
                break
        await events.aclose()
        return sent

    old = [("move", "1"), ("move", "3"), ("offer", "5"), ("clock", "5")]
    assert await stream("clock") == old
    # A gift given since is logged, but the log still misses the earlier ones: still None.
    await store.act(game_id, two, ActionRequest("give_time", seconds=5))
    assert (await store.changes(game_id, 0, 10)).gifts is None
    assert await stream("clock") == [("move", "1"), ("move", "3"), ("offer", "6"), ("clock", "6")]
    await store.act(game_id, one, ActionRequest("resign"))
    assert await stream(None) == [("move", "1"), ("move", "3"), ("end", "7")]
    await store.close()


async def test_redis_reloads_its_scripts_after_a_flush(redis_store_url: str) -> None:
    store = RedisGameStore(
        REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2
    )
    created = await store.create(NewGame(*tictactoe(3)))
    redis.Redis.from_url(redis_store_url).script_flush()  # as after a restart: NOSCRIPT
    assert (await store.play(created.state.id, created.tokens[0], move(0, 0))).state.version == 1
    assert (await store.state(created.state.id)).version == 1
    await store.close()


def test_identical_reads_in_flight_share_one() -> None:
    calls = 0

    async def fetch() -> int:
        nonlocal calls
        calls += 1
        await asyncio.sleep(0.01)
        return calls

    async def run() -> list[int]:
        shared = SharedReads()
        together = await asyncio.gather(*(shared.read("k", fetch) for _ in range(100)))
        later = await shared.read("k", fetch)  # the first landed: a new read
        return [*together, later]

    answers = asyncio.run(run())
    assert answers == [1] * 100 + [2]


async def test_redis_processes_count_their_moves_together(redis_store_url: str) -> None:
    # Two processes' stores on one Redis, holding four moves at most between them.
    first, second = (
        RedisGameStore(REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2,
                       max_total_moves=4)
        for _ in range(2)
    )  # fmt: skip
    games = [
        await first.create(NewGame(*tictactoe(5))),
        await second.create(NewGame(*tictactoe(5))),
    ]
    for store, game in zip((first, second), games, strict=True):
        for i in range(2):
            await store.play(game.state.id, game.tokens[i % 2], move(0, i))
    await first.close()  # says what it had not yet said
    with pytest.raises(CapacityExhausted):
        await second.create(NewGame(*tictactoe(3)))
    with pytest.raises(CapacityExhausted):
        await second.play(games[1].state.id, games[1].tokens[0], move(1, 1))
    await second.delete(games[0].state.id, games[0].tokens[0])  # frees the first's two moves
    await second.play(games[1].state.id, games[1].tokens[0], move(1, 1))
    await second.close()


async def test_a_game_moved_in_before_the_accounting_heard_keeps_its_place(
    redis_store_url: str,
) -> None:
    # Two processes on one Redis: one moves first in the crowd's oldest game, the other creates
    # before the first has reported that move (its reports wait for its next move, or a second).
    first, second = (
        RedisGameStore(REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2,
                       max_unstarted=3)
        for _ in range(2)
    )  # fmt: skip
    crowd = [await first.create(NewGame(*tictactoe(3), owner="crowd")) for _ in range(3)]
    await second.play(crowd[0].state.id, crowd[0].tokens[0], move(0, 0))
    assert crowd[0].state.id in second.accounts._unreported  # not yet heard
    # Named to give its place, it is found moved in: kept, and out of the pool, which has room.
    await first.create(NewGame(*tictactoe(3), owner="player"))
    assert (await first.state(crowd[0].state.id)).move_count == 1
    assert (await first.state(crowd[1].state.id)).move_count == 0
    await second.close()  # its report: the started game counted once
    await first.create(
        NewGame(*tictactoe(3), owner="late")
    )  # the crowd's next oldest gives its place
    with pytest.raises(GameNotFound):
        await first.state(crowd[1].state.id)
    with pytest.raises(CapacityExhausted):
        await first.create(NewGame(*tictactoe(3), owner="crowd"))  # holds one, as every holder does
    assert await first.live_games() == 4
    await first.close()


# --- k in a row ---------------------------------------------------------------------------------


def gomoku(n: int, k: int) -> tuple[str, dict[str, int]]:
    return "tictactoe", {"n": n, "k": k}


async def test_k_in_a_row_games_match_a_board_scan(store: GameStore) -> None:
    rng = random.Random(13)
    for _ in range(12):
        n = rng.randint(3, 7)
        k = rng.randint(2, n - 1)
        created = await store.create(NewGame(*gomoku(n, k)))
        game_id, tokens_ = created.state.id, created.tokens
        assert dict(created.state.facts) == {"n": n, "k": k}
        grid = [["."] * n for _ in range(n)]
        cells = [(r, c) for r in range(n) for c in range(n)]
        rng.shuffle(cells)
        for i, (r, c) in enumerate(cells):
            player: Player = 1 if i % 2 == 0 else 2
            grid[r][c] = "X" if player == 1 else "O"
            state = (await store.play(game_id, tokens_[i % 2], move(r, c))).state
            won = has_k_in_row(tuple("".join(row) for row in grid), grid[r][c], k)
            full = i + 1 == n * n
            expected = ("won", player, "line") if won else ("draw", 0, "board_full") if full else (
                "in_progress", 0, None)  # fmt: skip
            assert (state.status, state.winner, state.reason) == expected, (n, k, cells[: i + 1])
            if state.status != "in_progress":
                break
        await store.delete(game_id, tokens_[0])


@pytest.mark.parametrize(
    ("stones", "winning"),
    [
        ([(7, 0), (7, 1), (7, 3), (7, 4)], (7, 2)),  # a row, joined by its middle stone
        ([(10, 999_999), (11, 999_999), (12, 999_999), (13, 999_999)], (14, 999_999)),  # a column
        ([(0, 0), (1, 1), (2, 2), (4, 4)], (3, 3)),  # the diagonal
        ([(500, 999_999), (501, 999_998), (503, 999_996), (504, 999_995)], (502, 999_997)),
        ([(9, 0), (9, 1), (9, 2), (9, 4), (9, 5), (9, 6)], (9, 3)),  # an overline of seven
    ],
    ids=["row-middle", "column-edge", "diagonal", "anti-diagonal-edge", "overline"],
)
async def test_five_in_a_row_on_a_board_of_a_million(
    store: GameStore, stones: list[tuple[int, int]], winning: tuple[int, int]
) -> None:
    created = await store.create(NewGame(*gomoku(10**6, 5)))
    game_id, (first, second) = created.state.id, created.tokens
    far = iter(range(100, 200, 2))  # player 2's stones: far apart, never a run
    for r, c in stones:
        assert (await store.play(game_id, first, move(r, c))).state.status == "in_progress"
        await store.play(game_id, second, move(999_000, next(far)))
    result = await store.play(game_id, first, move(*winning))
    assert (result.state.status, result.state.winner, result.state.reason) == ("won", 1, "line")


# --- Reversi ------------------------------------------------------------------------------------


async def play_out(store: GameStore, params: dict[str, object], seed: int) -> None:
    """A random game to its end on the store, every answer checked against the reference: the
    flips, the pass, the score, who moves, how it ends; and each move's answer rebuilt later
    (``result_at``: replays, event streams) equals the one first given."""
    rng = random.Random(seed)
    created = await store.create(NewGame("reversi", params))
    game_id, tokens_ = created.state.id, created.tokens
    grid = await store.rows(game_id)
    color = {1: "B", 2: "W"}
    answers = []
    while (state := await store.state(game_id)).status == "in_progress":
        player = state.next_player
        assert player is not None
        legal = reference.reversi_moves(grid, color[player])
        assert legal, "the mover has a move"
        listed = await store.legal_moves(game_id, -1, 1024)
        assert (listed.version, listed.player, listed.legal.next_after) == (
            state.version, player, None)  # fmt: skip
        assert [(cell(m), dict(m.facts or {})) for m in listed.legal.moves] == [
            (at, {"flips": [list(f) for f in reference.reversi_flips(grid, *at, color[player])]})
            for at in legal
        ]
        r, c = rng.choice(legal)
        flips = reference.reversi_flips(grid, r, c, color[player])
        grid = reference.reversi_play(grid, r, c, color[player])
        result = await store.play(game_id, tokens_[player - 1], move(r, c))
        answers.append(result)
        opponent = 2 if player == 1 else 1
        passed = not reference.reversi_moves(grid, color[opponent])
        assert dict(result.move.facts or {}) == {"flips": [list(f) for f in flips], "passed": (
            passed and bool(reference.reversi_moves(grid, color[player])))}  # fmt: skip
        black, white = (sum(row.count(mark) for row in grid) for mark in "BW")
        assert result.state.facts["score"] == {"1": black, "2": white}
        assert await store.rows(game_id) == grid
    ended = not reference.reversi_moves(grid, "B") and not reference.reversi_moves(grid, "W")
    assert ended
    black, white = (sum(row.count(mark) for row in grid) for mark in "BW")
    expected = ("draw", 0) if black == white else ("won", 1 if black > white else 2)
    assert (state.status, state.winner, state.reason) == (*expected, "no_moves")
    assert state.next_player is None
    over = await store.legal_moves(game_id, -1, 1024)
    assert (over.player, over.legal) == (None, NO_LEGAL_MOVES)
    moves, _ = await store.moves(game_id, 0, 2000)
    for first, kept in zip(answers, moves, strict=True):
        assert replace(result_at(kept, state, SERVED.find(state.kind)), replayed=False) == first
    await store.delete(game_id, tokens_[0])


@pytest.mark.parametrize(("height", "width"), [(8, 8), (4, 4), (4, 10), (6, 32), (32, 4)])
async def test_reversi_random_games_match_the_reference(
    store: GameStore, height: int, width: int
) -> None:
    for seed in range(2):
        await play_out(store, {"height": height, "width": width}, seed)


async def test_reversi_from_a_posted_position_with_passes_and_a_wipe_out(store: GameStore) -> None:
    # White cannot answer Black's first move: Black plays again (passed), then wipes White out.
    board = ["BW..", "....", "....", "...."]
    created = await store.create(NewGame("reversi", {"board": board, "next": "B"}))
    game_id, (black, _) = created.state.id, created.tokens
    assert created.state.next_player == 1
    first = await store.play(game_id, black, move(0, 2))
    assert dict(first.move.facts or {}) == {"flips": [[0, 1]], "passed": False}
    assert (first.state.status, first.state.reason, first.state.winner) == ("won", "no_moves", 1)
    assert first.state.facts["score"] == {"1": 3, "2": 0}
    await store.delete(game_id, black)
    # A position where the colour asked cannot move: the other one starts.
    passes = await store.create(
        NewGame("reversi", {"board": ["BW..", "....", "....", "...."], "next": "W"})
    )
    assert passes.state.next_player == 1
    await play_out(store, {"board": ["B.W.", ".WB.", "..W.", "...."], "next": "W"}, seed=3)


async def test_reversi_refusals_change_nothing(store: GameStore) -> None:
    created = await store.create(NewGame("reversi", {}))
    game_id, (black, white) = created.state.id, created.tokens
    assert dict(created.state.facts) == {
        "height": 8, "width": 8, "score": {"1": 2, "2": 2}, "final_score": None,
    }  # fmt: skip
    for token, cell, error in [
        (black, (8, 0), OutOfBounds),
        (white, (2, 4), NotYourTurn),
        (black, (3, 3), CellOccupied),
        (black, (0, 0), NoBracket),
    ]:
        with pytest.raises(error) as refused:
            await store.play(game_id, token, move(*cell, idempotency_key=f"k{cell}"))
        with pytest.raises(error) as again:  # remembered under its key, the same answer
            await store.play(game_id, token, move(*cell, idempotency_key=f"k{cell}"))
        assert (str(again.value), again.value.details()) == (
            str(refused.value), refused.value.details())  # fmt: skip
    assert refused.value.details() == {"reason": "no_bracket"}
    assert (await store.state(game_id)).version == 0
    assert await store.rows(game_id) == [
        "........", "........", "........", "...WB...", "...BW...", "........", "........",
        "........",
    ]  # fmt: skip


async def test_redis_processes_never_answer_from_an_outdated_copy(redis_store_url: str) -> None:
    # Each process keeps a Reversi game as it last wrote it, to move in one round trip; a copy
    # another process has outdated must neither refuse a legal move nor apply one twice.
    first, second = (
        RedisGameStore(REGISTRY, redis_store_url, max_games=10, idle_seconds=60, timeout_seconds=2)
        for _ in range(2)
    )
    created = await first.create(NewGame("reversi", {}))
    game_id, (black, white) = created.state.id, created.tokens
    await first.play(game_id, black, move(2, 3))  # first keeps the game at version 1
    grid = await second.rows(game_id)
    await second.play(game_id, white, move(*reference.reversi_moves(grid, "W")[0]))
    grid = await first.rows(game_id)
    # At version 1 it was White's turn: the outdated copy would refuse Black.
    reply = reference.reversi_moves(grid, "B")[0]
    result = await first.play(game_id, black, move(*reply))
    assert result.move.seq == 3
    assert await first.rows(game_id) == reference.reversi_play(grid, *reply, "B")
    with pytest.raises(NotYourTurn):  # and its copy, now current, refuses what it must
        await first.play(game_id, black, move(*reference.reversi_moves(
            await first.rows(game_id), "B")[0]))  # fmt: skip
    assert (await second.state(game_id)).version == 3
    await first.close()
    await second.close()


def test_a_reader_woken_by_a_change_never_joins_a_read_sent_before_it() -> None:
    async def run() -> tuple[int, int, bool]:
        watchers, shared = Watchers(), SharedReads()
        stored = {"version": 0}
        sent, release = asyncio.Event(), asyncio.Event()

        async def read() -> int:
            version = stored["version"]  # what the store holds when the read is sent
            sent.set()
            await release.wait()
            return version

        changed = watchers.watch("g")
        early = asyncio.ensure_future(shared.read(("g", watchers.changes("g")), read))
        await sent.wait()
        stored["version"] = 1
        watchers.notify("g")  # the change lands while the early read is on its way
        late = asyncio.ensure_future(shared.read(("g", watchers.changes("g")), read))
        release.set()
        return await early, await late, changed.is_set()

    assert asyncio.run(run()) == (0, 1, True)


async def test_versions_count_every_change_and_moves_keep_their_seq(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (one, two) = created.state.id, created.tokens
    await store.act(game_id, one, ActionRequest("offer"))  # version 1
    first = await store.play(game_id, one, move(0, 0))  # declines it: version 2, move 1
    offered = await store.act(game_id, two, ActionRequest("offer"))  # version 3
    second = await store.play(game_id, two, move(1, 1))  # version 4, move 2
    assert (offered.state.version, offered.state.draw_offer, offered.state.move_count) == (3, 2, 1)
    assert (first.move.seq, first.state.version, first.state.draw_offer) == (1, 2, None)
    assert (second.move.seq, second.state.version, second.state.move_count) == (2, 4, 2)
    moves, version = await store.moves(game_id, 0, 10)
    assert ([m.seq for m in moves], version) == ([1, 2], 4)
    assert await store.move(game_id, 2) == second.move
    for since, seqs in ((0, [1, 2]), (1, [1, 2]), (2, [2]), (3, [2]), (4, []), (9, [])):
        changes = await store.changes(game_id, since, 10)
        assert [m.seq for m in changes.moves] == seqs, since
        assert changes.state == await store.state(game_id)
    # Each move's answer, rebuilt later (a replay, a stream), is the answer it got.
    now = await store.state(game_id)
    kind, moves = SERVED.find(now.kind), (await store.changes(game_id, 0, 10)).moves
    answers = [result_at(m, now, kind) for m in moves]
    assert answers == [replace(first, replayed=True), replace(second, replayed=True)]


async def test_actions_end_the_game_once_and_are_remembered_under_their_key(
    store: GameStore,
) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (one, two) = created.state.id, created.tokens
    keyed = ActionRequest("offer", idempotency_key="k")
    offered = await store.act(game_id, two, keyed)
    assert offered.state.draw_offer == 2
    assert not offered.replayed
    assert (await store.act(game_id, two, ActionRequest("offer"))).state == offered.state
    agreed = await store.act(game_id, one, ActionRequest("offer"))
    assert (agreed.state.status, agreed.state.reason, agreed.state.version) == (
        "draw", "agreement", 2,
    )  # fmt: skip
    again = await store.act(game_id, two, keyed)
    assert (again.state, again.replayed) == (offered.state, True)
    with pytest.raises(IdempotencyKeyReused):
        await store.act(game_id, two, ActionRequest("resign", idempotency_key="k"))
    with pytest.raises(GameOver):
        await store.act(game_id, two, ActionRequest("resign"))
    with pytest.raises(GameOver):
        await store.play(game_id, one, move(0, 0))
    with pytest.raises(WrongPlayer):
        await store.act(game_id, one, ActionRequest("resign", player=2))
    with pytest.raises(Unauthorized):
        await store.act(game_id, "nobody", ActionRequest("resign"))
    with pytest.raises(GameNotFound):
        await store.act("nope", one, ActionRequest("resign"))
    assert (await store.state(game_id)) == agreed.state
    assert store.endings == {"agreement": 1}


async def test_a_clocked_moves_answer_is_the_same_whenever_asked(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3), TimeControl(60, 2)))
    game_id, (one, two) = created.state.id, created.tokens
    cells = [(one, 0, 0), (two, 1, 1), (one, 0, 1), (two, 2, 2), (one, 0, 2)]
    answers = []
    for i, (token, row, col) in enumerate(cells):
        if i == 3:
            await store.act(game_id, one, ActionRequest("offer"))
        answers.append(await store.play(game_id, token, move(row, col, idempotency_key=str(i))))
    assert answers[0].state.clock is not None
    assert answers[0].state.clock.running is None
    assert answers[2].state.clock is not None
    assert answers[2].state.clock.running == 2
    assert answers[-1].state.reason == "line"
    assert answers[-1].state.clock is not None
    assert answers[-1].state.clock.running is None
    for i, (token, row, col) in enumerate(cells):
        again = await store.play(game_id, token, move(row, col, idempotency_key=str(i)))
        assert again == replace(answers[i], replayed=True)
    now = await store.state(game_id)
    kind, moves = SERVED.find(now.kind), (await store.changes(game_id, 0, 10)).moves
    rebuilt = [result_at(m, now, kind) for m in moves]
    assert rebuilt == [replace(answer, replayed=True) for answer in answers]


@pytest.mark.parametrize("mode", CLOCK_MODES)
async def test_a_stream_reads_each_gift_of_time_as_the_state_it_left(
    store: GameStore, mode: ClockMode
) -> None:
    """Time given before the first move, twice in a row, while a draw offer stands, after a
    move a takeback then took back, and after the move made again: read after any version, a
    page of moves of any size, the gifts after it up to the last move read (all, when it is
    the game's last) are the states their answers were — but the one whose move was taken
    back (history, as that move is)."""
    created = await store.create(NewGame(*tictactoe(4), TimeControl(60, 2, mode)))
    game_id, (one, two) = created.state.id, created.tokens
    answers: dict[int, GameState] = {}  # by version

    async def give(token: str) -> int:
        state = (await store.act(game_id, token, ActionRequest("give_time", seconds=5))).state
        answers[state.version] = state
        return state.version

    await give(two)
    await store.play(game_id, one, move(0, 0))
    await store.play(game_id, two, move(1, 1))
    await give(one)
    await give(two)
    await store.act(game_id, one, ActionRequest("offer"))
    assert answers[await give(one)].draw_offer == 1
    await store.play(game_id, one, move(0, 1))
    await give(two)
    await store.play(game_id, two, move(2, 2))
    lost = await give(one)
    await store.act(game_id, two, ActionRequest("takeback"))
    await store.act(game_id, one, ActionRequest("takeback"))  # move 4 taken back
    del answers[lost]
    await store.play(game_id, two, move(3, 3))
    await give(two)
    await store.act(game_id, one, ActionRequest("resign"))
    now = await store.state(game_id)
    for since in range(now.version + 1):
        for limit in (1, 2, 10):
            read = await store.changes(game_id, since, limit)
            last = read.moves[-1] if read.moves else None
            expected = [
                state for version, state in sorted(answers.items())
                if version > since
                and (last is None or last.seq == now.move_count or version < last.changed)
            ]  # fmt: skip
            assert read.gifts == tuple(expected), (since, limit)


async def test_a_key_first_used_for_an_action_is_reused_by_a_move(store: GameStore) -> None:
    created = await store.create(NewGame(*tictactoe(3)))
    game_id, (one, _) = created.state.id, created.tokens
    with pytest.raises(WrongPlayer):  # refused, and remembered under the key
        await store.act(game_id, one, ActionRequest("resign", player=2, idempotency_key="k"))
    with pytest.raises(IdempotencyKeyReused):
        await store.play(game_id, one, move(0, 0, idempotency_key="k"))
    await store.act(game_id, one, ActionRequest("offer", idempotency_key="o"))
    with pytest.raises(IdempotencyKeyReused):
        await store.play(game_id, one, move(0, 0, idempotency_key="o"))
    assert (await store.state(game_id)).move_count == 0
