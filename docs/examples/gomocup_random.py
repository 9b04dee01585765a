#!/usr/bin/env python3
"""A Gomocup brain that plays a random empty cell: the smallest engine `adjudicator-bot
--protocol gomocup` plays with (see docs/bots.md). Python 3, nothing to install.

    adjudicator-bot --server URL --key KEY --protocol gomocup \
        --engine "python3 docs/examples/gomocup_random.py" --seek '{"game": {"game": "gomoku"}}'

It reads one command a line on its standard input and answers on its standard output, flushed
after every line: START/RECTSTART/RESTART → OK; INFO → nothing; BEGIN, TURN x,y and
BOARD … DONE → its move x,y (x the column, y the row, from 0 at the top left); SWAP2BOARD … DONE
→ three stones, or SWAP, or one or two stones; ABOUT → its name; END → it exits. It knows no
rule: it plays any empty cell, and the service refuses what the rule forbids (a renju
forbidden point) — the bot then asks it again.
"""

import random
import sys


def say(line: str) -> None:
    print(line, flush=True)


def read() -> str:
    line = sys.stdin.readline()
    if not line:  # the bot closed its end: nothing more will come
        raise SystemExit(0)
    return line.strip()


def cells_until_done() -> list[tuple[int, int, int]]:
    """The lines `x,y` or `x,y,who` until DONE (who: 1 own, 2 the opponent's)."""
    cells = []
    while (line := read()).upper() != "DONE":
        numbers = [int(part) for part in line.split(",")]
        cells.append((numbers[0], numbers[1], numbers[2] if len(numbers) > 2 else 0))
    return cells


def main() -> None:
    width = height = 0
    taken: set[tuple[int, int]] = set()

    def free(count: int) -> list[tuple[int, int]]:
        empty = [(x, y) for x in range(width) for y in range(height) if (x, y) not in taken]
        return random.sample(empty, count)

    def play() -> None:
        (cell,) = free(1)  # never asked on a full board: the game is over then
        taken.add(cell)
        say(f"{cell[0]},{cell[1]}")

    while True:
        line = read()
        word, _, rest = line.partition(" ")
        word = word.upper()
        if word == "START":
            width = height = int(rest)
            taken = set()
            say("OK")
        elif word == "RECTSTART":
            width, height = (int(part) for part in rest.split(","))
            taken = set()
            say("OK")
        elif word == "RESTART":
            taken = set()
            say("OK")
        elif word == "INFO":
            pass  # time limits and the rule: a random mover needs none of them
        elif word == "BEGIN":
            play()
        elif word == "TURN":
            x, y = (int(part) for part in rest.split(","))
            taken.add((x, y))
            play()
        elif word == "BOARD":
            taken = {(x, y) for x, y, _ in cells_until_done()}
            play()
        elif word == "SWAP2BOARD":
            taken = {(x, y) for x, y, _ in cells_until_done()}
            if not taken:  # open the game: three stones
                say(" ".join(f"{x},{y}" for x, y in free(3)))
            elif random.random() < 1 / 3:
                say("SWAP")  # take Black: the other player moves White now
            else:  # move White (one stone), or after three place two more and let them choose
                count = 1 if len(taken) > 3 or random.random() < 0.5 else 2
                say(" ".join(f"{x},{y}" for x, y in free(count)))
        elif word == "ABOUT":
            say('name="gomocup-random", version="1.0", author="adjudicator docs"')
        elif word == "END":
            return
        elif line:
            say(f"UNKNOWN {word}")


if __name__ == "__main__":
    main()
