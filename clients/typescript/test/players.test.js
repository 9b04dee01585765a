// Players and ratings against the real service (it keeps an archive): players made and found
// by their keys, a rated open game made and joined with keys and played with the keys as the
// seats' tokens, both players rated in its pool, the pool's ratings a page at a time.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { ProblemError } from "../src/index.js";
import { NO_SERVICE, client, rejection } from "./helpers.js";

/**
 * The code of the ProblemError a call is refused with.
 * @param {Promise<unknown>} call
 */
async function refusal(call) {
  const error = await rejection(call);
  assert.ok(error instanceof ProblemError, String(error));
  return [error.code, error.status];
}

describe("players and ratings against the service", { skip: NO_SERVICE }, () => {
  test("a rated game between two players' keys rates both in its pool", async () => {
    const api = client();
    const ann = await api.createPlayer("Ann");
    const bo = await api.createPlayer("Bo");
    assert.deepEqual(Object.keys(ann).sort(), ["id", "key", "name"]);
    const me = await api.getMe(ann.key);
    assert.deepEqual([me.id, me.name, me.ratings], [ann.id, "Ann", {}]);
    assert.deepEqual(await api.getPlayer(bo.id), await api.getMe(bo.key));

    const game = await api.createGame({ n: 3, open: true, rated: true }, { key: ann.key });
    const pool = game.pool;
    assert.equal(pool, "tictactoe/3x3/k3/correspondence");
    assert.deepEqual(await refusal(api.joinGame(game.id)), ["unauthorized", 401]);
    assert.deepEqual(await refusal(api.joinGame(game.id, { key: ann.key })), ["seat_taken", 409]);
    const joined = await api.joinGame(game.id, { key: bo.key });
    assert.deepEqual(joined.state.players, { 1: ann.id, 2: bo.id });
    assert.deepEqual(joined.state.names, { 1: "Ann", 2: "Bo" });
    // The keys act as their seats' tokens.
    const keys = [ann.key, bo.key];
    const cells = [[0, 0], [1, 0], [0, 1], [1, 1]];
    for (const [i, [row, col]] of cells.entries()) {
      await api.makeMove(game.id, keys[i % 2], { row, col });
    }
    const won = await api.makeMove(game.id, ann.key, { row: 0, col: 2 });
    assert.equal(won.winner, 1);

    const page = await api.listRatings(pool, { limit: 1000 });
    const ours = page.players.filter((row) => row.id === ann.id || row.id === bo.id);
    assert.deepEqual(
      ours.map((row) => [row.id, row.name, row.games, row.provisional]),
      [
        [ann.id, "Ann", 1, true],
        [bo.id, "Bo", 1, true],
      ],
    );
    assert.ok(ours[0].rating > 1500 && 1500 > ours[1].rating);
    const rated = (await api.getPlayer(ann.id)).ratings[pool];
    assert.deepEqual([rated.rating, rated.rd, rated.games], [ours[0].rating, ours[0].rd, 1]);
    // A page at a time: each page's `next` is the following page's cursor.
    /** @type {string[]} */
    const paged = [];
    /** @type {string | undefined} */
    let cursor;
    do {
      const one = await api.listRatings(pool, { limit: 1, cursor });
      paged.push(...one.players.map((row) => row.id));
      cursor = one.next ?? undefined;
    } while (cursor !== undefined);
    assert.deepEqual(paged, page.players.map((row) => row.id));
    assert.deepEqual(await api.listRatings("reversi/8x8/blitz"), { players: [], next: null });

    assert.deepEqual(await refusal(api.getPlayer("nobody")), ["player_not_found", 404]);
    assert.deepEqual(await refusal(api.getMe(`${ann.id}.not-its-secret`)), ["unauthorized", 401]);
    assert.deepEqual(await refusal(api.createPlayer("")), ["validation_error", 422]);
  });
});
