// @adjudicator/client: a thin client of the move adjudicator, for browsers and node (18.18 or
// newer). Plain ES modules with no dependencies: a page imports this file as it is, a bundler
// or TypeScript takes it from `npm install ./clients/typescript`. Its types are in index.d.ts,
// made from the service's spec (schema.d.ts, problems.d.ts, spec.js: generated, never edited).
//
// What it adds to fetch, as the Python client (clients/python) does:
// * a problem answer (RFC 9457) is thrown as a ProblemError, whose `code` tells it apart;
// * a move, a resignation, a draw offer, an abort, a takeback offer and time given carry an
//   Idempotency-Key, the same on every send, and are sent again after a network error or a 503
//   with a short Retry-After (bounded);
//   reads and the stateless questions likewise; creating and deleting a game, and making a
//   spectator token, only when the request never left (the connection was refused): each
//   operation's method, path, answers and rule come from the spec (spec.js's OPERATIONS, its
//   `x-resend`);
// * a private game's reads take a player's or a spectator's `token` in their options (sent as
//   a bearer token; a public game's reads need none);
// * a player's key (createPlayer) seats its player where it is given as `key` (createGame,
//   joinGame), and in the player's games is its seat's token;
// * pollGame polls with If-None-Match; gameEvents (or events) reads the game's Server-Sent
//   Events from fetch's body (no EventSource), resuming with Last-Event-ID (and the same token)
//   after a drop.

// How often a quiet event stream speaks, how many keep-alives a client may miss, and the names of
// the stream's events (an event of another name, a newer service's, is skipped, its id kept
// for resuming): generated from the spec.
export { EVENTS, KEEP_ALIVE_MS, KEEP_ALIVES_MISSED } from "./spec.js";
import { EVENTS, KEEP_ALIVE_MS, KEEP_ALIVES_MISSED, OPERATIONS, RETRY } from "./spec.js";

/** Sends in all of one request, at most; the wait after a network error (ms, doubling); the
 * longest Retry-After (ms) of a 503 that is still waited for: the spec's (`x-retry`). */
export const DEFAULT_RETRIES = Object.freeze({
  attempts: RETRY.attempts,
  backoffMs: RETRY.backoffMs,
  maxWaitMs: RETRY.maxWaitMs,
});

/** Connection failures after which the request surely never reached the service. */
const UNSENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT"]);

/** An answer of the service that is a problem (RFC 9457): branch on `code`, never on `title`
 * or `detail`; `body` is the whole answer (its extra members: `next_player`, `errors`, …). */
export class ProblemError extends Error {
  /**
   * @param {number} status
   * @param {Record<string, unknown>} body
   * @param {Headers} [headers]
   */
  constructor(status, body, headers = new Headers()) {
    const text = (/** @type {string} */ name) =>
      typeof body[name] === "string" ? /** @type {string} */ (body[name]) : "";
    super(`${status} ${text("code")}: ${text("detail") || text("title")}`);
    this.name = "ProblemError";
    this.status = status;
    this.code = text("code");
    this.type = text("type");
    this.title = text("title");
    this.detail = text("detail");
    this.body = body;
    this.headers = headers;
  }

  /** The seconds `Retry-After` asks to wait, if the answer has one. */
  get retryAfter() {
    return retryAfterSeconds(this.headers);
  }

  /**
   * The problem an answer is (a body that is not a JSON object gives an empty `code`).
   * @param {Response} response
   */
  static async of(response) {
    /** @type {Record<string, unknown>} */
    let body = {};
    try {
      const parsed = JSON.parse(await response.text());
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed;
    } catch {}
    return new ProblemError(response.status, body, response.headers);
  }
}

/** @param {Headers} headers */
function retryAfterSeconds(headers) {
  const value = headers.get("retry-after") ?? "";
  return /^\d+$/.test(value) ? Number(value) : null;
}

/** An Idempotency-Key: a random UUID. Where crypto.randomUUID is missing (a page served over
 * plain http from another host than localhost; node 18, which has no global crypto) the bytes
 * come from crypto.getRandomValues, or else Math.random: a key needs to be unique rather than
 * secret (the service keeps a move's key per game and player, behind the player's token, and a
 * join's per game and client address). */
function randomKey() {
  const crypto = globalThis.crypto;
  if (typeof crypto?.randomUUID === "function") return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  if (typeof crypto?.getRandomValues === "function") crypto.getRandomValues(bytes);
  else bytes.forEach((_, i) => (bytes[i] = Math.floor(Math.random() * 256)));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Wait, or stop waiting with the signal's reason when it is aborted.
 * @param {number} ms
 * @param {AbortSignal | undefined} signal
 * @returns {Promise<void>}
 */
function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const stop = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", stop);
      resolve();
    }, ms);
    signal?.addEventListener("abort", stop, { once: true });
  });
}

/**
 * Whether a fetch failure means that the request never left (node names the cause; browsers
 * do not, so there a create or a delete is not sent again).
 * @param {unknown} error
 */
function unsent(error) {
  const cause = /** @type {{ cause?: { code?: unknown } }} */ (error)?.cause;
  return typeof cause?.code === "string" && UNSENT.has(cause.code);
}

