// Blocking and reporting from the pages (issue 38): a Block button (PUT /me/blocks/{name}, undone
// with DELETE) and a Report control (a reason, a few words, then the caller's send), used on a
// player's profile, on the seat page (the other players, and each of their messages) and, for the
// block list, on /player. A block is never told to the one blocked; the buttons say what it does.
import { call, describe } from "./api.js";
import { el } from "./dom.js";

export const REASONS = [["abuse", "Abusive"], ["spam", "Spam"], ["cheating", "Cheating"], ["name", "Offensive name"],
  ["other", "Something else"]];

const path = (name) => `/me/blocks/${encodeURIComponent(name)}`;

export async function blockedNames(token) {
  const { data } = await call("GET", "/me/blocks", { token });
  return new Set(data.blocks.map((b) => b.name.toLowerCase()));
}

// A button that blocks `name` (and, blocked, unblocks): `status` says what happened.
export function blockButton(name, { token, blocked = false, status, onChange = () => {} }) {
  const button = el("button", { type: "button", class: "block-player", dataset: { player: name } });
  const draw = () => {
    button.textContent = blocked ? `Unblock ${name}` : `Block ${name}`;
    button.setAttribute("aria-pressed", String(blocked));
  };
  draw();
  button.addEventListener("click", async () => {
    try {
      await call(blocked ? "DELETE" : "PUT", path(name), { token: token() });
      blocked = !blocked;
      draw();
      status.textContent = blocked
        ? `You blocked ${name}: you will not see their messages, their challenges to you are declined, and you will not meet in open challenges. They are not told.`
        : `You unblocked ${name}: their messages show again.`;
      onChange(blocked);
    } catch (error) {
      status.textContent = error.code === "player-not-found" ? `${name} has no player account: there is nothing to block (report them instead).`
        : describe(error);
    }
  });
  return button;
}

// A Report button that opens, in place, a reason, a few words and a Send button; `send(reason,
// details)` makes the request. The answer is said in `status`.
export function reportControl(label, { send, status }) {
  const open = el("button", { type: "button", class: "report-open" });
  open.textContent = "Report";
  open.setAttribute("aria-label", label);
  open.addEventListener("click", () => {
    const reason = el("select", { class: "report-reason" });
    reason.setAttribute("aria-label", "Why you report it");
    for (const [value, text] of REASONS) {
      const option = el("option", { value });
      option.textContent = text;
      reason.append(option);
    }
    const details = el("input", { class: "report-details", maxlength: "500", autocomplete: "off" });
    details.setAttribute("aria-label", "A few words for the operator (optional)");
    details.placeholder = "a few words (optional)";
    const go = el("button", { type: "button", class: "report-send" });
    go.textContent = "Send report";
    go.addEventListener("click", async () => {
      try {
        await send(reason.value, details.value.trim() || null);
        reason.remove();
        details.remove();
        go.replaceWith(document.createTextNode(" (reported)"));
        status.textContent = "Reported. The operator of this server will read it.";
      } catch (error) {
        status.textContent = describe(error);
      }
    });
    open.replaceWith(reason, details, go);
    reason.focus();
  });
  return open;
}
