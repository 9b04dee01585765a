// Seats: a player's token (or a spectator's: player 0, which reads a private game and never
// plays), kept in this tab's sessionStorage under the game's id and never in the address bar. The address bar shows #game=ID (a watcher's link); the invite link carries player
// 2's token in its fragment (#game=…&token=…&player=…, which browsers never send to a server),
// read once on arrival and cleared from the address bar with history.replaceState.
import { $ } from "./elements.js";

export function rememberSeat(id, token, player) {
  try {
    sessionStorage.setItem(`seat:${id}`, JSON.stringify({ token, player }));
  } catch (error) { /* storage off: the seat lasts until the page is left */ }
}

export function seatOf(id) {
  try {
    const seat = JSON.parse(sessionStorage.getItem(`seat:${id}`) || "null");
    if (seat && typeof seat.token === "string" && [0, 1, 2].includes(seat.player)) return seat;
  } catch (error) { /* none */ }
  return { token: null, player: null };
}

// The game the address bar names, with this tab's seat in it. A token in the fragment (an
// invite link) is taken into this tab's storage and removed from the address bar at once.
export function arrival() {
  const params = new URLSearchParams(location.hash.slice(1));
  const id = params.get("game");
  if (!id) return null;
  const token = params.get("token");
  const player = Number(params.get("player"));
  if (token && [0, 1, 2].includes(player)) rememberSeat(id, token, player);
  if (token || params.has("player")) showGameInAddressBar(id);
  return { id, ...seatOf(id) };
}

export function showGameInAddressBar(id) {
  const url = new URL(location.href);
  url.hash = new URLSearchParams({ game: id }).toString();
  history.replaceState(null, "", url.toString());
}

// The invite link: player 2's seat, for the creator to hand over. `name` is what the game's kind
// calls player 2 (null: nothing yet, a swap2 seat).
export function showInvite(id, token, name) {
  const invite = new URL(location.href);
  invite.hash = new URLSearchParams({ game: id, token, player: "2" }).toString();
  $("invite-link").value = invite.toString();
  $("invite-label").textContent = name ? `Invite link for player 2 (${name})` : "Invite link for player 2";
  $("invite").hidden = false;
}

export function wireInvite() {
  $("copy-invite").addEventListener("click", () => {
    $("invite-link").select();
    navigator.clipboard?.writeText($("invite-link").value);
  });
}
