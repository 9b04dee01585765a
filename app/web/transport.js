// Talking to the service: api(), the one fetch of the page (JSON bodies, a bearer token,
// If-None-Match for polling with ETags; answers parsed where they are JSON, and their text as it
// came, for what is saved as it came: a game's record); the service's time, estimated from the
// answers' Date headers; a game's Server-Sent Events stream; and the poller that stands in for
// the stream where there is none (about once a second, never while the tab is hidden).

const POLL_MS = 1000;

// The service's time, as an offset from this browser's clock. An answer's Date (whole seconds)
// was written between the request's sending and the answer's arrival, so each answer bounds the
// offset from below and above; the bounds of all answers narrow it to well under a second.
export const serverTime = {
  low: -Infinity,
  high: Infinity,
  sample(date, sent, received) {
    const at = Date.parse(date || "");
    if (Number.isNaN(at)) return;
    const low = at - received;
    const high = at + 1000 - sent;
    if (low > this.high || high < this.low) { // this browser's clock was set meanwhile
      this.low = low;
      this.high = high;
    } else {
      this.low = Math.max(this.low, low);
      this.high = Math.min(this.high, high);
    }
  },
  now() {
    const offset = Number.isFinite(this.low) ? (this.low + this.high) / 2 : 0;
    return Date.now() + offset;
  },
};

export async function api(method, path, { body, token, etag } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (etag) headers["If-None-Match"] = etag;
  const sent = Date.now();
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    cache: "no-store",
  });
  serverTime.sample(response.headers.get("Date"), sent, Date.now());
  const text = response.status === 304 ? "" : await response.text();
  const json = /\bjson\b/.test(response.headers.get("Content-Type") || "");
  const data = text && json ? JSON.parse(text) : text || null;
  return { status: response.status, ok: response.ok, etag: response.headers.get("ETag"), data, text };
}

export function problemText(problem) {
  if (!problem || typeof problem !== "object") return "The service did not answer.";
  return `${problem.title}: ${problem.detail}`;
}

// A game's event stream: each handler gets its event's data, parsed; lost() is told when the
// stream cannot be kept open. Null where the browser has no EventSource.
export function openEventStream(path, handlers, lost) {
  if (!window.EventSource) return null;
  const source = new EventSource(path);
  for (const [name, handle] of Object.entries(handlers)) {
    source.addEventListener(name, (event) => handle(JSON.parse(event.data)));
  }
  source.onerror = () => {
    if (source.readyState === EventSource.CLOSED) lost(source);
  };
  return source;
}

// Polling: once started, ask() about once a POLL_MS while the tab shows, and at once when it
// shows again; ask() answers whether there is more to wait for. A failed ask() is told to
// failed(), and asked again.
export function poller(ask, failed) {
  let timer = null;
  let started = false;
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(turn, POLL_MS);
  };
  async function turn() {
    let more = true;
    try {
      more = await ask();
    } catch (error) {
      failed(error);
    }
    if (started && more && !document.hidden) schedule();
  }
  document.addEventListener("visibilitychange", () => {
    if (!started) return;
    if (document.hidden) clearTimeout(timer);
    else turn();
  });
  return {
    start() {
      started = true;
      schedule();
    },
    stop() {
      started = false;
      clearTimeout(timer);
    },
  };
}
