// The play page: live games of every kind the service offers (n × n tic-tac-toe with k in a row,
// gomoku among them, and Reversi) over the public API, and a position checker.
// The other player's moves, draw offers and the game's end arrive by Server-Sent Events, or by
// polling with If-None-Match (about once a second, never while the tab is hidden) where a stream
// is not available. Clocks count down from the state's deadline on the service's time, estimated
// from the answers' Date headers.
// A seat's token is kept in this tab's sessionStorage, never in the address bar: the address bar
// shows #game=ID (a watcher's link), and the invite link carries player 2's token in its fragment
// (#game=…&token=…&player=…, which browsers never send to a server), read once on arrival and
// cleared from the address bar with history.replaceState.
"use strict";

// Each kind's marks as its board answer writes them, and what the page calls its players.
const KINDS = {
  tictactoe: { marks: { 1: "X", 2: "O" }, names: { 1: "X", 2: "O" } },
  reversi: { marks: { 1: "B", 2: "W" }, names: { 1: "Black", 2: "White" } },
};
const OWNERS = { X: 1, O: 2, B: 1, W: 2 };
const HINTS = {
  tictactoe: "k in a row wins: across, down or diagonally. Player 1 plays X and moves first. " +
    "Share the invite link with the second player.",
  reversi: "Place a stone so that it brackets a line of the other colour's stones: they turn to " +
    "yours. Whoever has no such move passes; when neither can move, more stones wins. Player 1 " +
    "plays Black and moves first. Share the invite link with the second player.",
};
const GOMOKU = { n: 15, k: 5 };
const REASONS = {
  bad_counts: "the numbers of X and O cannot occur (X moves first, players alternate)",
  both_won: "both players have a winning line",
  x_won_but_o_moved: "X has won, but O moved after that",
  o_won_but_x_moved: "O has won, but X moved after that",
  play_after_win: "the winner's lines cannot all have been completed by one last move",
};
const REVERSI_OPENING = "........\n........\n........\n...WB...\n...BW...\n........\n........\n........";
const POLL_MS = 1000;
const TICK_MS = 100; // a running clock's display is redrawn this often

const $ = (id) => document.getElementById(id);

// --- API --------------------------------------------------------------------------------------

async function api(method, path, { body, token, etag } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (etag) headers["If-None-Match"] = etag;
  const sent = Date.now();
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  serverTime.sample(response.headers.get("Date"), sent, Date.now());
  const text = response.status === 304 ? "" : await response.text();
  const data = text ? JSON.parse(text) : null;
  return { status: response.status, ok: response.ok, etag: response.headers.get("ETag"), data };
}

function problemText(problem) {
  if (!problem || typeof problem !== "object") return "The service did not answer.";
  return `${problem.title}: ${problem.detail}`;
}

// The service's time, as an offset from this browser's clock. An answer's Date (whole seconds)
// was written between the request's sending and the answer's arrival, so each answer bounds the
// offset from below and above; the bounds of all answers narrow it to well under a second.
const serverTime = {
  low: -Infinity,
  high: Infinity,
  sample(date, sent, received) {
    const at = Date.parse(date || "");
    if (Number.isNaN(at)) return;
    const low = at - received;
    const high = at + 1000 - sent;
    if (low > this.high || high < this.low) { // this browser's clock was set meanwhile
      this.low = low;
      this.high = high;
    } else {
      this.low = Math.max(this.low, low);
      this.high = Math.min(this.high, high);
    }
  },
  now() {
    const offset = Number.isFinite(this.low) ? (this.low + this.high) / 2 : 0;
    return Date.now() + offset;
  },
};

// --- Seats ------------------------------------------------------------------------------------

// A player's seat in a game: kept in this tab's sessionStorage under the game's id.
function rememberSeat(id, token, player) {
  try {
    sessionStorage.setItem(`seat:${id}`, JSON.stringify({ token, player }));
  } catch (error) { /* storage off: the seat lasts until the page is left */ }
}

function seatOf(id) {
  try {
    const seat = JSON.parse(sessionStorage.getItem(`seat:${id}`) || "null");
    if (seat && typeof seat.token === "string" && (seat.player === 1 || seat.player === 2)) return seat;
  } catch (error) { /* none */ }
  return { token: null, player: null };
}

