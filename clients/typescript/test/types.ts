// What the declarations promise, checked by `tsc -p .` (never run): each line that must be a
// type error carries @ts-expect-error, which fails the check when it is not one.

import {
  Client,
  ProblemError,
  type CreatedFor,
  type EventOf,
  type GameEvent,
  type MissingMethods,
  type Schemas,
} from "../src/index.js";

// One method per operation of the spec: when the spec gains an operation, its name shows up
// here as the type that `true` is not.
export const everyOperationHasAMethod: [MissingMethods] extends [never] ? true : MissingMethods =
  true;

declare const api: Client;

export async function createGameIsTypedPerKind(): Promise<void> {
  const classic = await api.createGame({ n: 3 });
  const k: number = classic.k;
  const gomoku = await api.createGame({ game: "tictactoe", n: 15, k: 5 });
  const tokens: (string | undefined)[] = [gomoku.tokens["1"], gomoku.tokens["2"]];
  const reversi = await api.createGame({ game: "reversi" });
  const score: Schemas["PlayerScores"] = reversi.score;
  const sized: Schemas["CreatedReversiOut"] = await api.createGame({
    game: "reversi",
    height: 6,
    width: 10,
  });
  // @ts-expect-error a Reversi game has no `n`
  await api.createGame({ game: "reversi", n: 8 });
  // @ts-expect-error a tic-tac-toe game needs `n`
  await api.createGame({ game: "tictactoe", k: 5 });
  // @ts-expect-error no kind has `kk`
  await api.createGame({ n: 3, kk: 3 });
  // @ts-expect-error a tic-tac-toe game is not a Reversi one
  const wrong: Schemas["CreatedReversiOut"] = classic;
  // A body of either kind answers a state of any kind, told apart by its `game`.
  const body = Math.random() < 0.5 ? ({ n: 3 } as const) : ({ game: "reversi" } as const);
  const either = await api.createGame(body);
  if (either.game === "reversi") either.score satisfies Schemas["PlayerScores"];
  else if (either.game === "tictactoe") either.k satisfies number;
  else if (either.game === "gomoku") either.rule satisfies "freestyle" | "standard" | "renju" | "caro";
  void [k, tokens, score, sized, wrong];
}

type Same<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const reversiBodies: Same<
  CreatedFor<{ game: "reversi" }>,
  Schemas["CreatedReversiOut"]
> = true;
export const classicBodies: Same<CreatedFor<{ n: 3 }>, Schemas["CreatedTicTacToeOut"]> = true;

export async function movesAndEvents(id: string, token: string): Promise<void> {
  const moved = await api.makeMove(id, token, { row: 7, col: 7 });
  if (moved.state.game === "reversi") moved.state.score satisfies Schemas["PlayerScores"];
  // A cell by its square name: row and col, or square (the service refuses both, or neither).
  const bySquare = await api.makeMove(id, token, { square: "h8" });
  bySquare.move.square satisfies string | undefined; // absent where the board has no names
  // @ts-expect-error a row is a number
  await api.makeMove(id, token, { row: "7", col: 7 });
  // @ts-expect-error a square is a string
  await api.makeMove(id, token, { square: 88 });
  // @ts-expect-error `player` is 1 or 2
  await api.resign(id, token, { player: 3 });
  for await (const event of api.events(id, { since: 3 })) {
    event satisfies GameEvent;
    switch (event.event) {
      case "join":
        event.data.open_seat satisfies 1 | 2 | null | undefined;
        event.id satisfies string;
        break;
      case "move":
        event.data.move.seq satisfies number;
        event.id satisfies string;
        break;
      case "offer":
        event.data.draw_offer satisfies 1 | 2 | null;
        break;
      case "takeback":
        event.data.takeback_offer satisfies 1 | 2 | null;
        event.data.move_count satisfies number;
        event.id satisfies string;
        break;
      case "abort":
        event.data.status satisfies "in_progress" | "won" | "draw" | "aborted";
        event.id satisfies string;
        break;
      case "clock":
        event.data.clock?.mode satisfies "fischer" | "bronstein" | "delay" | undefined;
        event.id satisfies string;
        break;
      case "rematch":
        event.data.rematch satisfies string | undefined;
        event.id satisfies string;
        break;
      case "end":
        event.data.status satisfies "in_progress" | "won" | "draw" | "aborted";
        event.id satisfies string | undefined;
        break;
      case "error":
        event.data.code satisfies string;
        break;
      default:
        event satisfies never;
    }
  }
  const ended: EventOf<"end">["data"]["reason"] = "timeout";
  const aborted: EventOf<"abort">["data"]["reason"] = "aborted";
  void [ended, aborted];
}

export async function abortsSpectatorsAndPrivateReads(id: string, token: string): Promise<void> {
  const aborted = await api.abortGame(id, token, { player: 1, idempotencyKey: "k", ifMatch: "e" });
  aborted.status satisfies "in_progress" | "won" | "draw" | "aborted";
  // @ts-expect-error `player` is 1 or 2
  await api.abortGame(id, token, { player: 3 });
  const offered = await api.offerTakeback(id, token, { idempotencyKey: "t", ifMatch: "e" });
  offered.takeback_offer satisfies 1 | 2 | null;
  // @ts-expect-error `player` is 1 or 2
  await api.offerTakeback(id, token, { player: 0 });
  const { token: spectator } = await api.addSpectator(id, token);
  spectator satisfies string;
  // Every read of a game takes a player's or a spectator's token.
  await api.getGame(id, { token: spectator });
  await api.pollGame(id, null, { token: spectator });
  await api.listMoves(id, { since: 1, token: spectator });
  await api.listLegalMoves(id, { token: spectator });
  await api.getMove(id, 1, { token: spectator });
  await api.getBoard(id, { token: spectator });
  await api.getRecord(id, { token: spectator });
  await api.getRecordText(id, "transcript", { token: spectator });
  for await (const event of api.gameEvents(id, { token: spectator })) void event;
  // @ts-expect-error a token is a string
  await api.getGame(id, { token: 1 });
  const created = await api.createGame({
    n: 3,
    visibility: "private",
    first_move_seconds: 30,
    rules: { abort: false, draw_offer: false },
  });
  created.visibility satisfies "private" | undefined;
  // @ts-expect-error a game is public or private
  await api.createGame({ n: 3, visibility: "secret" });
}

