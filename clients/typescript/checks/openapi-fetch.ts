// The README's requests as a TypeScript program typed by openapi-typescript's output for the
// served spec, sent with openapi-fetch: a gomoku game and a Reversi game to their ends, a
// resignation, and a game's events read as the spec's GameEvent, narrowed by `event`.
//
// tests/e2e/test_typescript_client.py generates ../generated/openapi-typescript.d.ts from the
// running service's /openapi.json, type-checks this file with `tsc --strict` and runs it. A
// field that should be optional and became required (or a type that went missing) fails here.

import createClient from "openapi-fetch";
import type { components, paths } from "../generated/openapi-typescript.js";

type GameEvent = components["schemas"]["GameEvent"];
type Problem = components["schemas"]["Problem"];

const api = createClient<paths>({
  baseUrl: process.env.ADJUDICATOR_URL ?? "http://127.0.0.1:8000",
});
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function ok<T>(answer: { data?: T; error?: Problem | unknown; response: Response }): T {
  if (answer.data === undefined) {
    throw new Error(`${answer.response.status}: ${JSON.stringify(answer.error)}`);
  }
  return answer.data;
}

// The SSE text of a finished game's stream, as the spec's events.
function parseEvents(text: string): GameEvent[] {
  return text
    .split("\n\n")
    .map((block) => {
      const fields = new Map<string, string>();
      for (const line of block.split("\n")) {
        const colon = line.indexOf(":");
        if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart());
      }
      return fields;
    })
    .filter((fields) => fields.has("event") && fields.has("data"))
    .map((fields) => {
      const event = { event: fields.get("event"), data: JSON.parse(fields.get("data")!) };
      return (fields.has("id") ? { ...event, id: fields.get("id") } : event) as GameEvent;
    });
}

function describe(event: GameEvent): string {
  switch (event.event) {
    case "move": {
      const { move, state, winner } = event.data;
      return `move ${event.id}: player ${move.player} at (${move.row}, ${move.col}), ${state.status}, winner ${winner}`;
    }
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
    case "end": {
      const state = event.data;
      const score = state.game === "reversi" ? ` ${state.score["1"]}–${state.score["2"]}` : "";
      return `end: ${state.status} (${state.reason}), winner ${state.winner}${score}`;
    }
    case "error":
      return `error: ${event.data.code}`;
  }
}

// {"n": 3}, then a plain {row, col} move, as the README's tour.
const classic = ok(await api.POST("/v1/games", { body: { n: 3 } }));
if (classic.game !== "tictactoe" || classic.k !== 3) throw new Error("not a 3 × 3 game");
const first = ok(
  await api.POST("/v1/games/{game_id}/moves", {
    params: { path: { game_id: classic.id } },
    headers: bearer(classic.tokens["1"]!),
    body: { row: 0, col: 0 },
  }),
);
if (first.move.seq !== 1) throw new Error("the first move is not number 1");
// A resignation: no body at all.
const resigned = ok(
  await api.POST("/v1/games/{game_id}/resign", {
    params: { path: { game_id: classic.id } },
    headers: bearer(classic.tokens["2"]!),
  }),
);
if (resigned.reason !== "resignation" || resigned.winner !== 1) throw new Error("no resignation");
// A problem answer is typed as the spec's Problem.
const refused = await api.POST("/v1/games/{game_id}/draw-offer", {
  params: { path: { game_id: classic.id } },
  headers: bearer(classic.tokens["1"]!),
  body: {},
});
if (refused.error?.code !== "game_over")
  throw new Error("a draw offer after the end is not game_over");

// Gomoku: {"game": "tictactoe", "n": 15, "k": 5}; five in a row on row 7.
const gomoku = ok(await api.POST("/v1/games", { body: { game: "tictactoe", n: 15, k: 5 } }));
if (gomoku.game !== "tictactoe" || gomoku.n !== 15 || gomoku.k !== 5) throw new Error("not gomoku");
let winner: 0 | 1 | 2 = 0;
for (let col = 3; winner === 0; col++) {
  for (const [player, row] of [
    ["1", 7],
    ["2", 6],
  ] as const) {
    if (winner !== 0) break;
    const moved: components["schemas"]["MoveResultOut"] = ok(
      await api.POST("/v1/games/{game_id}/moves", {
        params: { path: { game_id: gomoku.id } },
        headers: bearer(gomoku.tokens[player]!),
        body: { row, col },
      }),
    );
    winner = moved.winner;
  }
}
if (winner !== 1) throw new Error("black did not win the gomoku game");

// Reversi: {"game": "reversi"}, each move the legal move that flips most, to the end.
const reversi = ok(await api.POST("/v1/games", { body: { game: "reversi" } }));
if (reversi.game !== "reversi") throw new Error("not a Reversi game");
// A move's answer holds a state of any kind.
let state: components["schemas"]["MoveResultOut"]["state"] = reversi;
while (state.status === "in_progress" && state.next_player !== null) {
  const player: 1 | 2 = state.next_player;
  const board = ok(
    await api.GET("/v1/games/{game_id}/board", { params: { path: { game_id: reversi.id } } }),
  );
  const legal = ok(
    await api.POST("/v1/reversi/legal-moves", {
      body: { board: board.rows, color: player === 1 ? "B" : "W" },
    }),
  );
  const best = legal.moves.reduce((a, b) => (b.flips > a.flips ? b : a));
  const moved: components["schemas"]["MoveResultOut"] = ok(
    await api.POST("/v1/games/{game_id}/moves", {
      params: { path: { game_id: reversi.id } },
      headers: bearer(reversi.tokens[player === 1 ? "1" : "2"]!),
      body: { row: best.row, col: best.col },
    }),
  );
  state = moved.state;
}
if (state.game !== "reversi" || state.reason !== "no_moves")
  throw new Error("the Reversi game did not end");

// The finished games' events, from the start: every change, then `end`.
for (const id of [gomoku.id, reversi.id]) {
  const stream = await api.GET("/v1/games/{game_id}/events", {
    params: { path: { game_id: id } },
    parseAs: "text",
  });
  const events = parseEvents(ok(stream));
  const last = events.at(-1);
  if (last?.event !== "end") throw new Error("the stream did not end with `end`");
  console.log(`${id}: ${events.length} events; ${describe(last)}`);
}
