// The result page's ratings: once a rated match is over, what it did to each seat's rating
// ("Rating 1500 → 1662.31 (+162.31)"; at a table the table rating, OpenSkill's mu - 3 sigma), from
// GET /games/{id}/ratings. An unrated match shows nothing.
import { call } from "./api.js";
import { $, el } from "./dom.js";

function signed(delta) {
  return `${delta >= 0 ? "+" : "−"}${Math.abs(delta)}`;
}

// "Rating 1500 → 1662.31 (+162.31)" for this seat; "Bob: rating 1500 → 1337.69 (−162.31)" for another.
export function ratingLine(change, mine) {
  const what = change.kind === "table_rating" ? "table rating" : "rating";
  const moved = `${change.before} → ${change.after} (${signed(change.delta)})`;
  // The house bot at a level is rated as that level: its label says so ("House (level 4)").
  return mine ? `${what[0].toUpperCase()}${what.slice(1)} ${moved}` : `${change.label || change.player}: ${what} ${moved}`;
}

export async function showRatings(gameId, auth, seat) {
  try {
    const { data } = await call("GET", `/games/${gameId}/ratings`, auth);
    if (!data.rated || !data.changes.length) return;
    const sorted = [...data.changes].sort((a, b) => (b.seat === seat) - (a.seat === seat) || a.seat - b.seat);
    $("rating-changes").replaceChildren(...sorted.map((c) => el("li", { dataset: { seat: c.seat } },
      ratingLine(c, c.seat === seat))));
    $("ratings").hidden = false;
  } catch {
    // A rating is extra: the page stands without it.
  }
}
