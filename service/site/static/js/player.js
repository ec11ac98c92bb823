// The player account this browser is signed in as. Its token lives in localStorage (never in a
// URL); the seats it opens are saved like any seat, marked `player`, and forgotten on sign-out.
import { call } from "./api.js";
import { allSeats, forgetSeat, getSeat, saveSeat } from "./seats.js";

const KEY = "gin.player.v1";

export function signedIn() {
  try { return JSON.parse(localStorage.getItem(KEY)); } catch { return null; }
}

export function signIn(account) { localStorage.setItem(KEY, JSON.stringify(account)); }

export function signOut() {
  localStorage.removeItem(KEY);
  for (const [gameId, seat] of Object.entries(allSeats())) if (seat.player) forgetSeat(gameId);
}

// A seat of a game the signed-in player holds (a challenge's game): the player token opens it.
export function seatFromPlayer(gameId) {
  const player = signedIn();
  return player ? saveSeat(gameId, { token: player.token, player: true, name: player.name }) : getSeat(gameId);
}

// Checks a token by asking who it opens; answers {token, name, id}.
export async function accountOf(token) {
  const { data } = await call("GET", "/me", { token });
  return { token, name: data.name, id: data.id };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// A stream (GET /me/stream, or a game's GET /games/{id}/stream with `path`) read with fetch (an
// EventSource cannot send the token in a header): every event to onEvent, in order; reconnects
// after a break with Last-Event-ID, so nothing is lost or doubled. onOpen runs each time the server
// is listening. Stops when the token stops working (401), when nothing more will come (204), or
// when `signal` is aborted.
export async function followStream(token, { onEvent, onOpen, onClosed, path = "/me/stream", signal }) {
  let lastId = null;
  let delay = 1000;
  while (!(signal && signal.aborted)) {
    try {
      const headers = { Accept: "text/event-stream", Authorization: `Bearer ${token}` };
      if (lastId !== null) headers["Last-Event-ID"] = String(lastId);
      const response = await fetch(path, { headers, cache: "no-store", credentials: "omit", signal });
      if (response.status === 401 || response.status === 204) return onClosed && onClosed();
      if (!response.ok || !response.body) throw new Error(`the stream answered ${response.status}`);
      delay = 1000;
      if (onOpen) onOpen();
      await readEvents(response, (data, id) => {
        if (id !== null) lastId = id;
        onEvent(data);
      });
    } catch { /* broken off: try again below */ }
    await sleep(delay);
    delay = Math.min(delay * 2, 30000);
  }
}

// The events of an open text/event-stream answer, each one's data (JSON) and id (null: none
// given yet) to onEvent, until the stream ends.
export async function readEvents(response, onEvent) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "", id = null, data = [];
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let at;
    while ((at = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, at).replace(/\r$/, "");
      buffer = buffer.slice(at + 1);
      if (line === "") {
        if (data.length) onEvent(JSON.parse(data.join("\n")), id);
        data = [];
      } else if (!line.startsWith(":")) {
        const colon = line.indexOf(":");
        const field = line.slice(0, colon);
        const text = line.slice(colon + 1).replace(/^ /, "");
        if (field === "id") id = Number(text);
        else if (field === "data") data.push(text);
      }
    }
  }
}
