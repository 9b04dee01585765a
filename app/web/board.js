// The live board: a grid of cell buttons (clicked, or played from the keyboard with the arrow
// keys and Enter), each drawn by the game's kind, with the last move and the kind's highlights
// marked and said in its label.
import { $ } from "./elements.js";

const STEPS = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };

// A new grid for the game's board; play(row, col) is a cell's click.
export function buildBoard(game, play) {
  const board = $("board");
  board.replaceChildren();
  board.dataset.game = game.kind;
  board.style.setProperty("--n", game.width);
  for (let row = 0; row < game.height; row++) {
    const line = document.createElement("div");
    line.setAttribute("role", "row");
    for (let col = 0; col < game.width; col++) {
      const cell = document.createElement("button");
      cell.type = "button";
      cell.className = "cell";
      cell.dataset.row = row;
      cell.dataset.col = col;
      cell.setAttribute("role", "gridcell");
      cell.tabIndex = row === 0 && col === 0 ? 0 : -1;
      cell.addEventListener("click", () => play(row, col));
      cell.addEventListener("keydown", (event) => moveFocus(event, game));
      line.append(cell);
    }
    board.append(line);
  }
}

function moveFocus(event, game) {
  if (!(event.key in STEPS)) return;
  event.preventDefault();
  const [down, right] = STEPS[event.key];
  const row = Number(event.target.dataset.row) + down;
  const col = Number(event.target.dataset.col) + right;
  if (row < 0 || row >= game.height || col < 0 || col >= game.width) return;
  const cells = $("board").querySelectorAll(".cell");
  const here = Number(event.target.dataset.row) * game.width + Number(event.target.dataset.col);
  const there = row * game.width + col;
  cells[here].tabIndex = -1;
  cells[there].tabIndex = 0;
  cells[there].focus();
}

export function renderCells(game, kind) {
  const highlights = kind.highlights(game);
  const last = game.lastMove;
  const lastIndex = last ? last.row * game.width + last.col : -1;
  $("board").querySelectorAll(".cell").forEach((cell, index) => {
    const owner = game.cells[index];
    cell.dataset.mark = kind.marks[owner] || "";
    const what = kind.showCell(cell, owner);
    cell.classList.toggle("last", index === lastIndex);
    for (const { className, cells } of highlights) cell.classList.toggle(className, cells.has(index));
    const place = `row ${Number(cell.dataset.row) + 1}, column ${Number(cell.dataset.col) + 1}`;
    const notes = highlights.filter(({ cells }) => cells.has(index)).map(({ note }) => `, ${note}`).join("");
    cell.setAttribute("aria-label", `${place}: ${what}${notes}`);
  });
}

// The board as the page shows it, written as the service writes boards: one string a row.
export function shownRows(game, kind) {
  return Array.from({ length: game.height }, (_, row) =>
    game.cells.slice(row * game.width, (row + 1) * game.width).map((owner) => kind.marks[owner] || kind.empty).join(""));
}
