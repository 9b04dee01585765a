"""The policy written in Python (the session, behind the memory store) and in Lua (the Redis
store's tic-tac-toe fast path; its generic engine decides in Python and commits in Lua) agree:
the same random request sequences — moves legal and not, replays under an ``Idempotency-Key``
(the same body and another), ``If-Match``, a claimed ``player``, resignations, draw offers,
time passing on clocked games (flags falling) — get the same answers, the same receipts and
leave the same states and the same legal moves, on one Redis and a cluster. So do random games
of every kind and size, their legal moves read in random pages at every move.

Time is injected: the memory store's ``wall_clock`` and the Redis store's ``clock`` read the
same variable, and the Redis store is built with ``caller_time`` so that its scripts take that
time rather than the server's (``TIME``).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.kinds import REGISTRY
from app.rules.errors import DomainError
from app.sessions.clock import Stage, TimeControl
from app.sessions.exchange import ActionRequest, GameState, LegalMovesPage, MoveRequest
from app.sessions.kind import Pass, Placement, Player
from app.sessions.session import NO_TERMS, Terms
from app.sessions.store import GameStore, NewGame
from app.stores.memory import MemoryGameStore
from app.stores.redis.store import RedisGameStore
from tests.conftest import empty_store

REDIS_PATHS = ["redis", "redis-generic", "cluster", "cluster-generic"]

Step = tuple[Any, ...]
steps = st.lists(
    st.one_of(
        st.tuples(
            st.just("move"),
            st.sampled_from(["next", "next", 1, 2]),  # whose token ("next": whose turn it is)
            st.sampled_from([0, 1, 2, 0, 1, 2, -1, 3]),  # row (−1 and 3: off the 3 × 3 board)
            st.integers(0, 2),  # col
            st.sampled_from([None, None, "a", "b"]),  # Idempotency-Key
            st.sampled_from([None] * 6 + [0, 1, 2, 3, 4]),  # If-Match: a version
            st.sampled_from([None] * 4 + [1, 2]),  # the player the body claims
        ),
        st.tuples(
            st.sampled_from(["resign", "offer", "abort", "takeback", "takeback", "give_time"]),
            st.sampled_from([1, 2]),
            st.sampled_from([None, "a", "c"]),
            st.sampled_from([None, 0, 2, 5]),
        ),
        # Milliseconds pass; or time runs to the game's next deadline (the running clock's, a
        # first move's), a millisecond short of it or past it (each passes at its instant).
        st.tuples(st.just("wait"), st.sampled_from([1, 300, 999, 1000, 1001, 2000])),
        st.tuples(st.just("deadline"), st.sampled_from([-1, 0, 0, 1])),
    ),
    min_size=1,
    max_size=16,
)


# Tic-tac-toe's detectors, as both stores keep them: the line counters (k = n), the run lengths
# (k < n), and the windows of an early draw.
tictactoe_games = st.sampled_from([
    ("tictactoe", {"n": 3, "k": 3}), ("tictactoe", {"n": 3, "k": 3}),
    ("tictactoe", {"n": 3, "k": 3, "early_draw": True}),
    ("tictactoe", {"n": 4, "k": 3, "early_draw": True}),
])  # fmt: skip
# No clocks, or a time control (seconds): initial, increment.
# Every mode; stages after a player's first and second moves.
controls = st.sampled_from([
    None, TimeControl(1, 0), TimeControl(2, 1), TimeControl(1, 1),
    TimeControl(1, 1, "bronstein"), TimeControl(2, 1, "delay"),
    TimeControl(1, 0, "delay", (Stage(1, 1), Stage(2, 2))),
    TimeControl(1, 1, "bronstein", (Stage(2, 1),)),
])  # fmt: skip
# A game's terms: a first-move deadline (seconds) or none, and the actions it leaves out.
terms_of = st.builds(
    Terms,
    st.sampled_from([None, None, 1, 2]),
    st.sets(st.sampled_from(["abort", "draw_offer", "takeback"])).map(frozenset),
)
START_MS = 1_700_000_000_000


def _state(state: GameState) -> tuple[Any, ...]:
    return (replace(state, id=""),)


def _legal(page: LegalMovesPage) -> tuple[Any, ...]:
    return (replace(page, id=""),)


def _error(error: DomainError) -> tuple[Any, ...]:
    return (type(error).__name__, str(error), error.details(), error.replayed)


async def play(
    store: GameStore, control: TimeControl | None, sequence: list[Step], now: list[int],
    game: tuple[str, dict[str, object]] = ("tictactoe", {"n": 3, "k": 3}),
    terms: Terms = NO_TERMS,
) -> list[tuple[Any, ...]]:  # fmt: skip
    """What a store answered to each step of the sequence, and the game's state after it; the
    time is ``now[0]`` (ms), which the steps move on."""
    now[0] = START_MS
    created = await store.create(NewGame(*game, control, terms=terms))
    game_id, tokens = created.state.id, created.tokens
    seen: list[tuple[Any, ...]] = [_state(created.state)]
    state = created.state
    for step in sequence:
        answer: tuple[Any, ...]
        try:
            if step[0] == "wait":
                now[0] += step[1]
                answer = ("waited",)
            elif step[0] == "deadline":
                deadline = state.deadline_ms
                now[0] = max(now[0], (deadline or now[0]) + step[1])
                answer = ("waited",)
            elif step[0] in ("move", "pass"):
                _, who, row, col, key, version, claimed = step
                who = (state.next_player or 1) if who == "next" else who
                played = Placement(row, col) if step[0] == "move" else Pass()
                request = MoveRequest(played, claimed, version, key)
                result = await store.play(game_id, tokens[who - 1], request)
                answer = ("moved", result.winner, result.move,
                          _state(result.state), result.replayed)  # fmt: skip
            else:
                action, who, key, version = step
                seconds = 1 if action == "give_time" else 0
                asked = ActionRequest(action, None, version, key, seconds)
                acted = await store.act(game_id, tokens[who - 1], asked)
                answer = ("acted", _state(acted.state), acted.replayed)
        except DomainError as error:
            answer = _error(error)
        moves, version_now = await store.moves(game_id, 0, 100)
        state = await store.state(game_id)
        legal = [_legal(await store.legal_moves(game_id, *page)) for page in ((-1, 9), (2, 2))]
        # What a stream reads after a version a few changes back (a takeback since included,
        # gifts of time), and from the start a move at a time (the gifts before it).
        read = await store.changes(game_id, max(0, state.version - 3), 100)
        taken_back = None if read.taken_back is None else _state(read.taken_back)
        first = await store.changes(game_id, 0, 1)
        gifts = [[_state(gift) for gift in got.gifts or ()] for got in (read, first)]
        seen.append(
            (answer, _state(state), moves, version_now, legal, read.moves, taken_back, gifts)
        )
    return seen


@pytest.fixture(params=REDIS_PATHS)
def redis_store(request: pytest.FixtureRequest) -> tuple[pytest.FixtureRequest, str]:
    """The Redis path to compare with the memory store: one Redis or a cluster, each with the
    fast path or the generic engine."""
    return request, str(request.param)


def move_at(row: int, col: int) -> Step:
    """A plain move of whoever's turn it is."""
    return ("move", "next", row, col, None, None, None)


