// Messages between the seats of a game, under the history: each one drawn as text (textContent,
// never innerHTML, and links are not made clickable), new ones by long-poll on GET
// /games/{id}/messages?after=<newest>&wait=25, sent with POST /games/{id}/messages. Another seat's
// message has a Report button: a reason, then POST /games/{id}/reports, for the operator to read.

import { ApiError, call, describe } from "./api.js";
import { $, el } from "./dom.js";

const WAIT_SECONDS = 25;
const PLAIN = {
  "message-empty": "Write something first.",
  "message-too-long": "A message holds at most 500 characters.",
  "message-not-plain": "A message is one line of plain text.",
  "too-many-messages": "You wrote a lot just now; wait a minute.",
};
const REASONS = [["abuse", "Abusive"], ["spam", "Spam"], ["cheating", "Cheating"], ["name", "Offensive name"],
  ["other", "Something else"]];

export function setUpMessages({ gameId, token, stopped, mySeat }) {
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
      const item = el("li", { dataset: { id: String(message.id) } }, who, words);
      if (message.seat !== mySeat()) item.append(reportControl(message));
      list.append(item);
    }
    $("messages-empty").hidden = newest > 0;
    list.scrollTop = list.scrollHeight;
  }

  // A Report button that opens, in place, a choice of reason and a Send button; the answer is said
  // in the status line under the box.
  function reportControl(message) {
    const open = el("button", { type: "button", class: "report-open" });
    open.textContent = "Report";
    open.setAttribute("aria-label", `Report the message of ${message.name || `seat ${message.seat}`}`);
    open.addEventListener("click", () => {
      const reason = el("select", { class: "report-reason" });
      reason.setAttribute("aria-label", "Why you report it");
      for (const [value, label] of REASONS) {
        const option = el("option", { value });
        option.textContent = label;
        reason.append(option);
      }
      const send = el("button", { type: "button", class: "report-send" });
      send.textContent = "Send report";
      send.addEventListener("click", async () => {
        try {
          await call("POST", `/games/${gameId}/reports`, {
            token: token(), body: { seat: message.seat, message_id: message.id, reason: reason.value } });
          reason.remove();
          send.replaceWith(document.createTextNode(" (reported)"));
          status.textContent = "Reported. The operator of this server will read it.";
        } catch (error) {
          status.textContent = describe(error);
        }
      });
      open.replaceWith(reason, send);
      reason.focus();
    });
    return open;
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
    // Whose messages may be reported is known once the seat's view is read.
    while (mySeat() === null && !stopped()) await new Promise((resolve) => setTimeout(resolve, 200));
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
