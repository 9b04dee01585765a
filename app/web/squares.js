// Square names on the page, as the service writes and reads them (app/contract/squares.py, the
// one definition: docs/api.md, "Squares in notation"): a lower-case column letter, a the
// leftmost, then the row number from 1, counted from the row the kind numbers 1 (its row_one:
// "top" for Othello, "bottom" for tic-tac-toe and gomoku). A board wider than the letters has no
// names. The page's coordinates, its cells' labels and the game checker's refused square read
// them here, and only here.

export const LETTERS = "abcdefghijklmnopqrstuvwxyz";

// Whether a board this many columns wide has square names.
export const hasNames = (width) => width <= LETTERS.length;

// A column's letter (col from 0, the leftmost).
export const columnName = (col) => LETTERS[col];

// A row's number (row from 0, the top row) on a board of `height` rows whose row 1 is `rowOne`.
export const rowNumber = (row, height, rowOne) => (rowOne === "top" ? row + 1 : height - row);

// The cell's name ("f5"), or null on a board without names.
export function squareName(row, col, height, width, rowOne) {
  return hasNames(width) ? `${columnName(col)}${rowNumber(row, height, rowOne)}` : null;
}

// The cell [row, col] a name written in any case names on the board, or null where it names none
// (not a name, a board without names, a square the board does not have).
export function parseSquare(text, height, width, rowOne) {
  const named = /^([a-z])([1-9][0-9]*)$/i.exec(String(text));
  if (!named || !hasNames(width)) return null;
  const col = LETTERS.indexOf(named[1].toLowerCase());
  const number = Number(named[2]);
  if (col >= width || number > height) return null;
  return [rowOne === "top" ? number - 1 : height - number, col];
}