// The game the address bar names. A token in the fragment (an invite link) is taken into this
// tab's storage and removed from the address bar at once.
function arrival() {
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get("game");
  if (!id) return null;
  const token = params.get("token");
  const player = Number(params.get("player"));
  if (token && (player === 1 || player === 2)) rememberSeat(id, token, player);
  if (token || params.has("player")) showGameInAddressBar(id);
  return { id, ...seatOf(id) };
}

function showGameInAddressBar(id) {
  const url = new URL(location.href);
  url.hash = new URLSearchParams({ game: id }).toString();
  history.replaceState(null, "", url.toString());
}

// --- Live game --------------------------------------------------------------------------------

// cells: 0 empty, 1 or 2 the player whose mark or stone is there, row by row. moves: the seq of
// the last move applied to them; state may run ahead of them for a moment. The state's version
// counts every change (moves, draw offers, endings), its move_count the moves.
const game = { id: null, token: null, player: null, kind: "tictactoe", height: 0, width: 0,
               cells: [], moves: 0, lastMove: null, etag: null, state: null, timer: null,
               focus: 0, source: null, legal: new Set(), hinted: null, ticker: null };

const gamePath = (suffix = "") => `/v1/games/${encodeURIComponent(game.id)}${suffix}`;

// The creation body of the picker's game: {"n"} for the classic game (k = n).
function creationBody() {
  if ($("game-kind").value === "reversi") {
    const [height, width] = $("reversi-size").value.split("x").map(Number);
    return withClock({ game: "reversi", height, width });
  }
  const n = Number($("size").value);
  const k = Number($("in-a-row").value);
  return withClock(k === n ? { n } : { game: "tictactoe", n, k });
}

// The picker's time control, if any: {"initial_seconds", "increment_seconds"}.
function withClock(body) {
  const picked = $("time-control").value;
  if (picked === "none") return body;
  let [initial, increment] = picked.split("+").map(Number);
  if (picked === "custom") {
    initial = 60 * (Number($("clock-minutes").value) || 0) + (Number($("clock-seconds").value) || 0);
    increment = Number($("clock-increment").value) || 0;
  }
  return { ...body, clock: { initial_seconds: initial, increment_seconds: increment } };
}

async function newGame(event) {
  event.preventDefault();
  const created = await api("POST", "/v1/games", { body: creationBody() });
  if (!created.ok) {
    $("game").hidden = false;
    return showMessage(problemText(created.data));
  }
  const { id, tokens } = created.data;
  const invite = new URL(location.href);
  invite.hash = new URLSearchParams({ game: id, token: tokens["2"], player: "2" }).toString();
  $("invite-link").value = invite.toString();
  $("invite-label").textContent = `Invite link for player 2 (${KINDS[created.data.game].names[2]})`;
  $("invite").hidden = false;
  rememberSeat(id, tokens["1"], 1);
  showGameInAddressBar(id);
  await openGame({ id, ...seatOf(id) });
}

async function openGame({ id, token, player }) {
  clearTimeout(game.timer);
  if (game.source) game.source.close();
  game.source = null;
  Object.assign(game, { id, token, player, moves: 0, lastMove: null, etag: null, state: null,
                        focus: 0, legal: new Set(), hinted: null });
  $("confirm-resign").hidden = true;
  const current = await snapshot(id);
  if (game.id !== id) return; // another game was opened meanwhile
  if (!current.ok) {
    $("game").hidden = false;
    return showMessage(problemText(current.problem));
  }
  const { state, etag, rows } = current;
  Object.assign(game, {
    kind: state.game, height: rows.length, width: rows[0].length, etag, state,
    cells: rows.flatMap((line) => [...line].map((mark) => OWNERS[mark] || 0)),
    moves: state.move_count, lastMove: state.last_move,
  });
  buildBoard();
  $("game").hidden = false;
  showMessage("");
  render();
  if (!listen()) schedulePoll();
}

