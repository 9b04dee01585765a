"""What the Swiss's pairings are held to, checked by slow code of our own rather than by the
engine that made them: the rules' absolute criteria (FIDE Handbook C.04.1 and C.04.3, the
edition effective until 31 January 2026) and the publishing order (C.04.2); and random
tournaments to pair."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from app.league.events import Entrant, Pairing, Result

Pairer = Callable[[Sequence[Entrant], Sequence[Pairing], int, int], list[Pairing]]
GAME_RESULTS: tuple[Result, ...] = ("1-0", "0-1", "½-½")
WHITE, BLACK = 1, -1


def play(pairings: Sequence[Pairing], rng: random.Random) -> list[Pairing]:
    """The round's games with random results (draws too)."""
    return [
        p
        if p.seat2 is None
        else Pairing(p.round, p.board, p.seat1, p.seat2, rng.choice(GAME_RESULTS))
        for p in pairings
    ]


def random_field(rng: random.Random, count: int, rounds: int, withdrawals: int) -> list[Entrant]:
    """``count`` entrants, ``withdrawals`` of them withdrawing after a random round."""
    leaving = dict.fromkeys(rng.sample(range(1, count + 1), withdrawals), 0)
    for number in leaving:
        leaving[number] = rng.randrange(1, rounds)
    return [Entrant(n, f"id{n}", f"Player {n}", leaving.get(n)) for n in range(1, count + 1)]


def score(played: Sequence[Pairing], number: int) -> float:
    """Entrant ``number``'s points: a win or a bye one, a draw a half."""
    total = 0.0
    for p in played:
        if number in (p.seat1, p.seat2):
            total += p.points()[0 if p.seat1 == number else 1]
    return total


def colours(played: Sequence[Pairing], number: int) -> list[int]:
    """Entrant ``number``'s colours in the games they played, round by round (a bye or a round
    without a game has none: C.04.3 A.6 counts the games played)."""
    games = sorted((p for p in played if number in (p.seat1, p.seat2)), key=lambda p: p.round)
    return [WHITE if p.seat1 == number else BLACK for p in games if p.seat2 is not None]


def breaks_the_colour_rules(before: list[int], colour: int) -> bool:
    """Whether ``colour`` after the colours ``before`` breaks C.04.1 f or g: a colour difference
    beyond ±2 (or, after a history already beyond it, not brought back towards it), or the same
    colour three times in a row. (A.6.a's absolute colour preference is the colour that keeps
    them, so this is the same as an absolute preference refused.)"""
    after = [*before, colour]
    difference = abs(sum(after))
    return (difference > 2 and difference > abs(sum(before))) or (
        len(after) >= 3 and len(set(after[-3:])) == 1
    )


def topscorer(played: Sequence[Pairing], number: int, round_number: int, rounds: int) -> bool:
    """C.04.3 A.7: pairing the final round, a player with more than half the points possible."""
    return round_number == rounds and score(played, number) > (rounds - 1) / 2


def check_by_the_absolute_criteria(
    entrants: Sequence[Entrant], played: Sequence[Pairing], pairings: Sequence[Pairing], rounds: int
) -> None:
    """The contract and the absolute criteria: everyone still playing paired exactly once,
    nobody withdrawn, boards 1 to k; nobody meets anyone twice (C.1); at most one bye, exactly
    when the count is odd, and never a second one (C.2); and nobody's colours break C.04.1 f or
    g, but in the final round where one of the pair is a topscorer (C.3: only non-topscorers with
    the same absolute colour preference shall not meet)."""
    round_number = pairings[0].round
    playing = sorted(e.number for e in entrants if e.plays_in(round_number))
    seated = sorted(s for p in pairings for s in (p.seat1, p.seat2) if s is not None)
    met = {frozenset((p.seat1, p.seat2)) for p in played if p.seat2 is not None}
    had_bye = {p.seat1 for p in played if p.seat2 is None}
    byes = [p.seat1 for p in pairings if p.seat2 is None]
    assert seated == playing
    assert [p.board for p in pairings] == list(range(1, len(pairings) + 1))
    assert all(p.result == ("bye" if p.seat2 is None else None) for p in pairings)
    assert not [p for p in pairings if frozenset((p.seat1, p.seat2)) in met], "met before"
    assert len(byes) == len(playing) % 2
    assert not set(byes) & had_bye, "a second bye"
    for p in pairings:
        if p.seat2 is None:
            continue
        broken = [
            seat
            for seat, colour in ((p.seat1, WHITE), (p.seat2, BLACK))
            if breaks_the_colour_rules(colours(played, seat), colour)
        ]
        excepted = any(topscorer(played, s, round_number, rounds) for s in (p.seat1, p.seat2))
        assert not broken or excepted, f"round {round_number}: {p} breaks colours of {broken}"


def check_the_publishing_order(played: Sequence[Pairing], pairings: Sequence[Pairing]) -> None:
    """C.04.2 (Pairing, colour and publishing rules): the games are published by the score of
    the pair's higher ranked player (A.2: ranked by score, then number), then by the pair's
    total, then by the higher ranked player's number; the bye comes last."""
    keys = []
    for p in pairings:
        if p.seat2 is None:
            continue
        one, two = (score(played, p.seat1), -p.seat1), (score(played, p.seat2), -p.seat2)
        higher, lower = max(one, two), min(one, two)
        keys.append((higher[0], higher[0] + lower[0], higher[1]))
    assert keys == sorted(keys, reverse=True)
    assert all(p.seat2 is None for p in pairings[len(keys) :])


def may_meet(played: Sequence[Pairing], one: int, two: int, round_number: int, rounds: int) -> bool:
    """Whether two entrants may meet by the absolute criteria: they have not met (C.1) and some
    colours keep both within C.04.1 f and g, or one of them is a final round's topscorer (C.3)."""
    if any({p.seat1, p.seat2} == {one, two} for p in played):
        return False
    if topscorer(played, one, round_number, rounds) or topscorer(played, two, round_number, rounds):
        return True
    first, second = colours(played, one), colours(played, two)
    return any(
        not breaks_the_colour_rules(first, colour) and not breaks_the_colour_rules(second, -colour)
        for colour in (WHITE, BLACK)
    )


def pairable(
    entrants: Sequence[Entrant], played: Sequence[Pairing], round_number: int, rounds: int
) -> bool:
    """Whether any pairing of ``round_number`` meets the absolute criteria: a search through
    every pairing of the entrants still playing (exponential: for small fields only)."""
    had_bye = {p.seat1 for p in played if p.seat2 is None}

    def complete(rest: tuple[int, ...], bye_given: bool) -> bool:
        if not rest:
            return True
        first, others = rest[0], rest[1:]
        if not bye_given and first not in had_bye and complete(others, True):
            return True
        return any(
            may_meet(played, first, other, round_number, rounds)
            and complete(others[:i] + others[i + 1 :], bye_given)
            for i, other in enumerate(others)
        )

    playing = tuple(e.number for e in entrants if e.plays_in(round_number))
    return complete(playing, len(playing) % 2 == 0)
