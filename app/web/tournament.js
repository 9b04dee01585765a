// A tournament (GET /v1/tournaments/{id}): its standings (rank, player, points, then the
// tie-breaks in the service's order) and its crosstable (a row a player in the seeding order, a
// column a round: the opponent's number and the player's score, "bye", or "…" while the game
// goes on). Shown for the id entered, and kept up to date through the tournament's event stream
// (polled where the browser has no EventSource) until it is finished.
import { $ } from "./elements.js";
import { api, openEventStream, poller, problemText } from "./transport.js";

const REFRESH_MS = 100; // a burst of events (a resumed stream replays them) reads the document once
const SCORES = { "1-0": ["1", "0"], "0-1": ["0", "1"], "½-½": ["½", "½"] };
const TIEBREAKS = {
  buchholz: "Buchholz",
  sonneborn_berger: "Sonneborn–Berger",
  brightwell: "Brightwell",
  discs: "Discs",
};

let shown = null; // { id, source, polling, timer }

export function startTournament() {
  $("tournament-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = $("tournament-id").value.trim();
    if (id) follow(id);
  });
}

function follow(id) {
  stop();
  const current = { id, source: null, polling: null, timer: null };
  shown = current;
  const soon = () => {
    clearTimeout(current.timer);
    current.timer = setTimeout(() => refresh(current), REFRESH_MS);
  };
  const path = `/v1/tournaments/${encodeURIComponent(id)}/events`;
  current.source = openEventStream(path, { round: soon, result: soon, end: soon }, () => {});
  if (!current.source) {
    current.polling = poller(() => refresh(current), () => {});
    current.polling.start();
  }
  refresh(current);
}

function stop() {
  if (!shown) return;
  shown.source?.close();
  shown.polling?.stop();
  clearTimeout(shown.timer);
  shown = null;
}

// Reads the document and draws it; whether there is more to wait for.
async function refresh(current) {
  const answer = await api("GET", `/v1/tournaments/${encodeURIComponent(current.id)}`);
  if (shown !== current) return false;
  if (!answer.ok) {
    $("tournament-status").textContent = problemText(answer.data);
    $("tournament-tables").hidden = true;
    stop();
    return false;
  }
  draw(answer.data);
  if (answer.data.status === "finished") stop();
  return answer.data.status !== "finished";
}

function draw(tournament) {
  const names = Object.fromEntries(tournament.players.map((p) => [p.id, p.name]));
  const planned = tournament.rounds_planned;
  const played = tournament.rounds.length;
  const state = { registering: "registering players", running: `round ${played} of ${planned}`,
    finished: `finished after ${played} rounds` }[tournament.status];
  $("tournament-status").textContent = `${tournament.name} (${tournament.system.replaceAll("_", " ")}): ${state}.`;
  $("tournament-tables").hidden = false;
  drawStandings(tournament, names);
  drawCrosstable(tournament, names);
}

function cell(tag, text, attributes = {}) {
  const element = document.createElement(tag);
  element.textContent = text;
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  return element;
}

function points(value) {
  const whole = Math.floor(value);
  return value - whole === 0.5 ? `${whole || ""}½` : String(value);
}

function drawStandings(tournament, names) {
  const rows = tournament.standings;
  const breaks = rows.length ? Object.keys(rows[0].tiebreaks) : [];
  const head = document.createElement("tr");
  head.append(cell("th", "Rank", { scope: "col" }), cell("th", "Player", { scope: "col" }),
    cell("th", "Points", { scope: "col" }),
    ...breaks.map((name) => cell("th", TIEBREAKS[name] || name, { scope: "col", "data-tiebreak": name })));
  const body = rows.map((row) => {
    const line = document.createElement("tr");
    line.dataset.player = row.player;
    line.append(cell("td", String(row.rank)), cell("th", names[row.player] || row.player, { scope: "row" }),
      cell("td", points(row.points), { "data-points": String(row.points) }),
      ...breaks.map((name) => cell("td", points(row.tiebreaks[name]), { "data-tiebreak": name,
        "data-value": String(row.tiebreaks[name]) })));
    return line;
  });
  $("tournament-standings-head").replaceChildren(head);
  $("tournament-standings-body").replaceChildren(...body);
}

function drawCrosstable(tournament, names) {
  const number = Object.fromEntries(tournament.players.map((p, index) => [p.id, index + 1]));
  const head = document.createElement("tr");
  head.append(cell("th", "No.", { scope: "col" }), cell("th", "Player", { scope: "col" }),
    ...tournament.rounds.map((r) => cell("th", `R${r.number}`, { scope: "col", title: `Round ${r.number}` })),
    cell("th", "Points", { scope: "col" }));
  const total = Object.fromEntries(tournament.standings.map((row) => [row.player, row.points]));
  const body = tournament.players.map((player) => {
    const line = document.createElement("tr");
    line.dataset.player = player.id;
    const name = names[player.id] + (player.withdrawn === undefined ? "" : " (withdrawn)");
    line.append(cell("td", String(number[player.id])), cell("th", name, { scope: "row" }));
    for (const round of tournament.rounds) line.append(crossCell(round, player.id, number, names));
    line.append(cell("td", points(total[player.id] ?? 0)));
    return line;
  });
  $("tournament-crosstable-head").replaceChildren(head);
  $("tournament-crosstable-body").replaceChildren(...body);
}

// The player's round: "3 1" (against number 3, scored 1), "bye", "3 …" while it is played, or
// "–" when the player was not paired.
function crossCell(round, playerId, number, names) {
  const pairing = round.pairings.find((p) => p.players["1"] === playerId || p.players["2"] === playerId);
  if (!pairing) return cell("td", "–", { "data-result": "" });
  if (pairing.result === "bye") return cell("td", "bye", { "data-result": "bye", "data-opponent": "" });
  const seat = pairing.players["1"] === playerId ? 0 : 1;
  const opponent = pairing.players[seat === 0 ? "2" : "1"];
  const score = pairing.result ? SCORES[pairing.result][seat] : "…";
  return cell("td", `${number[opponent]} ${score}`, {
    "data-opponent": opponent,
    "data-result": pairing.result ? score : "",
    title: `against ${names[opponent]}, ${seat === 0 ? "moving first" : "moving second"}`,
  });
}
