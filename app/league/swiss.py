"""Swiss rounds by the FIDE Dutch system (Handbook C.04.3), paired by ``caissify-pairings``: this
module turns a tournament's entrants and played rounds into the library's input, and its answer
into the next round's pairings.

**What the library is told.** Each entrant still playing (not withdrawn before the round) with:
their number as pairing number and start number (no ratings: the seeding order is the initial
order); their score; their colour history, White for each game they sat in seat 1 and Black for
each in seat 2 (byes are no game and have no colour, as C.04.3's colour rules count only played
games); their float history, a round at a time (C.04.3 A.4: after a game between different
scores the higher one floated down and the lower one up; a bye, or a round not played, is a
downfloat); how many byes they have had (a pairing-allocated bye is given once at most); and
every pair who have played each other (they meet once). The initial colour (C.04.3 E.5: the
colour the top seed has in round 1) is White, i.e. seat 1.

**What comes back.** The round's pairings in the library's board order, seat 1 White, the
bye last; a bye scores one point.

**Where the library is wrong, or slow** (``tests/league/test_swiss.py`` pins each case with the
smallest example found, against py4swiss, an independent Dutch engine): its colour allocation
ranks two players by pairing number alone where C.04.3 (E.4, by A.2's order) ranks them by
score first; its board order is not always the handbook's publishing order (by the higher
ranked player's score, then the pair's total); now and then it floats a scoregroup's players
down to give the bye to a lower score where py4swiss pairs the group within itself. It costs
seconds a round past about 100 entrants (minutes at 500: pure-Python matching); on some
histories it leaves entrants unpaired though a complete pairing exists, and on others its
last-resort backtracking search runs for minutes, where py4swiss answers at once.

**Checked before it is answered.** Whatever the library answers, a round is returned only if
it pairs every entrant still playing exactly once, no two who have met before, and gives at
most one bye, to someone who has not had one; otherwise ``LeagueError`` says the round cannot
be paired: by the rules (too few rounds' worth of new opponents left), or by the library (the
case above).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import caissify_pairings

from app.league.events import (
    Entrant,
    LeagueError,
    Pairing,
    check_entrants,
    check_next_round,
    check_played,
)

# The colour each seat plays in the Dutch system's colour history.
SEAT_COLOUR = {1: "white", 2: "black"}


def scores_by_round(count: int, played: Sequence[Pairing], rounds: int) -> list[list[float]]:
    """``scores[number][r]``: entrant ``number``'s score after round r (r = 0: before round 1;
    row 0 is nobody)."""
    gained = [[0.0] * (rounds + 1) for _ in range(count + 1)]
    for pairing in played:
        first, second = pairing.points()
        gained[pairing.seat1][pairing.round] += first
        if pairing.seat2 is not None:
            gained[pairing.seat2][pairing.round] += second
    for row in gained:
        for r in range(1, rounds + 1):
            row[r] += row[r - 1]
    return gained


def library_players(
    entrants: Sequence[Entrant], played: Sequence[Pairing], round_number: int
) -> list[dict[str, Any]]:
    """The entrants paired in ``round_number``, each as the library's player record."""
    before = round_number - 1
    scores = scores_by_round(len(entrants), played, before)
    by_round: dict[tuple[int, int], Pairing] = {}
    for pairing in played:
        by_round[pairing.round, pairing.seat1] = pairing
        if pairing.seat2 is not None:
            by_round[pairing.round, pairing.seat2] = pairing
    players = []
    for entrant in entrants:
        if not entrant.plays_in(round_number):
            continue
        number = entrant.number
        colours: list[str] = []
        floats: list[str] = []
        byes = 0
        for r in range(1, round_number):
            game = by_round.get((r, number))
            if game is None or game.seat2 is None:
                byes += 0 if game is None else 1
                floats.append("down")  # a round without a game is a downfloat (C.04.3 A.4.b)
                continue
            seat, opponent = (1, game.seat2) if game.seat1 == number else (2, game.seat1)
            colours.append(SEAT_COLOUR[seat])
            mine, theirs = scores[number][r - 1], scores[opponent][r - 1]
            floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
        players.append(
            {
                "id": number,
                "name": entrant.name,
                "score": scores[number][before],
                "rating": 0,
                "title": "",
                "starting_number": number,
                "pairing_number": number,
                "color_hist": colours,
                "float_history": floats,
                "bye_count": byes,
                "forfeit_win_count": 0,
            }
        )
    return players


def swiss_round(
    entrants: Sequence[Entrant], played: Sequence[Pairing], round_number: int, rounds: int
) -> list[Pairing]:
    """Round ``round_number`` (of ``rounds``) of a Swiss by the Dutch system, given every pairing
    of the rounds before it (all finished): its games in the library's board order, then the bye
    (``result`` ``"bye"``) if the count of entrants still playing is odd."""
    check_entrants(entrants)
    check_played(entrants, played)
    if round_number > rounds:
        raise LeagueError(f"this Swiss has {rounds} rounds")
    check_next_round(played, round_number)
    players = library_players(entrants, played, round_number)
    if len(players) < 2:
        raise LeagueError("a round needs two entrants or more")
    met = {(p.seat1, p.seat2) for p in played if p.seat2 is not None}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the library logs its fallbacks; the check below judges
        answer = caissify_pairings.generate_pairings(
            "dutch", players, met, round_number, rounds, initial_color="white"
        )
    pairings = []
    for board, row in enumerate(sorted(answer, key=lambda row: int(row["table"])), 1):
        black = row.get("black_id")
        seat2 = None if black is None else int(black)
        pairings.append(
            Pairing(
                round_number, board, int(row["white_id"]), seat2, "bye" if seat2 is None else None
            )
        )
    check_round(players, met, pairings)
    return pairings


def check_round(
    players: Sequence[dict[str, Any]], met: set[tuple[int, int]], pairings: Sequence[Pairing]
) -> None:
    """The round pairs each player once, no two who have met, and gives at most one bye, to
    someone without one; else it cannot be paired by the rules."""
    seated = [seat for p in pairings for seat in (p.seat1, p.seat2) if seat is not None]
    had_bye = {player["id"] for player in players if player["bye_count"]}
    byes = [p.seat1 for p in pairings if p.seat2 is None]
    if sorted(seated) != sorted(player["id"] for player in players):
        raise LeagueError("the round cannot be paired: not every entrant could be paired once")
    if any((p.seat1, p.seat2) in met or (p.seat2, p.seat1) in met for p in pairings):
        raise LeagueError("the round cannot be paired without two entrants meeting again")
    if len(byes) > 1 or set(byes) & had_bye:
        raise LeagueError("the round cannot be paired without a second bye")
