// The players' changes of a game that are no move: offering (or accepting) a draw, and resigning,
// which asks for a confirmation first. A standing offer is shown to both players.
import { $ } from "./elements.js";

export function renderActions(game, kind) {
  const state = game.state;
  const seated = Boolean(game.token) && state && state.status === "in_progress";
  $("actions").hidden = !game.token;
  $("resign").disabled = !seated;
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

// act(action) sends the change: "draw-offer" or "resign".
export function wireActions(act) {
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
