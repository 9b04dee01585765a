// A board on the page: a grid of cells (the live game's are buttons, clicked, or played from
// the keyboard with the arrow keys and Enter; a checked game's are read only, explored with the
// arrow keys), each drawn by the game's kind, with the last move and the kind's highlights
// marked and said in its label; framed by its coordinates, the column letters and row numbers
// of its square names, where it has them.
import { columnName, hasNames, rowNumber, squareName } from "./squares.js";

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

// A new grid in `grid` (a role="grid" element, alone in its .board-box) for the game's board;
// play(row, col) is a cell's click, and without it the board is read only.
export function buildBoard(grid, game, kind, play = null) {
  grid.replaceChildren();
  grid.dataset.game = game.kind;
  frame(grid.parentElement, game, kind);
  for (let row = 0; row < game.height; row++) {
    const line = document.createElement("div");
    line.setAttribute("role", "row");
    for (let col = 0; col < game.width; col++) {
      const cell = document.createElement(play ? "button" : "div");
      if (play) {
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
  const cells = grid.querySelectorAll(".cell");
  const here = Number(event.target.dataset.row) * game.width + Number(event.target.dataset.col);
  const there = row * game.width + col;
  cells[here].tabIndex = -1;
  cells[there].tabIndex = 0;
  cells[there].focus();
}

// Draws every cell of `grid`; `marks` are highlights of the page's own beside the kind's (a
// refused move), of the same shape: [{className, note, cells: Set of indexes}].
export function renderCells(grid, game, kind, marks = []) {
  const highlights = [...kind.highlights(game), ...marks];
  const last = game.lastMove;
  const lastIndex = last ? last.row * game.width + last.col : -1;
  grid.querySelectorAll(".cell").forEach((cell, index) => {
    const owner = game.cells[index];
    cell.dataset.mark = kind.marks[owner] || "";
    const what = kind.showCell(cell, owner);
    cell.classList.toggle("last", index === lastIndex);
    for (const { className, cells } of highlights) cell.classList.toggle(className, cells.has(index));
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