// The board at a known version: the state, the board, then the state again (a 304 with its
// ETag) until no move came in between. The moves alone do not give the board: a Reversi game
// may start from a posted position.
async function snapshot(id) {
  const path = `/v1/games/${encodeURIComponent(id)}`;
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await api("GET", path);
    if (!before.ok) return { ok: false, problem: before.data };
    const board = await api("GET", `${path}/board`);
    if (!board.ok) return { ok: false, problem: board.data };
    const after = await api("GET", path, { etag: before.etag });
    if (after.status === 304) return { ok: true, state: before.data, etag: before.etag, rows: board.data.rows };
    if (!after.ok) return { ok: false, problem: after.data };
  }
  return { ok: false, problem: { title: "Busy game", detail: "moves kept arriving while the board loaded; reload to try again" } };
}

// Push: the game's Server-Sent Events stream. If the browser has no EventSource, or the stream
// cannot be kept open, the page polls instead.
function listen() {
  if (!window.EventSource || (game.state && game.state.status !== "in_progress")) return false;
  const source = new EventSource(gamePath(`/events?since=${game.state.version}`));
  game.source = source;
  source.addEventListener("move", (event) => {
    const { move, state } = JSON.parse(event.data);
    receive(move, state);
  });
  source.addEventListener("offer", (event) => {
    adopt(JSON.parse(event.data));
    render();
  });
  source.addEventListener("end", (event) => {
    adopt(JSON.parse(event.data));
    source.close();
    game.source = null;
    render();
  });
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED && game.source === source) {
      game.source = null;
      schedulePoll();
    }
  };
  return true;
}

function buildBoard() {
  const board = $("board");
  board.replaceChildren();
  board.classList.toggle("reversi-board", game.kind === "reversi");
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
      cell.addEventListener("keydown", moveFocus);
      line.append(cell);
    }
    board.append(line);
  }
}

function moveFocus(event) {
  const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  if (!(event.key in steps)) return;
  event.preventDefault();
  const [down, right] = steps[event.key];
  const row = Number(event.target.dataset.row) + down;
  const col = Number(event.target.dataset.col) + right;
  if (row < 0 || row >= game.height || col < 0 || col >= game.width) return;
  const cells = $("board").querySelectorAll(".cell");
  const here = Number(event.target.dataset.row) * game.width + Number(event.target.dataset.col);
  const there = row * game.width + col;
  cells[here].tabIndex = -1;
  cells[there].tabIndex = 0;
  cells[there].focus();
  game.focus = there;
}

// A move's stone, and the stones it flips (Reversi), all become the mover's. Each move is applied
// once and in order, so a late copy of an old move cannot undo the flips of a newer one.
function applyMove(move) {
  if (move.seq !== game.moves + 1) return false;
  for (const [row, col] of [[move.row, move.col], ...(move.flips || [])]) {
    game.cells[row * game.width + col] = move.player;
  }
  game.moves = move.seq;
  game.lastMove = move;
  game.legal = new Set();
  return true;
}

function adopt(state) {
  if (!game.state || state.version >= game.state.version) game.state = state;
}

// One move's answer (to our own move, or from the event stream). After a gap, a move we never
// saw, the page fetches what it missed.
async function receive(move, state) {
  if (move.seq > game.moves + 1) return refresh(await api("GET", gamePath()));
  applyMove(move);
  adopt(state);
  render();
}

// Bring the local copy up to date with an answer of GET /v1/games/{id}.
async function refresh(answer) {
  if (answer.status === 304) return;
  if (!answer.ok) return showMessage(problemText(answer.data));
  const state = answer.data;
  while (state.move_count > game.moves) {
    const since = game.moves;
    const delta = await api("GET", gamePath(`/moves?since=${since}`));
    if (!delta.ok) return showMessage(problemText(delta.data));
    delta.data.moves.forEach(applyMove);
    if (game.moves === since) break; // nothing new (the game was replaced meanwhile)
  }
  if (game.moves >= state.move_count) game.etag = answer.etag; // else a 304 would hide the rest
  adopt(state);
  render();
}

