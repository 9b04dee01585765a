// The players' clocks: each counts down from the state's deadline on the service's time
// (estimated from the answers' Date headers, so a wrong clock on the device does not matter);
// the state's remaining_ms is the time left as of the game's last change.
import { $ } from "./elements.js";
import { serverTime } from "./transport.js";

const TICK_MS = 100; // a running clock's display is redrawn this often

let ticker = null;

function clockText(ms) {
  const tenths = Math.max(0, Math.ceil(ms / 100));
  const minutes = Math.floor(tenths / 600);
  const seconds = Math.floor((tenths % 600) / 10);
  const text = `${minutes}:${String(seconds).padStart(2, "0")}`;
  return minutes === 0 && seconds < 20 ? `${text}.${tenths % 10}` : text;
}

// Each player's time left now: the running clock from its deadline on the service's time, the
// other as the state gives it.
function timeLeft(clock, player) {
  if (clock.running === player && clock.deadline) return Date.parse(clock.deadline) - serverTime.now();
  return clock.remaining_ms[String(player)];
}

export function renderClocks(game, kind) {
  const state = game.state;
  const clock = state && state.clock;
  $("clocks").hidden = !clock;
  clearInterval(ticker);
  ticker = null;
  if (!clock) return;
  for (const player of [1, 2]) {
    const line = $(`clock-${player}`);
    line.querySelector(".who").textContent = `${kind.nameOf(state, player) || `Player ${player}`}${player === game.player ? " (you)" : ""}`;
    line.classList.toggle("running", state.status === "in_progress" && clock.running === player);
  }
  const tick = () => {
    for (const player of [1, 2]) {
      const left = state.status === "in_progress" ? timeLeft(clock, player) : clock.remaining_ms[String(player)];
      const time = $(`clock-${player}`).querySelector("time");
      time.textContent = clockText(left);
      time.dateTime = `PT${Math.max(0, left / 1000).toFixed(1)}S`;
      $(`clock-${player}`).classList.toggle("low", left < 10000);
    }
  };
  tick();
  if (state.status === "in_progress" && clock.running) ticker = setInterval(tick, TICK_MS);
}
