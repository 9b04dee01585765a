// Connect Four on the play page: the board sizes offered, an empty start, discs drawn red and
// yellow, a click anywhere in a column drops into it ({"column"}), the winning line shown, and
// the results. The discs are drawn here, through the CSSOM
// (which the page's policy allows, unlike inline styles), so that no other file names the kind.
const HINT = "Drop a disc into a column: it falls to the lowest empty cell. k in a row wins: " +
  "across, down or diagonally. Player 1 plays X (red) and drops first. Share the invite link " +
  "with the second player.";
const SIZES = [[7, 6, 4], [8, 7, 4], [9, 7, 5], [10, 8, 5], [4, 4, 3]];
const FIELDS = (prefix) => `
  <div class="field">
    <label for="${prefix}connect4-size">Board</label>
    <select id="${prefix}connect4-size" name="size"></select>
  </div>`;
const DIRECTIONS = [[0, 1], [1, 0], [1, 1], [1, -1]];

export function pageKind({ names, empty }) {
  return {
    hint: HINT,
    fields,
    start: (params, state) => Array(state.height).fill(empty.repeat(state.width)),
    transcript: "4453",
    transcriptHelp: "its columns one after another, one character a drop: digits 1 to 9 (boards " +
      "up to 9 columns wide), such as 4453, or letters, a the leftmost, such as ddec",
    moveBody: (row, col) => ({ column: col }),
    cellsTaken: (move) => [[move.row, move.column]],
    showCell(cell, owner) {
      cell.replaceChildren(disc(owner));
      return owner ? `${names[owner]} disc` : "empty";
    },
    highlights: (game) => [{ className: "win", note: "winning line", cells: winningCells(game) }],
    result(state, who) {
      if (state.status === "won") return `${who(state.winner)} wins!`;
      return state.reason === "move_limit" ? "Draw: the move limit was reached." : "Draw: the board is full.";
    },
  };
}

// A disc: a circle in the cell, red (X), yellow (O) or a hole.
const COLOURS = { 1: "#d62828", 2: "#f7c631" };
function disc(owner) {
  const circle = document.createElement("span");
  Object.assign(circle.style, {
    display: "block", width: "80%", height: "80%", margin: "auto", borderRadius: "50%",
    background: COLOURS[owner] || "#e8eef8", boxShadow: "inset 0 0 0 1px #1f4e9c",
  });
  circle.setAttribute("aria-hidden", "true");
  return circle;
}

// Width × height and k, from the size picked: the creation body.
function fields(box, prefix = "") {
  box.innerHTML = FIELDS(prefix);
  const size = box.querySelector(`#${prefix}connect4-size`);
  for (const [width, height, k] of SIZES) {
    const label = `${width} × ${height}, ${k} in a row${width === 7 && height === 6 ? " (standard)" : ""}`;
    size.append(new Option(label, `${width}x${height}x${k}`));
  }
  return () => {
    const [width, height, k] = size.value.split("x").map(Number);
    return { game: "connect4", width, height, k };
  };
}

// The runs of k or more of the winner's discs through the last drop, in the four directions.
function winningCells(game) {
  const state = game.state;
  const won = new Set();
  if (!state || state.status !== "won" || state.reason !== "line" || !state.last_move) return won;
  const { row, column } = state.last_move;
  const owner = (r, c) => (r >= 0 && r < game.height && c >= 0 && c < game.width ? game.cells[r * game.width + c] : 0);
  if (owner(row, column) !== state.winner) return won; // the last drop is not on the board yet
  for (const [down, right] of DIRECTIONS) {
    const run = [[row, column]];
    for (const sign of [1, -1]) {
      let [r, c] = [row + sign * down, column + sign * right];
      for (; owner(r, c) === state.winner; r += sign * down, c += sign * right) run.push([r, c]);
    }
    if (run.length >= state.k) run.forEach(([r, c]) => won.add(r * game.width + c));
  }
  return won;
}
