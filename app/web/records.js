// Game records on the page. A game's record downloaded (GET /v1/games/{id}/record): as JSON,
// as a transcript where its squares have names, and in each community format of its kind that
// can write its board. A game checked (POST /v1/records/audit): a transcript or a record pasted
// and replayed by the service, its verdict said in words and the position after its accepted
// moves drawn on a board of its own, the first refused move ringed.
import { boardGame, buildBoard, renderCells } from "./board.js";
import { $ } from "./elements.js";
import { kindOf } from "./kinds.js";
import { hasNames, parseSquare } from "./squares.js";
import { named, showMessage } from "./status.js";
import { api, problemText } from "./transport.js";

const JSON_RECORD = "json";
const TRANSCRIPT = "transcript";
const NAMES = { [JSON_RECORD]: "JSON", [TRANSCRIPT]: "transcript" }; // a kind's own: "GGF"
// A download's file: its extension and type (a kind's own format: .<format>, text).
const FILES = { [JSON_RECORD]: [".json", "application/json"], [TRANSCRIPT]: [".txt", "text/plain"] };
// What the text box takes as a JSON record (a transcript: transcriptHelp).
const JSON_HELP = "a record as this page downloads it: the game and its parameters come from it";

const nameOf = (format) => NAMES[format] || format.toUpperCase();

// --- download the game -------------------------------------------------------------------------

// One button for each way the game's record can be written, for players and watchers alike.
export function showDownloads(game, kind) {
  const { id } = game; // the game shown now, whichever the page shows later
  const formats = [JSON_RECORD];
  if (hasNames(game.width)) formats.push(TRANSCRIPT); // a transcript is square names
  formats.push(...kind.formats.filter((format) => kind.writes(format, game)));
  $("download-buttons").replaceChildren(...formats.map((format) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "secondary";
    button.textContent = `Download ${nameOf(format)}`;
    button.addEventListener("click", () => download(id, format));
    return button;
  }));
  $("downloads").hidden = false;
}

// The record as the service writes it now (the game may go on), saved as <game id>.<extension>.
async function download(id, format) {
  const query = format === JSON_RECORD ? "" : `?format=${format}`;
  const answer = await api("GET", `/v1/games/${encodeURIComponent(id)}/record${query}`);
  if (!answer.ok) return showMessage(problemText(answer.data));
  const [extension, type] = FILES[format] || [`.${format}`, "text/plain"];
  const url = URL.createObjectURL(new Blob([answer.text], { type }));
  const link = document.createElement("a");
  Object.assign(link, { href: url, download: `${id}${extension}` });
  link.click();
  setTimeout(() => URL.revokeObjectURL(url)); // the download has taken the blob by then
}

// --- check a game --------------------------------------------------------------------------

const bodies = new Map(); // a kind's name -> the creation body its fields in this form describe
// "<kind>/<format>" -> the parameters given beside a record in that format, as its fields say
// them (a format that cannot carry some: the kind's given, from the service's list)
const givens = new Map();
const owners = new Map(); // a community format -> the kind whose records it writes ("ggf": reversi)
let asked = 0; // checks sent: only the last one's answer is shown
let formatChosen = false; // "Written as" picked by hand, not recognised in the text

