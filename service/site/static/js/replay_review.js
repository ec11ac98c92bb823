// The coach's marks on the replay (issue 41): GET /games/<game>/review, read once beside the replay;
// each decision's label, the better option and its figure beside its move, and a chart of the points
// each seat gave away over the match. A review not done yet says so; none at all shows nothing.
import { call } from "./api.js";
import { $, el } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";

export function actionText(action) {
  if (!action) return "?";
  switch (action.type) {
    case "take_upcard": return "take the upcard";
    case "pass": return "pass";
    case "draw": return action.from === "discard" ? "take the pile's top" : "draw from the stock";
    case "discard": return `discard ${action.card}`;
    case "knock": return `knock with ${action.discard}`;
    case "big_gin": return "Big Gin";
    default: return action.type;
  }
}

const signed = (x) => (x > 0 ? `+${x.toFixed(1)}` : x.toFixed(1));

export function markText(decision, names) {
  const who = names[decision.seat];
  if (decision.label === "best") return `Coach: ${who} chose the best option (${actionText(decision.chosen)}, ${signed(decision.chosen_expected)} points expected).`;
  return `Coach: ${decision.label} by ${who}: ${actionText(decision.chosen)} (${signed(decision.chosen_expected)}); ` +
    `better: ${actionText(decision.best)} (${signed(decision.best_expected)}), ` +
    `${decision.given_away.toFixed(1)} ± ${decision.se.toFixed(1)} points given away.`;
}

function chart(review, names) {  // a bar per decision, above the axis for seat 0 and below for seat 1
  const rows = review.decisions, width = Math.max(300, rows.length * 4), height = 120, mid = height / 2;
  const top = Math.max(1, ...rows.map((d) => d.given_away));
  const svg = document.createElementNS(SVG, "svg");
  const summary = review.match.seats.map((s, seat) => `${names[seat]}: ${s.given_away} points given away over ` +
    `${s.decisions} decisions, ${Math.round((s.accuracy || 0) * 100)}% within a standard error of the best`).join("; ");
  for (const [name, value] of Object.entries({ viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": summary,
                                               class: "coach-chart", preserveAspectRatio: "none" })) svg.setAttribute(name, value);
  rows.forEach((d, i) => {
    const bar = document.createElementNS(SVG, "rect"), size = (d.given_away / top) * (mid - 2);
    bar.setAttribute("x", String(i * (width / rows.length)));
    bar.setAttribute("width", String(Math.max(1, width / rows.length - 1)));
    bar.setAttribute("y", String(d.seat === 0 ? mid - size : mid));
    bar.setAttribute("height", String(size));
    bar.setAttribute("class", `coach-bar seat-${d.seat} ${d.label}`);
    svg.append(bar);
  });
  return svg;
}

export async function loadReview(gameId, secret, names) {
  let review;
  try {
    ({ data: review } = await call("GET", `/games/${gameId}/review`, { token: secret }));
  } catch (error) { return null; }  // none (a table, Mahjong gin) or not allowed: the replay stands alone
  $("coach").hidden = false;
  if (review.status !== "done") {
    $("coach-summary").textContent = `The computer's review is ${review.status}` +
      (review.total ? ` (${review.done} of ${review.total} decisions)` : "") + ".";
    return null;
  }
  const byMove = new Map(review.review.decisions.map((d) => [d.move, d]));
  $("coach-summary").textContent = review.review.match.seats.map((s, seat) =>
    `${names[seat]}: ${s.given_away_per_decision} points given away a decision, ${s.blunder} blunders, ` +
    `${s.mistake} mistakes, ${s.inaccuracy} inaccuracies`).join(" · ");
  $("coach-chart").replaceChildren(chart(review.review, names));
  return (move) => {
    const decision = byMove.get(move);
    $("coach-step").textContent = decision ? markText(decision, names) : "";
    $("coach-step").dataset.label = decision ? decision.label : "";
  };
}
