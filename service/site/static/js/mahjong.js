// Mahjong gin on the seat page: the melds on the table (numbered as mail and the client name them,
// with whose cards they are), and the moves of its own: take several from the pile, select cards
// and lay them as a meld, add a selected card to a table meld. Plain form controls, so every one
// is reachable and usable by keyboard. Nothing is drawn for the other presets (no `table`).
import { cardList, cardNode, face, spoken, spokenList } from "./cards.js";
import { $, el } from "./dom.js";

let selected = new Set();  // the cards ticked in the hand, kept across redraws while still held

export function renderMahjong(view, names, act) {
  const section = $("mahjong");
  section.hidden = !view || !Array.isArray(view.table);
  if (section.hidden) return;
  selected = new Set([...selected].filter((c) => view.hand.includes(c)));
  const mine = view.to_move === view.seat;
  const legal = mine ? view.legal_actions : [];
  const parts = [el("h2", { id: "mahjong-title" }, "Melds on the table"), tableMelds(view, names)];
  if (mine && view.must_use) {
    parts.push(el("p", { id: "must-use", class: "must-use" },
      `${face(view.must_use)}, the deepest card you took, must go on the table (a meld or an add-on) before you discard.`));
  }
  const counts = legal.filter((a) => a.type === "draw" && (a.count || 1) > 1).map((a) => a.count);
  if (counts.length) parts.push(takeControl(view, counts, act));
  if (mine && view.phase === "discard") parts.push(selectControl(view), meldControls(view, act));
  section.replaceChildren(...parts);
}

// The table's melds as a numbered list; `view.seat` (none on the watch page) is "you".
export function tableMelds(view, names) {
  if (!view.table.length) return el("p", { id: "table-melds-empty" }, "No meld on the table yet.");
  const who = (s) => (s === view.seat ? "you" : names[s] || "your opponent");
  return el("ol", { id: "table-melds", class: "table-melds" }, view.table.map((meld, i) => {
    const groups = new Map();
    meld.cards.forEach((c, k) => groups.set(meld.owners[k], [...(groups.get(meld.owners[k]) || []), c]));
    const owners = groups.size === 1 ? who([...groups.keys()][0])
      : [...groups].map(([s, cards]) => `${who(s)}: ${cardList(cards)}`).join("; ");
    return el("li", { dataset: { meld: String(i + 1) }, "aria-label": `Meld ${i + 1}: ${spokenList(meld.cards)} (${owners})` },
      el("span", { class: "cards", "aria-hidden": "true" }, meld.cards.map((c) => cardNode(c))),
      el("span", { class: "owners", "aria-hidden": "true" }, ` (${owners})`));
  }));
}

function takeControl(view, counts, act) {
  const pile = view.discard_pile;
  const select = el("select", { id: "take-count" }, counts.map((n) =>
    el("option", { value: String(n) }, `${n}: ${cardList(pile.slice(-n))} (${face(pile[pile.length - n])} must go down)`)));
  return el("p", { class: "mahjong-row" },
    el("label", { for: "take-count" }, "Take from the pile "), select, " ",
    el("button", { type: "button", id: "take-several", dataset: { key: "move-take-several" },
                   onclick: () => act({ type: "draw", from: "discard", count: Number(select.value) }) }, "Take these cards"));
}

function selectControl(view) {
  return el("fieldset", { id: "meld-select", class: "meld-select" }, el("legend", {}, "Select cards to lay or add on"),
    view.hand.map((card) => el("label", { class: "pick" },
      el("input", { type: "checkbox", value: card, checked: selected.has(card), "aria-label": spoken(card),
                    dataset: { key: `pick-${card}` },
                    onchange: (event) => { if (event.target.checked) selected.add(card); else selected.delete(card); } }),
      " ", face(card))));
}

function meldControls(view, act) {
  const chosen = () => view.hand.filter((c) => selected.has(c));
  const status = el("span", { id: "meld-status", role: "status" });
  const say = (text) => { status.textContent = text; };
  const lay = () => {
    const cards = chosen();
    if (cards.length < 3) return say("Select three or more cards for a meld.");
    selected = new Set();
    act({ type: "meld", cards });
  };
  const target = el("select", { id: "add-target" }, view.table.map((meld, i) =>
    el("option", { value: String(i) }, `${i + 1}: ${cardList(meld.cards)}`)));
  const add = () => {
    const cards = chosen();
    if (cards.length !== 1) return say("Select one card to add to a meld.");
    selected = new Set();
    act({ type: "add_on", card: cards[0], meld: Number(target.value) });
  };
  const row = [el("button", { type: "button", id: "lay-meld", dataset: { key: "move-lay-meld" }, onclick: lay }, "Lay meld")];
  if (view.table.length) {
    row.push(" ", el("label", { for: "add-target" }, "Add the selected card to meld "), target, " ",
      el("button", { type: "button", id: "add-on", dataset: { key: "move-add-on" }, onclick: add }, "Add to meld"));
  }
  return el("p", { class: "mahjong-row" }, ...row, " ", status);
}
