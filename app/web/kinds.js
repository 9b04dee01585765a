// The kinds of game the page offers: the service's list (/web/kinds.json: the kinds of its
// registry, in its order, each with the facts the service knows of it) joined with each kind's
// page module (/web/kinds/<game>.js), imported as the list names it. No other module names a
// kind: a new kind is one more page module (and its rules in style.css, if it looks different).
//
// A page module exports pageKind(facts), which answers what is particular to its kind (facts:
// the list's entry, and owners, a mark's player):
//   hint                  a sentence on how the game is played, under the picker
//   fields(box, prefix, given)  puts the kind's creation fields into box, their ids prefixed
//                         (the new-game picker's have none, the game checker's "audit-"); answers
//                         a function that gives the creation body they describe (the picker adds
//                         the clock). With given (a Set of parameter names: those a record
//                         format cannot carry, the list's given[format]), only those, each left
//                         out of the body where the record may say it
//   start(params, state)  the rows a game of these creation parameters starts from (state: its
//                         state, which says the board's size), for the game checker's board
//   cellsTaken(move)      the cells a move makes the mover's: its own, and any it turns
//   moveBody(row, col)    the move a click of that cell posts ({row, col} unless the kind's
//                         moves are no cells: a column's {column})
//   showCell(cell, owner) draws a cell of a board (its data-mark is already set); answers
//                         what the cell holds, in words
//   result(state, who)    the result of a game its rules ended (who(player): "X (player 1)")
//   transcript            a game's opening in its square names ("f5d6c3"), for the game
//                         checker's help
//   transcriptHelp        what a transcript of the kind is, where it writes no squares (a
//                         kind whose moves are columns), for the game checker's help
// and, where the kind has them:
//   checkedFirst          true for the kind the game checker reads a transcript as until another
//                         is picked (one kind: Othello's, whose games are the transcripts pasted)
//   recognises(format, text)  whether the text is a record in that format of the kind's
//                         (facts.formats) by its first words, for the game checker to pick it
//   recordParams(format, text)  the creation parameters start() needs that a record in one of
//                         the kind's formats (facts.formats) gives: {} where it gives none
//   writes(format, game)  whether a format of the kind's can write the game's board (else no
//                         download is offered in it)
//   highlights(game)      cells of a board to mark: [{className, note, cells: Set of
//                         indexes}] (a winning line, stones just turned, legal moves)
//   hints(game, redraw)   fetches what highlights shows that the page cannot tell, then redraws
//   turnNote(state)       a sentence said before whose turn it is (a pass)
//   canPass(state)        whether the player to move may pass (a Pass button: renju's)
//   choices(state)        the choices the player to move must make now, as [label, body] (a
//                         button each, posted on /v1/games/{id}/choice: swap2's colours)
//   ownerOf(move)         the owner a move's cells show (its player, unless the kind draws
//                         colours that players do not own: a swap2 stone's colour)
//   nameOf(state, player) what the player is called in this game ("Black"), or null while it
//                         has no name yet (a swap2 seat before its colour is chosen)
//   score(state)          the score line
//   checker               the position checker's part: {help, example, options(box),
//                         check(rows, view)}: view.say(text), and view.show(rows or null,
//                         {marks, play, playable}) draws the board checked as buildBoard and
//                         renderCells draw one (answers its grid)
import { api } from "./transport.js";

const OPTIONAL = {
  moveBody: (row, col) => ({ row, col }),
  transcriptHelp: null,
  checkedFirst: false,
  recognises: () => false,
  recordParams: () => ({}),
  writes: () => true,
  highlights: () => [],
  hints: async () => {},
  turnNote: () => "",
  canPass: () => false,
  choices: () => [],
  ownerOf: (move) => move.player,
  score: () => "",
  checker: null,
};

const loaded = new Map();

// Every kind, in the service's order: its facts (game, title, module, default, marks, empty,
// names, row_one, formats, given; owners) and what its page module answers.
export async function loadKinds() {
  const answer = await api("GET", "/web/kinds.json");
  if (!answer.ok) throw new Error("the service did not list its kinds");
  const modules = await Promise.all(answer.data.map((facts) => import(facts.module)));
  answer.data.forEach((listed, index) => {
    const owners = new Map(Object.entries(listed.marks).map(([player, mark]) => [mark, Number(player)]));
    const facts = { ...listed, owners };
    const named = { nameOf: (state, player) => facts.names[player] };
    loaded.set(facts.game, Object.freeze({ ...OPTIONAL, ...named, ...facts, ...modules[index].pageKind(facts) }));
  });
  return [...loaded.values()];
}

export function kindOf(game) {
  const kind = loaded.get(game);
  if (!kind) throw new Error(`this page has no module for games of kind ${game}`);
  return kind;
}
