// A board on the page: a grid of cells (the live game's are buttons, clicked, or played from
// the keyboard with the arrow keys and Enter; a checked game's are read only, explored with the
// arrow keys; a checked position's legal moves are buttons among them), each drawn by the
// game's kind, with the last move and the kind's highlights marked and said in its label;
// framed by its coordinates, the column letters and row numbers of its square names, where it
// has them.
import { columnName, hasNames, rowNumber, squareName } from "./squares.js";

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

// A new grid in `grid` (a role="grid" element, alone in its .board-box) for the game's board;
// play(row, col) is the click of a cell that playable(row, col) says may be played (every cell
// unless it is given), and without it the board is read only.
export function buildBoard(grid, game, kind, play = null, playable = () => true) {
  grid.replaceChildren();
  grid.dataset.game = game.kind;
  frame(grid.parentElement, game, kind);
  for (let row = 0; row < game.height; row++) {
    const line = document.createElement("div");
    line.setAttribute("role", "row");
    for (let col = 0; col < game.width; col++) {
      const played = play && playable(row, col);
      const cell = document.createElement(played ? "button" : "div");
      if (played) {
        cell.type = "button";
        cell.addEventListener("click", () => play(row, col));
      }
      cell.className = "cell";
      cell.dataset.row = row;
      cell.dataset.col = col;
      cell.setAttribute("role", "gridcell");
      cell.tabIndex = row === 0 && col === 0 ? 0 : -1;
      cell.addEventListener("keydown", (event) => moveFocus(event, grid, game));
      line.append(cell);
    }
    grid.append(line);
  }
}

// The coordinates around the board, as its square names have them: the column letters above
// and below it, the row numbers on both sides (Othello's from the top, the others' from the
// bottom); none on a board without names. Hidden from assistive technology: each cell's label
// says its square. The box sizes the cells (style.css): --cols and --rows are the board's.
function frame(box, game, kind) {
  box.querySelectorAll(".coords").forEach((strip) => strip.remove());
  box.style.setProperty("--cols", game.width);
  box.style.setProperty("--rows", game.height);
  const named = hasNames(game.width);
  box.classList.toggle("named", named);
  if (!named) return;
  const strip = (side, labels) => {
    const element = document.createElement("div");
    element.className = `coords ${side}`;
    element.setAttribute("aria-hidden", "true");
    element.append(...labels.map((label) => {
      const span = document.createElement("span");
      span.textContent = label;
      return span;
    }));
    return element;
  };
  const letters = Array.from({ length: game.width }, (_, col) => columnName(col));
  const numbers = Array.from({ length: game.height }, (_, row) => String(rowNumber(row, game.height, kind.row_one)));
  box.append(strip("top", letters), strip("left", numbers), strip("right", numbers), strip("bottom", letters));
}

function moveFocus(event, grid, game) {
  if (!(event.key in STEPS)) return;
  event.preventDefault();
  const [down, right] = STEPS[event.key];
  const row = Number(event.target.dataset.row) + down;
  const col = Number(event.target.dataset.col) + right;
  if (row < 0 || row >= game.height || col < 0 || col >= game.width) return;
  focusCell(grid, row, col);
}

// Focuses the cell [row, col] of a grid buildBoard made, its one stop in the tab order.
export function focusCell(grid, row, col) {
  grid.querySelectorAll('.cell[tabindex="0"]').forEach((cell) => (cell.tabIndex = -1));
  const cell = grid.querySelector(`.cell[data-row="${row}"][data-col="${col}"]`);
  cell.tabIndex = 0;
  cell.focus();
}

// Draws every cell of `grid`; `marks` are highlights of the page's own beside the kind's (a
// refused move, a checked position's legal moves), of the same shape: [{className, note, cells:
// Set of indexes}], several of one className (each with its own note) marking a cell alike.
export function renderCells(grid, game, kind, marks = []) {
  const highlights = [...kind.highlights(game), ...marks];
  const last = game.lastMove;
  const [lastCell] = last ? kind.cellsTaken(last) : []; // a move's own cell comes first
  const lastIndex = lastCell ? lastCell[0] * game.width + lastCell[1] : -1;
  grid.querySelectorAll(".cell").forEach((cell, index) => {
    const owner = game.cells[index];
    cell.dataset.mark = kind.marks[owner] || "";
    const what = kind.showCell(cell, owner);
    cell.classList.toggle("last", index === lastIndex);
    for (const { className } of highlights) cell.classList.remove(className);
    for (const { className, cells } of highlights) if (cells.has(index)) cell.classList.add(className);
    const [row, col] = [Number(cell.dataset.row), Number(cell.dataset.col)];
    const square = squareName(row, col, game.height, game.width, kind.row_one);
    const where = `row ${row + 1}, column ${col + 1}`;
    const place = square ? `${square} (${where})` : where;
    const notes = highlights.filter(({ cells }) => cells.has(index)).map(({ note }) => `, ${note}`).join("");
    cell.setAttribute("aria-label", `${place}: ${what}${notes}`);
  });
}

// What a hint (the legal moves, the forbidden points) is asked for: the board the page shows,
// the moves on it, how the game stands, who is to move and who views it. A hint asked for one
// is not another's: the join of an open game's second player changes only who is to move.
export function hintKey(game) {
  const state = game.state;
  return `${game.id} ${game.moves} ${state.move_count} ${state.status} ${state.next_player} ${game.player}`;
}

// The board as the page shows it, written as the service writes boards: one string a row.
export function shownRows(game, kind) {
  return Array.from({ length: game.height }, (_, row) =>
    game.cells.slice(row * game.width, (row + 1) * game.width).map((owner) => kind.marks[owner] || kind.empty).join(""));
}

// A board given as rows of marks (the service's board answer, or a start position), as the
// page keeps cells: 0 empty, else the player whose mark is there.
export function cellsOf(rows, kind) {
  return rows.flatMap((line) => [...line].map((mark) => kind.owners.get(mark) || 0));
}

// A board that is no live game (a checked game's, a checked position's), as the page keeps a
// game: its rows of marks, no id and no viewer; `known` adds what else is known of it (moves,
// lastMove, state: none of them for a position, whose state says nothing).
export function boardGame(rows, kind, known = {}) {
  return {
    id: null, player: null, kind: kind.game, height: rows.length, width: rows[0].length,
    cells: cellsOf(rows, kind), moves: 0, lastMove: null, state: {}, ...known,
  };
}
