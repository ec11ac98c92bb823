// The public JSON API, as any client calls it: bearer token in a header, JSON bodies,
// problem documents turned into readable messages.

export class ApiError extends Error {
  constructor(status, problem, retryAfter = null) {
    super((problem && problem.detail) || `the server answered ${status}`);
    this.status = status;
    this.code = (problem && problem.code) || (status === 0 ? "unreachable" : "unknown");
    this.retryAfter = retryAfter;  // seconds, from a 429's or 503's Retry-After
  }
}

// A refused answer as an ApiError, its problem document read and its Retry-After kept.
export async function refusal(response) {
  const data = await response.json().catch(() => null);
  const wait = Number(response.headers.get("Retry-After"));
  return new ApiError(response.status, data, Number.isFinite(wait) && wait > 0 ? wait : null);
}

export async function call(method, path, { token, body, headers = {}, signal } = {}) {
  const sent = { Accept: "application/json", ...headers };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method, headers: sent, signal, cache: "no-store", credentials: "omit",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw new ApiError(0, { detail: "the server cannot be reached", code: "unreachable" });
  }
  const etag = response.headers.get("ETag");
  if (response.status === 304 || response.status === 204) return { status: response.status, etag, data: null };
  if (!response.ok) throw await refusal(response);
  const data = await response.json().catch(() => null);
  return { status: response.status, etag, data };
}

// Words for a person; the server's own detail (naming the card and phase) follows.
const PLAIN = {
  "invalid-token": "This browser's key to the seat no longer works (revoked?).",
  "invalid-invite": "This invite link does not open a seat in this game.",
  "game-full": "Someone has joined this game already: an invite link works once.",
  "invalid-link": "This link does not open a seat in this game.",
  "link-used": "This link was used already: each mail's link opens your seat once.",
  "link-expired": "This link is too old.",
  "not-your-turn": "It is not your turn.",
  "cannot-discard-taken-card": "You cannot discard the card you just took from the pile.",
  "deadwood-over-limit": "Your deadwood is over the knock limit.",
  "version-mismatch": "The game moved on meanwhile; here it is as it stands now.",
  "rate-limited": "Too many requests; wait a moment.",
  "name-taken": "That name is a registered player's: choose another.",
  "name-confusable": "That name looks like a registered player's: choose another.",
  "unreachable": "The server cannot be reached.",
};

// The link and invite refusals say all there is in their own words (the page adds where to go
// next): the server's detail would only repeat them.
const WHOLE = new Set(["invalid-token", "invalid-invite", "game-full", "invalid-link", "link-used", "link-expired"]);

export function describe(error) {
  if (!(error instanceof ApiError)) return String(error && error.message || error);
  const plain = PLAIN[error.code];
  if (!plain) return error.message;
  return WHOLE.has(error.code) ? plain : `${plain} (${error.message})`;
}
