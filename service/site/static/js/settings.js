// A correspondence player's settings: mail, vacation, claiming on time, resigning, the devices
// (bearer tokens) that hold the seat, its webhook deliveries, and forgetting the seat in this browser.
import { call, describe } from "./api.js";
import { $, el } from "./dom.js";
import { confirmDialog } from "./knock.js";
import { forgetSeat } from "./seats.js";
import { setUpWebhookDeliveries } from "./webhooks.js";

export function setUpSettings({ gameId, token, act, signedOut }) {
  const auth = () => ({ token: token() });

  call("GET", `/games/${gameId}/contact`, auth()).then(({ data }) => {
    $("contact-email").value = data.email || "";
    $("contact-mode").value = data.mail_mode;
  }).catch(() => {});

  $("contact-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { email: $("contact-email").value || null, mail_mode: $("contact-mode").value };
    try {
      await call("PATCH", `/games/${gameId}/contact`, { ...auth(), body });
      $("contact-result").textContent = "Saved.";
    } catch (error) { $("contact-result").textContent = describe(error); }
  });

  $("vacation-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const { data } = await call("POST", `/games/${gameId}/vacation`, { ...auth(), body: { days: Number($("vacation-days").value) } });
      $("vacation-result").textContent = `Your clock is paused; the deadline is now ${data.deadline ? new Date(data.deadline).toLocaleString() : "none"}.`;
    } catch (error) { $("vacation-result").textContent = describe(error); }
  });

  $("claim").addEventListener("click", () => act({ type: "claim_timeout" }));
  $("resign").addEventListener("click", async () => {
    if (await confirmDialog("Resign the match?", "You lose the match now (at a table of four, with your partner). This cannot be undone.", "Resign")) {
      act({ type: "resign" });
    }
  });
  $("forget").addEventListener("click", async () => {
    if (await confirmDialog("Forget this seat?", "This browser drops its key to the seat. A mail's link brings it back.", "Forget")) {
      forgetSeat(gameId);
      location.assign("/my-games");
    }
  });
  listTokens({ gameId, token, signedOut });
  setUpWebhookDeliveries({ gameId, token });
}

export async function listTokens({ gameId, token, signedOut }) {
  try {
    const { data } = await call("GET", `/games/${gameId}/tokens`, { token: token() });
    $("tokens").replaceChildren(...data.tokens.map((t) => el("li", {},
      `${t.label}${t.created_at ? `, ${new Date(t.created_at).toLocaleDateString()}` : ""}${t.current ? " (this browser)" : ""} `,
      el("button", { type: "button", "aria-label": `Revoke: ${t.label}${t.current ? " (this browser)" : ""}`, onclick: async () => {
        await call("DELETE", `/games/${gameId}/tokens/${encodeURIComponent(t.id)}`, { token: token() });
        if (t.current) signedOut(); else listTokens({ gameId, token, signedOut });
      } }, "Revoke"))));
  } catch (error) {
    $("tokens").replaceChildren(el("li", {}, describe(error)));
  }
}