async function poll() {
  if (!game.id || document.hidden || game.source) return;
  if (game.state && game.state.status !== "in_progress") return;
  const answer = await api("GET", gamePath(), { etag: game.etag });
  await refresh(answer);
}

function schedulePoll() {
  clearTimeout(game.timer);
  if (game.state && game.state.status !== "in_progress") return;
  game.timer = setTimeout(async () => {
    try {
      await poll();
    } catch (error) {
      showMessage("Lost contact with the service; retrying.");
    }
    if (!document.hidden) schedulePoll();
  }, POLL_MS);
}

document.addEventListener("visibilitychange", () => {
  if (game.source) return; // the stream stays open: it costs nothing while idle
  if (document.hidden) clearTimeout(game.timer);
  else if (game.id) poll().then(schedulePoll);
});

async function play(row, col) {
  if (!game.token) return showMessage("You are watching: only the players can move.");
  const id = game.id;
  const answer = await api("POST", gamePath("/moves"), {
    body: { row, col, player: game.player }, token: game.token,
  });
  if (game.id !== id) return;
  if (!answer.ok) return showMessage(problemText(answer.data));
  showMessage("");
  const { move, state } = answer.data;
  if (move.seq === game.moves + 1) game.etag = answer.etag;
  await receive(move, state);
}

// Resigning and offering (or accepting) a draw: changes of the game that are no move. Their
// answer is the game's state.
async function act(action) {
  if (!game.token) return showMessage("You are watching: only the players can do that.");
  const id = game.id;
  const answer = await api("POST", gamePath(`/${action}`), { body: {}, token: game.token });
  if (game.id !== id) return;
  if (!answer.ok) return showMessage(problemText(answer.data));
  showMessage("");
  adopt(answer.data);
  render();
}

// Tic-tac-toe: the runs of k or more of the winner's marks through the last move, in the four
// directions (for k = n the whole row, column or diagonal).
function winningCells() {
  const state = game.state;
  const won = new Set();
  if (!state || state.game !== "tictactoe" || state.status !== "won" || !state.last_move) return won;
  const { row, col } = state.last_move;
  const owner = (r, c) => (r >= 0 && r < game.height && c >= 0 && c < game.width ? game.cells[r * game.width + c] : 0);
  if (owner(row, col) !== state.winner) return won; // the last move is not on the board yet
  for (const [down, right] of [[0, 1], [1, 0], [1, 1], [1, -1]]) {
    const run = [[row, col]];
    for (const sign of [1, -1]) {
      let [r, c] = [row + sign * down, col + sign * right];
      for (; owner(r, c) === state.winner; r += sign * down, c += sign * right) run.push([r, c]);
    }
    if (run.length >= state.k) run.forEach(([r, c]) => won.add(r * game.width + c));
  }
  return won;
}

function render() {
  renderCells();
  renderStatus();
  renderClocks();
  renderActions();
  showLegalMoves();
}

// --- Clocks and actions -----------------------------------------------------------------------

function clockText(ms) {
  const tenths = Math.max(0, Math.ceil(ms / 100));
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor((tenths % 600) / 10);
  const text = `${minutes}:${String(seconds).padStart(2, "0")}`;
  return minutes === 0 && seconds < 20 ? `${text}.${tenths % 10}` : text;
}

// Each player's time left now: the running clock from its deadline on the service's time, the
// other as the state gives it.
function timeLeft(clock, player) {
  if (clock.running === player && clock.deadline) return Date.parse(clock.deadline) - serverTime.now();
  return clock.remaining_ms[String(player)];
}

function renderClocks() {
  const state = game.state;
  const clock = state && state.clock;
  $("clocks").hidden = !clock;
  clearInterval(game.ticker);
  game.ticker = null;
  if (!clock) return;
  const { names } = KINDS[state.game];
  for (const player of [1, 2]) {
    const line = $(`clock-${player}`);
    line.querySelector(".who").textContent = `${names[player]}${player === game.player ? " (you)" : ""}`;
    line.classList.toggle("running", state.status === "in_progress" && clock.running === player);
  }
  const tick = () => {
    for (const player of [1, 2]) {
      const left = state.status === "in_progress" ? timeLeft(clock, player) : clock.remaining_ms[String(player)];
      const time = $(`clock-${player}`).querySelector("time");
      time.textContent = clockText(left);
      time.dateTime = `PT${Math.max(0, left / 1000).toFixed(1)}S`;
      $(`clock-${player}`).classList.toggle("low", left < 10000);
    }
  };
  tick();
  if (state.status === "in_progress" && clock.running) game.ticker = setInterval(tick, TICK_MS);
}

