// The players' changes of a game that are no move: offering (or accepting) a draw, and resigning,
// which asks for a confirmation first. A standing offer is shown to both players. And a pass, a
// move without a cell, offered where the game's kind says its player may pass (renju).
import { $ } from "./elements.js";

export function renderActions(game, kind) {
  const state = game.state;
  const seated = Boolean(game.token) && state && state.status === "in_progress";
  $("actions").hidden = !game.token;
  $("resign").disabled = !seated;
  $("pass").hidden = !seated || !kind.canPass(state);
  $("pass").disabled = !seated || state.next_player !== game.player;
  if (!seated) cancelResignation();
  const offer = state ? state.draw_offer : null;
  const theirs = seated && offer === 3 - game.player;
  const mine = seated && offer === game.player;
  $("accept-draw").hidden = !theirs;
  $("offer-draw").hidden = theirs;
  $("offer-draw").disabled = !seated || mine;
  $("offer-note").textContent = theirs
    ? `${kind.names[offer]} offers a draw. Accept it, or make a move to decline.`
    : mine ? "You offered a draw; it stands until the next move." : "";
}

export function cancelResignation() {
  $("confirm-resign").hidden = true;
}

// act(action) sends the change: "draw-offer" or "resign"; pass() sends a pass.
export function wireActions(act, pass) {
  $("pass").addEventListener("click", () => pass());
  $("offer-draw").addEventListener("click", () => act("draw-offer"));
  $("accept-draw").addEventListener("click", () => act("draw-offer"));
  $("resign").addEventListener("click", () => {
    $("confirm-resign").hidden = false;
    $("resign-no").focus();
  });
  $("resign-no").addEventListener("click", cancelResignation);
  $("resign-yes").addEventListener("click", () => {
    cancelResignation();
    act("resign");
  });
}
