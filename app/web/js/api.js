// HTTP calls and who is signed in. The session itself is the server's HttpOnly cookie,
// which no script can read: the browser sends it with every request and the websocket
// handshake. Only the player's public id and name are kept here, to draw the page (and
// whether he is a moderator, for the link to the moderators' page).

import { lang, t } from "./i18n.js";

const PLAYER_KEY = "domino.player";
// Where older versions of the client kept the token: removed wherever it is still found.
localStorage.removeItem("domino.token");

export const auth = {
  get player() {
    try {
      return JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    } catch {
      return null;
    }
  },
  get signedIn() {
    return Boolean(this.player);
  },
  set(player) {
    localStorage.setItem(PLAYER_KEY, JSON.stringify({ id: player.id, name: player.name, moderator: Boolean(player.moderator) }));
  },
  clear() {
    localStorage.removeItem(PLAYER_KEY);
  },
};

export class ApiError extends Error {
  constructor(status, detail) {
    super(describeDetail(detail, status));
    this.status = status;
    this.detail = detail;
    /** @type {number | null} the wait a 503 asked for before another try */
    this.retryMs = null;
  }
}

function describeDetail(detail, status) {
  if (typeof detail === "string") return detail;
  if (Array.isArray(detail)) {
    // FastAPI's validation errors: [{loc, msg}, ...]
    // FastAPI's validation errors name the fields; their own words are for developers.
    const fields = detail
      .map((e) => (Array.isArray(e.loc) ? e.loc.filter((p) => p !== "body").join(".") : ""))
      .filter(Boolean);
    return t("error.invalid", { fields: fields.join(", ") || "—" });
  }
  return t("error.request_failed", { status });
}

// A 503 (`unavailable`: the server could not reach its data, nothing changed) is tried
// again after the wait it names, doubling, a few times.
const RETRIES = 4;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function api(method, path, body) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await request(method, path, body);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 503 || attempt >= RETRIES) throw err;
      await sleep(Math.min(8000, (err.retryMs || 500) * 2 ** attempt));
    }
  }
}

async function request(method, path, body) {
  // The server says its `detail`s for people in this language.
  const headers = { Accept: "application/json", "Accept-Language": lang() };
  /** @type {RequestInit} */
  const init = { method, headers, credentials: "same-origin" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    throw new ApiError(0, t("error.unreachable"));
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const error = new ApiError(response.status, data && data.detail);
    error.retryMs = data && typeof data.retry_ms === "number" ? data.retry_ms : null;
    throw error;
  }
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body ?? {});