// The game checker: how the game is written (a transcript, a JSON record, each kind's formats),
// recognised in the text as it is pasted where it can be; a record says its kind (a JSON record
// names it, a format is one kind's), a transcript is read as the game picked: the kind that is
// checked first (Othello's, whose games are the transcripts people paste) unless another is.
export function startAudit(kinds) {
  const picker = $("audit-kind");
  const first = kinds.find((kind) => kind.checkedFirst) || kinds[0];
  const formats = [TRANSCRIPT, JSON_RECORD];
  for (const kind of [first, ...kinds.filter((other) => other !== first)]) {
    picker.append(new Option(kind.title, kind.game));
    const box = document.createElement("div");
    box.id = `audit-${kind.game}-fields`;
    box.className = "picker";
    bodies.set(kind.game, kind.fields(box, "audit-"));
    $("audit-fields").append(box);
    for (const format of kind.formats) {
      owners.set(format, kind);
      formats.push(format);
      const names = (kind.given || {})[format] || [];
      if (!names.length) continue;
      const given = document.createElement("div");
      given.id = `audit-${kind.game}-${format}-fields`;
      given.className = "picker";
      givens.set(`${kind.game}/${format}`, kind.fields(given, `audit-${format}-`, new Set(names)));
      $("audit-fields").append(given);
    }
  }
  $("audit-format").replaceChildren(...formats.map((format) => new Option(formatLabel(format), format)));
  picker.value = first.game;
  picker.addEventListener("change", pickFormat);
  $("audit-format").addEventListener("change", () => {
    formatChosen = true;
    pickFormat();
  });
  $("audit-text").addEventListener("input", recognise);
  pickFormat();
  $("audit-form").addEventListener("submit", check);
  $("audit-submit").disabled = false;
}

function formatLabel(format) {
  if (format === TRANSCRIPT) return "Transcript (squares)";
  if (format === JSON_RECORD) return "JSON record (as downloaded here)";
  return `${nameOf(format)} record (${owners.get(format).title})`;
}

// How the text is written, where it says so: a JSON object, or a record a kind's page module
// recognises (a GGF game's GM[Othello], a PSQ's Piskvorky header, an SGF's GM[4]). Else what was
// picked by hand stays, and what was recognised before goes back to a transcript.
function recognise() {
  const text = $("audit-text").value;
  const found = text.trimStart().startsWith("{") ? JSON_RECORD
    : [...owners.keys()].find((format) => owners.get(format).recognises(format, text));
  if (!found && formatChosen) return;
  const format = found || TRANSCRIPT;
  formatChosen = false;
  if ($("audit-format").value === format) return;
  $("audit-format").value = format;
  pickFormat();
}

// The kind the text is checked as, and how it is written: a format's own kind, else the one
// picked (a JSON record names its own: the answer says which).
function picked() {
  const format = $("audit-format").value;
  return { format, kind: owners.get(format) || kindOf($("audit-kind").value) };
}

// A transcript needs the game and its parameters; a record gives its own, but for those its
// format cannot carry (a PSQ record's rule), which may be given beside it.
function pickFormat() {
  const { format, kind } = picked();
  const given = `${kind.game}/${format}`;
  $("audit-kind-field").hidden = format !== TRANSCRIPT;
  $("audit-fields").hidden = format !== TRANSCRIPT && !givens.has(given);
  for (const [game] of bodies) $(`audit-${game}-fields`).hidden = game !== kind.game || format !== TRANSCRIPT;
  for (const [key] of givens) $(`audit-${key.replace("/", "-")}-fields`).hidden = key !== given;
  $("audit-help").textContent = format === TRANSCRIPT ? transcriptHelp(kind)
    : format === JSON_RECORD ? JSON_HELP : `a ${kind.title} game as ${nameOf(format)} text`;
}

// What a transcript of the kind picked is: its squares, as its players name them (or as its
// page module says, where its moves are no squares).
function transcriptHelp(kind) {
  if (kind.transcriptHelp) return kind.transcriptHelp;
  const rows = kind.row_one === "top" ? "row 1 the top row" : "row 1 the bottom row";
  return `its squares one after another (${kind.title}: column a the leftmost, ${rows}), such as ${kind.transcript}`;
}

async function check(event) {
  event.preventDefault();
  const { format, kind } = picked();
  const mine = ++asked;
  let sent;
  try {
    sent = request(kind, format, $("audit-text").value);
  } catch (error) {
    return showVerdict(error.message);
  }
  const answer = await api("POST", "/v1/records/audit", { body: sent.body });
  if (mine !== asked) return;
  if (!answer.ok) {
    const problem = answer.data; // a 422 is a text that is no record: its detail says where
    const unread = answer.status === 422 && problem && problem.detail;
    return showVerdict(unread ? problem.detail : problemText(problem));
  }
  const audit = answer.data;
  const audited = kindOf(audit.state.game); // a JSON record names its own kind
  showVerdict(verdict(audit, audited), position(audit, audited, sent.params));
}

