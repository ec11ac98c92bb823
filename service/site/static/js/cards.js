// Cards as people see them (rank, suit symbol, colour, a spoken name) and the meld search the
// knock dialog needs. Cards are the API's text: rank (A 2-9 T J Q K) then suit (C D H S).
import { el } from "./dom.js";

const RANKS = "A23456789TJQK";
const SUITS = { C: ["♣", "clubs"], D: ["♦", "diamonds"], H: ["♥", "hearts"], S: ["♠", "spades"] };
const RANK_NAMES = { A: "ace", T: "10", J: "jack", Q: "queen", K: "king" };

export const rank = (card) => RANKS.indexOf(card[0]) + 1;
export const suit = (card) => card[1];
export const points = (card) => Math.min(rank(card), 10);
export const isRed = (card) => card[1] === "H" || card[1] === "D";
export const face = (card) => `${card[0] === "T" ? "10" : card[0]}${SUITS[card[1]][0]}`;
export const spoken = (card) => `${RANK_NAMES[card[0]] || card[0]} of ${SUITS[card[1]][1]}`;

// A card face; `tag` button for cards one can act on.
export function cardNode(card, { tag = "span", label, ...attrs } = {}) {
  return el(tag, {
    class: `card ${isRed(card) ? "red" : "black"}`, "aria-label": label || spoken(card),
    dataset: { card }, ...(tag === "button" ? { type: "button" } : { role: "img" }), ...attrs,
  }, el("span", { class: "rank", "aria-hidden": "true" }, face(card).slice(0, -1)),
     el("span", { class: "suit", "aria-hidden": "true" }, face(card).slice(-1)));
}

export function cardList(cards) { return cards.map(face).join(" "); }

export function spokenList(cards) { return cards.map(spoken).join(", "); }

// Every set (3-4 of a rank) and run (3+ in a row of one suit, ace low) among `cards`.
export function allMelds(cards) {
  const melds = [];
  const byRank = {};
  for (const card of cards) (byRank[card[0]] ||= []).push(card);
  for (const group of Object.values(byRank)) {
    if (group.length >= 3) melds.push(group.slice());
    if (group.length === 4) for (const skip of group) melds.push(group.filter((c) => c !== skip));
  }
  for (const s of Object.keys(SUITS)) {
    const held = cards.filter((c) => c[1] === s).sort((a, b) => rank(a) - rank(b));
    for (let i = 0; i < held.length; i++) {
      const run = [held[i]];
      for (let j = i + 1; j < held.length && rank(held[j]) === rank(run[run.length - 1]) + 1; j++) {
        run.push(held[j]);
        if (run.length >= 3) melds.push(run.slice());
      }
    }
  }
  return melds;
}

export function deadwoodOf(cards, melds) {
  const used = new Set(melds.flat());
  const deadwood = cards.filter((c) => !used.has(c));
  return { deadwood, points: deadwood.reduce((sum, c) => sum + points(c), 0) };
}

// The lowest-deadwood choice of disjoint melds: an exhaustive search, tiny for 10 cards.
export function bestMelds(cards) {
  const melds = allMelds(cards);
  let best = { melds: [], points: deadwoodOf(cards, []).points };
  const search = (start, chosen, used) => {
    const { points: p } = deadwoodOf(cards, chosen);
    if (p < best.points) best = { melds: chosen.slice(), points: p };
    for (let i = start; i < melds.length; i++) {
      if (melds[i].some((c) => used.has(c))) continue;
      melds[i].forEach((c) => used.add(c));
      chosen.push(melds[i]);
      search(i + 1, chosen, used);
      chosen.pop();
      melds[i].forEach((c) => used.delete(c));
    }
  };
  search(0, [], new Set());
  return best.melds;
}
