// Reversi on the play page: the board sizes offered, the start (the four centre stones, a posted
// board, or a GGF record's), stones drawn as discs, the stones the last move turned, the legal
// moves of the player to move (asked of /v1/reversi/legal-moves), passes, the score and results,
// and the position check (a colour's legal moves and the flips of each, on the board checked).
import { hintKey, shownRows } from "../board.js";
import { api, problemText } from "../transport.js";

const HINT = "Place a stone so that it brackets a line of the other colour's stones: they turn to " +
  "yours. Whoever has no such move passes; when neither can move, more stones wins. Player 1 " +
  "plays Black and moves first. Share the invite link with the second player.";
const FIELDS = (prefix) => `
  <div class="field">
    <label for="${prefix}reversi-size">Board size</label>
    <select id="${prefix}reversi-size" name="size">
      <option value="4x4">4 × 4</option>
      <option value="6x6">6 × 6</option>
      <option value="8x8" selected>8 × 8 (standard)</option>
      <option value="10x10">10 × 10</option>
      <option value="12x12">12 × 12</option>
      <option value="6x10">6 × 10 (6 rows, 10 columns)</option>
    </select>
  </div>`;
const CHECK_OPTIONS = `<label for="color">Colour to move</label><select id="color"></select>`;
const OPENING = "........\n........\n........\n...WB...\n...BW...\n........\n........\n........";
const NO_CELLS = new Set();
const GGF = /^\s*\(\s*;[^;]*?GM\[\s*Othello\s*\]/i; // a GGF game's first node names its game

export function pageKind(facts) {
  // The legal moves last asked for, and the board they were asked for (hintKey).
  const hinted = { board: null, cells: NO_CELLS };
  return {
    hint: HINT,
    fields,
    start: (params, state) => params.board || centreStart(state.height, state.width, facts),
    transcript: "f5d6c3d3c4",
    checkedFirst: true, // Othello's games are written as transcripts (WTHOR's, GGF's squares)
    recognises: (format, text) => format === "ggf" && GGF.test(text),
    recordParams: (format, text) => recordParams(format, text, facts),
    writes: (format, game) => format !== "ggf" || game.height === game.width, // GGF boards are square
    cellsTaken: (move) => [[move.row, move.col], ...(move.flips || [])],
    showCell(cell, owner) {
      cell.textContent = "";
      return stone(owner, facts);
    },
    highlights: (game) => highlights(game, hinted),
    hints: (game, redraw) => hints(game, redraw, hinted, facts),
    turnNote: (state) => passNote(state, facts),
    score: (state) => score(state, facts),
    result: (state) => result(state, facts),
    checker: checker(facts),
  };
}

// The creation body's height and width, from the size picked.
function fields(box, prefix = "") {
  box.innerHTML = FIELDS(prefix);
  const size = box.querySelector(`#${prefix}reversi-size`);
  return () => {
    const [height, width] = size.value.split("x").map(Number);
    return { game: "reversi", height, width };
  };
}

// The start of a game created without a board: White and Black on the top centre squares,
// Black and White below them.
function centreStart(height, width, { marks, empty }) {
  const [top, left] = [Math.floor(height / 2) - 1, Math.floor(width / 2) - 1];
  const pair = { [top]: marks[2] + marks[1], [top + 1]: marks[1] + marks[2] };
  return Array.from({ length: height }, (_, row) =>
    row in pair ? empty.repeat(left) + pair[row] + empty.repeat(width - left - 2) : empty.repeat(width));
}

// The creation parameters a record gives that start() needs: a GGF record's board, BO[size
// rows… colour] (rows from the top, * Black, O White, - empty; spaces between rows or not; a
// property after "(;" or another's "]"), read only once the service has read the record. {}
// for a record without one: the game starts from the four centre stones.
function recordParams(format, text, { marks, empty }) {
  const board = format === "ggf" && /[;\]]\s*BO\[\s*(\d+)\s([^\]]*)\]/.exec(text);
  if (!board) return {};
  const size = Number(board[1]);
  const squares = board[2].replace(/\s/g, "").slice(0, size * size);
  const mark = { "*": marks[1], O: marks[2], "-": empty };
  const rows = Array.from({ length: size }, (_, row) =>
    [...squares.slice(row * size, (row + 1) * size)].map((square) => mark[square]).join(""));
  return { board: rows };
}

// A player's stone in words ("black"), or "empty" for nobody's.
function stone(player, { names }) {
  return player ? names[player].toLowerCase() : "empty";
}

// The stones the last move turned, and where the player to move may play.
function highlights(game, hinted) {
  const last = game.lastMove;
  const flipped = new Set((last && last.flips || []).map(([r, c]) => r * game.width + c));
  return [
    { className: "flip", note: "just turned", cells: flipped },
    { className: "legal", note: "legal move", cells: hinted.board === hintKey(game) ? hinted.cells : NO_CELLS },
  ];
}