export function problemsAreToldApartByCode(error: unknown): string {
  if (!(error instanceof ProblemError)) throw error;
  if (error.code === "game_over") return error.detail;
  if (error.code === "too_many_connections") return String(error.retryAfter);
  // @ts-expect-error no problem has this code
  if (error.code === "gameover") return "";
  error.body.title satisfies string;
  return error.status === 409 ? error.title : error.code;
}

export async function choicesAreTyped(): Promise<void> {
  const answer = await api.makeChoice("id", "token", { color: "W" });
  const seq: number = answer.move.seq;
  await api.makeChoice("id", "token", { place_two: true }, { idempotencyKey: `k${seq}` });
  // @ts-expect-error a colour is B or W
  await api.makeChoice("id", "token", { color: "X" });
}

export async function playersAndTheirKeys(): Promise<void> {
  const made = await api.createPlayer("Ann");
  const key: string = made.key;
  const rated = await api.createGame({ n: 3, open: true, rated: true }, { key });
  rated.pool satisfies string | undefined;
  const joined = await api.joinGame(rated.id, { key, name: "Ann" });
  joined.state.players satisfies { [seat: string]: string | null } | undefined;
  await api.makeMove(rated.id, key, { row: 1, col: 1 }); // a key acts as its seat's token
  const me = await api.getMe(key);
  const player = await api.getPlayer(me.id);
  const pool = player.ratings["tictactoe/3x3/k3/correspondence"];
  pool satisfies { rating: number; rd: number; volatility: number; games: number } | undefined;
  const page = await api.listRatings("tictactoe/3x3/k3/correspondence", { limit: 10 });
  page.players[0]?.provisional satisfies boolean | undefined;
  await api.listRatings("tictactoe/3x3/k3/correspondence", { cursor: page.next ?? undefined });
  // @ts-expect-error a key is a string
  await api.createGame({ n: 3 }, { key: 1 });
  // @ts-expect-error a player has a name
  await api.createPlayer();
  // @ts-expect-error a pool's ratings name the pool
  await api.listRatings({ limit: 10 });
}

export async function tournamentsAreTyped(): Promise<void> {
  const key = "organiser-key";
  const made = await api.createTournament(
    { name: "Club", system: "round_robin", game: { n: 3 }, players: ["a", "b"] },
    { key },
  );
  made.status satisfies "registering" | "running" | "finished";
  await api.enterPlayer(made.id, "c", { key });
  await api.withdrawPlayer(made.id, "c", { key });
  const paired = await api.pairRound(made.id, { key });
  const board = paired.rounds[0]?.pairings[0];
  board?.game satisfies string | null | undefined;
  board?.result satisfies "1-0" | "0-1" | "½-½" | "bye" | null | undefined;
  const shown = await api.getTournament(made.id);
  shown.standings[0]?.tiebreaks satisfies Record<string, number> | undefined;
  const report: string = await api.getTournamentText(made.id, "trf");
  void report;
  for await (const event of api.tournamentEvents(made.id, { after: 2 })) {
    if (event.event === "result") event.data.result satisfies string | null;
    if (event.event === "round") event.data.round satisfies number;
  }
  // @ts-expect-error the organiser's operations take its key
  await api.pairRound(made.id);
  // @ts-expect-error a system is one of three
  await api.createTournament({ name: "X", system: "knockout", game: {} }, { key });
}

export async function seeksAndChallengesAreTyped(): Promise<void> {
  const key = "player-key";
  const posted = await api.createSeek(
    { game: { game: "gomoku", rule: "renju" }, rated: true, rating_range: [1400, 1800] },
    { key },
  );
  posted.game satisfies string | null;
  const page = await api.listSeeks({ game: "gomoku", limit: 10 });
  page.seeks[0]?.player.name satisfies string | undefined;
  await api.withdrawSeek(posted.id, { key });
  const challenge = await api.createChallenge({ to: "p", game: { game: "reversi" } }, { key });
  challenge.from.id satisfies string;
  const made = await api.acceptChallenge(challenge.id, { key });
  made.seat satisfies 1 | 2;
  await api.declineChallenge(challenge.id, { key });
  await api.withdrawChallenge(challenge.id, { key });
  (await api.listChallenges({ key })).incoming satisfies unknown[];
  for await (const event of api.playerEvents("p", { key, after: 3 })) {
    if (event.event === "game") event.data.seat satisfies 1 | 2;
    if (event.event === "challenge_declined") event.data.challenge satisfies string;
  }
  // @ts-expect-error a seek is a player's: its key
  await api.createSeek({ game: { n: 3 } });
  // @ts-expect-error a player's stream is followed with its key
  api.playerEvents("p");
}
