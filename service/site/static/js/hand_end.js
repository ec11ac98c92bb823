// The end of a hand: both hands with melds, layoffs and deadwood, the result, and the deck check.
import { cardList, spokenList } from "./cards.js";
import { el } from "./dom.js";
import { checkDeal } from "./verify.js";

const RESULTS = { gin: "went gin", big_gin: "declared Big Gin", undercut: "knocked and was undercut",
                  tie: "knocked: a tie", knock: "knocked" };
const ENDED_BY = { gin: "gin", big_gin: "Big Gin" };  // the heading over the hand that ended it

function cardsLine(label, cards) {
  return el("p", {}, `${label}: `, el("span", { class: "cards-text", "aria-label": spokenList(cards) || "none" }, cardList(cards) || "none"));
}

const BONUSES = { gin: ["gin_bonus", 25, "gin bonus"], big_gin: ["big_gin_bonus", 31, "Big Gin bonus"],
                  undercut: ["undercut_bonus", 25, "undercut bonus"] };

// How the winner's points were made, bonus included, as the mail says it (notify/mail/mail_pieces.py
// points_explained): "Points: 2 (deadwood 9 less 7) +25 undercut bonus = 27". Null where the sum is
// not that (another scoring scheme).
export function pointsExplained(record, rules) {
  const k = record.knocker_points, d = record.defender_points;
  if (!["knock", "gin", "big_gin", "undercut"].includes(record.result) || k === undefined || d === undefined) return null;
  const [key, fallback, label] = BONUSES[record.result] || [null, 0, ""];
  const bonus = key ? (rules && rules[key] !== undefined ? rules[key] : fallback) : 0;
  const difference = Math.abs(k - d), multiplier = record.multiplier || 1;
  if ((difference + bonus) * multiplier !== record.points) return null;
  let text = record.result === "gin" || record.result === "big_gin" ? `${difference} deadwood`
    : `${difference} (deadwood ${Math.max(k, d)} less ${Math.min(k, d)})`;
  if (bonus) text += ` +${bonus} ${label}`;
  if (multiplier > 1) text = `(${text}) ×${multiplier}`;
  return `Points: ${text} = ${record.points}`;
}

export async function renderHandEnd(section, record, view, playerNames, seenCommitment, onClose) {
  const who = (seat) => (seat === view.seat ? "You" : playerNames[seat]);
  const what = record.result === "undercut" && record.knocker === view.seat ? "knocked and were undercut"
    : RESULTS[record.result] || record.result;
  const title = record.result === "void" ? `Hand ${record.hand} is void: the stock ran out`
    : `Hand ${record.hand}: ${who(record.knocker)} ${what}` +
      (record.winner !== null ? `; ${record.winner === view.seat ? "you score" : `${playerNames[record.winner]} scores`} ${record.points}` : "");
  const parts = [el("h2", { id: "hand-end-title" }, title)];
  if (record.table_points) {  // Mahjong gin: each scores the cards it put on the table less those left in hand
    for (const seat of (view.seat === 1 ? [1, 0] : [0, 1])) {
      const base = record.table_points[seat] - record.hand_points[seat];
      const bonus = record.scores[seat] !== base ? ` + ${record.scores[seat] - base} for gin` : "";
      parts.push(el("p", { class: "mahjong-score" }, `${who(seat)}: table ${record.table_points[seat]} less hand ` +
        `${record.hand_points[seat]}${bonus} = ${record.scores[seat]}`), cardsLine(`${who(seat)} held`, record.hands[String(seat)]));
    }
    parts.push(el("h3", {}, "The table"), ...record.table.map((m, i) => cardsLine(`Meld ${i + 1}`, m.cards)));
  } else if (record.result === "void") {
    for (const seat of (view.seat === 1 ? [1, 0] : [0, 1])) parts.push(cardsLine(`${who(seat)} held`, record.hands[String(seat)]));
  } else {
    const defender = 1 - record.knocker;
    parts.push(el("h3", {}, `${who(record.knocker)} (${ENDED_BY[record.result] || "knocked"})`),
      ...record.knocker_melds.map((m) => cardsLine("Meld", m)),
      cardsLine(`Deadwood (${record.knocker_points})`, record.knocker_deadwood),
      el("h3", {}, `${who(defender)}`),
      ...record.defender_melds.map((m) => cardsLine("Meld", m)),
      cardsLine("Laid off", record.defender_layoffs || []),
      cardsLine(`Deadwood (${record.defender_points})`, record.defender_deadwood));
    if (record.multiplier > 1) parts.push(el("p", {}, `The hand counted ×${record.multiplier}.`));
    const explained = pointsExplained(record, view.rules);
    if (explained) parts.push(el("p", { class: "points-explained" }, explained));
  }
  const check = el("p", { class: "verify", role: "status" }, "Checking the deck…");
  parts.push(check, el("button", { type: "button", class: "primary", onclick: onClose }, "Continue"));
  section.replaceChildren(...parts);
  section.hidden = false;
  const deal = view.revealed_deals.find((d) => d.hand === record.hand);
  if (!deal) { check.textContent = "The deck of this hand is not revealed yet."; return; }
  const result = await checkDeal(deal, seenCommitment);
  check.textContent = result.text;
  check.classList.add(result.ok ? "ok" : "bad");
  check.dataset.verified = String(result.ok);
}
