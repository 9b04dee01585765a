// Finished games: the archive (GET /v1/archive/games), the newest first, each with a Show
// button that reads its signed record from the archive (GET /v1/archive/games/{id}) and replays
// it with the game checker below, which says how it ended and draws its last position. The list
// is read when the page starts and on Reload; a service that keeps no archive shows none.
import { $ } from "./elements.js";
import { kindOf } from "./kinds.js";
import { named, showMessage } from "./status.js";
import { api, problemText } from "./transport.js";

export function startArchive() {
  $("archive-refresh").addEventListener("click", refresh);
  refresh();
}

async function refresh() {
  const answer = await api("GET", "/v1/archive/games?limit=20");
  const games = answer.ok ? answer.data.games : [];
  $("archive-empty").textContent = answer.ok ? "No finished game yet." : problemText(answer.data);
  $("archive-empty").hidden = games.length > 0;
  $("archive-games").replaceChildren(...games.map(entry));
}

// One finished game: its kind and size or rule, its players' names, how it ended, and when.
function entry(summary) {
  const kind = kindOf(summary.game);
  const item = document.createElement("li");
  const what = summary.rule ? ` (${summary.rule})` : summary.n ? ` (${summary.n} × ${summary.n})` : "";
  const names = summary.names || {};
  const seats = names["1"] || names["2"] ? `, ${named(names["1"], 1)} v ${named(names["2"], 2)}` : "";
  const result = summary.status === "won" ? `${named(names[String(summary.winner)], summary.winner)} won`
    : summary.status === "draw" ? "draw" : "aborted";
  const ended = summary.ended_at.slice(0, 16).replace("T", " ");
  const text = document.createElement("span");
  text.id = `archived-${summary.id}`;
  text.textContent = `${kind.title}${what}${seats}: ${result} (${summary.reason}), ${summary.move_count} moves, ${ended} UTC`;
  const show = document.createElement("button");
  show.type = "button";
  show.className = "secondary";
  show.textContent = "Show";
  show.setAttribute("aria-describedby", text.id); // "Show", and which game: the entry's words
  show.addEventListener("click", () => replay(summary.id));
  item.append(text, " ", show);
  return item;
}

// The game's record, from the archive, replayed by the game checker as a pasted record would be.
async function replay(id) {
  const answer = await api("GET", `/v1/archive/games/${encodeURIComponent(id)}`);
  if (!answer.ok) return showMessage(problemText(answer.data));
  const text = $("audit-text");
  text.value = answer.text;
  text.dispatchEvent(new Event("input")); // recognised: a JSON record
  $("audit-form").requestSubmit();
  $("audit").scrollIntoView({ block: "start" });
}
