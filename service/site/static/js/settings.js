// A correspondence player's settings: mail and push, vacation, claiming on time, resigning, the
// devices (bearer tokens) that hold the seat, its webhook calls and pushes (deliveries.js), and
// forgetting the seat in this browser.
import { call, describe } from "./api.js";
import { setUpDeliveries } from "./deliveries.js";
import { $, el } from "./dom.js";
import { confirmDialog } from "./knock.js";
import { pushState, pushSupported, subscribeTo, unsubscribeFrom } from "./push.js";
import { forgetSeat } from "./seats.js";

export function setUpSettings({ gameId, token, act, signedOut }) {
  const auth = () => ({ token: token() });

  call("GET", `/games/${gameId}/contact`, auth()).then(({ data }) => {
    $("contact-email").value = data.email || "";
    $("contact-mode").value = data.mail_mode;
    $("contact-push").value = data.push_mode;
  }).catch(() => {});

  $("contact-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { email: $("contact-email").value || null, mail_mode: $("contact-mode").value,
                   push_mode: $("contact-push").value };
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
  setUpPush({ gameId, token });
  listTokens({ gameId, token, signedOut });
  setUpDeliveries({ gameId, token, channel: "webhook" });
  setUpDeliveries({ gameId, token, channel: "push" });
}

// This device told of the seat by Web Push (push.js), from a click: on, or off again.
function setUpPush({ gameId, token }) {
  if (!pushSupported()) return;
  const button = $("push-toggle"), target = () => [{ path: `/games/${gameId}/push-subscriptions`, token: token() }];
  const show = (on) => {
    button.hidden = false;
    button.setAttribute("aria-pressed", String(on));
    button.textContent = on ? "This device is told of my turns (stop)" : "Tell this device, even with the page closed";
  };
  const look = () => pushState(target()[0].path, token()).then((state) => show(state.on)).catch(() => show(false));
  button.addEventListener("click", async () => {
    try {
      if (button.getAttribute("aria-pressed") === "true") {
        await unsubscribeFrom(target());
        $("push-result").textContent = "This device is no longer told of this seat.";
      } else {
        const answer = await subscribeTo(target());
        $("push-result").textContent = answer === "granted"
          ? "This device will be told when it is your turn, even with this page closed."
          : "Notifications are not allowed in this browser.";
      }
    } catch (error) { $("push-result").textContent = describe(error); }
    look();
  });
  look();
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