/**
 * An operation's path (`/v1/games/{game_id}/moves/{seq}`) with its parameters filled in.
 * @param {string} template
 * @param {Record<string, string | number>} [params]
 */
function filled(template, params = {}) {
  return template.replace(/\{(\w+)\}/g, (_, name) => {
    if (!(name in params)) throw new TypeError(`${template}: no value for {${name}}`);
    return encodeURIComponent(String(params[name]));
  });
}

/** @param {string} token */
function bearer(token) {
  return { Authorization: `Bearer ${token}` };
}

/**
 * The headers of a read: a player's or a spectator's token, if given (a private game's reads
 * need one; a public game's none).
 * @param {string | undefined} token
 * @returns {Record<string, string>}
 */
function viewing(token) {
  return token === undefined ? {} : bearer(token);
}

/**
 * The headers of a creation or a join: a player's key, if given (it seats the player; without
 * one the seat is anonymous).
 * @param {string | undefined} key
 * @returns {Record<string, string>}
 */
function asPlayer(key) {
  return key === undefined ? {} : bearer(key);
}

/**
 * The headers of a move or an action: the player's token, an Idempotency-Key (a new one unless
 * given; the same on every send of this call), and If-Match, if asked.
 * @param {string} token
 * @param {{ idempotencyKey?: string, ifMatch?: string }} options
 */
function acting(token, options) {
  /** @type {Record<string, string>} */
  const headers = { ...bearer(token), "Idempotency-Key": options.idempotencyKey ?? randomKey() };
  if (options.ifMatch !== undefined) headers["If-Match"] = options.ifMatch;
  return headers;
}

/** @param {Response} response */
const json = (response) => response.json();
/** @param {Response} response */
const text = (response) => response.text();
/** @param {Response} response */
const bytes = async (response) => new Uint8Array(await response.arrayBuffer());

/**
 * A query of the members given (undefined ones left out).
 * @param {Record<string, string | number | undefined>} filter
 * @returns {Record<string, string | number>}
 */
function defined(filter) {
  /** @type {Record<string, string | number>} */
  const query = {};
  for (const [name, value] of Object.entries(filter)) if (value !== undefined) query[name] = value;
  return query;
}
const nothing = async () => undefined;

/** @typedef {keyof typeof OPERATIONS} OperationId */

/**
 * What a method adds to its operation (OPERATIONS): the path's parameters, the body, headers
 * and query, and how the answer is read.
 * @typedef {object} Request
 * @property {Record<string, string | number>} [params]
 * @property {unknown} [body]
 * @property {Record<string, string>} [headers]
 * @property {Record<string, number | string | undefined>} [query]
 * @property {(response: Response) => Promise<any>} [read] (default: the JSON body)
 * @property {AbortSignal} [signal]
 */

/**
 * One request as it is sent.
 * @typedef {object} Call
 * @property {string} method
 * @property {string} path
 * @property {unknown} [body]
 * @property {Record<string, string>} [headers]
 * @property {Record<string, number | string | undefined>} [query]
 * @property {string} resend whether it may be sent again after any network error and a 503
 *   ("always": sending it twice does what sending it once does), or only when it never left
 *   ("unsent"): the spec's `x-resend`
 * @property {AbortSignal} [signal]
 */

/**
 * The bearer token of `player` in the answer that created a game. An open game's answer holds
 * only its creator's: asking for the other seat's throws.
 * @param {{ tokens: { "1"?: string, "2"?: string } }} created
 * @param {1 | 2} player
 * @returns {string}
 */
export function tokenFor(created, player) {
  const token = created.tokens[player === 1 ? "1" : "2"];
  if (token === undefined) throw new Error(`the answer holds no token for player ${player}`);
  return token;
}

export class Client {
  #base;
  #fetch;
  #retries;

  /**
   * @param {{ baseUrl: string, fetch?: typeof fetch, retries?: Partial<typeof DEFAULT_RETRIES> }} options
   */
  constructor({ baseUrl, fetch: fetcher, retries } = { baseUrl: "" }) {
    this.#base = String(baseUrl ?? "").replace(/\/+$/, "");
    this.#fetch = fetcher ?? globalThis.fetch;
    this.#retries = { ...DEFAULT_RETRIES, ...retries };
  }

  /** The service's address, as given (without a trailing slash). */
  get baseUrl() {
    return this.#base;
  }

