// The players' changes of a game that are no move: offering (or accepting) a draw, resigning,
// which asks for a confirmation first, aborting before the second move, offering (or accepting)
// a takeback, and, after the end, offering (or accepting) a rematch. A standing offer is shown to both players. A player
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
  const draw = theirs
    ? `${kind.nameOf(state, offer) || `Player ${offer}`} offers a draw. Accept it, or make a move to decline.`
    : mine ? "You offered a draw; it stands until the next move." : "";
  // A takeback: offered by a player after its own move (the server says whether there is one to
  // take back), accepted by the other offering too.
  const back = state ? state.takeback_offer : null;
  const asked = seated && back === 3 - game.player;
  const waiting = seated && back === game.player;
  // Shown once this player may have a move to take back (the server has the last word).
  const none = !state || state.move_count === 0 ||
    (state.move_count === 1 && state.last_move && state.last_move.player !== game.player);
  $("takeback").hidden = !seated || !allowed("takeback") || none;
  $("takeback").textContent = asked ? "Accept takeback" : "Take back";
  $("takeback").disabled = waiting;
  const takeback = asked
    ? `${kind.nameOf(state, back) || `Player ${back}`} asks to take back their last move. Accept it, or make a move to decline.`
    : waiting ? "You asked to take back your last move; it stands until the next move." : "";
  $("offer-note").textContent = [draw, takeback].filter(Boolean).join(" ");
  $("give-time").hidden = !seated || !state.clock || !allowed("give_time");
}

export function cancelResignation() {
  $("confirm-resign").hidden = true;
}

let choose = () => {};

const GIVEN_SECONDS = 15; // the "+15 s" button's gift

// act(action, body) sends the change: "draw-offer", "resign", "abort", "takeback-offer" or
// "give-time" (with its seconds); pass() sends
// a pass;
// chosen(body) a choice; offerRematch() a rematch offer; spectate() makes a spectator link.
export function wireActions(act, pass, chosen, offerRematch, spectate) {
  choose = chosen;
  $("abort").addEventListener("click", () => act("abort"));
  $("takeback").addEventListener("click", () => act("takeback-offer"));
  $("give-time").addEventListener("click", () => act("give-time", { seconds: GIVEN_SECONDS }));
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