function renderActions() {
  const state = game.state;
  const seated = Boolean(game.token) && state && state.status === "in_progress";
  $("actions").hidden = !game.token;
  $("resign").disabled = !seated;
  if (!seated) $("confirm-resign").hidden = true;
  const offer = state ? state.draw_offer : null;
  const { names } = KINDS[game.kind];
  const theirs = seated && offer === 3 - game.player;
  const mine = seated && offer === game.player;
  $("accept-draw").hidden = !theirs;
  $("offer-draw").hidden = theirs;
  $("offer-draw").disabled = !seated || mine;
  $("offer-note").textContent = theirs
    ? `${names[offer]} offers a draw. Accept it, or make a move to decline.`
    : mine ? "You offered a draw; it stands until the next move." : "";
}

function renderCells() {
  const won = winningCells();
  const reversi = game.kind === "reversi";
  const { marks, names } = KINDS[game.kind];
  const last = game.lastMove;
  const lastIndex = last ? last.row * game.width + last.col : -1;
  const flipped = new Set((last && last.flips || []).map(([r, c]) => r * game.width + c));
  $("board").querySelectorAll(".cell").forEach((cell, index) => {
    const owner = game.cells[index];
    const mark = marks[owner] || "";
    cell.textContent = reversi ? "" : mark;
    cell.dataset.mark = mark;
    cell.classList.toggle("win", won.has(index));
    cell.classList.toggle("flip", flipped.has(index));
    cell.classList.toggle("last", index === lastIndex);
    cell.classList.toggle("legal", game.legal.has(index));
    const place = `row ${Number(cell.dataset.row) + 1}, column ${Number(cell.dataset.col) + 1}`;
    const what = reversi ? (owner ? names[owner].toLowerCase() : "empty") : mark || "empty";
    const notes = [[won, "winning line"], [flipped, "just turned"], [game.legal, "legal move"]]
      .filter(([cells]) => cells.has(index)).map(([, note]) => `, ${note}`).join("");
    cell.setAttribute("aria-label", `${place}: ${what}${notes}`);
  });
}

function renderStatus() {
  const state = game.state;
  if (!state) return;
  const { names } = KINDS[state.game];
  const who = (player) => `${names[player]} (player ${player})`;
  const you = game.player ? `You are ${who(game.player)}. ` : "Watching. ";
  let text;
  if (state.status !== "in_progress") {
    text = result(state, who);
  } else if (state.next_player === game.player) {
    text = `${you}${passed(state)}Your turn.`;
  } else {
    text = `${you}${passed(state)}Waiting for ${who(state.next_player)}.`;
  }
  $("status").textContent = text;
  $("score").hidden = !state.score;
  $("score").textContent = state.score ? `Black ${state.score["1"]} – White ${state.score["2"]}` : "";
  $("game").dataset.status = state.status;
}

// Reversi: the opponent of the last move had no legal move, so the mover moves again.
function passed(state) {
  const move = state.last_move;
  if (!move || !move.passed) return "";
  const { names } = KINDS.reversi;
  return `${names[3 - move.player]} has no move — ${names[move.player]} plays again. `;
}

function result(state, who) {
  const { names } = KINDS[state.game];
  if (state.reason === "timeout") return `${names[state.winner]} wins on time: ${names[3 - state.winner]}'s clock ran out.`;
  if (state.reason === "resignation") return `${names[3 - state.winner]} resigned: ${names[state.winner]} wins.`;
  if (state.reason === "agreement") return "Draw by agreement.";
  const score = state.score;
  if (state.game === "reversi") {
    const { names } = KINDS.reversi;
    if (state.status === "won") return `${names[state.winner]} wins ${score[state.winner]}–${score[3 - state.winner]}`;
    if (state.reason === "move_limit") return `Draw: the move limit was reached (Black ${score["1"]} – White ${score["2"]}).`;
    return `Draw ${score["1"]}–${score["2"]}`;
  }
  if (state.status === "won") return `${who(state.winner)} wins!`;
  return state.reason === "move_limit" ? "Draw: the move limit was reached." : "Draw: the board is full.";
}

