// Sending again: a move whose answer was lost is sent with the same Idempotency-Key and applied
// once; a 503 with a short Retry-After is waited for, a long one is not; a creation is not
// sent again once it may have left.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { Client, ProblemError } from "../src/index.js";
import { NO_SERVICE, client, rejection, watchedFetch, seat } from "./helpers.js";

/**
 * A problem answer as the service would give it.
 * @param {number} status
 * @param {string} code
 * @param {Record<string, string>} [headers]
 */
function problem(status, code, headers = {}) {
  const body = {
    type: `/problems/${code}`,
    title: code,
    status,
    detail: `a ${code} for the test`,
    code,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/problem+json", ...headers },
  });
}

const FAST = { backoffMs: 1 };

describe("sending again, against the service", { skip: NO_SERVICE }, () => {
  test("a move whose answer was lost is sent again with the same key and applied once", async () => {
    let lost = false;
    const watched = watchedFetch(async (url, init) => {
      if (lost || !url.endsWith("/moves") || init.method !== "POST") return undefined;
      lost = true;
      const answer = await fetch(url, init); // applied, but the answer never arrives
      await answer.body?.cancel();
      throw new TypeError("fetch failed");
    });
    const api = client({ fetch: watched.fetch, retries: FAST });
    const game = await api.createGame({ n: 3 });
    const moved = await api.makeMove(game.id, seat(game, "1"), { row: 1, col: 1 });
    assert.deepEqual([moved.move.seq, moved.state.version], [1, 1]);
    const sends = watched.sent.filter((sent) => sent.url.endsWith("/moves"));
    assert.equal(sends.length, 2);
    const keys = sends.map((sent) => sent.headers.get("idempotency-key"));
    assert.match(
      String(keys[0]),
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.equal(keys[1], keys[0]);
    assert.equal((await api.getGame(game.id)).move_count, 1);

    // A new call, a new key; a key given is the one sent.
    await api.makeMove(game.id, seat(game, "2"), { row: 0, col: 0 }, { idempotencyKey: "mine-1" });
    const last = watched.sent.at(-1);
    assert.notEqual(last?.headers.get("idempotency-key"), keys[0]);
    assert.equal(last?.headers.get("idempotency-key"), "mine-1");
  });

  test("a 503 with a short Retry-After is waited for, with the same key", async () => {
    let unavailable = 1;
    const watched = watchedFetch(async (url) => {
      if (!url.endsWith("/resign") || unavailable-- <= 0) return undefined;
      return problem(503, "store_unavailable", { "Retry-After": "0" });
    });
    const api = client({ fetch: watched.fetch });
    const game = await api.createGame({ n: 3 });
    const state = await api.resign(game.id, seat(game, "1"));
    assert.deepEqual([state.status, state.winner], ["won", 2]);
    const sends = watched.sent.filter((sent) => sent.url.endsWith("/resign"));
    assert.deepEqual(
      sends.map((sent) => sent.status),
      [503, 200],
    );
    assert.equal(sends[1].headers.get("idempotency-key"), sends[0].headers.get("idempotency-key"));
  });

  test("a 503 whose Retry-After is too long is the caller's to handle", async () => {
    const watched = watchedFetch(async (url) =>
      url.endsWith("/draw-offer")
        ? problem(503, "store_unavailable", { "Retry-After": "60" })
        : undefined,
    );
    const api = client({ fetch: watched.fetch });
    const game = await api.createGame({ n: 3 });
    const error = await rejection(api.offerDraw(game.id, seat(game, "1")));
    assert.ok(error instanceof ProblemError);
    assert.deepEqual([error.status, error.code, error.retryAfter], [503, "store_unavailable", 60]);
    assert.equal(watched.sent.filter((sent) => sent.url.endsWith("/draw-offer")).length, 1);
  });
});

describe("sending again, without the service", () => {
  test("reads are sent again after network errors, at most `attempts` times", async () => {
    const watched = watchedFetch(async () => {
      throw new TypeError("fetch failed");
    });
    const api = new Client({
      baseUrl: "http://service.invalid",
      fetch: watched.fetch,
      retries: { attempts: 4, backoffMs: 1 },
    });
    const error = await rejection(api.getGame("g"));
    assert.ok(error instanceof TypeError);
    assert.equal(watched.sent.length, 4);
  });

  test("a creation is sent again only when the request never left", async () => {
    const lost = watchedFetch(async () => {
      throw new TypeError("fetch failed", { cause: { code: "ECONNRESET" } });
    });
    const api = new Client({ baseUrl: "http://service.invalid", fetch: lost.fetch, retries: FAST });
    await rejection(api.createGame({ n: 3 }));
    assert.equal(lost.sent.length, 1);

    const refused = watchedFetch(async () => {
      throw new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } });
    });
    const again = new Client({
      baseUrl: "http://service.invalid",
      fetch: refused.fetch,
      retries: FAST,
    });
    await rejection(again.createGame({ n: 3 }));
    assert.equal(refused.sent.length, 3);
  });

  test("a creation refused 503 is not sent again", async () => {
    const watched = watchedFetch(async () =>
      problem(503, "capacity_exhausted", { "Retry-After": "1" }),
    );
    const api = new Client({ baseUrl: "http://service.invalid", fetch: watched.fetch });
    const error = await rejection(api.createGame({ game: "reversi" }));
    assert.ok(error instanceof ProblemError && error.code === "capacity_exhausted");
    assert.equal(watched.sent.length, 1);
  });

  test("an error answer that is no problem is a ProblemError without a code", async () => {
    const watched = watchedFetch(async () => new Response("<h1>Bad gateway</h1>", { status: 502 }));
    const api = new Client({ baseUrl: "http://service.invalid/", fetch: watched.fetch });
    const error = await rejection(api.getHealth());
    assert.ok(error instanceof ProblemError);
    assert.deepEqual([error.status, error.code, error.body], [502, "", {}]);
    assert.equal(watched.sent[0].url, "http://service.invalid/healthz");
  });

  test("an aborted call stops, and is not sent again", async () => {
    const watched = watchedFetch(async (url, init) => {
      await new Promise((resolve, reject) =>
        init.signal?.addEventListener("abort", () => reject(init.signal?.reason)),
      );
      return undefined;
    });
    const api = new Client({ baseUrl: "http://service.invalid", fetch: watched.fetch });
    const controller = new AbortController();
    const call = api.getGame("g", { signal: controller.signal });
    controller.abort(new Error("stop"));
    const error = await rejection(call);
    assert.ok(error instanceof Error && error.message === "stop");
    assert.equal(watched.sent.length, 1);
  });
});