  /**
   * @param {string} path
   * @param {Record<string, number | string | undefined>} [query]
   */
  #url(path, query = {}) {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined) params.set(name, String(value));
    }
    const search = params.toString();
    return `${this.#base}${path}${search ? `?${search}` : ""}`;
  }

  /**
   * Send a call, again where it is safe and the retries allow: its response (any status).
   * @param {Call} call
   * @returns {Promise<Response>}
   */
  async #send(call) {
    const { attempts, backoffMs, maxWaitMs } = this.#retries;
    /** @type {Record<string, string>} */
    const headers = { ...call.headers };
    let body;
    if (call.body !== undefined) {
      headers["Content-Type"] = "application/json";
      body = JSON.stringify(call.body);
    }
    const fetcher = this.#fetch; // called bare: a browser's fetch refuses another `this`
    for (let attempt = 1; ; attempt++) {
      let response;
      try {
        response = await fetcher(this.#url(call.path, call.query), {
          method: call.method,
          headers,
          body,
          signal: call.signal,
        });
      } catch (error) {
        if (call.signal?.aborted) throw call.signal.reason;
        const resendable = call.resend !== "unsent" || unsent(error);
        if (!resendable || attempt >= attempts) throw error;
        await sleep(backoffMs * 2 ** (attempt - 1), call.signal);
        continue;
      }
      const after = retryAfterSeconds(response.headers);
      const again =
        call.resend !== "unsent" &&
        RETRY.statuses.includes(response.status) &&
        after !== null &&
        attempt < attempts;
      if (!again || after * 1000 > maxWaitMs) return response;
      await response.body?.cancel();
      await sleep(after * 1000, call.signal);
    }
  }

  /**
   * Send an operation of the spec (its method, path, answers and resend rule: OPERATIONS);
   * its answer read, or its problem thrown.
   * @param {OperationId} operationId
   * @param {Request} [request]
   */
  async #call(operationId, request = {}) {
    const { method, path, ok, resend } = OPERATIONS[operationId];
    const { params, read = json, ...rest } = request;
    const response = await this.#send({ ...rest, method, path: filled(path, params), resend });
    if (!ok.includes(response.status)) throw await ProblemError.of(response);
    return read(response);
  }

  // --- Reversi and tic-tac-toe, stateless --------------------------------------------------

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  checkMove(body, options = {}) {
    return this.#call("checkMove", { body, signal: options.signal });
  }

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  checkMoves(body, options = {}) {
    return this.#call("checkMoves", { body, signal: options.signal });
  }

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  legalMoves(body, options = {}) {
    return this.#call("legalMoves", { body, signal: options.signal });
  }

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  applyMove(body, options = {}) {
    return this.#call("applyMove", { body, signal: options.signal });
  }

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  gomokuCheckMove(body, options = {}) {
    return this.#call("gomokuCheckMove", { body, signal: options.signal });
  }

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  gomokuCheckMoves(body, options = {}) {
    return this.#call("gomokuCheckMoves", { body, signal: options.signal });
  }

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  connect4CheckMove(body, options = {}) {
    return this.#call("connect4CheckMove", { body, signal: options.signal });
  }

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  connect4LegalMoves(body, options = {}) {
    return this.#call("connect4LegalMoves", { body, signal: options.signal });
  }

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  gomokuForbiddenPoints(body, options = {}) {
    return this.#call("gomokuForbiddenPoints", { body, signal: options.signal });
  }

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  validatePosition(body, options = {}) {
    return this.#call("validatePosition", { body, signal: options.signal });
  }

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  validatePositions(body, options = {}) {
    return this.#call("validatePositions", { body, signal: options.signal });
  }

  // --- game sessions -----------------------------------------------------------------------

  /**
   * A new game; with a player's `key` (`createPlayer`), the creator's seat is the player's.
   * @param {unknown} body
   * @param {{ signal?: AbortSignal, key?: string }} [options]
   */
  createGame(body, options = {}) {
    return this.#call("createGame", {
      body,
      headers: asPlayer(options.key),
      signal: options.signal,
    });
  }

  /**
   * Take an open game's free seat: `{player, token, state}` (a retry with the same
   * `idempotencyKey` from the same client address gets the same seat and token: the service
   * binds a join's key to the client that sent it); with a player's `key`, the seat is the
   * player's (a rated game's seat is taken only so).
   * @param {string} gameId
   * @param {{ signal?: AbortSignal, idempotencyKey?: string, name?: string, key?: string }} [options]
   */
  joinGame(gameId, { signal, idempotencyKey, name, key } = {}) {
    return this.#call("joinGame", {
      params: { game_id: gameId },
      headers: { "Idempotency-Key": idempotencyKey ?? randomKey(), ...asPlayer(key) },
      ...(name === undefined ? {} : { body: { name } }),
      signal,
    });
  }

  /**
   * A page of the lobby: open games, oldest first.
   * @param {{ game?: string, rule?: string, limit?: number, cursor?: string }} [filter]
   * @param {{ signal?: AbortSignal }} [options]
   */
  listGames(filter = {}, options = {}) {
    return this.#call("listGames", {
      query: { open: "true", ...defined(filter) },
      signal: options.signal,
    });
  }

  /** @param {string} gameId @param {{ signal?: AbortSignal, token?: string }} [options] */
  getGame(gameId, options = {}) {
    return this.#call("getGame", {
      params: { game_id: gameId },
      headers: viewing(options.token),
      signal: options.signal,
    });
  }

  /**
   * The game's state if it changed since `etag` (If-None-Match), else null; and the ETag to
   * send next time.
   * @param {string} gameId
   * @param {string | null} [etag]
   * @param {{ signal?: AbortSignal, token?: string }} [options]
   */
  pollGame(gameId, etag, options = {}) {
    return this.#call("getGame", {
      params: { game_id: gameId },
      headers: { ...viewing(options.token), ...(etag ? { "If-None-Match": etag } : {}) },
      read: async (response) => ({
        state: response.status === 304 ? null : await response.json(),
        etag: response.headers.get("etag") ?? etag ?? "",
      }),
      signal: options.signal,
    });
  }

  /**
   * @param {string} gameId
   * @param {string} token
   * @param {unknown} move
   * @param {{ signal?: AbortSignal, idempotencyKey?: string, ifMatch?: string }} [options]
   */
  makeMove(gameId, token, move, { signal, ...options } = {}) {
    return this.#call("makeMove", {
      params: { game_id: gameId },
      body: move,
      headers: acting(token, options),
      signal,
    });
  }

  /**
   * @param {string} gameId
   * @param {string} token
   * @param {unknown} choice
   * @param {{ signal?: AbortSignal, idempotencyKey?: string, ifMatch?: string }} [options]
   */
  makeChoice(gameId, token, choice, { signal, ...options } = {}) {
    return this.#call("makeChoice", {
      params: { game_id: gameId },
      body: choice,
      headers: acting(token, options),
      signal,
    });
  }

  /**
   * @param {string} gameId
   * @param {string} token
   * @param {{ signal?: AbortSignal, idempotencyKey?: string, ifMatch?: string, player?: 1 | 2 }} [options]
   */
  resign(gameId, token, { signal, player, ...options } = {}) {
    return this.#call("resign", {
      params: { game_id: gameId },
      body: player ? { player } : {},
      headers: acting(token, options),
      signal,
    });
  }

  /**
   * @param {string} gameId
   * @param {string} token
   * @param {{ signal?: AbortSignal, idempotencyKey?: string, ifMatch?: string, player?: 1 | 2 }} [options]
   */
  offerDraw(gameId, token, { signal, player, ...options } = {}) {
    return this.#call("offerDraw", {
      params: { game_id: gameId },
      body: player ? { player } : {},
      headers: acting(token, options),
      signal,
    });
  }

  /**
   * The token's player aborts the game before the players' second move: it ends with no result
   * (`status` "aborted"); from the second move on, 409 `too_late_to_abort`.
   * @param {string} gameId
   * @param {string} token
   * @param {{ signal?: AbortSignal, idempotencyKey?: string, ifMatch?: string, player?: 1 | 2 }} [options]
   */
  abortGame(gameId, token, { signal, player, ...options } = {}) {
    return this.#call("abortGame", {
      params: { game_id: gameId },
      body: player ? { player } : {},
      headers: acting(token, options),
      signal,
    });
  }

  /**
   * The token's player offers to take back moves so that it moves again (its last move, and the
   * reply if there was one), or accepts the other player's standing offer: the moves are then
   * taken back (`move_count` drops; their `seq` numbers are used again). A player with no move
   * of its own to take back: 409 `nothing_to_take_back`.
   * @param {string} gameId
   * @param {string} token
   * @param {{ signal?: AbortSignal, idempotencyKey?: string, ifMatch?: string, player?: 1 | 2 }} [options]
   */
  offerTakeback(gameId, token, { signal, player, ...options } = {}) {
    return this.#call("offerTakeback", {
      params: { game_id: gameId },
      body: player ? { player } : {},
      headers: acting(token, options),
      signal,
    });
  }

  /**
   * The token's player gives `seconds` (1–3,600) to the other player's clock, at once (a
   * stream sends `event: clock`). A game without a clock, or created with `rules.give_time`
   * false: 409 `action_not_allowed`.
   * @param {string} gameId
   * @param {string} token
   * @param {number} seconds
   * @param {{ signal?: AbortSignal, idempotencyKey?: string, ifMatch?: string, player?: 1 | 2 }} [options]
   */
  giveTime(gameId, token, seconds, { signal, player, ...options } = {}) {
    return this.#call("giveTime", {
      params: { game_id: gameId },
      body: player ? { seconds, player } : { seconds },
      headers: acting(token, options),
      signal,
    });
  }

  /**
   * A read-only token for the game, made with a player's token: `{token}`. It reads a private
   * game and never acts (403 `wrong_player`). Sent again only when the request never left
   * (each send makes a token).
   * @param {string} gameId
   * @param {string} token
   * @param {{ signal?: AbortSignal }} [options]
   */
  addSpectator(gameId, token, options = {}) {
    return this.#call("addSpectator", {
      params: { game_id: gameId },
      headers: bearer(token),
      signal: options.signal,
    });
  }

  /**
   * After the end, offer a rematch or accept the other player's: `{rematch, state}`, `rematch`
   * null while only this player's offer stands, else this player's `{id, player, token}` in the
   * new game. Safe to send again: an offer that stands changes nothing.
   * @param {string} gameId
   * @param {string} token
   * @param {{ signal?: AbortSignal }} [options]
   */
  rematch(gameId, token, options = {}) {
    return this.#call("rematch", {
      params: { game_id: gameId },
      headers: bearer(token),
      signal: options.signal,
    });
  }

  /**
   * @param {string} gameId
   * @param {{ since?: number, limit?: number, signal?: AbortSignal, token?: string }} [options]
   */
  listMoves(gameId, { since, limit, signal, token } = {}) {
    return this.#call("listMoves", {
      params: { game_id: gameId },
      query: { since, limit },
      headers: viewing(token),
      signal,
    });
  }

  /**
   * @param {string} gameId
   * @param {{ after?: number, limit?: number, signal?: AbortSignal, token?: string }} [options]
   */
  listLegalMoves(gameId, { after, limit, signal, token } = {}) {
    return this.#call("listLegalMoves", {
      params: { game_id: gameId },
      query: { after, limit },
      headers: viewing(token),
      signal,
    });
  }

  /**
   * @param {string} gameId
   * @param {number} seq
   * @param {{ signal?: AbortSignal, token?: string }} [options]
   */
  getMove(gameId, seq, options = {}) {
    return this.#call("getMove", {
      params: { game_id: gameId, seq },
      headers: viewing(options.token),
      signal: options.signal,
    });
  }

  /** @param {string} gameId @param {{ signal?: AbortSignal, token?: string }} [options] */
  getBoard(gameId, options = {}) {
    return this.#call("getBoard", {
      params: { game_id: gameId },
      headers: viewing(options.token),
      signal: options.signal,
    });
  }

  /** @param {string} gameId @param {string} token @param {{ signal?: AbortSignal }} [options] */
  deleteGame(gameId, token, options = {}) {
    return this.#call("deleteGame", {
      params: { game_id: gameId },
      headers: bearer(token),
      read: nothing,
      signal: options.signal,
    });
  }

  /**
   * The game's events from version `since` on (from its creation without it), until its end:
   * parsed, typed, resumed with Last-Event-ID after a dropped connection or a stream silent for
   * KEEP_ALIVES_MISSED keep-alive intervals; a keep-alive is a sign of life. Ends after the
   * `end` event, or at once when the stream is resumed at or past the end (204). `token`: a
   * player's or a spectator's, for a private game (sent on every reconnection).
   * @param {string} gameId
   * @param {{ since?: number, signal?: AbortSignal, keepAliveMs?: number, reconnects?: number, token?: string }} [options]
   * @returns {AsyncGenerator<any, void, undefined>}
   */
  async *gameEvents(gameId, options = {}) {
    const { since, token } = options;
    const stream = new EventParser(EVENTS);
    const path = filled(OPERATIONS.gameEvents.path, { game_id: gameId });
    yield* this.#follow(`game ${gameId}`, stream, options, () => ({
      url: this.#url(path, stream.lastId === null ? { since } : {}),
      headers: viewing(token),
    }));
  }

  /**
   * A stream's events until its `end`, as `gameEvents` follows a game's: each connection made
   * by `open` (its URL and headers; Last-Event-ID added once an event was seen), resumed after
   * a drop or a silence, `reconnects` times in a row at most.
   * @param {string} label
   * @param {EventParser} stream
   * @param {{ signal?: AbortSignal, keepAliveMs?: number, reconnects?: number }} options
   * @param {() => { url: string, headers: Record<string, string> }} open
   * @returns {AsyncGenerator<any, void, undefined>}
   */
  async *#follow(label, stream, options, open) {
    const { signal, keepAliveMs = KEEP_ALIVE_MS, reconnects = 5 } = options;
    const silence = KEEP_ALIVES_MISSED * keepAliveMs;
    let failures = 0;
    while (true) {
      if (signal?.aborted) throw signal.reason;
      // One connection: closed when the caller aborts, when it falls silent, or when it is left.
      const connection = new AbortController();
      const abort = () => connection.abort(signal?.reason);
      signal?.addEventListener("abort", abort, { once: true });
      // What is awaited stops waiting when it closes, whatever the fetch given does with it.
      const closed = new Promise((_, reject) => {
        connection.signal.addEventListener("abort", () => reject(connection.signal.reason));
      });
      closed.catch(() => {});
      /** @type {ReturnType<typeof setTimeout> | undefined} */
      let timer;
      const listen = () => {
        clearTimeout(timer);
        timer = setTimeout(
          () => connection.abort(new Error("the event stream fell silent")),
          silence,
        );
      };
      /** @type {ReadableStreamDefaultReader<Uint8Array> | undefined} */
      let reader;
      try {
        const opened = open();
        /** @type {Record<string, string>} */
        const headers = { Accept: "text/event-stream", ...opened.headers };
        if (stream.lastId !== null) headers["Last-Event-ID"] = stream.lastId;
        const fetcher = this.#fetch;
        listen();
        const url = opened.url;
        const response = await Promise.race([
          fetcher(url, { headers, signal: connection.signal }),
          closed,
        ]);
        if (response.status === 204) return; // resumed at or past the end
        if (response.status !== 200 || !response.body) throw await ProblemError.of(response);
        const body = (reader = response.body.getReader());
        const decoder = new TextDecoder();
        while (true) {
          listen();
          const { value, done } = await Promise.race([body.read(), closed]);
          if (done) break;
          for (const item of stream.feed(decoder.decode(value, { stream: true }))) {
            if (item === KEEP_ALIVE || item.event !== "error") failures = 0; // it lives
            if (item === KEEP_ALIVE) continue;
            clearTimeout(timer); // the caller's time with the event is not the stream's silence
            yield item;
            if (item.event === "end") return;
          }
        }
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (error instanceof ProblemError) throw error;
        // dropped, refused or silent: resumed below
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener("abort", abort);
        connection.abort();
        reader?.cancel().catch(() => {});
      }
      stream.interrupted();
      failures += 1;
      if (failures > reconnects) {
        throw new Error(`the event stream of ${label} kept dropping`);
      }
      await sleep(this.#retries.backoffMs * failures, signal);
    }
  }

  /**
   * gameEvents, by a shorter name.
   * @param {string} gameId
   * @param {{ since?: number, signal?: AbortSignal, keepAliveMs?: number, reconnects?: number, token?: string }} [options]
   */
  events(gameId, options = {}) {
    return this.gameEvents(gameId, options);
  }

  // --- records -----------------------------------------------------------------------------

  /** @param {string} gameId @param {{ signal?: AbortSignal, token?: string }} [options] */
  getRecord(gameId, options = {}) {
    return this.#call("getRecord", {
      params: { game_id: gameId },
      headers: viewing(options.token),
      signal: options.signal,
    });
  }

  /**
   * @param {string} gameId
   * @param {"transcript" | "ggf" | "psq" | "sgf"} format
   * @param {{ signal?: AbortSignal, token?: string }} [options]
   */
  getRecordText(gameId, format, options = {}) {
    return this.#call("getRecord", {
      params: { game_id: gameId },
      query: { format },
      headers: viewing(options.token),
      read: text,
      signal: options.signal,
    });
  }

  /**
   * @param {Record<string, string | number | undefined>} [filter]
   * @param {{ signal?: AbortSignal }} [options]
   */
  listArchivedGames(filter = {}, options = {}) {
    return this.#call("listArchivedGames", { query: defined(filter), signal: options.signal });
  }

  /** @param {string} gameId @param {{ signal?: AbortSignal, token?: string }} [options] */
  getArchivedGame(gameId, options = {}) {
    return this.#call("getArchivedGame", {
      params: { game_id: gameId },
      headers: viewing(options.token),
      signal: options.signal,
    });
  }

  /**
   * @param {string} gameId
   * @param {"transcript" | "ggf" | "psq" | "sgf"} format
   * @param {{ signal?: AbortSignal, token?: string }} [options]
   */
  getArchivedGameText(gameId, format, options = {}) {
    return this.#call("getArchivedGame", {
      params: { game_id: gameId },
      query: { format },
      headers: viewing(options.token),
      read: text,
      signal: options.signal,
    });
  }

  /**
   * @param {"ndjson" | "ggf" | "sgf" | "wtb"} format
   * @param {Record<string, string | number | undefined>} [filter]
   * @param {{ signal?: AbortSignal }} [options]
   */
  exportArchive(format, filter = {}, options = {}) {
    return this.#call("exportArchive", {
      query: { ...defined(filter), format },
      read: bytes,
      signal: options.signal,
    });
  }

  // --- players and ratings ----------------------------------------------------------------

  /**
   * A new player: `{id, name, key}`, the key shown only this once. Sent again only when the
   * request never left (each send makes a player).
   * @param {string} name
   * @param {{ signal?: AbortSignal }} [options]
   */
  createPlayer(name, options = {}) {
    return this.#call("createPlayer", { body: { name }, signal: options.signal });
  }

  /** @param {string} playerId @param {{ signal?: AbortSignal }} [options] */
  getPlayer(playerId, options = {}) {
    return this.#call("getPlayer", { params: { player_id: playerId }, signal: options.signal });
  }

  /** @param {string} key @param {{ signal?: AbortSignal }} [options] */
  getMe(key, options = {}) {
    return this.#call("getMe", { headers: bearer(key), signal: options.signal });
  }

  /**
   * @param {string} pool
   * @param {{ cursor?: string, limit?: number, signal?: AbortSignal }} [options]
   */
  listRatings(pool, { cursor, limit, signal } = {}) {
    return this.#call("listRatings", { query: { pool, cursor, limit }, signal });
  }

  // --- tournaments ------------------------------------------------------------------------

  /**
   * A tournament organised by the player whose `key` this is: the tournament's document.
   * @param {unknown} body
   * @param {{ key: string, signal?: AbortSignal }} options
   */
  createTournament(body, { key, signal }) {
    return this.#call("createTournament", { body, headers: bearer(key), signal });
  }

  /** @param {string} tournamentId @param {{ signal?: AbortSignal }} [options] */
  getTournament(tournamentId, options = {}) {
    return this.#call("getTournament", {
      params: { tournament_id: tournamentId },
      signal: options.signal,
    });
  }

  /**
   * The tournament's FIDE TRF-16 report, as text.
   * @param {string} tournamentId
   * @param {"trf"} [format]
   * @param {{ signal?: AbortSignal }} [options]
   */
  getTournamentText(tournamentId, format = "trf", options = {}) {
    return this.#call("getTournament", {
      params: { tournament_id: tournamentId },
      query: { format },
      read: text,
      signal: options.signal,
    });
  }

  /**
   * @param {string} tournamentId
   * @param {string} playerId
   * @param {{ key: string, signal?: AbortSignal }} options
   */
  enterPlayer(tournamentId, playerId, { key, signal }) {
    return this.#call("enterPlayer", {
      params: { tournament_id: tournamentId },
      body: { player: playerId },
      headers: bearer(key),
      signal,
    });
  }

  /**
   * @param {string} tournamentId
   * @param {string} playerId
   * @param {{ key: string, signal?: AbortSignal }} options
   */
  withdrawPlayer(tournamentId, playerId, { key, signal }) {
    return this.#call("withdrawPlayer", {
      params: { tournament_id: tournamentId, player_id: playerId },
      headers: bearer(key),
      signal,
    });
  }

  /** @param {string} tournamentId @param {{ key: string, signal?: AbortSignal }} options */
  pairRound(tournamentId, { key, signal }) {
    return this.#call("pairRound", {
      params: { tournament_id: tournamentId },
      headers: bearer(key),
      signal,
    });
  }

  /**
   * The tournament's events (after the one numbered `after`, if given) until its `end`, each
   * `{event, id, data}`: `round` (`{round}`), `result` (`{round, board, game, result}`) and
   * `end`; resumed with Last-Event-ID as a game's stream is.
   * @param {string} tournamentId
   * @param {{ after?: number, signal?: AbortSignal, keepAliveMs?: number, reconnects?: number }} [options]
   * @returns {AsyncGenerator<any, void, undefined>}
   */
  async *tournamentEvents(tournamentId, options = {}) {
    const stream = new EventParser(TOURNAMENT_EVENTS);
    if (options.after !== undefined) stream.lastId = String(options.after);
    const path = filled(OPERATIONS.tournamentEvents.path, { tournament_id: tournamentId });
    const url = this.#url(path, {});
    yield* this.#follow(`tournament ${tournamentId}`, stream, options, () => ({ url, headers: {} }));
  }

  // --- seeks, challenges and a player's stream ---------------------------------------------

  /**
   * A standing offer to play, by the player whose `key` this is: `{id, game, seat}` — the game
   * made at once when it fit a waiting seek, else `game` null (the player's stream tells the
   * game when it is made).
   * @param {unknown} body
   * @param {{ key: string, signal?: AbortSignal }} options
   */
  createSeek(body, { key, signal }) {
    return this.#call("createSeek", { body, headers: bearer(key), signal });
  }

  /**
   * The open seeks, oldest first, a page at a time.
   * @param {{ game?: string, cursor?: string, limit?: number, signal?: AbortSignal }} [options]
   */
  listSeeks({ game, cursor, limit, signal } = {}) {
    return this.#call("listSeeks", { query: defined({ game, cursor, limit }), signal });
  }

  /** @param {string} seekId @param {{ key: string, signal?: AbortSignal }} options */
  withdrawSeek(seekId, { key, signal }) {
    return this.#call("withdrawSeek", {
      params: { seek_id: seekId },
      headers: bearer(key),
      read: nothing,
      signal,
    });
  }

  /**
   * Challenge a player (`body.to`) as the player whose `key` this is.
   * @param {unknown} body
   * @param {{ key: string, signal?: AbortSignal }} options
   */
  createChallenge(body, { key, signal }) {
    return this.#call("createChallenge", { body, headers: bearer(key), signal });
  }

  /** @param {{ key: string, limit?: number, signal?: AbortSignal }} options */
  listChallenges({ key, limit, signal }) {
    return this.#call("listChallenges", {
      query: defined({ limit }),
      headers: bearer(key),
      signal,
    });
  }

  /** @param {string} challengeId @param {{ key: string, signal?: AbortSignal }} options */
  getChallenge(challengeId, { key, signal }) {
    return this.#call("getChallenge", {
      params: { challenge_id: challengeId },
      headers: bearer(key),
      signal,
    });
  }

  /** @param {string} challengeId @param {{ key: string, signal?: AbortSignal }} options */
  acceptChallenge(challengeId, { key, signal }) {
    return this.#call("acceptChallenge", {
      params: { challenge_id: challengeId },
      headers: bearer(key),
      signal,
    });
  }

  /** @param {string} challengeId @param {{ key: string, signal?: AbortSignal }} options */
  declineChallenge(challengeId, { key, signal }) {
    return this.#call("declineChallenge", {
      params: { challenge_id: challengeId },
      headers: bearer(key),
      read: nothing,
      signal,
    });
  }

  /** @param {string} challengeId @param {{ key: string, signal?: AbortSignal }} options */
  withdrawChallenge(challengeId, { key, signal }) {
    return this.#call("withdrawChallenge", {
      params: { challenge_id: challengeId },
      headers: bearer(key),
      read: nothing,
      signal,
    });
  }

  /**
   * The events of the player whose `key` this is (after the one numbered `after`, if given),
   * each `{event, id, data}`: `game` (`{game, seat, via, …}`), `challenge` (the challenge) and
   * `challenge_declined` (`{challenge, by}`); resumed with Last-Event-ID as a game's stream is.
   * It has no end: stop with the `signal` or by leaving the loop.
   * @param {string} playerId
   * @param {{ key: string, after?: number, signal?: AbortSignal, keepAliveMs?: number, reconnects?: number }} options
   * @returns {AsyncGenerator<any, void, undefined>}
   */
  async *playerEvents(playerId, options) {
    const stream = new EventParser(PLAYER_EVENTS);
    if (options.after !== undefined) stream.lastId = String(options.after);
    const path = filled(OPERATIONS.playerEvents.path, { player_id: playerId });
    const url = this.#url(path, {});
    const headers = bearer(options.key);
    yield* this.#follow(`player ${playerId}`, stream, options, () => ({ url, headers }));
  }

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  auditRecord(body, options = {}) {
    return this.#call("auditRecord", { body, signal: options.signal });
  }

  /** @param {unknown} body @param {{ signal?: AbortSignal }} [options] */
  auditBatch(body, options = {}) {
    return this.#call("auditBatch", { body, signal: options.signal });
  }

  /** @param {{ signal?: AbortSignal }} [options] */
  getKeys(options = {}) {
    return this.#call("getKeys", { signal: options.signal });
  }

  // --- operations --------------------------------------------------------------------------

  /** @param {{ signal?: AbortSignal }} [options] */
  getHealth(options = {}) {
    return this.#call("getHealth", { signal: options.signal });
  }

  /** @param {{ signal?: AbortSignal }} [options] */
  getReadiness(options = {}) {
    return this.#call("getReadiness", { signal: options.signal });
  }

  /** @param {{ signal?: AbortSignal }} [options] */
  getMetrics(options = {}) {
    return this.#call("getMetrics", { read: text, signal: options.signal });
  }

  /** @param {string} code @param {{ signal?: AbortSignal }} [options] */
  getProblemType(code, options = {}) {
    return this.#call("getProblemType", { params: { code }, signal: options.signal });
  }
}

