// Messages between the seats of a game, under the history: each one drawn as text (textContent,
// never innerHTML, and links are not made clickable), read once with GET /games/{id}/messages, new
// ones from the game's stream, sent with POST /games/{id}/messages. Another seat's
// message has a Report button (moderation.js: a reason, then POST /games/{id}/reports, for the
// operator to read) and, for a signed-in player, a Block button.

import { ApiError, call, describe } from "./api.js";
import { $, el } from "./dom.js";
import { blockButton, reportControl } from "./moderation.js";

const PLAIN = {
  "message-empty": "Write something first.",
  "message-too-long": "A message holds at most 500 characters.",
  "message-not-plain": "A message is one line of plain text.",
  "too-many-messages": "You wrote a lot just now; wait a minute.",
};

// `blocker`: the signed-in player's token, when this seat is a player's (a Block button then too).
export function setUpMessages({ gameId, token, stopped, mySeat, blocker = null }) {
  const list = $("messages"), form = $("message-form"), input = $("message-text"), status = $("message-status");
  let newest = 0;
  const seen = new Set();

  function add(messages) {
    for (const message of messages) {
      if (seen.has(message.id)) continue;  // sent and streamed both: drawn once
      seen.add(message.id);
      newest = Math.max(newest, message.id);
      const who = el("span", { class: "message-name" });
      who.textContent = `${message.name || `Seat ${message.seat}`}: `;
      const words = el("span", { class: "message-text" });
      words.textContent = message.text;  // as text: markup in a message shows as written
      const item = el("li", { dataset: { id: String(message.id), seat: String(message.seat) } }, who, words);
      if (message.seat !== mySeat()) item.append(" ", ...controls(message));
      list.append(item);
    }
    $("messages-empty").hidden = newest > 0;
    list.scrollTop = list.scrollHeight;
  }

  // Another seat's message: Report it (POST /games/{id}/reports) and, for a signed-in player, Block
  // its writer (their messages then leave this list, and the server sends no more).
  function controls(message) {
    const writer = message.name || `seat ${message.seat}`;
    const parts = [reportControl(`Report the message of ${writer}`, { status,
      send: (reason, details) => call("POST", `/games/${gameId}/reports`, {
        token: token(), body: { seat: message.seat, message_id: message.id, reason, ...(details ? { details } : {}) } }) })];
    if (blocker && blocker() && message.name) {
      parts.push(" ", blockButton(message.name, { token: blocker, status, onChange: (on) => on && hideSeat(message.seat) }));
    }
    return parts;
  }

  function hideSeat(seat) {
    for (const item of list.querySelectorAll(`li[data-seat="${seat}"]`)) item.remove();
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    status.textContent = "";
    try {
      const { data } = await call("POST", `/games/${gameId}/messages`, { token: token(), body: { text: input.value } });
      input.value = "";
      add([data]);
    } catch (error) {
      status.textContent = PLAIN[error.code] || describe(error);
    }
  });

  // The messages so far are read once; the game's stream (play.js) brings each new one, and after
  // the stream broke off the ones written meanwhile are read again: no long-poll of its own.
  let ready = false;
  let early = [];  // brought by the stream before the first read answered

  async function readSince() {
    for (;;) {
      const { data } = await call("GET", `/games/${gameId}/messages?after=${newest}&limit=200`, { token: token() });
      add(data.messages);
      if (data.next_after === null) return;
    }
  }

  async function start() {
    // Whose messages may be reported is known once the seat's view is read.
    while (mySeat() === null && !stopped()) await new Promise((resolve) => setTimeout(resolve, 200));
    let backoff = 1000;
    while (!stopped()) {
      try {
        await readSince();
        break;
      } catch (error) {
        if (error instanceof ApiError && error.code === "invalid-token") return;  // the page says why
        await new Promise((resolve) => setTimeout(resolve, Math.max(backoff, 1000 * (error.retryAfter || 0))));
        backoff = Math.min(backoff * 2, 30000);
      }
    }
    ready = true;
    add(early);
    early = [];
  }
  start();

  return {
    hideSeat,
    arrived(message) {  // a `message` event of the game's stream
      if (ready) add([message]);
      else early.push(message);
    },
    async missed() {  // the stream opened again after a break
      if (ready) await readSince().catch(() => {});
    },
  };
}