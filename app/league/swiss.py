"""Swiss rounds by the FIDE Dutch system (Handbook C.04.3, the edition in force since 1 February
2026), paired by gacrux 1.11.65 (Otto Milvang's TieBreakServer, MIT, pure Python on networkx),
in-process, from the tournament's TRF-16 report. FIDE's endorsed bbpPairings 6.0.0 (the same
edition) pairs every round measured as it does (``bench/RESULTS.md``, Swiss section).

**What the engine reads.** The report ``app.league.trf`` writes (every round played: opponent,
colour, result; ``U`` for a pairing-allocated bye, ``Z`` for a round without a game), with the
lines pairing programs read beside TRF-16: ``XXR`` the number of rounds (the last round's
exceptions for topscorers, C.04.3 A.7, depend on it), ``XXC white1`` (the top seed has White,
i.e. seat 1, in round 1: C.04.3 E.5's initial colour; gacrux skips the line and is told it as
its command line's ``-t w``) and ``XXZ`` (JaVaFo's extension: the entrants not to be paired,
here those withdrawn before the round). The engine works out the rest from it, as the rules
define it: scores, colour differences and preferences (A.6), floats (A.4), byes had (C.2), who
has met (C.1). Pairing numbers follow the entrants' numbers (no ratings: the seeding order is
the initial order), counted among those paired (``first_round``).

**Round 1** is worked out here (``first_round``), as the engine pairs it (the tests compare the
two): it is fixed by the rules, and the engine takes 0.7 s for it at 500 entrants.

**What comes back.** The round's games in the handbook's publishing order (C.04.2: by the higher
ranked player's score, then the pair's total, then the higher ranked player's number), seat 1
White; then the bye, which scores one point. The engine's "no legal pairing" (C.04.3 1.9.3: the
arbiter decides) is a ``LeagueError``.

**Checked before it is answered.** A round is returned only if it pairs every entrant still
playing exactly once, no two who have met before, and gives at most one bye, to someone who has
not had one; otherwise ``LeagueError`` says the round cannot be paired by the rules (too few
rounds' worth of new opponents left, say), which the engine says first.

**Cost.** At 500 entrants, on one core, medians: 0.8 s (round 2), 1.2 s (round 5), 1.9 s
(round 9), against py4swiss's 6.5, 5.7 and 4.0 s in the same run (``bench/pairing.py``,
``bench/RESULTS.md``); reading the report 16 to 25 ms of it (``TrfReader``). A caller serving
requests runs it off the event loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gacrux.gacruxexeptions import GacruxNoLegalPairing
from gacrux.pairingdutch import pairing_dutch
from gacrux.trf2json import trf2json

from app.league.events import (
    Entrant,
    LeagueError,
    Pairing,
    check_entrants,
    check_next_round,
    check_played,
)
from app.league.standings import points_of
from app.league.trf import trf16


def pairing_report(
    entrants: Sequence[Entrant], played: Sequence[Pairing], round_number: int, rounds: int
) -> str:
    """The TRF a Dutch pairing program reads to pair ``round_number``: the tournament's TRF-16
    report and, if anyone has withdrawn before the round, ``XXZ`` with their numbers."""
    text = trf16("Swiss", entrants, played, "swiss", rounds)
    absent = [e.number for e in entrants if not e.plays_in(round_number)]
    return text + (f"XXZ {' '.join(map(str, absent))}\n" if absent else "")


def swiss_round(
    entrants: Sequence[Entrant], played: Sequence[Pairing], round_number: int, rounds: int
) -> list[Pairing]:
    """Round ``round_number`` (of ``rounds``) of a Swiss by the Dutch system, given every pairing
    of the rounds before it (all finished): its games in the publishing order, then the bye
    (``result`` ``"bye"``) if the count of entrants still playing is odd."""
    check_entrants(entrants)
    check_played(entrants, played)
    if round_number > rounds:
        raise LeagueError(f"this Swiss has {rounds} rounds")
    check_next_round(played, round_number)
    playing = [e.number for e in entrants if e.plays_in(round_number)]
    if len(playing) < 2:
        raise LeagueError("a round needs two entrants or more")
    if round_number == 1:
        pairings = first_round(playing)
    else:
        pairings = engine_round(entrants, played, round_number, rounds)
    check_round(playing, played, pairings)
    return pairings


def engine_round(
    entrants: Sequence[Entrant], played: Sequence[Pairing], round_number: int, rounds: int
) -> list[Pairing]:
    """Round ``round_number`` as gacrux's Dutch engine pairs it, unchecked: its games in the
    publishing order (``publishing_order``), then the bye."""
    # gacrux's pairing checker (pairingchecker.py -p) runs these stages from its command line:
    # read the TRF (trf2json), name the system, pair the round; here they run on the text.
    reader = TrfReader()
    reader.parse_file(pairing_report(entrants, played, round_number, rounds), 0)
    status = reader.chessjson["status"]
    if status["code"] > 400:  # the reader's faults (its checker's threshold): our report's
        raise RuntimeError(f"gacrux cannot read the report: {status['error']}")
    tournament = reader.get_tournament(1)
    tournament["pairingSystem"] = ["dutch"]
    # XXC white1 is not read by gacrux (a no-op there): the initial colour is given as its
    # command line gives it (-t w), rather than drawn.
    engine = pairing_dutch(
        tournament, round_number, {"experimental": [], "verbose": 0, "top_color": "w"}
    )
    try:
        brackets = engine.compute_pairing(False)
    except GacruxNoLegalPairing as error:
        raise LeagueError(f"the round cannot be paired by the rules ({error})") from error
    pairs = [(pair["w"], pair["b"]) for bracket in brackets for pair in bracket["pairs"]]
    games = publishing_order([(w, b) for w, b in pairs if w and b], played, len(entrants))
    byes = [w or b for w, b in pairs if not (w and b)]
    return [Pairing(round_number, board, *game) for board, game in enumerate(games, 1)] + [
        Pairing(round_number, board, bye, None, "bye")
        for board, bye in enumerate(byes, len(games) + 1)
    ]


class TrfReader(trf2json):  # type: ignore[misc]  # gacrux ships no types
    """gacrux's TRF reader, its one quadratic step made linear: ``append_result`` finds the game
    already read for a round and White (the other player's line codes the same game) by a scan
    of every game read so far; here by a dict of them. The same games come out (the tests
    compare the two readers), in a fraction of the time past a few rounds of hundreds of
    entrants. (The scan's other callers, which remove games as they go, read records our
    report does not write: forfeits of team matches, 330 and team lines.)"""

    def __init__(self) -> None:
        super().__init__()
        self.read: dict[tuple[int, int, int], dict[str, Any]] = {}

    def append_result(self, results: list[dict[str, Any]], result: dict[str, Any]) -> int:
        key = (id(results), result["round"], self.get_result_cid(result, "white"))
        elem = self.read.get(key)
        if elem is None:
            rid: int = super().append_result([], result)
            results.append(result)
            self.read[key] = result
            return rid
        for colour in ("white", "black"):
            mine = self.get_result_res(result, colour, None)
            missing = self.get_result_res(elem, colour, None) is None
            if missing and mine is not None and elem[colour] is not None:
                elem[colour]["result"] = mine
        found: int = elem["id"]
        return found


def publishing_order(
    games: Sequence[tuple[int, int]], played: Sequence[Pairing], count: int
) -> list[tuple[int, int]]:
    """The games (White, Black) in the order C.04.2 publishes them: by the score of the pair's
    higher ranked player (A.2: by score, then pairing number), then the pair's total, then the
    higher ranked player's number. (gacrux's own board numbers break the first tie by the
    pair's lower number, which need not be its higher ranked player's.)"""
    points = points_of(count, played)

    def key(game: tuple[int, int]) -> tuple[float, float, int]:
        higher, lower = sorted(game, key=lambda n: (-points[n], n))
        return (-points[higher], -(points[higher] + points[lower]), higher)

    return sorted(games, key=key)


def first_round(playing: Sequence[int]) -> list[Pairing]:
    """Round 1, as the Dutch system pairs it with every score 0 and no colours yet (what the engine
    answers, worked out here because the engine weighs every pair of the one scoregroup: 0.7 s at
    500 entrants, for an answer the rules fix). The top half of the pairing order (S1) meets the
    bottom half (S2) in order (C.04.3 B.1, B.6: the first candidate); E.5 gives the higher ranked
    player the initial colour (White) when their pairing number is odd, Black when it is even; an
    odd count's last entrant has the bye (C.2, C.5: the lowest ranked player). The pairing number
    E.5 reads is the entrant's place among those paired (an entrant absent from round 1 hands theirs
    down to those behind: gacrux's numbering, and bbpPairings 6.0.0's given the absence as a round-1
    ``Z``; py4swiss read the entrant's number). The boards are already in the publishing order
    (every score 0: by the higher ranked player's number)."""
    half = len(playing) // 2
    games = [
        (top, bottom) if place % 2 else (bottom, top)
        for place, (top, bottom) in enumerate(
            zip(playing[:half], playing[half : 2 * half], strict=True), 1
        )
    ]
    pairings = [Pairing(1, board, *game) for board, game in enumerate(games, 1)]
    if len(playing) % 2:
        pairings.append(Pairing(1, half + 1, playing[-1], None, "bye"))
    return pairings


def check_round(
    playing: Sequence[int], played: Sequence[Pairing], pairings: Sequence[Pairing]
) -> None:
    """The round pairs each entrant still ``playing`` once, no two who have met, and gives at
    most one bye, to someone without one; else it cannot be paired by the rules."""
    seated = [seat for p in pairings for seat in (p.seat1, p.seat2) if seat is not None]
    met = {frozenset((p.seat1, p.seat2)) for p in played if p.seat2 is not None}
    had_bye = {p.seat1 for p in played if p.seat2 is None}
    byes = [p.seat1 for p in pairings if p.seat2 is None]
    if sorted(seated) != sorted(playing):
        raise LeagueError("the round cannot be paired: not every entrant could be paired once")
    if any(frozenset((p.seat1, p.seat2)) in met for p in pairings if p.seat2 is not None):
        raise LeagueError("the round cannot be paired without two entrants meeting again")
    if len(byes) > 1 or set(byes) & had_bye:
        raise LeagueError("the round cannot be paired without a second bye")