// Reversi: where the player to move may play, marked on the board; asked of the stateless
// endpoint for the board shown, once a version.
async function showLegalMoves() {
  const state = game.state;
  if (game.kind !== "reversi" || !state) return;
  const key = `${game.id} ${game.moves} ${state.move_count}`;
  if (game.hinted === key) return;
  game.hinted = key;
  if (state.status !== "in_progress" || state.next_player !== game.player || state.move_count !== game.moves) return;
  const color = KINDS.reversi.marks[game.player];
  const answer = await api("POST", "/v1/reversi/legal-moves", { body: { board: liveRows(), color } });
  if (!answer.ok || game.hinted !== key) return;
  game.legal = new Set(answer.data.moves.map(({ row, col }) => row * game.width + col));
  renderCells();
}

function liveRows() {
  const { marks } = KINDS[game.kind];
  return Array.from({ length: game.height }, (_, row) =>
    game.cells.slice(row * game.width, (row + 1) * game.width).map((owner) => marks[owner] || ".").join(""));
}

function showMessage(text) {
  $("message").textContent = text;
}

// --- Game picker ------------------------------------------------------------------------------

function pickKind() {
  const kind = $("game-kind").value;
  $("tictactoe-picker").hidden = kind !== "tictactoe";
  $("reversi-picker").hidden = kind !== "reversi";
  $("play-hint").textContent = HINTS[kind];
}

// k runs from 3 to n. It follows n while it is n (the classic game); a smaller k is kept while
// it fits.
function fillInARow() {
  const select = $("in-a-row");
  const n = Number($("size").value);
  const k = Number(select.value);
  const followsN = !k || k === Number(select.dataset.n);
  select.replaceChildren();
  for (let run = 3; run <= n; run++) {
    select.append(new Option(run === n ? `${run} (the whole line)` : String(run), String(run)));
  }
  select.value = String(followsN || k > n ? n : k);
  select.dataset.n = String(n);
}

function pickGomoku() {
  $("game-kind").value = "tictactoe";
  $("size").value = String(GOMOKU.n);
  fillInARow();
  $("in-a-row").value = String(GOMOKU.k);
  pickKind();
}

// --- Position checker -------------------------------------------------------------------------

function checkerKind() {
  return document.querySelector('input[name="kind"]:checked').value;
}

function boardRows() {
  return $("rows").value.split("\n").map((line) => line.trimEnd()).filter((line) => line.length > 0);
}

function switchKind() {
  const reversi = checkerKind() === "reversi";
  $("reversi-options").hidden = !reversi;
  $("tictactoe-options").hidden = reversi;
  $("cells-help").textContent = reversi ? ". empty, B black, W white" : ". or space empty, X, O";
  $("rows").value = reversi ? REVERSI_OPENING : "XOX\nO.O\nXOX";
  $("check-result").textContent = "";
  $("check-board").replaceChildren();
}

async function check(event) {
  event.preventDefault();
  const rows = boardRows();
  if (checkerKind() === "reversi") {
    const color = $("color").value;
    const answer = await api("POST", "/v1/reversi/legal-moves", { body: { board: rows, color } });
    if (!answer.ok) return showCheck(problemText(answer.data));
    const moves = answer.data.moves;
    showCheck(moves.length
      ? `${color} has ${moves.length} legal move${moves.length > 1 ? "s" : ""}: ` +
        moves.map((m) => `(${m.row}, ${m.col}) flips ${m.flips}`).join("; ") + ". Choose one to see its flips."
      : `${color} has no legal move and must pass.`);
    drawReversi(rows, color, moves, []);
  } else {
    const body = { board: rows };
    if ($("k").value) body.k = Number($("k").value);
    const answer = await api("POST", "/v1/tictactoe/validate", { body });
    if (!answer.ok) return showCheck(problemText(answer.data));
    const v = answer.data;
    let text;
    if (!v.valid) text = `Not reachable: ${REASONS[v.reason] || v.reason} (${v.reason}).`;
    else if (v.status === "in_progress") text = `Reachable. In progress: ${v.next} to move.`;
    else if (v.status === "draw") text = "Reachable. The game ended in a draw.";
    else text = `Reachable. ${v.winner} has won.`;
    showCheck(`${text} X: ${v.counts.X}, O: ${v.counts.O}.`);
    $("check-board").replaceChildren();
  }
}

