// HTTP calls and the signed-in identity (token kept in localStorage so a reload
// stays signed in; the server's HttpOnly cookie is a second channel we don't read).

import { lang, t } from "./i18n.js";

const TOKEN_KEY = "domino.token";
const PLAYER_KEY = "domino.player";

export const auth = {
  get token() {
    return localStorage.getItem(TOKEN_KEY);
  },
  get player() {
    try {
      return JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
    } catch {
      return null;
    }
  },
  get signedIn() {
    return Boolean(this.token && this.player);
  },
  set(token, player) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(PLAYER_KEY, JSON.stringify(player));
  },
  clear() {
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(PLAYER_KEY);
  },
};

export class ApiError extends Error {
  constructor(status, detail) {
    super(describeDetail(detail, status));
    this.status = status;
    this.detail = detail;
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

export async function api(method, path, body) {
  // The server says its `detail`s for people in this language.
  const headers = { Accept: "application/json", "Accept-Language": lang() };
  const token = auth.token;
  if (token) headers.Authorization = `Bearer ${token}`;
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
  if (!response.ok) throw new ApiError(response.status, data && data.detail);
  return data;
}

export const get = (path) => api("GET", path);
export const post = (path, body) => api("POST", path, body ?? {});