# A clocked game in which both have moved (the clocks run), played to a flag's fall exactly:
# searched for, but too rare to be left to chance.
RUN_OUT = [move_at(0, 0), move_at(1, 1)]
MODES_RUN = [
    *RUN_OUT,
    ("wait", 300),
    ("offer", 2, None, None),
    ("wait", 400),
    move_at(0, 1),
    ("give_time", 1, None, None),
    ("wait", 2000),
    move_at(2, 2),
    ("wait", 1001),
    ("takeback", 1, None, None),
    ("wait", 999),
    ("takeback", 2, None, None),
    ("wait", 300),
    move_at(3, 3),
    ("wait", 1000),
    move_at(0, 3),
    ("deadline", 0),
]


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(control=controls, sequence=steps, terms=terms_of, game=tictactoe_games)
@example(
    control=TimeControl(1, 1),
    sequence=[*RUN_OUT, ("deadline", 0), move_at(2, 2)],
    terms=NO_TERMS,
    game=("tictactoe", {"n": 3, "k": 3}),
)
@example(
    control=TimeControl(2, 1),
    sequence=[*RUN_OUT, move_at(0, 1), ("deadline", -1), move_at(2, 2), ("deadline", 0)],
    terms=NO_TERMS,
    game=("tictactoe", {"n": 3, "k": 3}),
)
# Takebacks: the mover's own move, then the reply too, a keyed move replayed after it was taken
# back (and its number used again), with clocks running.
@example(
    control=TimeControl(2, 1),
    sequence=[
        *RUN_OUT,
        ("move", "next", 0, 1, "a", None, None),
        ("takeback", 1, None, None),
        ("takeback", 2, "c", None),
        ("move", 1, 0, 2, None, None, None),
        ("move", 1, 0, 1, "a", None, None),
        ("takeback", 2, None, None),
        ("takeback", 1, None, None),
        ("move", 2, 2, 2, None, None, None),
    ],
    terms=NO_TERMS,
    game=("tictactoe", {"n": 4, "k": 3, "early_draw": True}),
)
# Each mode, with stages: time spent in a turn read by an offer, given time, a turn's delay
# used in part and in whole, a takeback's new turn, then a flag's fall.
@example(
    control=TimeControl(2, 1, "bronstein", (Stage(2, 1),)),
    sequence=MODES_RUN,
    terms=NO_TERMS,
    game=("tictactoe", {"n": 4, "k": 4}),
)
@example(
    control=TimeControl(2, 1, "delay", (Stage(1, 1), Stage(3, 2))),
    sequence=MODES_RUN,
    terms=NO_TERMS,
    game=("tictactoe", {"n": 4, "k": 4}),
)
# A first move's deadline: met a millisecond short of it, then passed exactly (aborted).
@example(
    control=TimeControl(1, 0),
    sequence=[move_at(0, 0), ("deadline", -1), move_at(1, 1), ("deadline", 0), move_at(2, 2)],
    terms=Terms(1),
    game=("tictactoe", {"n": 3, "k": 3}),
)
@example(
    control=None,
    sequence=[("deadline", 0), move_at(0, 0)],
    terms=Terms(2),
    game=("tictactoe", {"n": 3, "k": 3}),
)
# Aborts: left out of the game, too late (remembered under the key), in time.
@example(
    control=None,
    sequence=[("abort", 1, None, None)],
    terms=Terms(None, frozenset({"abort"})),
    game=("tictactoe", {"n": 3, "k": 3}),
)
@example(
    control=TimeControl(2, 1),
    sequence=[*RUN_OUT, ("abort", 2, "a", None), ("abort", 2, "a", None)],
    terms=NO_TERMS,
    game=("tictactoe", {"n": 3, "k": 3}),
)
@example(
    control=TimeControl(2, 1),
    sequence=[move_at(0, 0), ("abort", 1, "a", 1)],
    terms=Terms(1),
    game=("tictactoe", {"n": 3, "k": 3}),
)
# Gifts of time before the first move, between moves, while an offer stands, and after a
# move that a takeback then takes back: a stream's reads of them.
@example(
    control=TimeControl(2, 1, "delay"),
    sequence=[
        ("give_time", 2, None, None),
        *RUN_OUT,
        ("wait", 300),
        ("give_time", 1, None, None),
        ("offer", 2, None, None),
        ("give_time", 2, None, None),
        move_at(0, 1),
        ("wait", 999),
        ("give_time", 2, None, None),
        ("takeback", 1, None, None),
        ("takeback", 2, None, None),
        move_at(2, 2),
        ("give_time", 1, None, None),
    ],
    terms=NO_TERMS,
    game=("tictactoe", {"n": 4, "k": 4}),
)
def test_python_and_lua_answer_the_same_requests_the_same(
    redis_store: tuple[pytest.FixtureRequest, str],
    control: TimeControl | None,
    sequence: list[Step],
    terms: Terms,
    game: tuple[str, dict[str, object]],
) -> None:
    both_answer_alike(redis_store, control, sequence, game, terms)


