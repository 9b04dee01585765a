// Seeks, challenges and a player's stream against the real service (it keeps an archive): two
// seeks that fit make a game told on both players' streams, played with their keys; a challenge
// declined (told to the challenger), one accepted (the game made); refusals as ProblemErrors.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { PLAYER_EVENTS, ProblemError } from "../src/index.js";
import { NO_SERVICE, client, rejection } from "./helpers.js";

const GAME = { game: "tictactoe", n: 3 };

/**
 * The code and status of the ProblemError a call is refused with.
 * @param {Promise<unknown>} call
 */
async function refusal(call) {
  const error = await rejection(call);
  assert.ok(error instanceof ProblemError, String(error));
  return [error.code, error.status];
}

/**
 * The first `count` events of a stream; the stream is left (it has no end).
 * @param {AsyncIterable<any>} stream
 * @param {number} count
 */
async function first(stream, count) {
  const seen = [];
  for await (const event of stream) {
    seen.push(event);
    if (seen.length === count) break;
  }
  return seen;
}

describe("seeks and challenges against the service", { skip: NO_SERVICE }, () => {
  test("two seeks that fit make one game, told on both streams", async () => {
    const api = client();
    const [ann, bo] = await Promise.all(["Ann", "Bo"].map((name) => api.createPlayer(name)));
    const waiting = await api.createSeek({ game: GAME }, { key: ann.key });
    assert.equal(waiting.game, null);
    const listed = await api.listSeeks({ game: "tictactoe", limit: 100 });
    assert.ok(listed.seeks.some((seek) => seek.id === waiting.id));
    const made = await api.createSeek({ game: { n: 3 } }, { key: bo.key });
    assert.ok(made.game);
    assert.ok(made.seat === 1 || made.seat === 2);
    const [told] = await first(api.playerEvents(ann.id, { key: ann.key }), 1);
    assert.ok(PLAYER_EVENTS.includes(told.event));
    assert.deepEqual(told.data, {
      game: made.game,
      seat: 3 - made.seat,
      via: "seek",
      seek: waiting.id,
    });
    const state = await api.getGame(made.game);
    assert.equal(state.players?.[String(made.seat)], bo.id);
    assert.deepEqual(await refusal(api.withdrawSeek(waiting.id, { key: ann.key })), [
      "seek_not_found",
      404,
    ]);
  });

  test("a challenge declined is told to the challenger; one accepted makes the game", async () => {
    const api = client();
    const [ann, bo] = await Promise.all(["Ann", "Bo"].map((name) => api.createPlayer(name)));
    const declined = await api.createChallenge({ to: bo.id, game: GAME }, { key: ann.key });
    assert.deepEqual(declined.to, { id: bo.id, name: "Bo" });
    assert.deepEqual((await api.listChallenges({ key: bo.key })).incoming, [declined]);
    assert.deepEqual(await refusal(api.acceptChallenge(declined.id, { key: ann.key })), [
      "wrong_player",
      403,
    ]);
    await api.declineChallenge(declined.id, { key: bo.key });
    const [told] = await first(api.playerEvents(ann.id, { key: ann.key }), 1);
    assert.equal(told.event, "challenge_declined");
    assert.equal(told.data.challenge, declined.id);
    const offered = await api.createChallenge({ to: bo.id, game: GAME }, { key: ann.key });
    assert.deepEqual(await api.getChallenge(offered.id, { key: bo.key }), offered);
    const made = await api.acceptChallenge(offered.id, { key: bo.key });
    const state = await api.getGame(made.game);
    assert.equal(state.players?.[String(made.seat)], bo.id);
    const [, game] = await first(api.playerEvents(ann.id, { key: ann.key }), 2);
    assert.deepEqual(game.data, {
      game: made.game,
      seat: 3 - made.seat,
      via: "challenge",
      challenge: offered.id,
    });
    const withdrawn = await api.createChallenge({ to: bo.id, game: GAME }, { key: ann.key });
    await api.withdrawChallenge(withdrawn.id, { key: ann.key });
    assert.deepEqual(await refusal(api.acceptChallenge(withdrawn.id, { key: bo.key })), [
      "challenge_not_found",
      404,
    ]);
  });
});
