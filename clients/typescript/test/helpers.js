// What the tests share: the service they play against, and fetches that watch or break what
// goes through them.

import { Client, tokenFor } from "../src/index.js";

/** The service under test (tests/e2e/test_typescript_client.py starts one and sets this). */
export const BASE = process.env.ADJUDICATOR_URL ?? "";
/** The service's keep-alive interval in ms, as the test started it. */
export const KEEP_ALIVE_MS = Number(process.env.ADJUDICATOR_EVENT_KEEP_ALIVE_MS ?? 15000);
/** A reason to skip the tests that need the service, or false. */
export const NO_SERVICE = BASE ? false : "ADJUDICATOR_URL is not set (the service to play against)";

/**
 * A fetch that records each request (its URL, method, headers) and response status, and may
 * stand in for the network with `intercept`: it gets the request and the real fetch, and
 * answers, throws, or returns undefined to let the request through.
 * @typedef {{ url: string, method: string, headers: Headers, status?: number }} Sent
 * @param {(url: string, init: RequestInit, sent: Sent[]) => Promise<Response | undefined> | undefined} [intercept]
 */
export function watchedFetch(intercept) {
  /** @type {Sent[]} */
  const sent = [];
  /** @type {typeof fetch} */
  const fetcher = async (input, init = {}) => {
    const url = String(input);
    const record = { url, method: init.method ?? "GET", headers: new Headers(init.headers) };
    sent.push(record);
    const answer = (await intercept?.(url, init, sent)) ?? (await fetch(input, init));
    Object.assign(record, { status: answer.status });
    return answer;
  };
  return { fetch: fetcher, sent };
}

/** A client of the service under test. @param {Partial<import("../src/index.js").ClientOptions>} [options] */
export function client(options) {
  return new Client({ baseUrl: BASE, ...options });
}

/**
 * The error a promise rejects with (it must reject).
 * @param {Promise<unknown>} promise
 * @returns {Promise<unknown>}
 */
export async function rejection(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/**
 * The token of seat `player` in a created game's answer (``tokenFor``, the seat as text).
 * @param {{ tokens: { "1"?: string, "2"?: string } }} created
 * @param {"1" | "2"} player
 * @returns {string}
 */
export function seat(created, player) {
  return tokenFor(created, player === "1" ? 1 : 2);
}

/**
 * A move record without the instants the service stamps on it (`at`, and a clocked game's
 * `spent_ms`), for a test whose subject is not time.
 * @param {Record<string, unknown>} record
 * @returns {Record<string, unknown>}
 */
export function timeless(record) {
  const { at, spent_ms, ...rest } = record;
  void [at, spent_ms];
  return rest;
}
