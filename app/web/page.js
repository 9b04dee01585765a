// The play page, started: live games of every kind the service offers over its public API, the
// lobby, finished games from the archive, a tournament's standings and crosstable, a position
// checker and a game checker. Wires the tournament panel at once (it needs no kinds, and a form
// not yet wired would be submitted by the browser itself), loads the kinds (the picker, the
// checkers and the archive's list are built from them), then opens the game the address bar
// names, and the one it names next.
import { wireActions } from "./actions.js";
import { startArchive } from "./archive.js";
import { startChecker } from "./checker.js";
import { $ } from "./elements.js";
import { loadKinds } from "./kinds.js";
import { startLobby } from "./lobby.js";
import { act, choose, game, offerRematch, openGame, pass, spectate } from "./live.js";
import { startPicker } from "./picker.js";
import { startAudit } from "./records.js";
import { arrival, wireInvite } from "./seats.js";
import { startTournament } from "./tournament.js";

async function start() {
  startTournament();
  let kinds;
  try {
    kinds = await loadKinds();
  } catch (error) {
    $("play-hint").textContent = "The page could not load the games the service offers; reload to try again.";
    throw error;
  }
  startPicker(kinds);
  startChecker(kinds);
  startAudit(kinds);
  startLobby();
  startArchive();
  wireActions(act, pass, choose, offerRematch, spectate);
  wireInvite();
  const target = arrival();
  if (target) openGame(target);
  window.addEventListener("hashchange", () => {
    const next = arrival();
    if (next && (next.id !== game.id || next.token !== game.viewer)) openGame(next);
  });
}

start();
