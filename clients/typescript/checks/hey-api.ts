// The README's requests as a TypeScript program against the client that @hey-api/openapi-ts
// generates from the served spec: a gomoku game and a Reversi game to their ends, a
// resignation, and a game's events (through the generated SSE client) as the spec's GameEvent.
//
// tests/e2e/test_typescript_client.py generates ../generated/hey-api/ from the running
// service's /openapi.json, type-checks this file with `tsc --strict` and runs it.

import { client } from "../generated/hey-api/client.gen.js";
import {
  createGame,
  gameEvents,
  getBoard,
  legalMoves,
  makeMove,
  offerDraw,
  resign,
  type GameEvent,
  type Connect4GameOut,
  type GomokuGameOut,
  type LegalMovesResponse,
  type ReversiGameOut,
  type TicTacToeGameOut,
} from "../generated/hey-api/index.js";

client.setConfig({ baseUrl: process.env.ADJUDICATOR_URL ?? "http://127.0.0.1:8000" });

// An answer's data, or its error thrown (`response` is optional in newer releases' results).
function ok<T>(answer: { data?: T; error?: unknown; response?: Response }): T {
  if (answer.data === undefined) {
    throw new Error(`${answer.response?.status}: ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

function describe(event: GameEvent): string {
  switch (event.event) {
    case "move":
      return `move ${event.id}: (${event.data.move.row}, ${event.data.move.col}), winner ${event.data.winner}`;
    case "join":
      return `join ${event.id}: the open seat is taken`;
    case "offer":
      return `offer ${event.id}: player ${event.data.draw_offer} offers a draw`;
    case "takeback":
      return `takeback ${event.id}: ${event.data.move_count} moves, offer ${event.data.takeback_offer}`;
    case "clock":
      return `clock ${event.id}: ${JSON.stringify(event.data.clock?.remaining_ms)} left`;
    case "abort":
      return `abort ${event.id}: ${event.data.status} (${event.data.reason})`;
    case "rematch":
      return `rematch ${event.id}: ${event.data.rematch ?? "offered"}`;
    case "end":
      return `end: ${event.data.status} (${event.data.reason}), winner ${event.data.winner}`;
    case "error":
      return `error: ${event.data.code}`;
  }
}

// {"n": 3}, a plain {row, col} move, a resignation without a body.
const classic = ok(await createGame({ body: { n: 3 } }));
if (classic.game !== "tictactoe" || classic.k !== 3) throw new Error("not a 3 × 3 game");
ok(
  await makeMove({
    path: { game_id: classic.id },
    auth: classic.tokens["1"]!,
    body: { row: 0, col: 0 },
  }),
);
const resigned = ok(await resign({ path: { game_id: classic.id }, auth: classic.tokens["2"]! }));
if (resigned.reason !== "resignation") throw new Error("no resignation");
const refused = await offerDraw({
  path: { game_id: classic.id },
  auth: classic.tokens["1"]!,
  body: {},
});
if (refused.error?.code !== "game_over")
  throw new Error("a draw offer after the end is not game_over");

// Gomoku: {"game": "tictactoe", "n": 15, "k": 5}; five in a row on row 7.
const gomoku = ok(await createGame({ body: { game: "tictactoe", n: 15, k: 5 } }));
if (gomoku.game !== "tictactoe" || gomoku.k !== 5) throw new Error("not gomoku");
let winner: 0 | 1 | 2 = 0;
for (let col = 3; winner === 0; col++) {
  const black = ok(
    await makeMove({
      path: { game_id: gomoku.id },
      auth: gomoku.tokens["1"]!,
      body: { row: 7, col },
    }),
  );
  winner = black.winner;
  if (winner === 0) {
    ok(
      await makeMove({
        path: { game_id: gomoku.id },
        auth: gomoku.tokens["2"]!,
        body: { row: 6, col },
      }),
    );
  }
}

// Reversi: {"game": "reversi"}, each move the legal move that flips most, to the end.
const reversi = ok(await createGame({ body: { game: "reversi" } }));
if (reversi.game !== "reversi") throw new Error("not a Reversi game");
// A move's answer holds a state of any kind.
let state: TicTacToeGameOut | ReversiGameOut | GomokuGameOut | Connect4GameOut = reversi;
while (state.status === "in_progress" && state.next_player != null) {
  const player: 1 | 2 = state.next_player;
  const board = ok(await getBoard({ path: { game_id: reversi.id } }));
  const legal: LegalMovesResponse = ok(
    await legalMoves({ body: { board: board.rows, color: player === 1 ? "B" : "W" } }),
  );
  const best = legal.moves.reduce((a, b) => (b.flips > a.flips ? b : a));
  const token: string = reversi.tokens[player === 1 ? "1" : "2"]!;
  state = ok(
    await makeMove({
      path: { game_id: reversi.id },
      auth: token,
      body: { row: best.row, col: best.col },
    }),
  ).state;
}
if (state.game !== "reversi" || state.reason !== "no_moves")
  throw new Error("the Reversi game did not end");

// The finished games' events through the generated SSE client: each as the spec's GameEvent.
for (const id of [gomoku.id, reversi.id]) {
  const events: GameEvent[] = [];
  const { stream } = await gameEvents({
    path: { game_id: id },
    sseMaxRetryAttempts: 1,
    // Each event's data, parsed (typed as the stream's text by the generator): the spec's
    // GameEvent names what it is.
    onSseEvent: ({ event, id, data }) => {
      const parsed: unknown = data;
      if (event) {
        events.push(
          (id === undefined ? { event, data: parsed } : { event, id, data: parsed }) as GameEvent,
        );
      }
    },
  });
  for await (const _ of stream);
  const last = events.at(-1);
  if (last?.event !== "end") throw new Error("the stream did not end with `end`");
  console.log(`${id}: ${events.length} events; ${describe(last)}`);
}
