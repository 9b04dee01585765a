"""Event stream places are shared fairly: at a client's own bound it is refused; at the process's
or a game's, a newcomer takes the place of the oldest stream of the client holding the most."""

from __future__ import annotations

import pytest

from app.api.games.streams import EVICTIONS_BURST, RETRY_AFTER_SECONDS, StreamSlots
from app.sessions.errors import TooManyStreams


def test_a_clients_own_bound_is_never_passed() -> None:
    slots = StreamSlots(per_process=10, per_game=10, per_client=2)
    slots.take("g", "a")
    slots.take("h", "a")
    with pytest.raises(TooManyStreams, match="client address"):
        slots.take("i", "a")
    assert slots.open == 2


def test_a_full_process_makes_room_from_the_client_holding_the_most() -> None:
    slots = StreamSlots(per_process=4, per_game=10, per_client=10)
    greedy = [slots.take(f"g{i}", "greedy") for i in range(3)]
    polite = slots.take("p", "polite")
    assert slots.open == 4
    newcomer = slots.take("q", "newcomer")  # greedy holds 3, the newcomer would hold 1
    assert greedy[0].evicted.is_set()  # the oldest of the greedy client's streams
    assert not any(slot.evicted.is_set() for slot in (*greedy[1:], polite))
    assert slots.open == 4
    # Now greedy holds 2, polite 1, newcomer 1: no one holds two more than another would.
    with pytest.raises(TooManyStreams, match="this process"):
        slots.take("r", "polite")
    newcomer.give_back()
    slots.take("r", "polite")  # a free place again


def test_a_watched_game_makes_room_the_same_way() -> None:
    slots = StreamSlots(per_process=100, per_game=3, per_client=10)
    greedy = [slots.take("g", "greedy") for _ in range(3)]
    mine = slots.take("g", "owner")  # the game is full, of one client's streams
    assert greedy[0].evicted.is_set()
    assert not mine.evicted.is_set()
    with pytest.raises(TooManyStreams, match="this game"):
        slots.take("g", "greedy")  # it holds 2, the owner 1: its own stream would be next


def test_one_stream_each_is_a_fair_share() -> None:
    slots = StreamSlots(per_process=1, per_game=1, per_client=5)
    first = slots.take("g", "a")
    with pytest.raises(TooManyStreams):  # a holds 1, b would hold 1: no room to make
        slots.take("g", "b")
    assert not first.evicted.is_set()


def test_a_place_is_given_back_once() -> None:
    slots = StreamSlots(per_process=2, per_game=2, per_client=5)
    first = slots.take("g", "a")
    slots.take("g", "a")
    first.give_back()
    first.give_back()
    assert slots.open == 1
    slots.take("g", "b")
    assert slots.open == 2


def test_check_refuses_as_take_would_and_ends_no_stream() -> None:
    slots = StreamSlots(per_process=3, per_game=10, per_client=10)
    greedy = [slots.take(f"g{i}", "greedy") for i in range(3)]
    slots.check("q", "newcomer")  # there would be room: greedy holds 3
    assert not any(slot.evicted.is_set() for slot in greedy)
    assert slots.open == 3
    slots.take("q", "newcomer")
    with pytest.raises(TooManyStreams, match="this process"):
        slots.check("r", "newcomer")  # greedy 2, the newcomer would hold 2: no room to make


def test_a_client_makes_room_a_few_times_then_once_per_wait() -> None:
    now = [0.0]
    slots = StreamSlots(per_process=20, per_game=20, per_client=20, clock=lambda: now[0])
    greedy = [slots.take(f"g{i}", "greedy") for i in range(20)]
    for _ in range(EVICTIONS_BURST):  # opened and closed at once, again and again
        slots.take("q", "churner").give_back()
        greedy.append(slots.take("g", "greedy"))  # the stream it ended reconnects
    with pytest.raises(TooManyStreams, match="this process"):
        slots.take("q", "churner")
    assert sum(slot.evicted.is_set() for slot in greedy) == EVICTIONS_BURST
    now[0] += RETRY_AFTER_SECONDS
    slots.take("q", "churner")
    assert sum(slot.evicted.is_set() for slot in greedy) == EVICTIONS_BURST + 1
