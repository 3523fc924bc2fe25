// HTTP calls and the signed-in identity (token kept in localStorage so a reload
// stays signed in; the server's HttpOnly cookie is a second channel we don't read).

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
    return detail
      .map((e) => {
        const where = Array.isArray(e.loc) ? e.loc.filter((p) => p !== "body").join(".") : "";
        return where ? `${where}: ${e.msg}` : String(e.msg ?? e);
      })
      .join("; ");
  }
  return `Request failed (${status})`;
}

export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
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
    throw new ApiError(0, "The server cannot be reached.");
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
