#!/usr/bin/env python3
"""An NBoard engine that plays a random legal Othello move: the smallest engine
`adjudicator-bot --protocol nboard` plays with (see docs/bots.md). Python 3, nothing to install.

    adjudicator-bot --server URL --key KEY --protocol nboard \
        --engine "python3 docs/examples/nboard_random.py" --seek '{"game": {"game": "reversi"}}'

It reads one command a line on its standard input and answers on its standard output, flushed
after every line: `nboard 2` and `set depth n` (it says its name); `set game <GGF>` (the whole
game: the start position `BO[…]` and the moves `B[f5]`, `W[pa]`, …); `move f5` (one more move,
its own included: `go` does not play); `ping n` → `pong n`; `go` → `=== f5`; `quit` → it exits.
Squares are Othello's: a1 the top-left corner, the column a letter, the row a number.
"""

import random
import re
import sys

DIRECTIONS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
MOVE = re.compile(r"(?<![A-Z])([BW])\[([^\]/]*)[^\]]*\]")  # B[f5/eval/time]; not PB[…]
BOARD = re.compile(r"BO\[\s*(\d+)\s+([^\]]*)\]")


def say(line: str) -> None:
    print(line, flush=True)


class Othello:
    """A position: the cells (row, column) → "B" or "W", and the colour to move."""

    def __init__(self, size: int = 8) -> None:
        self.size, self.turn = size, "B"
        half = size // 2
        self.cells = {(half - 1, half - 1): "W", (half, half): "W",
                      (half - 1, half): "B", (half, half - 1): "B"}  # fmt: skip

    def flips(self, row: int, col: int, color: str) -> list[tuple[int, int]]:
        if (row, col) in self.cells:
            return []
        flipped = []
        for dr, dc in DIRECTIONS:
            line, r, c = [], row + dr, col + dc
            while 0 <= r < self.size and 0 <= c < self.size and self.cells.get((r, c)) not in (
                None, color,
            ):  # fmt: skip
                line.append((r, c))
                r, c = r + dr, c + dc
            if line and 0 <= r < self.size and 0 <= c < self.size and self.cells.get((r, c)) == color:
                flipped += line
        return flipped

    def legal(self, color: str) -> list[tuple[int, int]]:
        cells = [(r, c) for r in range(self.size) for c in range(self.size)]
        return [(r, c) for r, c in cells if self.flips(r, c, color)]

    def play(self, square: str) -> None:
        """One move of the colour to move (``pa``: a pass)."""
        if not square.lower().startswith("pa"):
            col, row = ord(square[0].lower()) - ord("a"), int(square[1:]) - 1
            for cell in [*self.flips(row, col, self.turn), (row, col)]:
                self.cells[cell] = self.turn
        self.turn = "W" if self.turn == "B" else "B"


def from_ggf(text: str) -> Othello:
    """The position at the end of a GGF game."""
    game = Othello()
    board = BOARD.search(text)
    if board:
        size, rest = int(board[1]), "".join(board[2].split())
        game = Othello(size)
        game.cells = {divmod(i, size): "B" if mark == "*" else "W"
                      for i, mark in enumerate(rest[: size * size]) if mark in "*O"}  # fmt: skip
        game.turn = "B" if rest[size * size :].startswith("*") else "W"
        text = text[board.end() :]
    for color, square in MOVE.findall(text):
        game.turn = color
        game.play(square)
    return game


def main() -> None:
    game = Othello()
    for line in sys.stdin:
        command, _, rest = line.strip().partition(" ")
        if command == "set" and rest.startswith("game "):
            game = from_ggf(rest[len("game ") :])
        elif command == "set" and rest.startswith("depth"):
            say("set myname nboard-random")
        elif command == "move":
            game.play(rest.split("/")[0])
        elif command == "ping":
            say(f"pong {rest}")
        elif command == "go":
            moves = game.legal(game.turn)
            if not moves:  # the colour to move must pass
                say("=== PA")
                continue
            row, col = random.choice(moves)
            say(f"=== {chr(ord('a') + col)}{row + 1}")
        elif command == "quit":
            return


if __name__ == "__main__":
    main()
