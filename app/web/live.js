// The live game this page shows: its board as the page knows it, opened at a known version and
// kept up to date by the game's event stream or, where there is none, by polling with
// If-None-Match; the viewer's moves (a pass too) and other changes (draw offers, resignation,
// abort, takeback, rematch) sent from it; a takeback accepted loads the board again;
// its record offered for download.
import { cancelResignation, renderActions } from "./actions.js";
import { buildBoard, cellsOf, renderCells } from "./board.js";
import { renderClocks } from "./clocks.js";
import { $ } from "./elements.js";
import { kindOf } from "./kinds.js";
import { showDownloads } from "./records.js";
import { rememberSeat, showGameInAddressBar } from "./seats.js";
import { renderStatus, showMessage } from "./status.js";
import { api, openEventStream, poller, problemText } from "./transport.js";

// cells: 0 empty, 1 or 2 the player whose mark or stone is there, row by row. moves: the seq of
// the last move applied to them; state may run ahead of them for a moment. The state's version
// counts every change (moves, draw offers, endings), its move_count the moves.
// token: the player's (null when watching); viewer: the token its reads carry (a player's or a
// spectator's: a private game is read with one only).
export const game = { id: null, token: null, viewer: null, player: null, kind: null, height: 0,
                      width: 0, cells: [], moves: 0, lastMove: null, etag: null, state: null,
                      source: null };

const polling = poller(poll, () => showMessage("Lost contact with the service; retrying."));

const gamePath = (suffix = "") => `/v1/games/${encodeURIComponent(game.id)}${suffix}`;
const inProgress = () => !game.state || game.state.status === "in_progress";
// After the end, a seated player's page keeps reading the game while a rematch may come.
const rematchMayCome = () => Boolean(game.token) && game.state && !game.state.rematch &&
  !(game.state.rules && game.state.rules.rematch === false);
const read = (path, options = {}) => api("GET", path, { ...options, token: game.viewer });

export async function openGame({ id, token, player }) {
  polling.stop();
  closeStream();
  const seated = player === 1 || player === 2;
  Object.assign(game, {
    id, token: seated ? token : null, viewer: token, player: seated ? player : null, moves: 0,
    lastMove: null, etag: null, state: null,
  });
  $("spectator").hidden = true;
  cancelResignation();
  const current = await snapshot(id, token);
  if (game.id !== id) return; // another game was opened meanwhile
  if (!current.ok) {
    $("game").hidden = false;
    return showMessage(problemText(current.problem));
  }
  const { state, etag, rows } = current;
  const kind = kindOf(state.game);
  Object.assign(game, {
    kind: state.game, height: rows.length, width: rows[0].length, etag, state,
    cells: cellsOf(rows, kind), moves: state.move_count, lastMove: state.last_move,
  });
  buildBoard($("board"), game, kind, play);
  showDownloads(game, kind);
  $("game").hidden = false;
  showMessage("");
  render();
  inView();
  if (!listen() && (inProgress() || rematchMayCome())) polling.start();
}

// The game opened, in view: the new-game form folds away (its summary opens it again), and the
// page scrolls as little as brings the game's status, board and buttons into the window where
// they fit it, else to the status (a page that opened an invite link, or joined from Find a
// game below, lands on the game).
function inView() {
  $("new-game-box").open = false;
  const parts = ["status", "board-box", "actions"].map((id) => $(id)).filter((part) => !part.hidden);
  const top = Math.min(...parts.map((part) => part.getBoundingClientRect().top));
  const bottom = Math.max(...parts.map((part) => part.getBoundingClientRect().bottom));
  const margin = 8; // px: the game does not touch the window's edges
  const below = bottom + margin - window.innerHeight;
  if (top < margin) window.scrollBy(0, top - margin);
  else if (below > 0) window.scrollBy(0, Math.min(below, top - margin));
}

// The board at a known version: the state, the board, then the state again (a 304 with its
// ETag) until no move came in between. The moves alone do not give the board: a game may start
// from a posted position.
async function snapshot(id, token) {
  const path = `/v1/games/${encodeURIComponent(id)}`;
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await api("GET", path, { token });
    if (!before.ok) return { ok: false, problem: before.data };
    const board = await api("GET", `${path}/board`, { token });
    if (!board.ok) return { ok: false, problem: board.data };
    const after = await api("GET", path, { etag: before.etag, token });
    if (after.status === 304) return { ok: true, state: before.data, etag: before.etag, rows: board.data.rows };
    if (!after.ok) return { ok: false, problem: after.data };
  }
  return { ok: false, problem: { title: "Busy game", detail: "moves kept arriving while the board loaded; reload to try again" } };
}

// Push: the game's event stream, while the game goes on. Where the browser has none, or the
// stream cannot be kept open, the page polls instead; so it does for a private game (an
// EventSource sends no token).
function listen() {
  if (!inProgress() || game.state.visibility === "private") return false;
  const source = openEventStream(gamePath(`/events?since=${game.state.version}`), {
    move: ({ move, state }) => receive(move, state),
    join: (state) => { // the open seat was taken: the game begins
      adopt(state);
      render();
    },
    offer: (state) => {
      adopt(state);
      render();
    },
    clock: (state) => { // time was given
      adopt(state);
      render();
    },
    takeback: (state) => taken(state), // an offer standing, or accepted: moves taken back
    abort: (state) => adopt(state),
    end: (state) => {
      adopt(state);
      closeStream();
      render();
      if (rematchMayCome()) polling.start();
    },
  }, (lost) => {
    if (game.source !== lost) return;
    game.source = null;
    polling.start();
  });
  game.source = source;
  return source !== null;
}