// The audit body for the text as written, and the creation parameters the page knows the
// game's start from (start() of the kind).
function request(kind, format, text) {
  if (format === TRANSCRIPT) {
    const params = { game: kind.game, ...bodies.get(kind.game)() };
    return { body: { ...params, transcript: text }, params };
  }
  if (format === JSON_RECORD) {
    let record;
    try {
      record = JSON.parse(text);
    } catch (error) {
      throw new Error(`This is not JSON: ${error.message}`);
    }
    if (!record || typeof record !== "object" || Array.isArray(record)) {
      throw new Error('A JSON record is an object: {"game": …, its parameters, "moves": […]}.');
    }
    const { state, chain, signature, ...body } = record; // what the audit answers, not asks
    return { body, params: body };
  }
  const given = givens.get(`${kind.game}/${format}`);
  const body = { game: kind.game, record: text, format, ...(given ? given() : {}) };
  return { body, params: kind.recordParams(format, text) };
}

// The verdict in words: how the game stands after the plies the service accepted.
function verdict(audit, kind) {
  const { state, illegal } = audit;
  const who = (player) => named(kind.nameOf(state, player), player);
  const score = kind.score(state) ? ` ${kind.score(state)}.` : "";
  if (audit.verdict === "finished") return `Finished after ${plies(audit.plies)}: ${kind.result(state, who)}`;
  if (audit.verdict === "unfinished") {
    return `Unfinished: ${plies(audit.plies)}, all legal; ${who(state.next_player)} is to move.${score}`;
  }
  const move = Array.isArray(illegal.move) ? `(${illegal.move.join(", ")})` : illegal.move;
  const before = audit.plies
    ? ` The ${plies(audit.plies)} before it are legal; the board shows the position after them.` : "";
  return `Illegal at ply ${illegal.ply}, ${move}: ${problemText(illegal)}.${before}${score}`;
}

const plies = (count) => `${count} ${count === 1 ? "ply" : "plies"}`;

// The board after the accepted moves: the kind's start, each move record's cells taken (as the
// live board takes them), the last move marked and the refused one ringed.
function position(audit, kind, params) {
  const rows = kind.start(params, audit.state);
  const game = boardGame(rows, kind, { moves: audit.moves.length, lastMove: audit.moves.at(-1) || null, state: audit.state });
  for (const move of audit.moves) {
    for (const [row, col] of kind.cellsTaken(move)) game.cells[row * game.width + col] = kind.ownerOf(move);
  }
  const refused = audit.illegal ? cellOf(audit.illegal.move, game, kind) : null;
  const marks = refused === null ? [] : [
    { className: "refused", note: `refused move: ${audit.illegal.detail}`, cells: new Set([refused]) },
  ];
  return { game, kind, marks };
}

// The index of the cell a move was written as (a square, or [row, col]); null for a pass or a
// cell the board does not have.
function cellOf(move, game, kind) {
  const [row, col] = Array.isArray(move) ? move : parseSquare(move, game.height, game.width, kind.row_one) || [];
  const inside = (value, length) => Number.isInteger(value) && value >= 0 && value < length;
  return inside(row, game.height) && inside(col, game.width) ? row * game.width + col : null;
}

function showVerdict(text, shown = null) {
  $("audit-verdict").textContent = text;
  const grid = $("audit-board");
  $("audit-board-box").hidden = !shown;
  if (!shown) return grid.replaceChildren();
  buildBoard(grid, shown.game, shown.kind);
  renderCells(grid, shown.game, shown.kind, shown.marks);
}
