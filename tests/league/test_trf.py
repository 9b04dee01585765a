"""The TRF-16 report: its fixed columns on a small event, and the Swiss's engine (gacrux's TRF
reader, ``trf2json``) reading it back, without a fault, to the same pairings and results."""

from __future__ import annotations

import random

import pytest
from gacrux.trf2json import trf2json

from app.league.berger import round_robin_round, round_robin_rounds
from app.league.events import Entrant, Pairing
from app.league.standings import standings
from app.league.swiss import TrfReader, pairing_report, swiss_round
from app.league.trf import trf16
from tests.league.reference import play, random_field

ENTRANTS = [
    Entrant(1, "a", "Ann Able"),
    Entrant(2, "b", "Bob Baker"),
    Entrant(3, "c", "Cy Cole"),
    Entrant(4, "d", "Di Dunn", withdrawn=1),
    Entrant(5, "e", "Ed Eve"),
]
PLAYED = [
    Pairing(1, 1, 1, 4, "1-0"),
    Pairing(1, 2, 5, 2, "½-½"),
    Pairing(1, 3, 3, None, "bye"),
    Pairing(2, 1, 3, 1, "0-1"),
    Pairing(2, 2, 2, 5, None),  # unfinished
]
# Columns, 1-based as TRF-16 counts them: start number 5-8, name 15-47, points 81-84, rank
# 86-89, round 1 in 92-99 (opponent 92-95, colour 97, result 99), round 2 in 102-109. The lines
# are as long as the format makes them.
REPORT_LINES = [
    "012 Club Swiss",
    "062 5",
    "092 Swiss system (FIDE Dutch, C.04.3)",
    "001    1      Ann Able                                                           2.0    1     4 w 1     3 b 1",  # noqa: E501
    "001    2      Bob Baker                                                          0.5    3     5 b =     5 w",  # noqa: E501
    "001    3      Cy Cole                                                            1.0    2  0000 - U     1 w 0",  # noqa: E501
    "001    4      Di Dunn                                                            0.0    5     1 b 0  0000 - Z",  # noqa: E501
    "001    5      Ed Eve                                                             0.5    3     2 w =     2 b",  # noqa: E501
    "XXR 5",
    "XXC white1",
]
REPORT = "\n".join(REPORT_LINES) + "\n"


def test_the_report_has_trf16s_columns() -> None:
    report = trf16("Club Swiss", ENTRANTS, PLAYED, "swiss", 5)
    assert report == REPORT
    ann = report.splitlines()[3]
    assert (ann[0:3], ann[4:8], ann[14:47].rstrip(), ann[80:84], ann[85:89]) == (
        "001",
        "   1",
        "Ann Able",
        " 2.0",
        "   1",
    )
    assert (ann[91:95], ann[96], ann[98]) == ("   4", "w", "1")
    assert (ann[101:105], ann[106], ann[108]) == ("   3", "b", "1")


def test_ranks_and_points_are_the_standings() -> None:
    lines = REPORT.splitlines()[3:8]
    rows = {row.number: row for row in standings(ENTRANTS, PLAYED, "swiss")}
    for line in lines:
        row = rows[int(line[4:8])]
        assert (float(line[80:84]), int(line[85:89])) == (row.points, row.rank)


def test_a_long_name_is_cut_and_kept_on_its_line() -> None:
    entrants = [Entrant(1, "a", "A\tvery\nlong name " + "x" * 40), Entrant(2, "b", "B")]
    line = trf16("T", entrants, [], "round_robin", 1).splitlines()[3]
    assert line[14:47] == ("A very long name " + "x" * 40)[:33]
    assert len(line.rstrip()) <= 89


def test_a_round_robins_byes_say_which_kind_they_are() -> None:
    """Five entrants on the tables of six (1-6, 2-5, 3-4 / 6-4, 5-3, 1-2 / 2-6, 3-1, 4-5 /
    6-5, 1-4, 2-3 / 3-6, 4-2, 5-1): the extra number's partner has a pairing-allocated bye (U);
    entrant 5 withdraws after round 1, and whoever the tables then pair with 5 has a full-point
    bye (F); 5 has no game (Z)."""
    entrants = [Entrant(n, str(n), f"P{n}", 1 if n == 5 else None) for n in range(1, 6)]
    played = [
        p if p.seat2 is None else Pairing(p.round, p.board, p.seat1, p.seat2, "1-0")
        for r in range(1, 6)
        for p in round_robin_round(entrants, r)
    ]
    lines = trf16("RR", entrants, played, "round_robin", 5).splitlines()[3:8]
    codes = {
        (int(line[4:8]), r): line[81 + 10 * r : 89 + 10 * r].strip()
        for line in lines
        for r in range(1, 6)
    }
    byes = {key: code for key, code in codes.items() if code.startswith("0000")}
    assert byes == {
        (1, 1): "0000 - U",
        (4, 2): "0000 - U",
        (3, 2): "0000 - F",
        (2, 3): "0000 - U",
        (4, 3): "0000 - F",
        (3, 5): "0000 - U",
        (1, 5): "0000 - F",
        **{(5, r): "0000 - Z" for r in range(2, 6)},
    }


