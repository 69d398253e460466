// @ts-check
// fetch for the Hexside API: same-origin cookies, Django's CSRF token, JSON in and out, and errors as
// ApiError carrying the status and the answer's body (the API's {"errors": [...]} or {"detail": ...}).

export class ApiError extends Error {
  constructor(status, body, url) {
    super(describe(status, body, url));
    this.status = status;
    this.body = body;
    this.url = url;
  }

  // The answer's problems as a page shows them: {text, path}, the text in the designer's words (the API's
  // messages name hexes, units and sides), the JSON path kept for tools (a data-path), never shown.
  get problems() { return problems(this.body); }
}

// DRF's answers to a request that needs a signed-in user, and what a page says instead.
const SIGN_IN = "sign in to do this (a visitor reads only what is published)";
const UNSIGNED = new Set(["Authentication credentials were not provided.", "Invalid token.",
                          "Authentication credentials were not provided"]);

export function problems(body) {
  if (!body || !Array.isArray(body.errors)) return [];
  return body.errors.map((e) => ({ text: said(e), path: e.path || "" }));
}

// A problem's words: its message, led by its hex when the message does not name it already.
function said(e) {
  const message = String(e.message ?? "");
  return e.hex && !message.includes(e.hex) ? `${e.hex}: ${message}` : message;
}

function describe(status, body, url) {
  if (body && Array.isArray(body.errors) && body.errors.length) return body.errors.map(said).join("; ");
  if (body && body.detail) {
    return (status === 401 || status === 403) && UNSIGNED.has(String(body.detail)) ? SIGN_IN : String(body.detail);
  }
  if (body && typeof body === "object") {   // a serializer's field errors: {"title": ["This field may not be blank."]}
    return Object.entries(body).map(([k, v]) => `the ${k.replace(/_/g, " ")}: ${Array.isArray(v) ? v.join(" ") : v}`).join("; ");
  }
  if (status === 404) return "not found (it was deleted, or it is another designer's private work)";
  return `the server answered ${status}; try again in a moment`;
}

export function csrfToken() {
  const m = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  if (m) return decodeURIComponent(m[1]);
  const input = /** @type {HTMLInputElement | null} */ (document.querySelector("input[name=csrfmiddlewaretoken]"));
  return input ? input.value : "";
}

// request("POST", url, body): the decoded JSON answer; ApiError on 4xx/5xx; `raw: true` gives the Response.
/** @typedef {{raw?: boolean, signal?: AbortSignal, headers?: Record<string, string>}} RequestOptions */
/** @param {string} method @param {string} url @param {any} [body] @param {RequestOptions} [options]
 * @returns {Promise<any>} */
export async function request(method, url, body, { raw = false, signal, headers = {} } = {}) {
  /** @type {RequestInit & {headers: Record<string, string>}} */
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json", ...headers }, signal };
  if (method !== "GET" && method !== "HEAD") init.headers["X-CSRFToken"] = csrfToken();
  if (body instanceof FormData) init.body = body;
  else if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new ApiError(0, { detail: "the server cannot be reached; check the connection" }, url);
  }
  if (raw) return response;
  const text = await response.text();
  let data;
  try { data = text ? JSON.parse(text) : null; } catch { data = { detail: text.slice(0, 200) }; }
  if (!response.ok) throw new ApiError(response.status, data, url);
  return data;
}

// The one test for a stale revision: the API answers 409 when a write names a revision that is no longer the
// latest (someone else saved first). Only the edit session (session.js) acts on it, by rebasing.
export const isStale = (err) => err instanceof ApiError && err.status === 409;
// A refusal the designer can act on (bad values): the write will never pass as sent.
export const isRefused = (err) => err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 409;

export const get = (url, options) => request("GET", url, undefined, options);
export const post = (url, body, options) => request("POST", url, body, options);

// The API's addresses, in one place.
export const urls = {
  map: (id) => `/api/maps/${id}/`,
  edits: (id) => `/api/maps/${id}/edits/`,
  current: (id) => `/api/maps/${id}/current/`,
  revisions: (id) => `/api/maps/${id}/revisions/`,
  revision: (id, n) => `/api/maps/${id}/revisions/${n}/`,
  restore: (id, n) => `/api/maps/${id}/revisions/${n}/restore/`,
  background: (id) => `/api/maps/${id}/background/`,
  findings: (id) => `/api/maps/${id}/findings/`,
  ruleset: (id) => `/api/rulesets/${id}/`,
  job: (kind, id) => `/api/maps/${id}/${kind}/`,
  scenario: (id) => `/api/scenarios/${id}/`,
  scenarioEdits: (id) => `/api/scenarios/${id}/edits/`,
  scenarioMap: (id, key) => `/api/scenarios/${id}/maps/${encodeURIComponent(key)}/`,
  scenarioJob: (kind, id) => `/api/scenarios/${id}/${kind}/`,
};
