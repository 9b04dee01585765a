// Whole games against the real service: tic-tac-toe, gomoku and Reversi to their ends, the
// problems a player meets, polling, and the event stream of a game being played.

import assert from "node:assert/strict";
import { describe, test } from "node:test";

import { ProblemError } from "../src/index.js";
import {
  KEEP_ALIVE_MS,
  NO_SERVICE,
  client,
  rejection,
  watchedFetch,
  seat,
  timeless,
} from "./helpers.js";

/**
 * The ProblemError a call is refused with; it must have this code and status.
 * @param {Promise<unknown>} call
 * @param {import("../src/index.js").AnyProblemCode} code
 * @param {number} status
 */
async function refused(call, code, status) {
  const error = await rejection(call);
  assert.ok(error instanceof ProblemError, String(error));
  assert.equal(error.code, code);
  assert.equal(error.status, status);
  assert.equal(error.body.code, code);
  assert.equal(error.type, `/problems/${code}`);
  assert.ok(error.title && error.detail);
  return error;
}

describe("games against the service", { skip: NO_SERVICE }, () => {
  test("tic-tac-toe 3 × 3 to a win, with the problems a player meets", async () => {
    const api = client();
    const game = await api.createGame({ n: 3 });
    assert.equal(game.game, "tictactoe");
    assert.deepEqual(
      [game.n, game.k, game.status, game.next_player, game.version],
      [3, 3, "in_progress", 1, 0],
    );
    const [x, o] = [seat(game, "1"), seat(game, "2")];

    await api.makeMove(game.id, x, { row: 0, col: 0 });
    const notYourTurn = await refused(
      api.makeMove(game.id, x, { row: 1, col: 1 }),
      "not_your_turn",
      409,
    );
    assert.equal(notYourTurn.body.next_player, 2);
    await api.makeMove(game.id, o, { row: 1, col: 0 });
    await refused(api.makeMove(game.id, x, { row: 1, col: 0 }), "cell_occupied", 409);
    await refused(api.makeMove(game.id, x, { row: 0, col: 0, player: 2 }), "wrong_player", 403);
    await refused(api.makeMove(game.id, "not-a-token", { row: 2, col: 2 }), "unauthorized", 401);
    await refused(api.makeMove(game.id, x, { row: 3, col: 0 }), "out_of_bounds", 422);
    await api.makeMove(game.id, x, { row: 0, col: 1 });
    await api.makeMove(game.id, o, { row: 1, col: 1 });
    const won = await api.makeMove(game.id, x, { row: 0, col: 2 });
    assert.equal(won.winner, 1);
    assert.deepEqual(timeless(won.move), { seq: 5, row: 0, col: 2, square: "c3", player: 1 });
    assert.deepEqual(
      [won.state.status, won.state.reason, won.state.next_player],
      ["won", "line", null],
    );
    const over = await refused(api.makeMove(game.id, o, { row: 2, col: 2 }), "game_over", 409);
    assert.equal(over.body.winner, 1);

    assert.deepEqual(await api.getBoard(game.id), { n: 3, rows: ["XXX", "OO.", "..."] });
    // Finished: archived, its record as the record route answered it.
    assert.deepEqual(await api.getArchivedGame(game.id), await api.getRecord(game.id));
    assert.equal(await api.getArchivedGameText(game.id, "transcript"), "a3a2b3b2c3");
    const listed = await api.listArchivedGames({ game: "tictactoe", status: "won", limit: 1000 });
    const summary = listed.games.find((found) => found.id === game.id);
    assert.ok(summary);
    assert.deepEqual([summary.winner, summary.reason, summary.move_count], [1, "line", 5]);
    const exported = new TextDecoder().decode(await api.exportArchive("ndjson", { game: "tictactoe" }));
    const chains = exported.trim().split("\n").map((line) => JSON.parse(line).chain);
    assert.ok(chains.includes(summary.chain));
    await refused(api.getArchivedGame("nothing"), "game_not_found", 404);
    const page = await api.listMoves(game.id, { since: 3 });
    assert.deepEqual(
      page.moves.map((move) => move.seq),
      [4, 5],
    );
    assert.deepEqual(await api.getMove(game.id, 5), won.move);
    await refused(api.getMove(game.id, 9), "move_not_found", 404);

    await api.deleteGame(game.id, o);
    await refused(api.getGame(game.id), "game_not_found", 404);
    await refused(api.createGame({ game: "tictactoe", n: 15, k: 16 }), "validation_error", 422);
  });

  test("gomoku: 15 × 15, five in a row", async () => {
    const api = client();
    const game = await api.createGame({ game: "tictactoe", n: 15, k: 5 });
    assert.deepEqual([game.n, game.k], [15, 5]);
    let last;
    for (let col = 3; col <= 7; col++) {
      last = await api.makeMove(game.id, seat(game, "1"), { row: 7, col });
      if (col < 7) await api.makeMove(game.id, seat(game, "2"), { row: 6, col });
    }
    assert.ok(last);
    assert.deepEqual([last.winner, last.state.status, last.state.move_count], [1, "won", 9]);
    const board = await api.getBoard(game.id);
    assert.ok("n" in board);
    assert.equal(board.rows[7], "...XXXXX.......");
  });

  test("a swap2 opening: three stones, two more, then player 1 takes White", async () => {
    const api = client();
    const game = await api.createGame({ game: "gomoku", opening: "swap2" });
    assert.ok("colors" in game);
    assert.deepEqual(game.opening, { rule: "swap2", step: "place_three", to_act: 1 });
    const [first, second] = [seat(game, "1"), seat(game, "2")];
    for (const square of ["h8", "h9", "i9"]) await api.makeMove(game.id, first, { square });
    await refused(api.makeMove(game.id, second, { square: "a1" }), "wrong_step", 409);
    await refused(api.makeChoice(game.id, first, { color: "W" }), "not_your_turn", 409);
    const placing = await api.makeChoice(game.id, second, { place_two: true });
    assert.deepEqual(timeless(placing.move), { seq: 4, choice: "place_two", player: 2 });
    for (const square of ["a1", "a3"]) await api.makeMove(game.id, second, { square });
    const chosen = await api.makeChoice(game.id, first, { color: "W" });
    assert.ok("colors" in chosen.state);
    assert.deepEqual(
      [chosen.state.colors, chosen.state.opening, chosen.state.next_player],
      [{ 1: "W", 2: "B" }, null, 1],
    );
    const white = await api.makeMove(game.id, first, { square: "o15" });
    assert.deepEqual(timeless(white.move), {
      seq: 8,
      row: 0,
      col: 14,
      square: "o15",
      player: 1,
      color: "W",
    });
    const sgf = await api.getRecordText(game.id, "sgf");
    assert.equal((sgf.match(/;[BW]\[[a-z]{2}\]/g) ?? []).length, 6); // the stones, not the choices
    const psq = await api.getRecordText(game.id, "psq");
    const audited = await api.auditRecord({ record: psq, format: "psq" });
    assert.deepEqual([audited.verdict, audited.plies], ["unfinished", 6]);
    const summary = await api.auditRecord({ record: psq, format: "psq", detail: "summary" });
    assert.equal(summary.moves, undefined);
    assert.deepEqual([summary.verdict, summary.plies, summary.chain], ["unfinished", 6, audited.chain]);
  });

  test("an open game: listed in the lobby, joined once, then played", async () => {
    const api = client();
    const game = await api.createGame({ n: 3, open: true });
    assert.deepEqual(Object.keys(game.tokens), ["1"]);
    assert.equal(game.open_seat, 2);
    const listed = await api.listGames({ game: "tictactoe", limit: 100 });
    assert.ok(listed.games.some((open) => open.id === game.id));
    const creator = seat(game, "1");
    await refused(api.makeMove(game.id, creator, { row: 0, col: 0 }), "waiting_for_opponent", 409);
    const joined = await api.joinGame(game.id, { idempotencyKey: "join-1" });
    assert.deepEqual([joined.player, joined.state.open_seat], [2, null]);
    const again = await api.joinGame(game.id, { idempotencyKey: "join-1" });
    assert.equal(again.token, joined.token);
    await refused(api.joinGame(game.id), "seat_taken", 409);
    await api.makeMove(game.id, creator, { row: 0, col: 0 });
    const reply = await api.makeMove(game.id, joined.token, { row: 1, col: 1 });
    assert.equal(reply.state.move_count, 2);
    const after = await api.listGames({ game: "tictactoe", limit: 100 });
    assert.ok(!after.games.some((open) => open.id === game.id));
  });

  test("a live game's legal moves, a page at a time, Reversi's with their flips", async () => {
    const api = client();
    const game = await api.createGame({ n: 3 });
    await api.makeMove(game.id, seat(game, "1"), { row: 1, col: 1 });
    const first = await api.listLegalMoves(game.id, { limit: 5 });
    assert.deepEqual([first.game, first.player, first.count, first.version], ["tictactoe", 2, 8, 1]);
    assert.notEqual(first.next_after, null);
    const rest = await api.listLegalMoves(game.id, { after: first.next_after ?? undefined });
    assert.equal(rest.next_after, null);
    const cells = [...first.moves, ...rest.moves].map((m) => [m.row, m.col]);
    assert.deepEqual(cells, [[0, 0], [0, 1], [0, 2], [1, 0], [1, 2], [2, 0], [2, 1], [2, 2]]);
    const reversi = await api.createGame({ game: "reversi" });
    const page = await api.listLegalMoves(reversi.id);
    assert.ok(page.game === "reversi");
    assert.deepEqual(
      page.moves.map((m) => [m.row, m.col, m.flips.length]),
      [[2, 3, 1], [3, 2, 1], [4, 5, 1], [5, 4, 1]],
    );
    await refused(api.listLegalMoves("nope"), "game_not_found", 404);
  });

  test("moves by square name: Othello's rows from the top, tic-tac-toe's from the bottom", async () => {
    const api = client();
    const reversi = await api.createGame({ game: "reversi" });
    const first = await api.listLegalMoves(reversi.id);
    assert.deepEqual(first.moves.map((m) => m.square).sort(), ["c4", "d3", "e6", "f5"]);
    // A transcript of ten moves from the standard start, each sent by its name.
    const transcript = "f5d6c3d3c4f4f6f3e6e7";
    for (const [index, square] of (transcript.match(/[a-h][1-8]/g) ?? []).entries()) {
      const token = seat(reversi, index % 2 === 0 ? "1" : "2");
      const moved = await api.makeMove(reversi.id, token, { square: index % 2 ? square.toUpperCase() : square });
      assert.equal(moved.move.square, square);
    }
    const { moves } = await api.listMoves(reversi.id);
    assert.equal(moves.map((m) => m.square).join(""), transcript);
    const f5 = moves[0];
    assert.ok("flips" in f5);
    assert.deepEqual([f5.row, f5.col, f5.flips, f5.flip_squares], [4, 5, [[4, 4]], ["e5"]]);

    const gomoku = await api.createGame({ game: "tictactoe", n: 15, k: 5 });
    const centre = await api.makeMove(gomoku.id, seat(gomoku, "1"), { square: "h8" });
    assert.deepEqual([centre.move.row, centre.move.col, centre.move.square], [7, 7, "h8"]);
    const corner = await api.makeMove(gomoku.id, seat(gomoku, "2"), { square: "a1" });
    assert.deepEqual([corner.move.row, corner.move.col], [14, 0]);
    const outside = await refused(
      api.makeMove(gomoku.id, seat(gomoku, "1"), { square: "p1" }),
      "validation_error",
      422,
    );
    assert.deepEqual(outside.body.errors?.[0]?.loc, ["body", "square"]);
    await refused(
      api.makeMove(gomoku.id, seat(gomoku, "1"), { row: 0, col: 0, square: "a15" }),
      "validation_error",
      422,
    );
    assert.equal((await api.getGame(gomoku.id)).version, 2);
  });

  test("Reversi to its end, each move one of the stateless legal moves", async () => {
    const api = client();
    const game = await api.createGame({ game: "reversi" });
    assert.deepEqual([game.height, game.width, game.score], [8, 8, { 1: 2, 2: 2 }]);
    await refused(api.makeMove(game.id, seat(game, "1"), { row: 0, col: 0 }), "illegal_move", 409);
    let state = await api.getGame(game.id);
    while (state.status === "in_progress" && state.next_player !== null) {
      const player = state.next_player;
      const { rows } = await api.getBoard(game.id);
      const { moves, must_pass } = await api.legalMoves({
        board: rows,
        color: player === 1 ? "B" : "W",
      });
      assert.equal(must_pass, false);
      const best = moves.reduce((a, b) => (b.flips > a.flips ? b : a));
      const token = seat(game, player === 1 ? "1" : "2");
      const moved = await api.makeMove(game.id, token, { row: best.row, col: best.col });
      assert.ok("flips" in moved.move && moved.move.flips.length === best.flips);
      state = moved.state;
    }
    assert.equal(state.game, "reversi");
    assert.equal(state.reason, "no_moves");
    const over = await api.listLegalMoves(game.id);
    assert.deepEqual([over.player, over.count, over.moves], [null, 0, []]);
    assert.ok(state.game === "reversi" && state.score["1"] + state.score["2"] <= 64);
    assert.equal(
      state.winner,
      state.score["1"] > state.score["2"] ? 1 : state.score["1"] < state.score["2"] ? 2 : 0,
    );
  });

  test("a resignation and an agreed draw end a game; later actions are game_over", async () => {
    const api = client();
    const a = await api.createGame({ game: "reversi" });
    await api.offerDraw(a.id, seat(a, "1"));
    const drawn = await api.offerDraw(a.id, seat(a, "2"), { player: 2 });
    assert.deepEqual([drawn.status, drawn.reason, drawn.winner], ["draw", "agreement", 0]);
    const b = await api.createGame({ n: 3 });
    const resigned = await api.resign(b.id, seat(b, "2"));
    assert.deepEqual(
      [resigned.status, resigned.reason, resigned.winner],
      ["won", "resignation", 1],
    );
    await refused(api.resign(b.id, seat(b, "1")), "game_over", 409);
  });

  test("an abort before both players have moved; too_late_to_abort after", async () => {
    const api = client();
    const game = await api.createGame({ n: 3 });
    const aborted = await api.abortGame(game.id, seat(game, "2"), { idempotencyKey: "abort-1" });
    assert.deepEqual(
      [aborted.status, aborted.winner, aborted.reason, aborted.next_player],
      ["aborted", 0, "aborted", null],
    );
    const again = await api.abortGame(game.id, seat(game, "2"), { idempotencyKey: "abort-1" });
    assert.deepEqual(again, aborted);
    assert.equal((await api.getGame(game.id)).status, "aborted");
    await refused(api.makeMove(game.id, seat(game, "1"), { row: 0, col: 0 }), "game_over", 409);
    const events = [];
    for await (const event of api.events(game.id)) events.push(event);
    assert.deepEqual(
      events.map((e) => [e.event, e.event === "error" ? "-" : e.id]),
      [
        ["abort", String(aborted.version)],
        ["end", undefined],
      ],
    );
    assert.ok(events[0].event === "abort" && events[0].data.status === "aborted");

    const oneMove = await api.createGame({ n: 3 });
    await api.makeMove(oneMove.id, seat(oneMove, "1"), { row: 1, col: 1 });
    const stale = await api.pollGame(oneMove.id);
    await refused(
      api.abortGame(oneMove.id, seat(oneMove, "1"), { ifMatch: `"${oneMove.id}.0"` }),
      "precondition_failed",
      412,
    );
    const early = await api.abortGame(oneMove.id, seat(oneMove, "1"), {
      player: 1,
      ifMatch: stale.etag,
    });
    assert.equal(early.status, "aborted");

    const bothMoved = await api.createGame({ n: 3 });
    await api.makeMove(bothMoved.id, seat(bothMoved, "1"), { row: 1, col: 1 });
    await api.makeMove(bothMoved.id, seat(bothMoved, "2"), { row: 0, col: 0 });
    await refused(api.abortGame(bothMoved.id, seat(bothMoved, "1")), "too_late_to_abort", 409);
    assert.equal((await api.getGame(bothMoved.id)).status, "in_progress");

    const noAbort = await api.createGame({ n: 3, rules: { abort: false } });
    const left = await refused(
      api.abortGame(noAbort.id, seat(noAbort, "1")),
      "action_not_allowed",
      409,
    );
    assert.equal(left.body.action, "abort");
  });

  test("a takeback offer is accepted by the other player offering too", async () => {
    const api = client();
    const game = await api.createGame({ n: 3 });
    const nothing = await refused(
      api.offerTakeback(game.id, seat(game, "1")),
      "nothing_to_take_back",
      409,
    );
    assert.equal(nothing.body.player, 1);
    await api.makeMove(game.id, seat(game, "1"), { row: 1, col: 1 });
    const replied = await api.makeMove(game.id, seat(game, "2"), { row: 0, col: 0 });
    const seen = replied.state.version;
    const offered = await api.offerTakeback(game.id, seat(game, "1"), { idempotencyKey: "b-1" });
    assert.deepEqual([offered.takeback_offer, offered.move_count], [1, 2]);
    const again = await api.offerTakeback(game.id, seat(game, "1"), { idempotencyKey: "b-1" });
    assert.deepEqual(again, offered);
    const taken = await api.offerTakeback(game.id, seat(game, "2"), { player: 2 });
    assert.deepEqual([taken.takeback_offer, taken.move_count, taken.next_player], [null, 0, 1]);
    const moved = await api.makeMove(game.id, seat(game, "1"), { row: 2, col: 2 });
    assert.equal(moved.move.seq, 1);
    await api.resign(game.id, seat(game, "2"));
    const events = [];
    for await (const event of api.events(game.id, { since: seen })) events.push(event);
    // The offer that stood is history once accepted: the takeback, then the moves replacing.
    assert.deepEqual(
      events.map((e) => e.event),
      ["takeback", "move", "end"],
    );
    assert.ok(events[0].event === "takeback" && events[0].data.move_count === 0);
    assert.equal(events[0].id, String(taken.version));
  });

  test("time given goes on the other player's clock", async () => {
    const api = client();
    const game = await api.createGame({
      n: 3,
      clock: { initial_seconds: 60, increment_seconds: 5, mode: "bronstein" },
    });
    const given = await api.giveTime(game.id, seat(game, "2"), 15, { idempotencyKey: "g-1" });
    assert.deepEqual([given.clock?.mode, given.clock?.remaining_ms], [
      "bronstein",
      { 1: 75000, 2: 60000 },
    ]);
    const again = await api.giveTime(game.id, seat(game, "2"), 15, { idempotencyKey: "g-1" });
    assert.deepEqual(again, given);
    const untimed = await api.createGame({ n: 3 });
    const refusal = await refused(
      api.giveTime(untimed.id, seat(untimed, "1"), 15),
      "action_not_allowed",
      409,
    );
    assert.equal(refusal.body.why, "no_clock");
  });

  test("a rematch is made once both players offered, the seats swapped", async () => {
    const api = client();
    const game = await api.createGame({ n: 3 });
    await refused(api.rematch(game.id, seat(game, "1")), "game_not_over", 409);
    await api.resign(game.id, seat(game, "1"));
    const offered = await api.rematch(game.id, seat(game, "1"));
    assert.equal(offered.rematch, null);
    assert.equal(offered.state.rematch_offer, 1);
    const accepted = (await api.rematch(game.id, seat(game, "2"))).rematch;
    const mine = (await api.rematch(game.id, seat(game, "1"))).rematch;
    assert.ok(accepted && mine);
    assert.deepEqual([accepted.player, mine.player, mine.id], [1, 2, accepted.id]);
    const moved = await api.makeMove(accepted.id, accepted.token, { row: 0, col: 0 });
    assert.equal(moved.move.player, 1);
  });

  test("a private game is read only with a player's or a spectator's token", async () => {
    const api = client();
    const game = await api.createGame({ n: 3, visibility: "private" });
    assert.equal(game.visibility, "private");
    const [x, o] = [seat(game, "1"), seat(game, "2")];
    await refused(api.getGame(game.id), "unauthorized", 401);
    for (const read of [
      () => api.pollGame(game.id),
      () => api.listMoves(game.id),
      () => api.listLegalMoves(game.id),
      () => api.getBoard(game.id),
      () => api.getRecord(game.id),
      () => api.getRecordText(game.id, "transcript"),
      () => api.events(game.id).next(),
    ]) {
      await refused(read(), "unauthorized", 401);
    }
    assert.equal((await api.getGame(game.id, { token: o })).visibility, "private");
    await api.makeMove(game.id, x, { row: 1, col: 1 });
    await refused(api.getMove(game.id, 1), "unauthorized", 401);
    assert.equal((await api.getMove(game.id, 1, { token: o })).seq, 1);
    await refused(api.addSpectator(game.id, "not-a-token"), "unauthorized", 401);

    const { token: spectator } = await api.addSpectator(game.id, x);
    assert.ok(spectator && spectator !== x && spectator !== o);
    const state = await api.getGame(game.id, { token: spectator });
    assert.deepEqual([state.version, state.move_count], [1, 1]);
    const polled = await api.pollGame(game.id, null, { token: spectator });
    assert.deepEqual(polled.state, state);
    assert.equal((await api.pollGame(game.id, polled.etag, { token: spectator })).state, null);
    const { moves } = await api.listMoves(game.id, { token: spectator });
    assert.deepEqual(
      moves.map((move) => move.seq),
      [1],
    );
    assert.equal((await api.getMove(game.id, 1, { token: spectator })).square, "b2");
    assert.equal((await api.listLegalMoves(game.id, { token: spectator })).count, 8);
    const board = await api.getBoard(game.id, { token: spectator });
    assert.deepEqual(board.rows, ["...", ".X.", "..."]);
    assert.deepEqual((await api.getRecord(game.id, { token: spectator })).moves, ["b2"]);
    assert.equal(await api.getRecordText(game.id, "transcript", { token: spectator }), "b2");

    await refused(api.makeMove(game.id, spectator, { row: 0, col: 0 }), "wrong_player", 403);
    await refused(api.abortGame(game.id, spectator), "wrong_player", 403);
    await refused(api.addSpectator(game.id, spectator), "wrong_player", 403);
    assert.equal((await api.getGame(game.id, { token: spectator })).version, 1);

    const publicGame = await api.createGame({ n: 3 });
    assert.equal((await api.getGame(publicGame.id)).status, "in_progress"); // no token needed
    const watcher = await api.addSpectator(publicGame.id, seat(publicGame, "2"));
    assert.deepEqual((await api.getBoard(publicGame.id, { token: watcher.token })).rows, [
      "...",
      "...",
      "...",
    ]);
  });

  test("a private game's stream, dropped, resumes with its token", async () => {
    let cut = false;
    const watched = watchedFetch(async (url, init) => {
      const response = await fetch(url, init);
      if (!url.includes("/events") || cut) return response;
      cut = true;
      return cutAfterFirstEvent(response);
    });
    const api = client({ fetch: watched.fetch });
    const game = await api.createGame({ n: 3, visibility: "private" });
    for (const [token, row, col] of /** @type {const} */ ([
      ["1", 0, 0],
      ["2", 1, 0],
      ["1", 0, 1],
      ["2", 1, 1],
      ["1", 0, 2],
    ])) {
      await api.makeMove(game.id, seat(game, token), { row, col });
    }
    const { token: spectator } = await api.addSpectator(game.id, seat(game, "1"));
    const events = [];
    for await (const event of api.events(game.id, { token: spectator })) events.push(event);
    assert.deepEqual(
      events.map((e) => e.event),
      [...Array(5).fill("move"), "end"],
    );
    const opens = watched.sent.filter((sent) => sent.url.includes("/events"));
    assert.equal(opens.length, 2);
    assert.deepEqual(
      opens.map((sent) => sent.headers.get("authorization")),
      [`Bearer ${spectator}`, `Bearer ${spectator}`],
    );
    assert.equal(opens[1].headers.get("last-event-id"), "1");
  });

  test("polling: a null state while the ETag still matches", async () => {
    const api = client();
    const game = await api.createGame({ n: 3 });
    const first = await api.pollGame(game.id);
    assert.equal(first.state?.version, 0);
    assert.ok(first.etag);
    const unchanged = await api.pollGame(game.id, first.etag);
    assert.deepEqual(unchanged, { state: null, etag: first.etag });
    await api.makeMove(game.id, seat(game, "1"), { row: 1, col: 1 });
    const changed = await api.pollGame(game.id, first.etag);
    assert.equal(changed.state?.version, 1);
    assert.notEqual(changed.etag, first.etag);
    await refused(
      api.makeMove(game.id, seat(game, "2"), { row: 0, col: 0 }, { ifMatch: first.etag }),
      "precondition_failed",
      412,
    );
    await api.makeMove(game.id, seat(game, "2"), { row: 0, col: 0 }, { ifMatch: changed.etag });
  });

  test("the events of a game being played: a move made after the stream opened arrives", async () => {
    /** @type {() => void} */
    let opened = () => {};
    const open = new Promise((resolve) => (opened = () => resolve(undefined)));
    const watched = watchedFetch(async (url, init) => {
      const response = await fetch(url, init);
      if (url.includes("/events")) opened();
      return response;
    });
    const api = client({ fetch: watched.fetch });
    const game = await api.createGame({ n: 3 });
    const [x, o] = [seat(game, "1"), seat(game, "2")];
    const stream = api.events(game.id);
    const first = stream.next(); // opens the stream
    await open;
    await api.makeMove(game.id, x, { row: 1, col: 1 });
    const event = (await first).value;
    assert.ok(event && event.event === "move");
    assert.deepEqual([event.id, event.data.move.row, event.data.move.col], ["1", 1, 1]);

    // The rest of the game while the stream reads along, then its end.
    /** @type {import("../src/index.js").GameEvent[]} */
    const seen = [event];
    const reading = (async () => {
      for await (const next of stream) seen.push(next);
    })();
    for (const [token, row, col] of /** @type {const} */ ([
      [o, 0, 0],
      [x, 0, 1],
      [o, 2, 1],
      [x, 2, 2],
      [o, 1, 0],
      [x, 0, 2],
    ])) {
      await api.makeMove(game.id, token, { row, col });
    }
    const resigned = await api.resign(game.id, o);
    await reading;
    assert.deepEqual(
      seen.map((e) => e.event),
      [...Array(7).fill("move"), "end"],
    );
    const end = seen[7];
    assert.ok(end.event === "end");
    assert.deepEqual(
      [end.data.status, end.data.reason, end.data.version],
      ["won", "resignation", resigned.version],
    );
    assert.equal(end.id, String(resigned.version));
    assert.equal(watched.sent.filter((sent) => sent.url.includes("/events")).length, 1);

    // A finished game's stream resumed at its end ends at once (204); from the start, it
    // replays every change.
    const resumed = [];
    for await (const e of api.events(game.id, { since: resigned.version })) resumed.push(e);
    assert.deepEqual(resumed, []);
    assert.equal(watched.sent.at(-1)?.status, 204);
    const replayed = [];
    for await (const e of api.events(game.id)) replayed.push(e);
    assert.deepEqual(replayed, seen);
  });

  test("a dropped stream resumes with Last-Event-ID, and no event is lost or repeated", async () => {
    let cut = false;
    const watched = watchedFetch(async (url, init) => {
      const response = await fetch(url, init);
      if (!url.includes("/events") || cut) return response;
      cut = true;
      return cutAfterFirstEvent(response);
    });
    const api = client({ fetch: watched.fetch });
    const game = await api.createGame({ n: 3 });
    for (const [token, row, col] of /** @type {const} */ ([
      ["1", 0, 0],
      ["2", 1, 0],
      ["1", 0, 1],
      ["2", 1, 1],
      ["1", 0, 2],
    ])) {
      await api.makeMove(game.id, seat(game, token), { row, col });
    }
    const events = [];
    for await (const event of api.events(game.id)) events.push(event);
    assert.deepEqual(
      events.map((e) => [e.event, e.event === "error" ? "-" : e.id]),
      [
        ["move", "1"],
        ["move", "2"],
        ["move", "3"],
        ["move", "4"],
        ["move", "5"],
        ["end", undefined],
      ],
    );
    const opens = watched.sent.filter((sent) => sent.url.includes("/events"));
    assert.equal(opens.length, 2);
    assert.equal(opens[0].headers.get("last-event-id"), null);
    assert.equal(opens[1].headers.get("last-event-id"), "1");
  });

  const quick =
    KEEP_ALIVE_MS <= 1000 || "the service's keep-alive interval is too long to wait for";
  test(
    "keep-alives keep a quiet stream open past its silence limit",
    { skip: quick !== true && quick },
    async () => {
      const watched = watchedFetch();
      const api = client({ fetch: watched.fetch });
      const game = await api.createGame({ n: 3 });
      const stream = api.events(game.id, { keepAliveMs: KEEP_ALIVE_MS });
      const first = stream.next();
      // Quiet for twice the time after which a silent stream is taken for dead.
      await new Promise((resolve) => setTimeout(resolve, 6 * KEEP_ALIVE_MS));
      await api.makeMove(game.id, seat(game, "1"), { row: 2, col: 2 });
      const event = (await first).value;
      assert.ok(event?.event === "move" && event.data.move.seq === 1);
      await stream.return();
      assert.equal(watched.sent.filter((sent) => sent.url.includes("/events")).length, 1);
    },
  );
});

/**
 * The response, but its body breaks (as a lost connection would) right after its first event.
 * @param {Response} response
 */
function cutAfterFirstEvent(response) {
  const upstream = /** @type {ReadableStream<Uint8Array>} */ (response.body).getReader();
  const decoder = new TextDecoder();
  let text = "";
  const body = new ReadableStream({
    async pull(controller) {
      while (true) {
        const { value, done } = await upstream.read();
        if (done) return controller.close();
        text += decoder.decode(value, { stream: true });
        const start = text.indexOf("event: move");
        const end = start < 0 ? -1 : text.indexOf("\n\n", start);
        if (end >= 0) {
          controller.enqueue(new TextEncoder().encode(text.slice(0, end + 2)));
          await upstream.cancel();
          return controller.error(new TypeError("the connection was lost"));
        }
      }
    },
  });
  return new Response(body, { status: response.status, headers: response.headers });
}
