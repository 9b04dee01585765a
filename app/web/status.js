// The game's status lines: who the viewer is and whose turn it is, or how the game ended (and,
// to a player, whether they won or lost); the score, where the kind keeps one; and the message
// of a refused request.
import { $ } from "./elements.js";

export function renderStatus(game, kind) {
  const state = game.state;
  if (!state) return;
  const who = (player) => named(kind.nameOf(state, player), player);
  const you = game.player ? `You are ${who(game.player)}. ` : "Watching. ";
  let text;
  if (state.status !== "in_progress") {
    text = outcome(state, game.player, result(state, kind, who));
  } else if (state.open_seat) {
    text = `${you}Waiting for someone to take ${who(state.open_seat)}'s seat (Find a game lists it).`;
  } else if (state.next_player === game.player) {
    text = `${you}${kind.turnNote(state)}Your turn.`;
  } else {
    text = `${you}${kind.turnNote(state)}Waiting for ${who(state.next_player)}.`;
  }
  $("status").textContent = text;
  const score = kind.score(state);
  $("score").hidden = !score;
  $("score").textContent = score;
  $("game").dataset.status = state.status;
}

// "Black (player 1)", or "Player 1" while the player has no name (a swap2 seat before its
// colour is chosen).
export function named(name, player) {
  return name ? `${name} (player ${player})` : `Player ${player}`;
}

// The result, with what it is to the player who views it said first: "You won. ", "You lost. ",
// and "Draw. " where the result does not begin so itself. A watcher, and an aborted game (no
// result), get the result alone.
function outcome(state, player, said) {
  if (!player || state.status === "aborted") return said;
  if (state.status === "won") return `${state.winner === player ? "You won." : "You lost."} ${said}`;
  return /^Draw\b/.test(said) ? said : `Draw. ${said}`;
}

// Endings the session decides (and a dead position, which every kind of lines has) are said
// alike for every kind; the kind says its own.
function result(state, kind, who) {
  const name = (player) => kind.nameOf(state, player) || `Player ${player}`;
  if (state.reason === "timeout") return `${name(state.winner)} wins on time: ${name(3 - state.winner)}'s clock ran out.`;
  if (state.reason === "resignation") return `${name(3 - state.winner)} resigned: ${name(state.winner)} wins.`;
  if (state.reason === "agreement") return "Draw by agreement.";
  if (state.reason === "aborted") return "Aborted: no result.";
  if (state.reason === "no_first_move") return "Aborted: a first move was not made in time.";
  if (state.reason === "dead_position") return "Draw: no line can be completed any more.";
  return kind.result(state, who);
}

export function showMessage(text) {
  $("message").textContent = text;
}
