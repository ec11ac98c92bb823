// The seat's deliveries logs, newest first: its webhook calls (GET /games/{id}/webhook-deliveries,
// each with a Redeliver button: POST .../{webhook_id}/redeliver sends the same body and webhook-id
// again) and its pushes to browsers (GET /games/{id}/push-deliveries, with the push service's host).
import { call, describe } from "./api.js";
import { $, el } from "./dom.js";

const PAGE = 10;
const LOGS = {
  webhook: { path: "webhook-deliveries", list: "webhook-deliveries", more: "webhooks-more",
    refresh: "webhooks-refresh", none: "webhooks-none", result: "webhooks-result" },
  push: { path: "push-deliveries", list: "push-deliveries", more: "pushes-more",
    refresh: "pushes-refresh", none: "pushes-none", result: "pushes-result" },
};

export function setUpDeliveries({ gameId, token, channel }) {
  const log = LOGS[channel];
  let cursor = null;

  async function show(more) {
    try {
      const query = `limit=${PAGE}${more && cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const { data } = await call("GET", `/games/${gameId}/${log.path}?${query}`, { token: token() });
      const items = data.deliveries.map((d) => deliveryItem(d));
      if (more) $(log.list).append(...items); else $(log.list).replaceChildren(...items);
      cursor = data.next_cursor;
      $(log.more).hidden = !cursor;
      $(log.none).hidden = $(log.list).children.length > 0;
    } catch (error) { $(log.result).textContent = describe(error); }
  }

  function deliveryItem(d) {
    const answered = d.response_code === null ? "no answer" : `HTTP ${d.response_code}`;
    const tries = `${d.attempts} ${d.attempts === 1 ? "try" : "tries"}`;
    const when = new Date(d.created_at).toLocaleString();
    const why = d.status !== "sent" && d.last_error ? ` (${d.last_error})` : "";
    const where = d.push_service ? ` to ${d.push_service}` : "";
    const text = `${when}: ${d.event}${where}, ${d.status}, ${tries}, ${d.attempts ? answered : "not called yet"}${why}`;
    if (channel !== "webhook") return el("li", {}, text);
    return el("li", {}, `${text} `,
      el("button", { type: "button", "aria-label": `Redeliver ${d.event} of ${when}`, onclick: async () => {
        try {
          await call("POST", `/games/${gameId}/webhook-deliveries/${encodeURIComponent(d.webhook_id)}/redeliver`,
            { token: token() });
          $(log.result).textContent = `Queued again: ${d.event} (${d.webhook_id}).`;
          show(false);
        } catch (error) { $(log.result).textContent = describe(error); }
      } }, "Redeliver"));
  }

  $(log.more).addEventListener("click", () => show(true));
  $(log.refresh).addEventListener("click", () => show(false));
  show(false);
}
