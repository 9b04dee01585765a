"""Slow, obviously-right reference implementations the engines are checked against."""

from __future__ import annotations

from collections.abc import Iterator

DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]


# --- square names, as the contract writes them ---------------------------------------------------


def othello_square(row: int, col: int) -> str:
    """Othello's name of a cell: its column's letter, its row counted from 1 at the top."""
    return "abcdefghijklmnopqrstuvwxyz"[col] + str(row + 1)


# --- Reversi: walk each of the 8 directions from the cell, cell by cell -------------------------


def reversi_flips(grid: list[str], row: int, col: int, color: str) -> list[tuple[int, int]]:
    """Stones flipped by ``color`` at (row, col); [] if illegal (incl. occupied)."""
    if grid[row][col] != ".":
        return []
    other = "W" if color == "B" else "B"
    rows, cols = len(grid), len(grid[0])
    flipped: list[tuple[int, int]] = []
    for dr, dc in DIRECTIONS:
        r, c = row + dr, col + dc
        line = []
        while 0 <= r < rows and 0 <= c < cols and grid[r][c] == other:
            line.append((r, c))
            r, c = r + dr, c + dc
        if line and 0 <= r < rows and 0 <= c < cols and grid[r][c] == color:
            flipped.extend(line)
    return sorted(flipped)


def reversi_moves(grid: list[str], color: str) -> list[tuple[int, int]]:
    return [
        (r, c)
        for r in range(len(grid))
        for c in range(len(grid[0]))
        if reversi_flips(grid, r, c, color)
    ]


def reversi_play(grid: list[str], row: int, col: int, color: str) -> list[str]:
    cells = [list(line) for line in grid]
    for r, c in [(row, col), *reversi_flips(grid, row, col, color)]:
        cells[r][c] = color
    return ["".join(line) for line in cells]


# --- Tic-tac-toe ----------------------------------------------------------------------------------


def has_k_in_row(grid: tuple[str, ...], mark: str, k: int) -> bool:
    """Scan every cell and direction for k consecutive ``mark``s."""
    n = len(grid)
    for r in range(n):
        for c in range(n):
            for dr, dc in [(0, 1), (1, 0), (1, 1), (1, -1)]:
                if all(
                    0 <= r + i * dr < n
                    and 0 <= c + i * dc < n
                    and grid[r + i * dr][c + i * dc] == mark
                    for i in range(k)
                ):
                    return True
    return False


def reachable_positions(n: int, k: int) -> set[tuple[str, ...]]:
    """Every position of every legal game, by playing all games forward from the empty board."""
    seen: set[tuple[str, ...]] = set()

    def play(grid: tuple[str, ...], mark: str) -> None:
        if grid in seen:
            return
        seen.add(grid)
        if has_k_in_row(grid, "X", k) or has_k_in_row(grid, "O", k):
            return
        for r in range(n):
            for c in range(n):
                if grid[r][c] == ".":
                    line = grid[r][:c] + mark + grid[r][c + 1 :]
                    play((*grid[:r], line, *grid[r + 1 :]), "O" if mark == "X" else "X")

    play(tuple("." * n for _ in range(n)), "X")
    return seen


def reachable_backward(grid: tuple[str, ...], k: int, memo: dict[tuple[str, ...], bool]) -> bool:
    """Un-play the last mover's marks one at a time until the board is empty.

    A position is reachable iff it is empty, or counts fit and some mark of the last mover, taken
    back, leaves a reachable position in which nobody had yet won.
    """
    if grid in memo:
        return memo[grid]
    text = "".join(grid)
    x, o = text.count("X"), text.count("O")
    if x == o == 0:
        return True
    if x not in (o, o + 1):
        memo[grid] = False
        return False
    last = "X" if x == o + 1 else "O"
    result = False
    for r, line in enumerate(grid):
        for c, mark in enumerate(line):
            if mark != last:
                continue
            before = (*grid[:r], line[:c] + "." + line[c + 1 :], *grid[r + 1 :])
            if has_k_in_row(before, "X", k) or has_k_in_row(before, "O", k):
                continue
            if reachable_backward(before, k, memo):
                result = True
                break
        if result:
            break
    memo[grid] = result
    return result


def all_boards(n: int) -> Iterator[tuple[str, ...]]:
    """Every n × n board over X, O and '.' (3 ** (n * n) of them)."""
    cells = n * n
    for code in range(3**cells):
        chars = []
        for _ in range(cells):
            code, digit = divmod(code, 3)
            chars.append(".XO"[digit])
        yield tuple("".join(chars[r * n : (r + 1) * n]) for r in range(n))
