// The players' changes of a game that are no move: offering (or accepting) a draw, resigning,
// which asks for a confirmation first, aborting before the second move, and, after the
// end, offering (or accepting) a rematch. A standing offer is shown to both players. A player
// also makes a spectator link here (a read-only token in its fragment). And a pass, a
// move without a cell, offered where the game's kind says its player may pass (renju), and the
// choices the game's opening asks of the player to move (swap2's), a button each.
import { $ } from "./elements.js";

export function renderActions(game, kind) {
  const state = game.state;
  const seated = Boolean(game.token) && state && state.status === "in_progress";
  $("actions").hidden = !game.token;
  $("resign").disabled = !seated;
  const allowed = (flag) => !(state && state.rules) || state.rules[flag] !== false;
  $("abort").hidden = !seated || !allowed("abort") || state.move_count >= 2;
  const over = Boolean(game.token) && state && state.status !== "in_progress";
  $("rematch").hidden = !over || !allowed("rematch");
  const rematchOffer = state ? state.rematch_offer : null;
  $("rematch").textContent = over && state.rematch ? "Go to the rematch"
    : over && rematchOffer === 3 - game.player ? "Accept rematch" : "Rematch";
  $("rematch").disabled = over && rematchOffer === game.player;
  $("rematch-note").textContent = !over || !rematchOffer ? ""
    : rematchOffer === game.player ? "You offered a rematch; waiting for your opponent."
    : `${kind.nameOf(state, rematchOffer) || `Player ${rematchOffer}`} offers a rematch.`;
  $("pass").hidden = !seated || !kind.canPass(state);
  $("pass").disabled = !seated || state.next_player !== game.player;
  if (!seated) cancelResignation();
  const choices = seated && state.next_player === game.player ? kind.choices(state) : [];
  const labels = choices.map(([label]) => label).join("|");
  if ($("choices").dataset.labels !== labels) { // redrawn only when they change: focus stays
    $("choices").dataset.labels = labels;
    $("choices").replaceChildren(...choices.map(([label, body]) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = label;
      button.addEventListener("click", () => choose(body));
      return button;
    }));
  }
  $("choices").hidden = choices.length === 0;
  const offer = state ? state.draw_offer : null;
  const theirs = seated && offer === 3 - game.player;
  const mine = seated && offer === game.player;
  $("accept-draw").hidden = !theirs;
  $("offer-draw").hidden = theirs;
  $("offer-draw").disabled = !seated || mine;
  $("offer-note").textContent = theirs
    ? `${kind.nameOf(state, offer) || `Player ${offer}`} offers a draw. Accept it, or make a move to decline.`
    : mine ? "You offered a draw; it stands until the next move." : "";
}

export function cancelResignation() {
  $("confirm-resign").hidden = true;
}

let choose = () => {};

// act(action) sends the change: "draw-offer", "resign" or "abort"; pass() sends a pass;
// chosen(body) a choice; offerRematch() a rematch offer; spectate() makes a spectator link.
export function wireActions(act, pass, chosen, offerRematch, spectate) {
  choose = chosen;
  $("abort").addEventListener("click", () => act("abort"));
  $("rematch").addEventListener("click", () => offerRematch());
  $("spectate").addEventListener("click", () => spectate());
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
