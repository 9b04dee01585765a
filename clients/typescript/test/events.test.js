// The event stream as the client reads it, from streams written by the test: the SSE text
// however it is cut into chunks, keep-alives as signs of life, a silent stream resumed, the
// budget of reconnections, problems.

import assert from "node:assert/strict";
import { test } from "node:test";

import { Client, ProblemError } from "../src/index.js";
import { rejection, watchedFetch } from "./helpers.js";

const STATE = {
  id: "g",
  game: "tictactoe",
  n: 3,
  k: 3,
  status: "in_progress",
  winner: 0,
  reason: null,
  next_player: 2,
  version: 1,
  move_count: 1,
  last_move: null,
  draw_offer: null,
};
const MOVE = { winner: 0, move: { seq: 1, row: 1, col: 1, player: 1 }, state: STATE };
const END = {
  ...STATE,
  status: "won",
  winner: 1,
  reason: "resignation",
  next_player: null,
  version: 2,
};

/**
 * An event stream's response whose body is these pieces of text, each after its delay (ms);
 * it stays open after the last one unless `close`.
 * @param {Array<string | number>} pieces
 * @param {{ close?: boolean }} [options]
 */
function stream(pieces, { close = false } = {}) {
  const encoder = new TextEncoder();
  const body = new ReadableStream({
    async start(controller) {
      for (const piece of pieces) {
        if (typeof piece === "number") await new Promise((resolve) => setTimeout(resolve, piece));
        else controller.enqueue(encoder.encode(piece));
      }
      if (close) controller.close();
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream" } });
}

/** A fetch that answers the streams' requests in turn with these responses. @param {Response[]} responses */
function streams(...responses) {
  return watchedFetch(async () => {
    const next = responses.shift();
    if (!next) throw new Error("no more streams");
    return next;
  });
}

/** Every event of a game's stream. @param {Client} api @param {import("../src/index.js").EventsOptions} [options] */
async function collect(api, options) {
  const events = [];
  for await (const event of api.events("g", options)) events.push(event);
  return events;
}

const move = `event: move\ndata: ${JSON.stringify(MOVE)}\nid: 1\n\n`;
const end = `event: end\ndata: ${JSON.stringify(END)}\nid: 2\n\n`;

test("events however the text is cut, with CRLF, a BOM and data on two lines", async () => {
  const text = `\uFEFFretry: 3000\r\n\r\n: keep-alive\r\n\r\n${move.replaceAll("\n", "\r\n")}event: offer\ndata: {"draw_offer":\ndata: 2}\nid: 7\n\n${end}`;
  const pieces = [...text].flatMap((char, i) => (i % 7 === 0 ? [char, 0] : [char]));
  const watched = streams(stream(pieces));
  const events = await collect(
    new Client({ baseUrl: "http://service.invalid", fetch: watched.fetch }),
  );
  assert.deepEqual(events, [
    { event: "move", id: "1", data: MOVE },
    { event: "offer", id: "7", data: { draw_offer: 2 } },
    { event: "end", id: "2", data: END },
  ]);
  assert.equal(watched.sent.length, 1);
  assert.equal(watched.sent[0].url, "http://service.invalid/v1/games/g/events");
  assert.equal(watched.sent[0].headers.get("accept"), "text/event-stream");
});

test("a stream that falls silent is taken for dead and resumed after its last event", async () => {
  const watched = streams(stream([move]), stream([end], { close: true }));
  const api = new Client({
    baseUrl: "http://service.invalid",
    fetch: watched.fetch,
    retries: { backoffMs: 1 },
  });
  const events = await collect(api, { since: 0, keepAliveMs: 20 });
  assert.deepEqual(
    events.map((event) => event.event),
    ["move", "end"],
  );
  assert.equal(watched.sent[0].url, "http://service.invalid/v1/games/g/events?since=0");
  assert.equal(watched.sent[1].url, "http://service.invalid/v1/games/g/events");
  assert.equal(watched.sent[1].headers.get("last-event-id"), "1");
});

test("keep-alives are signs of life: a quiet stream that sends them is kept", async () => {
  const alive = Array.from({ length: 12 }, () => [": keep-alive\n\n", 20]).flat();
  const watched = streams(stream([...alive, move, ...alive, end]));
  const api = new Client({ baseUrl: "http://service.invalid", fetch: watched.fetch });
  const events = await collect(api, { keepAliveMs: 50 }); // silent for 150 ms: dead
  assert.deepEqual(
    events.map((event) => event.event),
    ["move", "end"],
  );
  assert.equal(watched.sent.length, 1);
});

test("a stream that keeps dropping with nothing heard is given up", async () => {
  const watched = streams(...Array.from({ length: 4 }, () => stream([], { close: true })));
  const api = new Client({
    baseUrl: "http://service.invalid",
    fetch: watched.fetch,
    retries: { backoffMs: 1 },
  });
  const error = await rejection(collect(api, { reconnects: 3 }));
  assert.ok(error instanceof Error && /kept dropping/.test(error.message));
  assert.equal(watched.sent.length, 4);
});

test("an error event is given, and the stream resumed after it", async () => {
  const problem = {
    type: "/problems/store_unavailable",
    title: "Game store unavailable",
    status: 503,
    detail: "the game store does not answer; retry later",
    code: "store_unavailable",
  };
  const watched = streams(
    stream([move, `event: error\ndata: ${JSON.stringify(problem)}\n\n`], { close: true }),
    stream([end], { close: true }),
  );
  const api = new Client({
    baseUrl: "http://service.invalid",
    fetch: watched.fetch,
    retries: { backoffMs: 1 },
  });
  const events = await collect(api);
  assert.deepEqual(events, [
    { event: "move", id: "1", data: MOVE },
    { event: "error", data: problem },
    { event: "end", id: "2", data: END },
  ]);
  assert.equal(watched.sent[1].headers.get("last-event-id"), "1");
});

test("a game that is not there is a ProblemError, not a reconnection", async () => {
  const body = {
    type: "/problems/game_not_found",
    title: "Game not found",
    status: 404,
    detail: "no game 'g'",
    code: "game_not_found",
  };
  const watched = streams(
    new Response(JSON.stringify(body), {
      status: 404,
      headers: { "Content-Type": "application/problem+json" },
    }),
  );
  const api = new Client({ baseUrl: "http://service.invalid", fetch: watched.fetch });
  const error = await rejection(collect(api));
  assert.ok(error instanceof ProblemError && error.code === "game_not_found");
  assert.equal(watched.sent.length, 1);
});

test("leaving the loop closes the stream; aborting throws the signal's reason", async () => {
  /** @type {AbortSignal[]} */
  const signals = [];
  const watched = watchedFetch(async (url, init) => {
    if (init.signal) signals.push(init.signal);
    return stream([move]);
  });
  const api = new Client({ baseUrl: "http://service.invalid", fetch: watched.fetch });
  for await (const event of api.events("g")) {
    assert.equal(event.event, "move");
    break;
  }
  assert.equal(signals[0].aborted, true);

  const controller = new AbortController();
  const reading = collect(api, { signal: controller.signal });
  setTimeout(() => controller.abort(new Error("enough")), 20);
  const error = await rejection(reading);
  assert.ok(error instanceof Error && error.message === "enough");
  assert.equal(watched.sent.length, 2);
});

test("an event of another name is skipped, and its id kept for resuming", async () => {
  const later = `event: x-not-yet-declared\ndata: {"player": 2}\nid: 5\n\n`;
  const watched = streams(stream([later]), stream([end], { close: true }));
  const api = new Client({ baseUrl: "http://service.invalid", fetch: watched.fetch });
  const events = await collect(api, { keepAliveMs: 20 });
  assert.deepEqual(events.map((event) => event.event), ["end"]);
  assert.equal(watched.sent[1].headers.get("last-event-id"), "5");
});
