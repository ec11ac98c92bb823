// Messages between the seats of a game, under the history: each one drawn as text (textContent,
// never innerHTML, and links are not made clickable), new ones by long-poll on GET
// /games/{id}/messages?after=<newest>&wait=25, sent with POST /games/{id}/messages.

import { ApiError, call, describe } from "./api.js";
import { $, el } from "./dom.js";

const WAIT_SECONDS = 25;
const PLAIN = {
  "message-empty": "Write something first.",
  "message-too-long": "A message holds at most 500 characters.",
  "message-not-plain": "A message is one line of plain text.",
  "too-many-messages": "You wrote a lot just now; wait a minute.",
};

export function setUpMessages({ gameId, token, stopped }) {
  const list = $("messages"), form = $("message-form"), input = $("message-text"), status = $("message-status");
  let newest = 0;

  function add(messages) {
    for (const message of messages) {
      if (message.id <= newest) continue;  // sent and long-polled both: drawn once
      newest = message.id;
      const who = el("span", { class: "message-name" });
      who.textContent = `${message.name || `Seat ${message.seat}`}: `;
      const words = el("span", { class: "message-text" });
      words.textContent = message.text;  // as text: markup in a message shows as written
      list.append(el("li", { dataset: { id: String(message.id) } }, who, words));
    }
    $("messages-empty").hidden = newest > 0;
    list.scrollTop = list.scrollHeight;
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

  async function follow() {
    let backoff = 1000, wait = 0;  // the first read answers at once: the messages so far
    while (!stopped()) {
      try {
        const { data } = await call("GET", `/games/${gameId}/messages?after=${newest}&limit=200&wait=${wait}`,
          { token: token() });
        add(data.messages);
        wait = data.next_after === null ? WAIT_SECONDS : 0;
        backoff = 1000;
      } catch (error) {
        if (error instanceof ApiError && error.code === "invalid-token") return;  // the page says why
        await new Promise((resolve) => setTimeout(resolve, backoff));
        backoff = Math.min(backoff * 2, 30000);
      }
    }
  }
  follow();
}
