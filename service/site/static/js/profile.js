// A player's public profile (/players/<name>): for a signed-in player looking at someone else,
// Block (or Unblock) and Report that player (moderation.js; POST /reports names them).
import { call } from "./api.js";
import { $ } from "./dom.js";
import { blockButton, blockedNames, reportControl } from "./moderation.js";
import { signedIn } from "./player.js";

async function start() {
  const panel = $("moderation");
  const name = panel.dataset.player;
  const me = signedIn();
  if (!me || me.name.toLowerCase() === name.toLowerCase()) return;  // signed out: nothing to block from
  const status = $("moderation-status");
  const blocked = await blockedNames(me.token).catch(() => new Set());
  $("moderation-buttons").replaceChildren(
    blockButton(name, { token: () => me.token, blocked: blocked.has(name.toLowerCase()), status }), " ",
    reportControl(`Report ${name}`, { status, send: (reason, details) => call("POST", "/reports", {
      token: me.token, body: { player: name, reason, ...(details ? { details } : {}) } }) }));
  panel.hidden = false;
}

start();
