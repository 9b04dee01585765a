"""The independent Dutch system the Swiss is checked against: py4swiss, reading the tournament as
the TRF-16 report ``app.league.trf`` writes (plus ``XXZ``, JaVaFo's line for the players not
to be paired: the withdrawn), and random tournaments to pair."""

from __future__ import annotations

import random
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from py4swiss.engines import DutchEngine
from py4swiss.trf import TrfParser

from app.league.events import Entrant, Pairing, Result
from app.league.trf import trf16

Pairer = Callable[[Sequence[Entrant], Sequence[Pairing], int, int], list[Pairing]]
GAME_RESULTS: tuple[Result, ...] = ("1-0", "0-1", "½-½")


def pairing_input(
    entrants: Sequence[Entrant], played: Sequence[Pairing], round_number: int, rounds: int
) -> str:
    """The TRF a pairing program reads to pair ``round_number``."""
    text = trf16("Swiss", entrants, played, "swiss", rounds)
    absent = [e.number for e in entrants if not e.plays_in(round_number)]
    return text + (f"XXZ {' '.join(map(str, absent))}\n" if absent else "")


def py4swiss_round(
    entrants: Sequence[Entrant], played: Sequence[Pairing], round_number: int, rounds: int
) -> list[Pairing]:
    """Round ``round_number`` as py4swiss's Dutch engine pairs it: its games in its order, then
    the bye."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "swiss.trf"
        path.write_text(pairing_input(entrants, played, round_number, rounds), encoding="utf-8")
        answer = DutchEngine.generate_pairings(TrfParser.parse(path, strict=True))
    games = [(p.white, p.black) for p in answer if p.white and p.black]
    byes = [p.white or p.black for p in answer if not (p.white and p.black)]
    return [Pairing(round_number, board, *game) for board, game in enumerate(games, 1)] + [
        Pairing(round_number, board, bye, None, "bye")
        for board, bye in enumerate(byes, len(games) + 1)
    ]


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
