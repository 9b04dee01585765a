// Find a game: the lobby (GET /v1/games?open=true), open games of every kind oldest first, each
// with a Join button that takes its free seat (POST /v1/games/{id}/join) and plays it in this
// tab, as an invite link would. The list is read when the page starts and on Refresh.
import { $ } from "./elements.js";
import { kindOf } from "./kinds.js";
import { openGame } from "./live.js";
import { rememberSeat, seatOf, showGameInAddressBar } from "./seats.js";
import { showMessage } from "./status.js";
import { api, problemText } from "./transport.js";

export function startLobby() {
  $("lobby-refresh").addEventListener("click", refresh);
  refresh();
}

async function refresh() {
  const answer = await api("GET", "/v1/games?open=true&limit=20");
  if (!answer.ok) return showMessage(problemText(answer.data));
  const games = answer.data.games;
  $("lobby-empty").hidden = games.length > 0;
  $("lobby-games").replaceChildren(...games.map(entry));
}

// One open game: its kind, its size or rule, and a button to take its free seat.
function entry(state) {
  const kind = kindOf(state.game);
  const item = document.createElement("li");
  const what = state.rule ? ` (${state.rule})` : state.n ? ` (${state.n} × ${state.n})` : "";
  const text = document.createElement("span");
  text.textContent = `${kind.title}${what}, ${state.clock ? "clocked" : "no clock"}`;
  const join = document.createElement("button");
  join.type = "button";
  join.textContent = "Join";
  join.setAttribute("aria-label", `Join this ${kind.title} game`);
  join.addEventListener("click", () => take(state.id));
  item.append(text, " ", join);
  return item;
}

async function take(id) {
  const answer = await api("POST", `/v1/games/${encodeURIComponent(id)}/join`);
  if (!answer.ok) {
    refresh(); // taken by someone else, or gone: the list as it is now
    return showMessage(problemText(answer.data));
  }
  rememberSeat(id, answer.data.token, answer.data.player);
  showGameInAddressBar(id);
  refresh();
  await openGame({ id, ...seatOf(id) });
}