function closeStream() {
  if (game.source) game.source.close();
  game.source = null;
}

// A move's stone, and the stones it turns, all become the mover's. Each move is applied once and
// in order, so a late copy of an old move cannot undo what a newer one turned.
function applyMove(move) {
  if (move.seq !== game.moves + 1) return false;
  const kind = kindOf(game.kind);
  for (const [row, col] of kind.cellsTaken(move)) {
    game.cells[row * game.width + col] = kind.ownerOf(move);
  }
  game.moves = move.seq;
  game.lastMove = move;
  return true;
}

function adopt(state) {
  if (!game.state || state.version >= game.state.version) game.state = state;
}

// A state after a takeback offer: while it stands, nothing else changed; once accepted, moves
// are gone (their numbers used again), so the board is loaded again.
async function taken(state) {
  if (state.takeback_offer !== null) {
    adopt(state);
    return render();
  }
  const current = await snapshot(game.id, game.viewer);
  if (!current.ok) return showMessage(problemText(current.problem));
  const kind = kindOf(game.kind);
  Object.assign(game, {
    cells: cellsOf(current.rows, kind), moves: current.state.move_count,
    lastMove: current.state.last_move, etag: current.etag, state: current.state,
  });
  render();
}

// One move's answer (to our own move, or from the event stream). After a gap, a move we never
// saw, the page fetches what it missed.
async function receive(move, state) {
  if (move.seq > game.moves + 1) return refresh(await read(gamePath()));
  applyMove(move);
  adopt(state);
  render();
}

// Bring the local copy up to date with an answer of GET /v1/games/{id}.
async function refresh(answer) {
  if (answer.status === 304) return;
  if (!answer.ok) return showMessage(problemText(answer.data));
  const state = answer.data;
  // A takeback accepted since the state the page knows: moves after some number were taken back
  // (more may have been made since), so the board is loaded again.
  const known = game.state ? game.state.version : 0;
  if (state.last_takeback > known || state.move_count < game.moves) {
    return taken({ ...state, takeback_offer: null });
  }
  while (state.move_count > game.moves) {
    const since = game.moves;
    const delta = await read(gamePath(`/moves?since=${since}`));
    if (!delta.ok) return showMessage(problemText(delta.data));
    delta.data.moves.forEach(applyMove);
    if (game.moves === since) break; // nothing new (the game was replaced meanwhile)
  }
  if (game.moves >= state.move_count) game.etag = answer.etag; // else a 304 would hide the rest
  adopt(state);
  render();
}

// One poll: answers whether to poll on (after the end, while a rematch may come: made, it is
// opened at once when this player had offered it).
async function poll() {
  if (!game.id || game.source || !(inProgress() || rematchMayCome())) return false;
  await refresh(await read(gamePath(), { etag: game.etag }));
  if (!inProgress() && game.state.rematch && game.state.rematch_offer === undefined) {
    if (offered) await offerRematch();
    return false;
  }
  return inProgress() || rematchMayCome();
}

function play(row, col) {
  return sendMove(kindOf(game.kind).moveBody(row, col));
}

// A pass (where the kind has passes: renju's), sent as a move is.
export function pass() {
  return sendMove({ pass: true });
}

// A choice the game's opening asks of the player (swap2's colour), answered as a move is.
export function choose(body) {
  return sendMove(body, "/choice");
}

async function sendMove(body, route = "/moves") {
  if (!game.token) return showMessage("You are watching: only the players can move.");
  const id = game.id;
  const answer = await api("POST", gamePath(route), {
    body: { ...body, player: game.player }, token: game.token,
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
export async function act(action, body = {}) {
  if (!game.token) return showMessage("You are watching: only the players can do that.");
  const id = game.id;
  const answer = await api("POST", gamePath(`/${action}`), { body, token: game.token });
  if (game.id !== id) return;
  if (!answer.ok) return showMessage(problemText(answer.data));
  showMessage("");
  if (action === "takeback-offer" && answer.data.move_count < game.moves) return taken(answer.data);
  adopt(answer.data);
  render();
}

// A rematch offer after the end, or its acceptance: once the rematch is made, this player's seat
// in it (the other seat: colours swapped) opens in this tab.
let offered = false;
export async function offerRematch() {
  if (!game.token) return;
  const id = game.id;
  const answer = await api("POST", gamePath("/rematch"), { token: game.token });
  if (game.id !== id) return;
  if (!answer.ok) return showMessage(problemText(answer.data));
  showMessage("");
  const made = answer.data.rematch;
  if (!made) {
    offered = true;
    adopt(answer.data.state);
    render();
    polling.start();
    return;
  }
  offered = false;
  rememberSeat(made.id, made.token, made.player);
  showGameInAddressBar(made.id);
  await openGame({ id: made.id, token: made.token, player: made.player });
}

// A spectator link: a read-only token a player makes, in a link's fragment (player 0).
export async function spectate() {
  if (!game.token) return;
  const answer = await api("POST", gamePath("/spectators"), { token: game.token });
  if (!answer.ok) return showMessage(problemText(answer.data));
  const link = new URL(location.href);
  link.hash = new URLSearchParams({ game: game.id, token: answer.data.token, player: "0" }).toString();
  $("spectator-link").value = link.toString();
  $("spectator").hidden = false;
}

function render() {
  const kind = kindOf(game.kind);
  renderCells($("board"), game, kind);
  renderStatus(game, kind);
  renderClocks(game, kind);
  renderActions(game, kind);
  kind.hints(game, () => renderCells($("board"), game, kind));
}
