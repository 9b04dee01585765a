// The players' clocks: each counts down from the state's deadline on the service's time
// (estimated from the answers' Date headers, so a wrong clock on the device does not matter);
// the state's remaining_ms is the time left as of the game's last change. In delay mode the
// running clock's time stands still until its deadline less that time: the delay counts down
// first, beside it. The mode and the stages are said under the clocks.
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

// Each player's time left now, and the running turn's delay left: the running clock from its
// deadline on the service's time (never more than the state's time left: a delay runs first),
// the other as the state gives it.
function timeLeft(clock, player) {
  const left = clock.remaining_ms[String(player)];
  if (clock.running !== player || !clock.deadline) return [left, 0];
  const toDeadline = Date.parse(clock.deadline) - serverTime.now();
  return [Math.min(left, toDeadline), Math.max(0, toDeadline - left)];
}

const MODES = {
  fischer: (s) => (s ? `${s} s added a move` : "no increment"),
  bronstein: (s) => `Bronstein: the time a move used back, at most ${s} s`,
  delay: (s) => `delay: each move the clock waits ${s} s`,
};

// The time control in words: "Bronstein: …; +15 min after move 40".
function rulesText(clock) {
  const stages = (clock.stages || []).map((s) => `+${clockText(s.add_seconds * 1000)} after move ${s.after_moves}`);
  return [MODES[clock.mode || "fischer"](clock.increment_seconds), ...stages].join("; ");
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
  $("clock-rules").textContent = rulesText(clock);
  const tick = () => {
    for (const player of [1, 2]) {
      const [left, delay] = state.status === "in_progress" ? timeLeft(clock, player) : [clock.remaining_ms[String(player)], 0];
      const time = $(`clock-${player}`).querySelector("time");
      time.textContent = clockText(left);
      $(`clock-${player}`).querySelector(".delay").textContent = delay > 0 ? `delay ${(delay / 1000).toFixed(1)} s` : "";
      time.dateTime = `PT${Math.max(0, left / 1000).toFixed(1)}S`;
      $(`clock-${player}`).classList.toggle("low", left < 10000);
    }
  };
  tick();
  if (state.status === "in_progress" && clock.running) ticker = setInterval(tick, TICK_MS);
}
