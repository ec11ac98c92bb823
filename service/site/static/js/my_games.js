// "My games": every seat this browser holds, your turn first, with deadlines; forget in one click.
import { call, describe } from "./api.js";
import { $, el, timeLeft } from "./dom.js";
import { allSeats, forgetSeat } from "./seats.js";

async function row(gameId, seat) {
  try {
    const { data } = await call("GET", `/games/${gameId}`, { token: seat.token });
    const names = data.players.map((p) => p.name || "(waiting)");
    const mine = data.to_move === data.seat && data.status === "active";
    const state = data.status === "finished" ? "finished" : data.status !== "active" ? "waiting for the opponent to join"
      : mine ? "your turn" : `${names[1 - data.seat]}'s turn`;
    return { gameId, mine, deadline: data.deadline, text: `${names[data.seat]} v ${names[1 - data.seat]}`, state };
  } catch (error) {
    return { gameId, mine: false, deadline: null, text: seat.name || gameId, state: describe(error) };
  }
}

async function render() {
  const seats = allSeats();
  const rows = await Promise.all(Object.entries(seats).map(([id, seat]) => row(id, seat)));
  rows.sort((a, b) => (b.mine - a.mine) || String(a.deadline || "~").localeCompare(String(b.deadline || "~")));
  const list = el("ul", { class: "game-list" }, rows.map((r) => el("li", { class: r.mine ? "mine" : "" },
    el("a", { href: `/play/${r.gameId}` }, r.text), " — ", el("strong", {}, r.state),
    r.deadline && r.state !== "finished" ? ` (${timeLeft(r.deadline)})` : "", " ",
    el("button", { type: "button", "aria-label": `Forget ${r.text}`,
                   onclick: () => { forgetSeat(r.gameId); render(); } }, "Forget"))));
  $("games").replaceChildren(rows.length ? list : el("p", {}, "No games in this browser yet."));
}

render();