// Where the player to move may play, asked of the stateless endpoint once for each board the
// page shows, if that player is the viewer.
async function hints(game, redraw, hinted, facts) {
  const state = game.state;
  const board = hintKey(game);
  if (hinted.board === board) return;
  Object.assign(hinted, { board, cells: NO_CELLS });
  if (state.status !== "in_progress" || state.next_player !== game.player || state.move_count !== game.moves) return;
  const body = { board: shownRows(game, facts), color: facts.marks[game.player] };
  const answer = await api("POST", "/v1/reversi/legal-moves", { body });
  if (!answer.ok || hinted.board !== board) return;
  hinted.cells = new Set(answer.data.moves.map(({ row, col }) => row * game.width + col));
  redraw();
}

// The opponent of the last move had no legal move, so the mover moves again.
function passNote(state, { names }) {
  const move = state.last_move;
  if (!move || !move.passed) return "";
  return `${names[3 - move.player]} has no move — ${names[move.player]} plays again. `;
}

function score(state, { names }) {
  return state.score ? `${names[1]} ${state.score["1"]} – ${names[2]} ${state.score["2"]}` : "";
}

// A result as Othello tournaments count it (`final_score`: the empty squares to the winner),
// with the stones on the board beside it where they differ ("Black wins 36–28, discs 33–28").
function result(state, facts) {
  const stones = state.score;
  const final = state.final_score ?? stones;
  const first = state.winner || 1;
  const same = final["1"] === stones["1"] && final["2"] === stones["2"];
  const discs = same ? "" : `, discs ${stones[first]}–${stones[3 - first]}`;
  if (state.status === "won") return `${facts.names[first]} wins ${final[first]}–${final[3 - first]}${discs}`;
  if (state.reason === "move_limit") return `Draw: the move limit was reached (${score(state, facts)}).`;
  return `Draw ${final["1"]}–${final["2"]}${discs}`;
}

// The position checker's part: a colour's legal moves, each a button that shows its flips.
function checker(facts) {
  const { marks, empty } = facts;
  let color = null; // the colour-to-move field
  return {
    help: `${empty} empty, ${marks[1]} ${stone(1, facts)}, ${marks[2]} ${stone(2, facts)}`,
    example: OPENING,
    options(box) {
      box.innerHTML = CHECK_OPTIONS;
      color = box.querySelector("#color");
      for (const player of [1, 2]) color.append(new Option(`${facts.names[player]} (${marks[player]})`, marks[player]));
    },
    check: (rows, view) => legalMoves(rows, color.value, view),
  };
}

async function legalMoves(rows, color, view) {
  const answer = await api("POST", "/v1/reversi/legal-moves", { body: { board: rows, color } });
  if (!answer.ok) return failed(answer, view);
  const moves = answer.data.moves;
  view.say(moves.length
    ? `${color} has ${moves.length} legal move${moves.length > 1 ? "s" : ""}: ` +
      moves.map((m) => `${where(m)} flips ${m.flips}`).join("; ") + ". Choose one to see its flips."
    : `${color} has no legal move and must pass.`);
  showChecked({ rows, color, moves, chosen: null, flips: [] }, view);
}

async function showFlips(checked, move, view) {
  const { rows, color } = checked;
  const body = { board: rows, row: move.row, col: move.col, color };
  const answer = await api("POST", "/v1/reversi/check-move", { body });
  if (!answer.ok) return failed(answer, view);
  const { flips, flip_squares: named } = answer.data;
  const turned = named || flips.map(([row, col]) => where({ row, col }));
  view.say(`${color} at ${where(move)} flips ${flips.length}: ${turned.join(", ")}.`);
  showChecked({ ...checked, chosen: move, flips }, view);
}

// A refused question: the service's words, and no board (the one shown was another's).
function failed(answer, view) {
  view.say(problemText(answer.data));
  view.show(null);
}

// A cell as the answers name it: its square ("d3"), or (row, col) counted from 0 on a board
// without names.
const where = (cell) => cell.square ?? `(${cell.row}, ${cell.col})`;

// The checked board: its rows, the colour to move, its legal moves (buttons that show their
// flips, each with how many it flips written on it), and the flips of the one chosen ringed.
function showChecked(checked, view) {
  const { rows, moves, chosen, flips } = checked;
  const width = rows[0].length;
  const index = (row, col) => row * width + col;
  const legal = new Map(moves.map((move) => [index(move.row, move.col), move]));
  const marks = moves.map((move) => ({
    className: "legal", note: `legal move, flips ${move.flips}`, cells: new Set([index(move.row, move.col)]),
  }));
  if (chosen) {
    const turned = new Set(flips.map(([row, col]) => index(row, col)));
    marks.push({ className: "flip", note: `turned by ${where(chosen)}`, cells: turned });
  }
  const grid = view.show(rows, {
    marks,
    play: (row, col) => showFlips(checked, legal.get(index(row, col)), view),
    playable: (row, col) => legal.has(index(row, col)),
  });
  if (!grid) return;
  for (const move of moves) {
    grid.querySelector(`[data-row="${move.row}"][data-col="${move.col}"]`).textContent = String(move.flips);
  }
}