def both_answer_alike(
    redis_store: tuple[pytest.FixtureRequest, str], control: TimeControl | None,
    sequence: list[Step], game: tuple[str, dict[str, object]] = ("tictactoe", {"n": 3, "k": 3}),
    terms: Terms = NO_TERMS,
) -> None:  # fmt: skip
    """The memory store and the Redis path of ``redis_store`` answer ``sequence`` (played on a
    new game of ``game``) alike, step by step, on the same injected time."""
    request, path = redis_store
    server, _, engine = path.partition("-")
    now = [START_MS]

    def clock() -> float:
        return now[0] / 1000

    async def both() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        memory = MemoryGameStore(REGISTRY, max_games=10, idle_seconds=60, wall_clock=clock)
        redis = RedisGameStore(
            REGISTRY,
            empty_store(request, server), max_games=10, idle_seconds=60, timeout_seconds=2,
            fast_paths=engine != "generic", clock=clock, caller_time=True,
        )  # fmt: skip
        try:
            return await play(memory, control, sequence, now, game, terms), await play(
                redis, control, sequence, now, game, terms
            )
        finally:
            await redis.close()

    in_python, in_redis = asyncio.run(both())
    for step, (python_saw, redis_saw) in enumerate(zip(in_python, in_redis, strict=True)):
        assert redis_saw == python_saw, (step, sequence[:step])


