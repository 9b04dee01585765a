// Tic-tac-toe on the play page: n × n, k in a row (gomoku is 15 × 15, five in a row). Its
// creation fields, its start (an empty board), its marks drawn as letters, the winning run
// highlighted, its results, and the position check (/v1/tictactoe/validate).
import { api, problemText } from "../transport.js";

const HINT = "k in a row wins: across, down or diagonally. Player 1 plays X and moves first. " +
  "Share the invite link with the second player.";
const SMALLEST = 3; // the smallest board side, and the shortest winning run, offered
const LARGEST = 19;
const GOMOKU = { n: 15, k: 5 };
const FIELDS = (prefix) => `
  <div class="field">
    <label for="${prefix}size">Board size</label>
    <select id="${prefix}size" name="n"></select>
  </div>
  <div class="field">
    <label for="${prefix}in-a-row">In a row to win</label>
    <select id="${prefix}in-a-row" name="k"></select>
  </div>
  <button id="${prefix}gomoku" type="button" class="secondary">Gomoku: 15 × 15, five in a row</button>`;
const CHECK_OPTIONS = `
  <label for="k">In a row to win (k; empty means n)</label>
  <input id="k" type="number" min="1" max="100" inputmode="numeric">`;
const REASONS = {
  bad_counts: "the numbers of X and O cannot occur (X moves first, players alternate)",
  both_won: "both players have a winning line",
  x_won_but_o_moved: "X has won, but O moved after that",
  o_won_but_x_moved: "O has won, but X moved after that",
  play_after_win: "the winner's lines cannot all have been completed by one last move",
};
const DIRECTIONS = [[0, 1], [1, 0], [1, 1], [1, -1]];

export function pageKind({ marks, empty }) {
  return {
    hint: HINT,
    fields,
    start: (params, state) => Array(state.n).fill(empty.repeat(state.n)),
    transcript: "b2a1c3",
    cellsTaken: (move) => [[move.row, move.col]],
    showCell(cell, owner) {
      cell.textContent = marks[owner] || "";
      return marks[owner] || "empty";
    },
    highlights: (game) => [{ className: "win", note: "winning line", cells: winningCells(game) }],
    result(state, who) {
      if (state.status === "won") return `${who(state.winner)} wins!`;
      return state.reason === "move_limit" ? "Draw: the move limit was reached." : "Draw: the board is full.";
    },
    checker: checker(),
  };
}

// Board size n and k in a row; the creation body is {"n"} for the classic game (k = n).
function fields(box, prefix = "") {
  box.innerHTML = FIELDS(prefix);
  const size = box.querySelector(`#${prefix}size`);
  const inARow = box.querySelector(`#${prefix}in-a-row`);
  for (let n = SMALLEST; n <= LARGEST; n++) size.append(new Option(`${n} × ${n}`, String(n)));
  fillInARow(size, inARow);
  size.addEventListener("change", () => fillInARow(size, inARow));
  box.querySelector(`#${prefix}gomoku`).addEventListener("click", () => {
    size.value = String(GOMOKU.n);
    fillInARow(size, inARow);
    inARow.value = String(GOMOKU.k);
  });
  return () => {
    const n = Number(size.value);
    const k = Number(inARow.value);
    return k === n ? { n } : { game: "tictactoe", n, k };
  };
}

// k runs from 3 to n. It follows n while it is n (the classic game); a smaller k is kept while
// it fits.
function fillInARow(size, select) {
  const n = Number(size.value);
  const k = Number(select.value);
  const followsN = !k || k === Number(select.dataset.n);
  select.replaceChildren();
  for (let run = SMALLEST; run <= n; run++) {
    select.append(new Option(run === n ? `${run} (the whole line)` : String(run), String(run)));
  }
  select.value = String(followsN || k > n ? n : k);
  select.dataset.n = String(n);
}

// The runs of k or more of the winner's marks through the last move, in the four directions
// (for k = n the whole row, column or diagonal).
function winningCells(game) {
  const state = game.state;
  const won = new Set();
  if (!state || state.status !== "won" || !state.last_move) return won;
  const { row, col } = state.last_move;
  const owner = (r, c) => (r >= 0 && r < game.height && c >= 0 && c < game.width ? game.cells[r * game.width + c] : 0);
  if (owner(row, col) !== state.winner) return won; // the last move is not on the board yet
  for (const [down, right] of DIRECTIONS) {
    const run = [[row, col]];
    for (const sign of [1, -1]) {
      let [r, c] = [row + sign * down, col + sign * right];
      for (; owner(r, c) === state.winner; r += sign * down, c += sign * right) run.push([r, c]);
    }
    if (run.length >= state.k) run.forEach(([r, c]) => won.add(r * game.width + c));
  }
  return won;
}

// The position checker's part: can the board occur in a legal game, and how does it stand (the
// board shown as checked).
function checker() {
  let k = null; // the k field
  return {
    help: ". or space empty, X, O",
    example: "XOX\nO.O\nXOX",
    options(box) {
      box.innerHTML = CHECK_OPTIONS;
      k = box.querySelector("#k");
    },
    check: (rows, view) => validate(rows, k.value ? Number(k.value) : null, view),
  };
}

async function validate(rows, k, view) {
  const body = k === null ? { board: rows } : { board: rows, k };
  const answer = await api("POST", "/v1/tictactoe/validate", { body });
  if (!answer.ok) {
    view.say(problemText(answer.data));
    return view.show(null);
  }
  const v = answer.data;
  let text;
  if (!v.valid) text = `Not reachable: ${REASONS[v.reason] || v.reason} (${v.reason}).`;
  else if (v.status === "in_progress") text = `Reachable. In progress: ${v.next} to move.`;
  else if (v.status === "draw") text = "Reachable. The game ended in a draw.";
  else text = `Reachable. ${v.winner} has won.`;
  view.say(`${text} X: ${v.counts.X}, O: ${v.counts.O}.`);
  view.show(rows);
}
