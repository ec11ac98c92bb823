// "My games": every seat this browser holds, your turn first, with deadlines; forget in one click.
// Looked at again every LOOK_MS while open: the tab's title counts the games where it is your turn,
// and a game that becomes yours calls you as a seat page does (turn_alert.js).
import { call, describe } from "./api.js";
import { $, el, timeLeft } from "./dom.js";
import { signedIn } from "./player.js";
import { pushSupported, subscribeTo } from "./push.js";
import { allSeats, forgetSeat } from "./seats.js";
import { turnsChanged } from "./turn_alert.js";

const LOOK_MS = 15000;

async function row(gameId, seat) {
  try {
    const { data } = await call("GET", `/games/${gameId}`, { token: seat.token });
    const names = data.players.map((p) => p.name || "(waiting)");
    if (data.format) return tableRow(gameId, data, names);
    const mine = data.to_move === data.seat && data.status === "active";
    const state = data.status === "finished" ? "finished" : data.status !== "active" ? "waiting for the opponent to join"
      : mine ? "your turn" : `${names[1 - data.seat]}'s turn`;
    return { gameId, mine, deadline: data.deadline, text: `${names[data.seat]} v ${names[1 - data.seat]}`, state };
  } catch (error) {
    return { gameId, mine: false, deadline: null, text: seat.name || gameId, state: describe(error) };
  }
}

// A table of three or four: several seats may be to move at once (one per board).
function tableRow(gameId, data, names) {
  const mine = data.status === "active" && data.to_move.includes(data.seat);
  const others = data.to_move.filter((s) => s !== data.seat).map((s) => names[s]);
  const state = data.status === "finished" ? "finished" : data.status !== "active" ? "waiting for players to join"
    : mine ? "your turn" : others.length ? `${others.join(" and ")} to move` : "waiting";
  const text = `${names[data.seat]} with ${names.filter((_, s) => s !== data.seat).join(", ")} (${data.seats} players)`;
  return { gameId, mine, deadline: data.my_deadline || null, text, state };  // its own clock, while it is to move
}

let drawn = null;  // what the list shows: redrawn only when it changed, so a look never takes the focus

async function render() {
  const seats = allSeats();
  const rows = await Promise.all(Object.entries(seats).map(([id, seat]) => row(id, seat)));
  rows.sort((a, b) => (b.mine - a.mine) || String(a.deadline || "~").localeCompare(String(b.deadline || "~")));
  const mine = rows.filter((r) => r.mine).length;
  document.title = `${mine ? `(Your turn: ${mine}) ` : ""}My games`;
  turnsChanged(rows);
  const shown = JSON.stringify(rows.map((r) => [r.gameId, r.state, r.deadline && timeLeft(r.deadline)]));
  if (shown === drawn) return;
  drawn = shown;
  const list = el("ul", { class: "game-list" }, rows.map((r) => el("li", { class: r.mine ? "mine" : "" },
    el("a", { href: `/play/${r.gameId}` }, r.text), " — ", el("strong", {}, r.state),
    r.deadline && r.state !== "finished" ? ` (${timeLeft(r.deadline)})` : "", " ",
    el("button", { type: "button", "aria-label": `Forget ${r.text}`,
                   onclick: () => { forgetSeat(r.gameId); render(); } }, "Forget"))));
  $("games").replaceChildren(rows.length ? list : el("p", {}, "No games in this browser yet."));
}

// Push for every seat here (issue 39), from a click: each anonymous seat with its own token, and the
// signed-in player's account (which covers its seats, and its games to come).
function setUpPush() {
  if (!pushSupported()) return;
  $("push-all").hidden = false;
  $("push-all").addEventListener("click", async () => {
    const player = signedIn();
    const targets = Object.entries(allSeats()).filter(([, seat]) => seat.token && !seat.player)
      .map(([gameId, seat]) => ({ path: `/games/${gameId}/push-subscriptions`, token: seat.token }));
    if (player) targets.push({ path: "/me/push-subscriptions", token: player.token });
    if (!targets.length) { $("push-result").textContent = "No seat in this browser yet."; return; }
    try {
      const answer = await subscribeTo(targets);
      $("push-result").textContent = answer === "granted"
        ? "This device will be told of your turns in these games, even with this page closed."
        : "Notifications are not allowed in this browser.";
    } catch (error) { $("push-result").textContent = describe(error); }
  });
}

setUpPush();
render();
setInterval(render, LOOK_MS);