function drawReversi(rows, color, moves, flips) {
  const grid = document.createElement("div");
  grid.className = "reversi";
  grid.style.setProperty("--cols", rows[0].length);
  const legal = new Map(moves.map((m) => [`${m.row},${m.col}`, m]));
  const flipped = new Set(flips.map(([r, c]) => `${r},${c}`));
  rows.forEach((line, row) => {
    [...line].forEach((stone, col) => {
      const key = `${row},${col}`;
      const move = legal.get(key);
      const cell = document.createElement(move ? "button" : "span");
      cell.className = `stone ${stone === "B" ? "black" : stone === "W" ? "white" : "empty"}`;
      if (flipped.has(key)) cell.classList.add("flip");
      if (move) {
        cell.type = "button";
        cell.classList.add("legal");
        cell.textContent = String(move.flips);
        cell.setAttribute("aria-label", `legal move at row ${row}, column ${col}: flips ${move.flips}`);
        cell.addEventListener("click", () => showFlips(rows, color, moves, row, col));
      } else {
        cell.setAttribute("aria-label", `row ${row}, column ${col}: ${stone === "B" ? "black" : stone === "W" ? "white" : "empty"}`);
      }
      grid.append(cell);
    });
  });
  $("check-board").replaceChildren(grid);
}

async function showFlips(rows, color, moves, row, col) {
  const answer = await api("POST", "/v1/reversi/check-move", { body: { board: rows, row, col, color } });
  if (!answer.ok) return showCheck(problemText(answer.data));
  const flips = answer.data.flips;
  showCheck(`${color} at (${row}, ${col}) flips ${flips.length}: ${flips.map(([r, c]) => `(${r}, ${c})`).join(", ")}.`);
  drawReversi(rows, color, moves, flips);
}

function showCheck(text) {
  $("check-result").textContent = text;
}

// --- Start ------------------------------------------------------------------------------------

function start() {
  const size = $("size");
  for (let n = 3; n <= 19; n++) size.append(new Option(`${n} × ${n}`, String(n)));
  fillInARow();
  pickKind();
  size.addEventListener("change", fillInARow);
  $("game-kind").addEventListener("change", pickKind);
  $("gomoku").addEventListener("click", pickGomoku);
  $("new-game").addEventListener("submit", newGame);
  $("time-control").addEventListener("change", () => {
    $("custom-clock").hidden = $("time-control").value !== "custom";
  });
  $("offer-draw").addEventListener("click", () => act("draw-offer"));
  $("accept-draw").addEventListener("click", () => act("draw-offer"));
  $("resign").addEventListener("click", () => {
    $("confirm-resign").hidden = false;
    $("resign-no").focus();
  });
  $("resign-no").addEventListener("click", () => { $("confirm-resign").hidden = true; });
  $("resign-yes").addEventListener("click", () => {
    $("confirm-resign").hidden = true;
    act("resign");
  });
  $("copy-invite").addEventListener("click", () => {
    $("invite-link").select();
    navigator.clipboard?.writeText($("invite-link").value);
  });
  document.querySelectorAll('input[name="kind"]').forEach((radio) => radio.addEventListener("change", switchKind));
  $("check-form").addEventListener("submit", check);
  $("rows").value = REVERSI_OPENING;
  const target = arrival();
  if (target) openGame(target);
  window.addEventListener("hashchange", () => {
    const next = arrival();
    if (next && (next.id !== game.id || next.token !== game.token)) openGame(next);
  });
}

start();