def read_back_gacrux(report: str) -> dict[tuple[int, int], tuple[int, str, str]]:
    """(entrant, round): (opponent or 0, colour, TRF result) as gacrux reads the report; its
    result letters are the score system's (W, D, L; P the pairing-allocated bye, Z none)."""
    reader = trf2json()
    reader.parse_file(report, 0)
    assert reader.chessjson["status"] == {"code": 0, "error": []}
    letter = {"W": "1", "D": "=", "L": "0", "P": "U", "Z": "Z"}
    codes: dict[tuple[int, int], tuple[int, str, str]] = {}
    for game in reader.get_tournament(1)["gameList"]:
        white, black, r = game["white"], game["black"], game["round"]
        if black is None:
            codes[white["cid"], r] = (0, "-", letter[white["result"]])
        else:
            codes[white["cid"], r] = (black["cid"], "w", letter[white["result"]])
            codes[black["cid"], r] = (white["cid"], "b", letter[black["result"]])
    return codes


def expected(
    entrants: list[Entrant], played: list[Pairing], rounds: int
) -> dict[tuple[int, int], tuple[int, str, str]]:
    """Each entrant's round as TRF-16 codes it, read off the pairings."""
    codes: dict[tuple[int, int], tuple[int, str, str]] = {}
    for p in played:
        if p.seat2 is None:
            codes[p.seat1, p.round] = (0, "-", "U")
            continue
        first, second = p.points()
        mark = {1.0: "1", 0.5: "=", 0.0: "0"}
        codes[p.seat1, p.round] = (p.seat2, "w", mark[first])
        codes[p.seat2, p.round] = (p.seat1, "b", mark[second])
    for e in entrants:
        for r in range(1, rounds + 1):
            codes.setdefault((e.number, r), (0, "-", "Z"))
    return codes


@pytest.mark.parametrize("seed", range(6))
def test_the_engine_reads_a_swiss_back_to_its_pairings_and_results(seed: int) -> None:
    rng = random.Random(seed)
    count, rounds = rng.randrange(6, 25), 5
    entrants = random_field(rng, count, rounds, withdrawals=rng.randrange(3))
    played: list[Pairing] = []
    for r in range(1, rounds + 1):
        played += play(swiss_round(entrants, played, r, rounds), rng)
    report = trf16("Read back", entrants, played, "swiss", rounds)
    assert read_back_gacrux(report) == expected(entrants, played, rounds)


def test_the_engine_reads_a_double_round_robin_back() -> None:
    rng = random.Random(7)
    entrants = [Entrant(n, str(n), f"P{n}") for n in range(1, 7)]
    rounds = round_robin_rounds(6, double=True)
    played = [
        p
        for r in range(1, rounds + 1)
        for p in play(round_robin_round(entrants, r, double=True), rng)
    ]
    report = trf16("DRR", entrants, played, "double_round_robin", rounds)
    assert read_back_gacrux(report) == expected(entrants, played, rounds)


@pytest.mark.parametrize("seed", range(4))
def test_the_swiss_reads_the_report_as_gacruxs_own_reader_does(seed: int) -> None:
    """``TrfReader`` (gacrux's reader with its game lookup indexed) reads a Swiss's report, with
    byes and withdrawals, to the same tournament as gacrux's own reader."""
    rng = random.Random(seed)
    count, rounds = rng.randrange(6, 25), 5
    entrants = random_field(rng, count, rounds, withdrawals=rng.randrange(3))
    played: list[Pairing] = []
    for r in range(1, rounds + 1):
        played += play(swiss_round(entrants, played, r, rounds), rng)
        report = pairing_report(entrants, played, min(r + 1, rounds), rounds)
        theirs, ours = trf2json(), TrfReader()
        theirs.parse_file(report, 0)
        ours.parse_file(report, 0)
        assert ours.chessjson == theirs.chessjson
