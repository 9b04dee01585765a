// The new-game form: the kind picker, built from the kinds the service offers, with each kind's
// own creation fields; the time control; and creating the game, whose first seat is this tab's.
import { $ } from "./elements.js";
import { kindOf } from "./kinds.js";
import { openGame } from "./live.js";
import { rememberSeat, seatOf, showGameInAddressBar, showInvite } from "./seats.js";
import { showMessage } from "./status.js";
import { api, problemText } from "./transport.js";

const bodies = new Map(); // a kind's name -> the creation body its fields describe

export function startPicker(kinds) {
  const picker = $("game-kind");
  for (const kind of kinds) {
    picker.append(new Option(kind.title, kind.game, kind.default, kind.default));
    const box = document.createElement("div");
    box.id = `${kind.game}-picker`;
    box.className = "picker";
    bodies.set(kind.game, kind.fields(box));
    $("kind-fields").append(box);
  }
  pickKind();
  picker.addEventListener("change", pickKind);
  $("time-control").addEventListener("change", () => {
    $("custom-clock").hidden = $("time-control").value !== "custom";
  });
  $("new-game").addEventListener("submit", newGame);
  $("new-game-submit").disabled = false;
}

function pickKind() {
  const picked = $("game-kind").value;
  for (const [game] of bodies) $(`${game}-picker`).hidden = game !== picked;
  $("play-hint").textContent = kindOf(picked).hint;
}

// The picker's time control, if any: {"initial_seconds", "increment_seconds"}, and for a
// custom one its "mode" and a stage ("after_moves", "add_seconds") if one is asked for.
function withClock(body) {
  const picked = $("time-control").value;
  if (picked === "none") return body;
  const [initial, increment] = picked.split("+").map(Number);
  if (picked !== "custom") return { ...body, clock: { initial_seconds: initial, increment_seconds: increment } };
  const clock = {
    initial_seconds: 60 * (Number($("clock-minutes").value) || 0) + (Number($("clock-seconds").value) || 0),
    increment_seconds: Number($("clock-increment").value) || 0,
    mode: $("clock-mode").value,
  };
  const after = Number($("stage-moves").value) || 0;
  if (after > 0) clock.stages = [{ after_moves: after, add_seconds: 60 * (Number($("stage-minutes").value) || 0) }];
  return { ...body, clock };
}

async function newGame(event) {
  event.preventDefault();
  const body = bodies.get($("game-kind").value)();
  if ($("open-game").checked) body.open = true; // only the creator's token comes back
  const created = await api("POST", "/v1/games", { body: withClock(body) });
  if (!created.ok) {
    $("game").hidden = false;
    return showMessage(problemText(created.data));
  }
  const { id, tokens } = created.data;
  if (tokens["2"]) showInvite(id, tokens["2"], kindOf(created.data.game).nameOf(created.data, 2));
  else $("invite").hidden = true;
  rememberSeat(id, tokens["1"], 1);
  showGameInAddressBar(id);
  await openGame({ id, ...seatOf(id) });
}
