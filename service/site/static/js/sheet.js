// The score sheet, like a paper pad: one line per hand; Hollywood keeps three columns of games.
import { el } from "./dom.js";

const RESULT = { knock: "knock", gin: "gin", big_gin: "Big Gin", undercut: "undercut", tie: "tie", void: "void" };

export function renderSheet(container, view, playerNames) {
  const games = view.scores.games;
  const me = view.seat, them = 1 - view.seat;
  const cols = games.map((_, i) => (games.length > 1 ? `Game ${i + 1}` : "Points"));
  const head = el("tr", {}, el("th", { scope: "col" }, "Hand"), el("th", { scope: "col" }, "Result"),
    ...cols.flatMap((c) => [el("th", { scope: "col" }, `${c}: you`), el("th", { scope: "col" }, `${c}: ${playerNames[them]}`)]));
  const rows = view.scores.sheet.map((line) => {
    const credited = line.games_credited || (line.winner !== null ? [0] : []);
    const winner = line.winner === null || line.winner === undefined ? "nobody" : line.winner === me ? "you" : playerNames[them];
    return el("tr", {}, el("th", { scope: "row" }, String(line.hand)),
      el("td", {}, `${RESULT[line.result] || line.result}, ${winner}`),
      ...games.flatMap((_, i) => [me, them].map((s) => el("td", {}, credited.includes(i) && line.winner === s ? String(line.points) : ""))));
  });
  const totals = el("tr", { class: "totals" }, el("th", { scope: "row" }, "Total"), el("td", {}, "boxes " +
      `${view.scores.hands_won[me]}–${view.scores.hands_won[them]}`),
    ...games.flatMap((g) => [me, them].map((s) => el("td", {}, String((g.final || g).totals[s])))));
  container.replaceChildren(view.scores.sheet.length
    ? el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, rows, totals))
    : el("p", {}, "No hand finished yet."));
}
