// The position checker: a board pasted as text, asked of the service's stateless endpoints for
// the kind picked. Each kind that has a checker (its page module's) says how to ask and what
// the answer means, in words and as the board checked, drawn as every board of the page is
// (board.js: framed by its coordinates), with what the answer marks on it to explore.
import { boardGame, buildBoard, focusCell, renderCells } from "./board.js";
import { $ } from "./elements.js";

let picked = null; // the kind whose radio is checked

// What a kind's check shows its answer with; an answer that comes once another kind is picked
// shows nothing.
const viewOf = (kind) => ({
  say(text) {
    if (picked === kind) $("check-result").textContent = text;
  },
  // The board checked, as rows of the kind's marks (null: none), with `marks` (renderCells's)
  // and, with `play`, the cells `playable` says are buttons, play(row, col) their click.
  // Answers the board's grid, or null where none is drawn.
  show(rows, { marks = [], play = null, playable } = {}) {
    if (picked !== kind) return null;
    const grid = $("check-board");
    $("check-board-box").hidden = !rows;
    if (!rows) {
      grid.replaceChildren();
      return null;
    }
    // A board drawn again (a legal move chosen) keeps the focus on the cell it was on.
    const focused = grid.contains(document.activeElement) ? document.activeElement.dataset : null;
    const [row, col] = focused ? [Number(focused.row), Number(focused.col)] : [];
    const game = boardGame(rows, kind);
    buildBoard(grid, game, kind, play, playable);
    renderCells(grid, game, kind, marks);
    if (focused && row < game.height && col < game.width) focusCell(grid, row, col);
    return grid;
  },
});

export function startChecker(kinds) {
  // By title, whatever the registry's order (which says which kind a new game defaults to): the
  // checker offers the stateless questions alphabetically, Reversi's first.
  const checkable = kinds
    .filter((kind) => kind.checker)
    .sort((a, b) => a.title.localeCompare(b.title));
  if (!checkable.length) {
    $("check").hidden = true;
    return;
  }
  for (const kind of checkable) {
    const radio = document.createElement("input");
    Object.assign(radio, { type: "radio", name: "kind", value: kind.game, checked: kind === checkable[0] });
    radio.addEventListener("change", () => pick(kind));
    const label = document.createElement("label");
    label.append(radio, ` ${kind.title}`);
    $("check-kinds").append(label, "\n"); // spaced as markup would space them
    const box = document.createElement("div");
    box.id = `${kind.game}-options`;
    kind.checker.options(box);
    $("check-options").append(box);
  }
  pick(checkable[0]);
  $("check-form").addEventListener("submit", (event) => {
    event.preventDefault();
    picked.checker.check(boardRows(), viewOf(picked));
  });
  $("check-submit").disabled = false;
}

function pick(kind) {
  picked = kind;
  for (const box of $("check-options").children) box.hidden = box.id !== `${kind.game}-options`;
  $("cells-help").textContent = kind.checker.help;
  $("rows").value = kind.checker.example;
  const view = viewOf(kind);
  view.say("");
  view.show(null);
}

function boardRows() {
  return $("rows").value.split("\n").map((line) => line.trimEnd()).filter((line) => line.length > 0);
}
