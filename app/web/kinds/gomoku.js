// Gomoku on the play page: the four rules (freestyle, standard, renju, caro), the board sizes
// offered, a swap2 opening, stones drawn as discs on a wooden board, the winning line, and in
// renju Black's forbidden points marked with a small cross (asked of
// /v1/gomoku/forbidden-points when Black is to move). A refused move's explanation is the
// service's own ("h8 is forbidden to Black: a double-three (h8–j8 and h10–h8)"). The board
// shows colours, not seats: in a swap2 opening player 1 places a White stone too, and a seat is
// called by its colour once it has one (the state's `colors`).
import { hintKey, shownRows } from "../board.js";
import { api } from "../transport.js";

const HINT = "Five in a row wins, across, down or diagonally: five or more in freestyle, exactly " +
  "five in standard; in renju Black may not make an overline, a double-four or a double-three " +
  "(those points are crossed); in caro a five closed at both ends does not win. Player 1 plays " +
  "Black and moves first; with swap2, player 1 places three stones and player 2 chooses a " +
  "colour or to place two more. Share the invite link with the second player.";
const RULES = [
  ["freestyle", "Freestyle (five or more)"],
  ["standard", "Standard (exactly five)"],
  ["renju", "Renju (forbidden points for Black)"],
  ["caro", "Caro (five unblocked, or six)"],
];
const SIZES = [15, 19];
const RENJU_SIZE = 15;
const DIRECTIONS = [[0, 1], [1, 0], [1, 1], [1, -1]];
const NO_CELLS = new Set();
const FIELDS = (prefix) => `
  <div class="field" data-param="rule">
    <label for="${prefix}gomoku-rule">Rule</label>
    <select id="${prefix}gomoku-rule" name="rule"></select>
  </div>
  <div class="field" data-param="size">
    <label for="${prefix}gomoku-size">Board size</label>
    <select id="${prefix}gomoku-size" name="size"></select>
  </div>
  <div class="field" data-param="foul">
    <label><input id="${prefix}gomoku-foul" type="checkbox" name="foul"> A forbidden move loses (renju)</label>
  </div>
  <div class="field" data-param="opening">
    <label for="${prefix}gomoku-opening">Opening</label>
    <select id="${prefix}gomoku-opening" name="opening">
      <option value="">None</option>
      <option value="swap2">Swap2</option>
    </select>
  </div>`;
// What each swap2 step asks of the player who acts, and the choices it offers.
const STEPS = {
  place_three: ["Swap2: place three stones — Black, White, Black. ", []],
  choose: ["Swap2: play Black, play White, or place two more stones. ", [
    ["Play Black", { color: "B" }], ["Play White", { color: "W" }], ["Place two more", { place_two: true }],
  ]],
  place_two: ["Swap2: place two more stones — White, then Black. ", []],
  choose_color: ["Swap2: choose your colour. ", [["Play Black", { color: "B" }], ["Play White", { color: "W" }]]],
};

