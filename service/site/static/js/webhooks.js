// The seat's webhook deliveries (GET /games/{id}/webhook-deliveries), newest first, each with a
// Redeliver button (POST .../{webhook_id}/redeliver: the same body and webhook-id again).
import { call, describe } from "./api.js";
import { $, el } from "./dom.js";

const PAGE = 10;

export function setUpWebhookDeliveries({ gameId, token }) {
  let cursor = null;

  async function show(more) {
    try {
      const query = `limit=${PAGE}${more && cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const { data } = await call("GET", `/games/${gameId}/webhook-deliveries?${query}`, { token: token() });
      const items = data.deliveries.map((d) => deliveryItem(d));
      if (more) $("webhook-deliveries").append(...items); else $("webhook-deliveries").replaceChildren(...items);
      cursor = data.next_cursor;
      $("webhooks-more").hidden = !cursor;
      $("webhooks-none").hidden = $("webhook-deliveries").children.length > 0;
    } catch (error) { $("webhooks-result").textContent = describe(error); }
  }

  function deliveryItem(d) {
    const answered = d.response_code === null ? "no answer" : `HTTP ${d.response_code}`;
    const tries = `${d.attempts} ${d.attempts === 1 ? "try" : "tries"}`;
    const when = new Date(d.created_at).toLocaleString();
    const why = d.status !== "sent" && d.last_error ? ` (${d.last_error})` : "";
    return el("li", {}, `${when}: ${d.event}, ${d.status}, ${tries}, ${d.attempts ? answered : "not called yet"}${why} `,
      el("button", { type: "button", "aria-label": `Redeliver ${d.event} of ${when}`, onclick: async () => {
        try {
          await call("POST", `/games/${gameId}/webhook-deliveries/${encodeURIComponent(d.webhook_id)}/redeliver`,
            { token: token() });
          $("webhooks-result").textContent = `Queued again: ${d.event} (${d.webhook_id}).`;
          show(false);
        } catch (error) { $("webhooks-result").textContent = describe(error); }
      } }, "Redeliver"));
  }

  $("webhooks-more").addEventListener("click", () => show(true));
  $("webhooks-refresh").addEventListener("click", () => show(false));
  show(false);
}
