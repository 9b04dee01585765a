// The position checker: a board pasted as text, asked of the service's stateless endpoints for
// the kind picked. Each kind that has a checker (its page module's) says how to ask and what
// the answer means, in words and, where it has one, as a board to explore.
import { $ } from "./elements.js";

let picked = null; // the kind whose radio is checked

const view = {
  say(text) {
    $("check-result").textContent = text;
  },
  show(element) {
    $("check-board").replaceChildren(...(element ? [element] : []));
  },
};

export function startChecker(kinds) {
  // By title, whatever the registry's order (which says which kind a new game defaults to): the
  // checker offers the stateless questions alphabetically, Reversi's first.
  const checkable = kinds
    .filter((kind) => kind.checker)
    .sort((a, b) => a.title.localeCompare(b.title));
  if (!checkable.length) {
    $("check").hidden = true;
    return;
  }
  for (const kind of checkable) {
    const radio = document.createElement("input");
    Object.assign(radio, { type: "radio", name: "kind", value: kind.game, checked: kind === checkable[0] });
    radio.addEventListener("change", () => pick(kind));
    const label = document.createElement("label");
    label.append(radio, ` ${kind.title}`);
    $("check-kinds").append(label, "\n"); // spaced as markup would space them
    const box = document.createElement("div");
    box.id = `${kind.game}-options`;
    kind.checker.options(box);
    $("check-options").append(box);
  }
  pick(checkable[0]);
  $("check-form").addEventListener("submit", (event) => {
    event.preventDefault();
    picked.checker.check(boardRows(), view);
  });
  $("check-submit").disabled = false;
}

function pick(kind) {
  picked = kind;
  for (const box of $("check-options").children) box.hidden = box.id !== `${kind.game}-options`;
  $("cells-help").textContent = kind.checker.help;
  $("rows").value = kind.checker.example;
  view.say("");
  view.show(null);
}

function boardRows() {
  return $("rows").value.split("\n").map((line) => line.trimEnd()).filter((line) => line.length > 0);
}