/** The names of the events a tournament's stream gives. */
export const TOURNAMENT_EVENTS = Object.freeze(["round", "result", "end"]);

/** The names of the events a player's stream gives. */
export const PLAYER_EVENTS = Object.freeze(["game", "challenge", "challenge_declined"]);

/** What EventParser.feed gives for a comment line (the service's keep-alives). */
const KEEP_ALIVE = Symbol("keep-alive");

/** Server-Sent Events from text as it arrives (the HTML standard's parsing rules): fields
 * gathered until a blank line, comments reported as signs of life. */
class EventParser {
  /** The last event id seen: where a new connection resumes. @type {string | null} */
  lastId = null;
  /** The names of the events the stream gives (others are skipped). @type {readonly string[]} */
  #names;
  #buffer = "";
  #first = true;
  #event = "";
  #data = /** @type {string[]} */ ([]);
  /** @type {string | undefined} */
  #id = undefined;

  /** @param {readonly string[]} names */
  constructor(names) {
    this.#names = names;
  }

  /**
   * The events and keep-alives that this text completes.
   * @param {string} chunk
   * @returns {Generator<typeof KEEP_ALIVE | { event: string, id?: string, data: any }>}
   */
  *feed(chunk) {
    let buffer = this.#buffer + chunk;
    if (this.#first && buffer) {
      this.#first = false;
      if (buffer.startsWith("\uFEFF")) buffer = buffer.slice(1);
    }
    const ends = /\r\n|\r|\n/g;
    let start = 0;
    for (let end = ends.exec(buffer); end; end = ends.exec(buffer)) {
      if (end[0] === "\r" && end.index === buffer.length - 1) break; // a "\n" may follow
      const item = this.#line(buffer.slice(start, end.index));
      start = ends.lastIndex;
      if (item) yield item;
    }
    this.#buffer = buffer.slice(start);
  }

  /** A connection ended: a half-received event is dropped (it is sent again on resume). */
  interrupted() {
    this.#buffer = "";
    this.#first = true;
    this.#event = "";
    this.#data = [];
    this.#id = undefined;
  }

  /** @param {string} line */
  #line(line) {
    if (line === "") return this.#dispatch();
    if (line.startsWith(":")) return KEEP_ALIVE;
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (name === "event") this.#event = value;
    else if (name === "data") this.#data.push(value);
    else if (name === "id" && !value.includes("\0")) this.#id = value;
    return null;
  }

  #dispatch() {
    const [event, lines, id] = [this.#event, this.#data, this.#id];
    this.#event = "";
    this.#data = [];
    this.#id = undefined;
    if (id !== undefined) this.lastId = id;
    if (!this.#names.includes(event) || lines.length === 0) return null;
    let data;
    try {
      data = JSON.parse(lines.join("\n"));
    } catch {
      return null;
    }
    return id === undefined ? { event, data } : { event, id, data };
  }
}
