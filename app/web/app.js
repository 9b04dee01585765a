// The play page: live n × n games over the public API, and a position checker.
// The other player's moves arrive by Server-Sent Events, or by polling with If-None-Match
// (about once a second, never while the tab is hidden) where a stream is not available.
// Tokens travel only in the URL fragment (#game=…&token=…&player=…), which browsers never send
// to a server, so they appear in no request line and no log.
"use strict";

const MARKS = { 1: "X", 2: "O" };
const REASONS = {
  bad_counts: "the numbers of X and O cannot occur (X moves first, players alternate)",
  both_won: "both players have a winning line",
  x_won_but_o_moved: "X has won, but O moved after that",
  o_won_but_x_moved: "O has won, but X moved after that",
  play_after_win: "the winner's lines cannot all have been completed by one last move",
};
const REVERSI_OPENING = "........\n........\n........\n...WB...\n...BW...\n........\n........\n........";
const POLL_MS = 1000;

const $ = (id) => document.getElementById(id);

// --- API --------------------------------------------------------------------------------------

async function api(method, path, { body, token, etag } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (etag) headers["If-None-Match"] = etag;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  const text = response.status === 304 ? "" : await response.text();
  const data = text ? JSON.parse(text) : null;
  return { status: response.status, ok: response.ok, etag: response.headers.get("ETag"), data };
}

function problemText(problem) {
  if (!problem || typeof problem !== "object") return "The service did not answer.";
  return `${problem.title}: ${problem.detail}`;
}

// --- Live game --------------------------------------------------------------------------------

const game = { id: null, token: null, player: null, n: 0, cells: [], version: 0, etag: null,
               state: null, timer: null, focus: 0, source: null };

function fragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { id: params.get("game"), token: params.get("token"), player: Number(params.get("player")) || null };
}

async function newGame(event) {
  event.preventDefault();
  const n = Number($("size").value);
  const created = await api("POST", "/v1/games", { body: { n } });
  if (!created.ok) return showMessage(problemText(created.data));
  const { id, tokens } = created.data;
  const invite = new URL(location.href);
  invite.hash = new URLSearchParams({ game: id, token: tokens["2"], player: "2" }).toString();
  $("invite-link").value = invite.toString();
  $("invite").hidden = false;
  location.hash = new URLSearchParams({ game: id, token: tokens["1"], player: "1" }).toString();
  await openGame(fragment());
}

async function openGame({ id, token, player }) {
  clearTimeout(game.timer);
  if (game.source) game.source.close();
  game.source = null;
  Object.assign(game, { id, token, player, version: 0, etag: null, state: null, focus: 0 });
  const current = await api("GET", `/v1/games/${encodeURIComponent(id)}`);
  if (!current.ok) {
    $("game").hidden = false;
    return showMessage(problemText(current.data));
  }
  game.n = current.data.n;
  game.cells = new Array(game.n * game.n).fill(0);
  buildBoard();
  $("game").hidden = false;
  showMessage("");
  await refresh(current);
  if (!listen()) schedulePoll();
}