// The widest board each format of the kind's can write: SGF names points with two letters each
// (a–z, A–Z), PSQ's header the board with three digits.
const WIDEST = { sgf: 52, psq: 999 };
// A record's first words in each format: PSQ's header (Piskvorky 15x15, …), an SGF game's first
// node with GM[4] (gomoku's number in SGF).
const RECOGNISED = { psq: /^\s*Piskvorky\b/i, sgf: /^\s*\(\s*;[^;]*?GM\[\s*4\s*\]/ };

export function pageKind(facts) {
  // Black's forbidden points last asked for, and the board they were asked for (hintKey).
  const hinted = { board: null, cells: NO_CELLS };
  return {
    hint: HINT,
    fields,
    start: (params, state) => Array(state.size).fill(facts.empty.repeat(state.size)),
    transcript: "h8i9j10",
    recognises: (format, text) => Boolean(RECOGNISED[format]?.test(text)),
    cellsTaken: (move) => ("row" in move ? [[move.row, move.col]] : []),
    writes: (format, game) => game.width <= (WIDEST[format] ?? Infinity),
    ownerOf: (move) => facts.owners.get(move.color),
    nameOf: (state, player) => {
      const color = state.colors ? state.colors[String(player)] : facts.marks[player];
      return color ? facts.names[facts.owners.get(color)] : null;
    },
    choices: (state) => (state.opening ? STEPS[state.opening.step][1] : []),
    showCell(cell, owner) {
      cell.textContent = "";
      return owner ? facts.names[owner].toLowerCase() : "empty";
    },
    highlights: (game) => [
      { className: "win", note: "winning line", cells: winningCells(game, facts) },
      { className: "forbidden", note: "forbidden to Black", cells: hinted.board === hintKey(game) ? hinted.cells : NO_CELLS },
    ],
    hints: (game, redraw) => hints(game, redraw, hinted, facts),
    turnNote: (state) => (state.opening ? STEPS[state.opening.step][0] : passNote(state, facts)),
    canPass: (state) => state.rule === "renju",
    result: (state, who) => result(state, who),
  };
}

// The rule, the size (renju: 15 only) and, for renju, whether a forbidden move loses. Beside a
// record (given: the parameters its format cannot carry), only those, and the rule may be left
// to what the record says.
function fields(box, prefix = "", given = null) {
  box.innerHTML = FIELDS(prefix);
  const rule = box.querySelector(`#${prefix}gomoku-rule`);
  const size = box.querySelector(`#${prefix}gomoku-size`);
  const foul = box.querySelector(`#${prefix}gomoku-foul`);
  const opening = box.querySelector(`#${prefix}gomoku-opening`);
  if (given) {
    for (const field of box.querySelectorAll("[data-param]")) field.hidden = !given.has(field.dataset.param);
    rule.append(new Option("As the record says (else freestyle)", ""));
  }
  for (const [value, label] of RULES) rule.append(new Option(label, value));
  const fillSizes = () => {
    const sizes = rule.value === "renju" ? [RENJU_SIZE] : SIZES;
    const chosen = Number(size.value) || RENJU_SIZE;
    size.replaceChildren(...sizes.map((n) => new Option(`${n} × ${n}`, String(n))));
    size.value = String(sizes.includes(chosen) ? chosen : RENJU_SIZE);
    foul.disabled = rule.value !== "renju" && !(given && rule.value === "");
    if (foul.disabled) foul.checked = false;
  };
  fillSizes();
  rule.addEventListener("change", fillSizes);
  return () => {
    const body = { game: "gomoku", rule: rule.value, size: Number(size.value) };
    if (foul.checked) body.foul = "lose";
    if (opening.value) body.opening = opening.value;
    if (!given) return body;
    if (!rule.value) delete body.rule; // the record's own, if it says one
    return Object.fromEntries(Object.entries(body).filter(([name]) => given.has(name)));
  };
}

// The run of the winner's stones through the last move, in each direction where it is five or
// more (the service decided it wins: this only shows where).
function winningCells(game, facts) {
  const state = game.state;
  const won = new Set();
  if (!state || state.status !== "won" || state.reason !== "line" || !state.last_move) return won;
  const { row, col, color } = state.last_move;
  const stone = facts.owners.get(color); // the winner's colour, as the board's cells hold it
  const owner = (r, c) => (r >= 0 && r < game.height && c >= 0 && c < game.width ? game.cells[r * game.width + c] : 0);
  if (owner(row, col) !== stone) return won; // the last move is not on the board yet
  for (const [down, right] of DIRECTIONS) {
    const run = [[row, col]];
    for (const sign of [1, -1]) {
      let [r, c] = [row + sign * down, col + sign * right];
      for (; owner(r, c) === stone; r += sign * down, c += sign * right) run.push([r, c]);
    }
    if (run.length >= 5) run.forEach(([r, c]) => won.add(r * game.width + c));
  }
  return won;
}

// Black's forbidden points in a renju game, asked once for each board the page shows while
// Black is to move.
async function hints(game, redraw, hinted, facts) {
  const state = game.state;
  const board = hintKey(game);
  if (hinted.board === board) return;
  Object.assign(hinted, { board, cells: NO_CELLS });
  const blackToMove = state.colors && state.colors[String(state.next_player)] === "B";
  if (state.rule !== "renju" || state.status !== "in_progress" || !blackToMove) return;
  if (state.move_count !== game.moves) return; // the board is not the game's yet
  const answer = await api("POST", "/v1/gomoku/forbidden-points", { body: { board: shownRows(game, facts), rule: "renju" } });
  if (!answer.ok || hinted.board !== board) return;
  hinted.cells = new Set(answer.data.points.map(({ row, col }) => row * game.width + col));
  redraw();
}

function passNote(state, { names, owners }) {
  const move = state.last_move;
  return move && move.pass ? `${names[owners.get(move.color)]} passed. ` : "";
}

function result(state, who) {
  if (state.status === "won") {
    const how = state.reason === "foul" ? " (Black played a forbidden point)" : "";
    return `${who(state.winner)} wins${how}!`;
  }
  if (state.reason === "passes") return "Draw: both players passed.";
  return state.reason === "move_limit" ? "Draw: the move limit was reached." : "Draw: the board is full.";
}
