// Tournaments against the real service (it keeps an archive): a round robin made, entered and
// withdrawn from with the organiser's key, paired round by round and played by its players
// with their keys; its document, its TRF-16 report, and its stream replayed and resumed.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { ProblemError, TOURNAMENT_EVENTS } from "../src/index.js";
import { NO_SERVICE, client, rejection } from "./helpers.js";

/** Seat 1 wins tic-tac-toe: [seat, row, col] in order. */
const WIN = [
  [1, 0, 0],
  [2, 1, 0],
  [1, 0, 1],
  [2, 1, 1],
  [1, 0, 2],
];

/**
 * The code of the ProblemError a call is refused with.
 * @param {Promise<unknown>} call
 */
async function refusal(call) {
  const error = await rejection(call);
  assert.ok(error instanceof ProblemError, String(error));
  return [error.code, error.status];
}

/**
 * Every event of a stream, in order.
 * @param {AsyncIterable<any>} stream
 */
async function all(stream) {
  const seen = [];
  for await (const event of stream) seen.push(event);
  return seen;
}

describe("tournaments against the service", { skip: NO_SERVICE }, () => {
  test("a round robin is paired, played with the players' keys, finished and followed", async () => {
    const api = client();
    const org = await api.createPlayer("Org");
    const [ann, bo, cy, di] = await Promise.all(
      ["Ann", "Bo", "Cy", "Di"].map((name) => api.createPlayer(name)),
    );
    /** @type {Record<string, string>} */
    const keys = Object.fromEntries([ann, bo, cy, di].map((p) => [p.id, p.key]));
    const key = org.key;
    const made = await api.createTournament(
      { name: "Club", system: "round_robin", game: { n: 3 }, players: [ann.id, bo.id] },
      { key },
    );
    assert.deepEqual([made.name, made.status, made.organiser], ["Club", "registering", org.id]);
    const entered = await api.enterPlayer(made.id, cy.id, { key });
    assert.deepEqual(
      entered.players.map((p) => p.id),
      [ann.id, bo.id, cy.id],
    );
    await api.enterPlayer(made.id, di.id, { key });
    const withdrawn = await api.withdrawPlayer(made.id, di.id, { key });
    assert.equal(withdrawn.players.find((p) => p.id === di.id)?.withdrawn, 0);
    assert.equal(withdrawn.rounds_planned, 3);
    assert.deepEqual(await refusal(api.pairRound(made.id, { key: ann.key })), [
      "not_organiser",
      403,
    ]);
    assert.deepEqual(await refusal(api.getTournament("nothing")), ["tournament_not_found", 404]);

    for (let number = 1; number <= withdrawn.rounds_planned; number += 1) {
      const paired = await api.pairRound(made.id, { key });
      const round = paired.rounds.at(-1);
      assert.equal(round?.number, number);
      assert.deepEqual(await refusal(api.pairRound(made.id, { key })), [
        "tournament_refused",
        409,
      ]);
      for (const pairing of round?.pairings ?? []) {
        if (pairing.game === null) continue;
        const seats = { 1: keys[pairing.players["1"]], 2: keys[pairing.players["2"] ?? ""] };
        for (const [seat, row, col] of WIN) {
          await api.makeMove(pairing.game, seats[seat === 1 ? 1 : 2], { row, col });
        }
      }
    }
    const done = await api.getTournament(made.id);
    assert.equal(done.status, "finished");
    assert.ok(done.signature);
    const points = done.standings.reduce((sum, row) => sum + row.points, 0);
    const scored = done.rounds
      .flatMap((r) => r.pairings)
      .filter((p) => p.result === "1-0" || p.result === "bye").length;
    assert.equal(points, scored);
    assert.ok((await api.getTournamentText(made.id)).startsWith("012 Club"));

    const events = await all(api.tournamentEvents(made.id));
    assert.ok(events.every((event) => TOURNAMENT_EVENTS.includes(event.event)));
    assert.equal(events.at(-1).event, "end");
    assert.deepEqual(
      events.filter((event) => event.event === "round").map((event) => event.data.round),
      [1, 2, 3],
    );
    const played = done.rounds.flatMap((r) =>
      r.pairings
        .filter((p) => p.game !== null)
        .map((p) => ({ round: r.number, board: p.board, game: p.game, result: p.result })),
    );
    const results = events.filter((event) => event.event === "result").map((event) => event.data);
    const byGame = (/** @type {{ game: string | null }[]} */ rows) =>
      [...rows].sort((a, b) => String(a.game).localeCompare(String(b.game)));
    assert.deepEqual(byGame(results), byGame(played));
    const middle = Number(events[Math.floor(events.length / 2)].id);
    const resumed = await all(api.tournamentEvents(made.id, { after: middle }));
    assert.deepEqual(resumed, events.filter((event) => Number(event.id) > middle));
    const last = Number(events.at(-1).id);
    assert.deepEqual(await all(api.tournamentEvents(made.id, { after: last })), []); // 204
  });
});