// Push: the game's Server-Sent Events stream. If the browser has no EventSource, or the stream
// cannot be kept open, the page polls instead.
function listen() {
  if (!window.EventSource || (game.state && game.state.status !== "in_progress")) return false;
  const source = new EventSource(`/v1/games/${encodeURIComponent(game.id)}/events?since=${game.version}`);
  game.source = source;
  source.addEventListener("move", (event) => {
    const { move, state } = JSON.parse(event.data);
    game.cells[move.row * game.n + move.col] = move.player;
    if (move.seq > game.version) {
      game.version = move.seq;
      game.state = state;
    }
    renderCells();
    renderStatus();
  });
  source.addEventListener("end", (event) => {
    game.state = JSON.parse(event.data);
    source.close();
    game.source = null;
    renderCells();
    renderStatus();
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
  board.style.setProperty("--n", game.n);
  for (let row = 0; row < game.n; row++) {
    const line = document.createElement("div");
    line.setAttribute("role", "row");
    for (let col = 0; col < game.n; col++) {
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
  renderCells();
}

function moveFocus(event) {
  const steps = { ArrowUp: -game.n, ArrowDown: game.n, ArrowLeft: -1, ArrowRight: 1 };
  if (!(event.key in steps)) return;
  event.preventDefault();
  const here = Number(event.target.dataset.row) * game.n + Number(event.target.dataset.col);
  const there = here + steps[event.key];
  const sameRow = Math.floor(there / game.n) === Math.floor(here / game.n);
  if (there < 0 || there >= game.n * game.n) return;
  if ((event.key === "ArrowLeft" || event.key === "ArrowRight") && !sameRow) return;
  const cells = $("board").querySelectorAll(".cell");
  cells[here].tabIndex = -1;
  cells[there].tabIndex = 0;
  cells[there].focus();
  game.focus = there;
}

// Bring the local copy up to date with an answer of GET /v1/games/{id}.
async function refresh(answer) {
  if (answer.status === 304) return;
  if (!answer.ok) return showMessage(problemText(answer.data));
  game.etag = answer.etag;
  const state = answer.data;
  if (state.version > game.version) {
    const delta = await api("GET", `/v1/games/${encodeURIComponent(game.id)}/moves?since=${game.version}`);
    if (!delta.ok) return showMessage(problemText(delta.data));
    for (const move of delta.data.moves) {
      game.cells[move.row * game.n + move.col] = move.player;
      game.version = Math.max(game.version, move.seq);
    }
  }
  game.state = state;
  renderCells();
  renderStatus();
}

async function poll() {
  if (!game.id || document.hidden || game.source) return;
  if (game.state && game.state.status !== "in_progress") return;
  const answer = await api("GET", `/v1/games/${encodeURIComponent(game.id)}`, { etag: game.etag });
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
  const answer = await api("POST", `/v1/games/${encodeURIComponent(game.id)}/moves`, {
    body: { row, col, player: game.player }, token: game.token,
  });
  if (!answer.ok) return showMessage(problemText(answer.data));
  showMessage("");
  const { move, state } = answer.data;
  game.cells[move.row * game.n + move.col] = move.player;
  if (move.seq === game.version + 1) game.version = move.seq;
  game.etag = answer.etag;
  game.state = state;
  if (state.version > game.version) await refresh(await api("GET", `/v1/games/${encodeURIComponent(game.id)}`));
  renderCells();
  renderStatus();
}

function winningCells() {
  const state = game.state;
  if (!state || state.status !== "won" || !state.last_move) return new Set();
  const { row, col } = state.last_move;
  const n = game.n;
  const lines = [
    Array.from({ length: n }, (_, i) => row * n + i),
    Array.from({ length: n }, (_, i) => i * n + col),
  ];
  if (row === col) lines.push(Array.from({ length: n }, (_, i) => i * n + i));
  if (row + col === n - 1) lines.push(Array.from({ length: n }, (_, i) => i * n + (n - 1 - i)));
  const won = new Set();
  for (const line of lines) {
    if (line.every((index) => game.cells[index] === state.winner)) line.forEach((index) => won.add(index));
  }
  return won;
}

function renderCells() {
  const won = winningCells();
  $("board").querySelectorAll(".cell").forEach((cell, index) => {
    const owner = game.cells[index];
    const mark = MARKS[owner] || "";
    cell.textContent = mark;
    cell.dataset.mark = mark;
    cell.classList.toggle("win", won.has(index));
    const place = `row ${Number(cell.dataset.row) + 1}, column ${Number(cell.dataset.col) + 1}`;
    cell.setAttribute("aria-label", `${place}: ${mark || "empty"}${won.has(index) ? ", winning line" : ""}`);
  });
}

function renderStatus() {
  const state = game.state;
  if (!state) return;
  const you = game.player ? `You are ${MARKS[game.player]} (player ${game.player}). ` : "Watching. ";
  let text;
  if (state.status === "won") {
    text = `${MARKS[state.winner]} (player ${state.winner}) wins!`;
  } else if (state.status === "draw") {
    text = "Draw: the board is full.";
  } else if (state.next_player === game.player) {
    text = `${you}Your turn.`;
  } else {
    text = `${you}Waiting for ${MARKS[state.next_player]} (player ${state.next_player}).`;
  }
  $("status").textContent = text;
  $("game").dataset.status = state.status;
}

function showMessage(text) {
  $("message").textContent = text;
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
  $("new-game").addEventListener("submit", newGame);
  $("copy-invite").addEventListener("click", () => {
    $("invite-link").select();
    navigator.clipboard?.writeText($("invite-link").value);
  });
  document.querySelectorAll('input[name="kind"]').forEach((radio) => radio.addEventListener("change", switchKind));
  $("check-form").addEventListener("submit", check);
  $("rows").value = REVERSI_OPENING;
  const { id } = fragment();
  if (id) openGame(fragment());
  window.addEventListener("hashchange", () => {
    const target = fragment();
    if (target.id && target.id !== game.id) openGame(target);
  });
}

start();