# Gomoku under each rule on a small board, so that lines are made: stones near a corner (and
# off the board), passes (renju's, refused elsewhere), actions, keys, versions, claims and time.
gomoku_games = st.one_of(
    st.builds(
        lambda rule, size: ("gomoku", {"rule": rule, "size": size}),
        st.sampled_from(["freestyle", "standard", "caro"]), st.sampled_from([5, 6, 7]),
    ),
    st.builds(  # the windows of an early draw, kept by the fast path too
        lambda rule, size: ("gomoku", {"rule": rule, "size": size, "early_draw": True}),
        st.sampled_from(["freestyle", "standard"]), st.sampled_from([6, 7]),
    ),
    st.just(("gomoku", {"rule": "renju", "size": 15})),
)  # fmt: skip
gomoku_steps = st.lists(
    st.one_of(
        st.tuples(
            st.sampled_from(["move"] * 6 + ["pass"]),
            st.sampled_from(["next", "next", "next", 1, 2]),
            st.sampled_from([-1, 0, 1, 2, 3, 4, 5]),
            st.sampled_from([0, 1, 2, 3, 4, 7]),
            st.sampled_from([None, None, "a", "b"]),
            st.sampled_from([None] * 8 + [0, 3, 6]),
            st.sampled_from([None] * 6 + [1, 2]),
        ),
        st.tuples(
            st.sampled_from(["resign", "offer", "takeback", "takeback", "takeback", "give_time"]),
            st.sampled_from([1, 2]),
            st.sampled_from([None, "a", "c"]),
            st.sampled_from([None, 0, 2, 5]),
        ),
        st.tuples(st.just("wait"), st.sampled_from([1, 999, 1000])),
    ),
    min_size=1,
    max_size=40,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(game=gomoku_games, control=controls, sequence=gomoku_steps)
@example(  # caro: an exactly-five that White closes at both ends does not win
    game=("gomoku", {"rule": "caro", "size": 7}),
    control=None,
    sequence=[
        move_at(*cell)
        for cell in [(1, 0), (0, 0), (2, 0), (6, 0), (3, 0), (0, 3), (4, 0), (0, 4), (5, 0), (1, 3)]
    ],
)
@example(  # caro: an exactly-five that White closes at one end only wins
    game=("gomoku", {"rule": "caro", "size": 7}),
    control=None,
    sequence=[
        move_at(*cell)
        for cell in [(1, 0), (0, 0), (2, 0), (0, 3), (3, 0), (0, 4), (4, 0), (1, 4), (5, 0)]
    ],
)
@example(  # standard: six in a row does not win
    game=("gomoku", {"rule": "standard", "size": 7}),
    control=None,
    sequence=[
        move_at(*cell)
        for cell in [
            (0, 0),
            (0, 2),
            (1, 0),
            (0, 3),
            (2, 0),
            (0, 4),
            (4, 0),
            (1, 4),
            (5, 0),
            (2, 4),
            (3, 0),
            (3, 4),
        ]
    ],
)
def test_gomoku_is_answered_the_same_by_both_stores(
    redis_store: tuple[pytest.FixtureRequest, str],
    game: tuple[str, dict[str, object]],
    control: TimeControl | None,
    sequence: list[Step],
) -> None:
    """Gomoku's refusals and endings (a five, an exact five, caro's blocked five, renju's
    forbidden points and passes), on the Redis store's fast path (freestyle, standard, caro:
    ``line_move.lua``) or its generic engine, as the memory store answers them."""
    both_answer_alike(redis_store, control, sequence, game)


# A game of one kind and size: tic-tac-toe with k ≤ n, Reversi of a few sizes, or gomoku under
# each rule (renju's legal moves leave out Black's forbidden points).
games = st.one_of(
    st.tuples(
        st.just("gomoku"),
        st.one_of(
            st.builds(
                lambda rule, size: {"rule": rule, "size": size},
                st.sampled_from(["freestyle", "standard", "caro"]), st.sampled_from([5, 6, 9]),
            ),
            st.just({"rule": "renju", "size": 15}),
        ),
    ),
    st.integers(1, 6).flatmap(
        lambda n: st.tuples(st.just("tictactoe"), st.builds(lambda k: {"n": n, "k": k},
                                                            st.integers(1, n)))
    ),
    st.tuples(
        st.just("reversi"),
        st.sampled_from([{}, {"height": 4, "width": 4}, {"height": 6, "width": 10}]),
    ),
)  # fmt: skip
# At each point of the game: a page of its legal moves (after which cell, at most how many),
# then the move played (an index into every legal move), and whether a takeback is then offered
# by player 1 or 2 (0: none) and accepted by the other.
points = st.lists(
    st.tuples(
        st.integers(-1, 100), st.integers(1, 12), st.integers(0, 1000),
        st.sampled_from([0, 0, 0, 0, 0, 1, 2]),
    ),
    max_size=70,
)  # fmt: skip


async def replayed(store: GameStore, game: tuple[str, dict[str, object]], game_id: str) -> Any:
    """The oracle of a takeback: a new game of the store that replays the game's moves (those
    left), and what it shows — its state but the id and version, its board, its legal moves."""
    created = await store.create(NewGame(*game))
    moves, _ = await store.moves(game_id, 0, 10_000)
    for move in moves:
        await store.play(created.state.id, created.tokens[move.player - 1],
                         MoveRequest(move.played))  # fmt: skip
    return await shown(store, created.state.id)


async def shown(store: GameStore, game_id: str) -> Any:
    state = await store.state(game_id)
    legal = await store.legal_moves(game_id, -1, 1024)
    seen = replace(state, id="", version=0, last_move=None, clock=None, last_takeback=None)
    return seen, await store.rows(game_id), replace(legal, id="", version=0)


async def legal_at_every_point(
    store: GameStore, game: tuple[str, dict[str, object]], sequence: list[tuple[int, int, int]]
) -> list[tuple[Any, ...]]:
    """The pages a store answered at every point of a game played by ``sequence``: at each, one
    page (as asked) and every legal move, then the legal move picked is played."""
    created = await store.create(NewGame(*game))
    game_id, tokens = created.state.id, created.tokens
    seen: list[tuple[Any, ...]] = []
    for after, limit, pick, takeback in sequence:
        page = await store.legal_moves(game_id, after, limit)
        every = await store.legal_moves(game_id, -1, 1024)
        seen.append((_legal(page), _legal(every)))
        if every.player is None:
            break
        played = every.legal.moves[pick % len(every.legal.moves)].played
        result = await store.play(game_id, tokens[every.player - 1], MoveRequest(played))
        seen.append((result.move, _state(result.state)))
        if takeback and result.state.status == "in_progress":
            try:
                offered = await store.act(game_id, tokens[takeback - 1], ActionRequest("takeback"))
            except DomainError as error:  # it has no move that may be taken back
                seen.append(_error(error))
                continue
            accepted = await store.act(game_id, tokens[2 - takeback], ActionRequest("takeback"))
            seen.append((_state(offered.state), _state(accepted.state)))
            # The board, score and counters after it are the shorter game's.
            assert await shown(store, game_id) == await replayed(store, game, game_id)
    return seen


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(game=games, sequence=points)
def test_both_stores_list_the_same_legal_moves_at_every_point_of_random_games(
    redis_store: tuple[pytest.FixtureRequest, str],
    game: tuple[str, dict[str, object]],
    sequence: list[tuple[int, int, int]],
) -> None:
    request, path = redis_store
    server, _, engine = path.partition("-")

    async def both() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        # (Each takeback's oracle is a new game.) The time stands still: every change of both
        # stores is made at the same instant.
        def clock() -> float:
            return START_MS / 1000

        memory = MemoryGameStore(REGISTRY, max_games=100, idle_seconds=60, wall_clock=clock)
        redis = RedisGameStore(
            REGISTRY, empty_store(request, server), max_games=100, idle_seconds=60,
            timeout_seconds=2, fast_paths=engine != "generic", clock=clock, caller_time=True,
        )  # fmt: skip
        try:
            return (
                await legal_at_every_point(memory, game, sequence),
                await legal_at_every_point(redis, game, sequence),
            )
        finally:
            await redis.close()

    in_memory, in_redis = asyncio.run(both())
    assert in_redis == in_memory


# The seats and the watchers of a game: a lobby game (an open seat) joined under keys from two
# requesters, spectators asked by players and by strangers, read back with every token, moves,
# resignations and rematch offers — on tic-tac-toe (the fast path where a store has one) and
# Reversi (the generic engine), public or private.
seat_games = st.sampled_from(
    [("tictactoe", {"n": 3, "k": 3}), ("reversi", {"height": 4, "width": 4})]
)
seat_steps = st.lists(
    st.one_of(
        st.tuples(
            st.just("join"), st.sampled_from([None, "j", "k"]), st.sampled_from(["r1", "r2"])
        ),
        st.tuples(st.just("spectate"), st.sampled_from([1, 2, "spectator", "stranger"])),
        st.tuples(st.just("view"), st.sampled_from([None, 1, 2, "spectator", "stranger"])),
        st.tuples(st.just("move"), st.integers(0, 15)),
        st.tuples(st.just("resign"), st.sampled_from([1, 2, 1, 2, "spectator"])),
        st.tuples(st.just("rematch"), st.sampled_from([1, 2, 1, 2, "spectator"])),
    ),
    min_size=1,
    max_size=14,
)


def _seen(state: GameState) -> tuple[Any, ...]:
    """A state as both stores must show it: not its id, nor its rematch's (each store's own)."""
    return (replace(state, id="", rematch=state.rematch and "made"),)


async def seated(
    store: GameStore, game: tuple[str, dict[str, object]], open_seat: Player | None,
    private: bool, sequence: list[Step],
) -> list[tuple[Any, ...]]:  # fmt: skip
    """What a store answered to each step, the game's state and the lobby's page after it, and
    the state of the rematch once made. Tokens are each store's own: they are kept by seat
    (and the last spectator's) and never compared."""
    created = await store.create(
        NewGame(
            *game, owner="creator", open_seat=open_seat, terms=replace(NO_TERMS, private=private)
        )
    )
    game_id = created.state.id
    tokens: dict[object, str] = {
        seat: token for seat, token in zip((1, 2), created.tokens, strict=True) if token
    }
    tokens["stranger"] = "not-a-token"
    seen: list[tuple[Any, ...]] = [_seen(created.state)]
    rematch_id: str | None = None
    for step in sequence:
        answer: tuple[Any, ...]
        try:
            if step[0] == "join":
                joined = await store.join(game_id, step[1], step[2])
                tokens[joined.player] = joined.token
                answer = ("joined", joined.player, _seen(joined.state), joined.replayed)
            elif step[0] == "spectate":
                tokens["spectator"] = await store.spectate(game_id, tokens.get(step[1], "none"))
                answer = ("spectating",)
            elif step[0] == "view":
                await store.viewer(game_id, None if step[1] is None else tokens.get(step[1], "x"))
                answer = ("may view",)
            elif step[0] == "move":
                state = await store.state(game_id)
                who = state.next_player or 1
                page = await store.legal_moves(game_id, -1, 16)
                legal = page.legal.moves
                cell = legal[step[1] % len(legal)].played if legal else Placement(0, 0)
                result = await store.play(game_id, tokens.get(who, "none"), MoveRequest(cell))
                answer = ("moved", result.winner, result.move, _seen(result.state))
            elif step[0] == "resign":
                asked = ActionRequest("resign", None, None, None, 0)
                acted = await store.act(game_id, tokens.get(step[1], "none"), asked)
                answer = ("resigned", _seen(acted.state))
            else:
                offer = await store.rematch(game_id, tokens.get(step[1], "none"), "creator")
                made = offer.rematch
                if made is not None:
                    rematch_id = made.id
                answer = ("rematch", None if made is None else made.player, _seen(offer.state))
        except DomainError as error:
            answer = _error(error)
        lobby = await store.open_games((), 0, 10)
        rematch = None if rematch_id is None else _seen(await store.state(rematch_id))
        seen.append(
            (answer, _seen(await store.state(game_id)), [_seen(s) for s in lobby.games], rematch)
        )
    return seen


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    game=seat_games,
    open_seat=st.sampled_from([None, 1, 2, 2]),
    private=st.booleans(),
    sequence=seat_steps,
)
@example(  # joined, played to a resignation, rematched by both: the rematch made once
    game=("tictactoe", {"n": 3, "k": 3}), open_seat=2, private=False,
    sequence=[("join", "j", "r1"), ("join", "j", "r1"), ("join", None, "r2"), ("move", 0),
              ("resign", 2), ("rematch", 1), ("rematch", 1), ("rematch", 2), ("rematch", 2)],
)  # fmt: skip
@example(  # a private game: spectators asked by a player and by a stranger, read back
    game=("reversi", {"height": 4, "width": 4}), open_seat=None, private=True,
    sequence=[("view", None), ("spectate", "stranger"), ("spectate", 1), ("view", "spectator"),
              ("spectate", 2), ("spectate", 1), ("view", "stranger"), ("rematch", "spectator")],
)  # fmt: skip
def test_seats_spectators_and_rematches_are_answered_the_same_by_both_stores(
    redis_store: tuple[pytest.FixtureRequest, str],
    game: tuple[str, dict[str, object]],
    open_seat: Player | None,
    private: bool,
    sequence: list[Step],
) -> None:
    """Join (``join.lua``), spectate (``spectate.lua``) and rematch (``rematch.lua``) answer as
    the session behind the memory store does, step by step: the seat taken and its retry under
    the same key from the same requester (a new request from another), the spectators' bound
    (two here), who may read a private game, the lobby's listing, and the rematch, made once
    with the seats swapped."""
    request, path = redis_store
    server, _, engine = path.partition("-")

    def clock() -> float:
        return START_MS / 1000

    async def both() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
        bounds: dict[str, Any] = {"max_games": 10, "idle_seconds": 60, "game_spectators": 2}
        memory = MemoryGameStore(REGISTRY, wall_clock=clock, **bounds)
        redis = RedisGameStore(
            REGISTRY, empty_store(request, server), timeout_seconds=10,
            fast_paths=engine != "generic", clock=clock, caller_time=True, **bounds,
        )  # fmt: skip
        try:
            return (
                await seated(memory, game, open_seat, private, sequence),
                await seated(redis, game, open_seat, private, sequence),
            )
        finally:
            await redis.close()

    in_memory, in_redis = asyncio.run(both())
    for step, (memory_saw, redis_saw) in enumerate(zip(in_memory, in_redis, strict=True)):
        assert redis_saw == memory_saw, (step, sequence[:step])
