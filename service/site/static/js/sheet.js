// The score sheet, like a paper pad: one line per hand; Hollywood keeps three columns of games.
import { el } from "./dom.js";

const RESULT = { knock: "knock", gin: "gin", big_gin: "Big Gin", undercut: "undercut", tie: "tie", void: "void" };

// A seat's sheet says "you" in its own columns; a watcher's (view.seat null) names both players.
export function renderSheet(container, view, playerNames) {
  const games = view.scores.games;
  const watcher = view.seat !== 0 && view.seat !== 1;
  const me = watcher ? 0 : view.seat, them = 1 - me;
  const label = (seat) => (seat === me && !watcher ? "you" : playerNames[seat]);
  const cols = games.map((_, i) => (games.length > 1 ? `Game ${i + 1}` : "Points"));
  const head = el("tr", {}, el("th", { scope: "col" }, "Hand"), el("th", { scope: "col" }, "Result"),
    ...cols.flatMap((c) => [el("th", { scope: "col" }, `${c}: ${label(me)}`), el("th", { scope: "col" }, `${c}: ${label(them)}`)]));
  const rows = view.scores.sheet.map((line) => {
    const credited = line.games_credited || (line.winner !== null ? [0] : []);
    const winner = line.winner === null || line.winner === undefined ? "nobody" : label(line.winner);
    return el("tr", {}, el("th", { scope: "row" }, String(line.hand)),
      el("td", {}, `${RESULT[line.result] || line.result}, ${winner}`),
      ...games.flatMap((_, i) => [me, them].map((s) => el("td", {}, credited.includes(i) && line.winner === s ? String(line.points) : ""))));
  });
  const totals = el("tr", { class: "totals", "data-line": "total" }, el("th", { scope: "row" }, "Total"),
    el("td", {}, "boxes " + `${view.scores.hands_won[me]}–${view.scores.hands_won[them]}`),
    ...games.flatMap((g) => [me, them].map((s) => el("td", {}, String((g.final || g).totals[s])))));
  container.replaceChildren(view.scores.sheet.length
    ? el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, rows, bonusRows(view, games, [me, them]), totals))
    : el("p", {}, "No hand finished yet."));
}

// Once a game is closed its total holds bonuses besides the hands: each gets its own line, as on the
// source texts' score sheets, so every total is the sum of the lines above it.
function bonusRows(view, games, seats) {
  if (!games.some((g) => g.final)) return [];
  const box = view.rules.box_bonus;
  const lines = [["hand_points", "Hands", "the points of the hands above"],
    ["game_bonus", "Game bonus", "to the game's winner"],
    ["box_bonus", "Boxes", `${box} for each ${view.rules.box_per === "game" ? "game" : "hand"} won`],
    ["shutout_bonus", "Shutout", view.rules.shutout === "double_total" ? "the loser scored nothing" : "the loser won no hand"]];
  return lines.filter(([key]) => key === "hand_points" || games.some((g) => g.final && g.final[key].some(Boolean)))
    .map(([key, label, why]) => el("tr", { class: key === "hand_points" ? "subtotal" : "bonus", "data-line": key },
      el("th", { scope: "row" }, label), el("td", {}, why),
      ...games.flatMap((g) => seats.map((s) => el("td", {}, g.final ? String(g.final[key][s]) : "")))));
}
