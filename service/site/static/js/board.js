// Drawing one two-player board (a two-seat game, or the caller's own board at a table): heading,
// scores, status, opponent, stock and pile, moves, hand.
import { cardList, cardNode, face, spoken, spokenList } from "./cards.js";
import { $, el, timeLeft } from "./dom.js";

const PHASES = {
  awaiting_deal: "waiting for the deal", upcard_offer: "the upcard is offered",
  draw: "draw a card", discard: "discard a card", last_discard_offer: "the last discard is offered",
  match_over: "the match is over",
};
const YOUR_TURN = {
  upcard_offer: "Your turn: take the upcard, or pass.",
  draw: "Your turn: draw from the stock or take the top of the discard pile.",
  discard: "Your turn: discard a card (or knock).",
  last_discard_offer: "Your turn: take the last discard, or pass.",
};

// A seat as players are told it: the house bot's seat says the level it plays at, "House (level 4)".
export function playerName(player, nobody) {
  return player.name ? player.name + (player.level ? ` (level ${player.level})` : "") : nobody;
}

export function names(view) {
  const given = view.players.map((p) => playerName(p, "your opponent"));
  return { me: given[view.seat], them: given[1 - view.seat] };
}

export function renderHeading(view) {
  const { me, them } = names(view);
  $("title").textContent = `${me} v ${them}`;
  document.title = `${me} v ${them} · Gin Rummy`;
  const games = view.scores.games;
  // One score per game, said for what it is: the hands' points while it is played; once closed,
  // the final total (its bonuses counted, the sheet shows them line by line).
  const pair = (totals) => `${totals[view.seat]}–${totals[1 - view.seat]}`;
  const score = (g) => (g.final ? `total ${pair(g.final.totals)} (bonuses in)` : `hand points ${pair(g.totals)}`);
  $("scores").textContent = (games.length === 1 ? score(games[0]).replace(/^./, (c) => c.toUpperCase())
    : games.map((g, i) => `Game ${i + 1}: ${score(g)}`).join(" · ")) +
    ` · to ${view.rules.target} · hands won ${view.scores.hands_won[view.seat]}–${view.scores.hands_won[1 - view.seat]}` +
    (view.status === "active" ? ` · hand ${view.hand_number}` : "");
}

export function statusText(view) {
  const { them } = names(view);
  if (view.status === "waiting_for_opponent") return "Waiting for your opponent to join.";
  if (view.phase === "match_over") {
    const result = view.result || {};
    const who = result.winner === view.seat ? "You won" : result.winner === null ? "Nobody won" : `${them} won`;
    const why = { resign: " by resignation", timeout: " on time" }[result.reason] || "";
    const total = result.totals ? ` ${result.totals[view.seat]}–${result.totals[1 - view.seat]} in total (bonuses in)` : "";
    return `The match is over: ${who}${why}${total && ","}${total}. Next: a rematch, a replay or a new game, below.`;
  }
  const turn = view.to_move === view.seat ? YOUR_TURN[view.phase] || `Your turn (${PHASES[view.phase]}).`
    : `${them}'s turn: ${PHASES[view.phase]}.`;
  const deadline = view.deadline ? ` Due ${new Date(view.deadline).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })} (${timeLeft(view.deadline)}).` : "";
  return `${turn}${deadline}${view.multiplier > 1 ? " This hand counts double (spades)." : ""}`;
}

export function renderOpponent(view) {
  const { them } = names(view);
  const count = view.opponent.card_count;
  const known = view.opponent.known_cards;
  $("opponent").replaceChildren(...[
    el("p", {}, el("strong", {}, them), ` holds ${count} card${count === 1 ? "" : "s"}`,
       known.length ? `; known to hold ${cardList(known)} (taken from the pile)` : ""),
    el("div", { class: "backs", "aria-hidden": "true" }, Array.from({ length: count }, () => el("span", { class: "card back" }))),
    known.length ? el("p", { class: "visually-hidden" }, `Known cards: ${spokenList(known)}`) : null].filter(Boolean));
}

export function renderMiddle(view) {
  const stock = $("stock");
  stock.textContent = `Stock ${view.stock_count}`;
  stock.setAttribute("aria-label", `Stock, ${view.stock_count} cards: draw from the stock`);
  const pile = $("pile");
  const top = view.discard_pile[view.discard_pile.length - 1];
  pile.replaceChildren(top ? cardNode(top) : "empty");
  pile.className = `pile-card ${top ? "" : "empty"}`;
  pile.setAttribute("aria-label", top ? `Discard pile, ${spoken(top)} on top: take it` : "Discard pile, empty");
  pile.dataset.card = top || "";
  $("pile-list").textContent = view.discard_pile.length
    ? `Bottom to top: ${view.discard_pile.map(face).join(" ")}` : "The pile is empty.";
}

// Buttons for every legal move; clicking the stock, the pile or a card does the same.
export function moveButtons(view, handlers) {
  const buttons = [];
  const legal = view.legal_actions;
  const has = (test) => legal.some(test);
  const top = view.discard_pile[view.discard_pile.length - 1];
  if (has((a) => a.type === "take_upcard")) buttons.push(["take", `Take ${top ? face(top) : "the upcard"}`, () => handlers.act({ type: "take_upcard" })]);
  if (has((a) => a.type === "draw" && a.from === "stock")) buttons.push(["draw-stock", "Draw from the stock", () => handlers.act({ type: "draw", from: "stock" })]);
  if (has((a) => a.type === "draw" && a.from === "discard")) buttons.push(["draw-discard", `Take ${face(top)} from the pile`, () => handlers.act({ type: "draw", from: "discard" })]);
  if (has((a) => a.type === "pass")) buttons.push(["pass", "Pass", () => handlers.act({ type: "pass" })]);
  const knocks = legal.filter((a) => a.type === "knock");
  if (knocks.length) {
    // Mahjong gin is straight gin: every knock it allows is a gin.
    const gin = Array.isArray(view.table) || (view.arrangement && view.arrangement.deadwood_after_discard === 0);
    buttons.push(["knock", gin ? "Gin…" : "Knock…", () => handlers.knock(knocks)]);
  }
  if (has((a) => a.type === "big_gin")) buttons.push(["big-gin", "Big Gin!", () => handlers.act({ type: "big_gin" })]);
  if (has((a) => a.type === "choose_dealer")) {  // 002's cut: the higher card chooses who deals first
    buttons.push(["deal-first", "I deal first", () => handlers.act({ type: "choose_dealer", deal: true })]);
    buttons.push(["let-deal", "My opponent deals first", () => handlers.act({ type: "choose_dealer", deal: false })]);
  }
  $("moves").replaceChildren(...buttons.map(([key, label, onclick]) =>
    el("button", { type: "button", class: "move", dataset: { key: `move-${key}` }, onclick }, label)));
}

// The hand: the best melds and the deadwood, or the player's own order; each card a button.
export function renderHand(view, { order, taken, onCard, onMove, onDrop }) {
  const arrangement = view.arrangement || { melds: [], deadwood: view.hand, deadwood_points: 0 };
  const groups = order
    ? [["Your order", order.filter((c) => view.hand.includes(c)).concat(view.hand.filter((c) => !order.includes(c)))]]
    : [...arrangement.melds.map((m) => ["Meld", m]), [`Deadwood: ${arrangement.deadwood_points} points`, arrangement.deadwood]];
  const discarding = view.to_move === view.seat && view.phase === "discard";
  const legalDiscards = new Set(view.legal_actions.filter((a) => a.type === "discard").map((a) => a.card));
  $("hand-groups").replaceChildren(...groups.map(([title, cards]) => el("div", { class: "group", role: "group", "aria-label": `${title}: ${spokenList(cards)}` },
    el("p", { class: "group-title", "aria-hidden": "true" }, title),
    el("div", { class: "cards" }, cards.map((card) => {
      const note = card === taken ? ", just taken from the pile" : "";
      const action = discarding ? (legalDiscards.has(card) ? ": discard" : "") : "";
      const node = cardNode(card, { tag: "button", label: `${spoken(card)}${note}${action}`, draggable: "true",
                                    dataset: { card, key: `card-${card}` } });
      if (card === taken) node.classList.add("taken");
      node.addEventListener("click", () => onCard(card));
      node.addEventListener("keydown", (event) => {
        if (event.altKey && (event.key === "ArrowLeft" || event.key === "ArrowRight")) {
          event.preventDefault();
          onMove(card, event.key === "ArrowLeft" ? -1 : 1);
        }
      });
      node.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", card));
      node.addEventListener("dragover", (event) => event.preventDefault());
      node.addEventListener("drop", (event) => { event.preventDefault(); onDrop(event.dataTransfer.getData("text/plain"), card); });
      return node;
    })))));
  const hint = arrangement.best_discard
    ? `Hint: discard ${face(arrangement.best_discard)} (leaves ${arrangement.deadwood_after_discard} deadwood).` : "";
  $("hint").textContent = $("hint-toggle").getAttribute("aria-pressed") === "true" ? hint : "";
  $("hint").dataset.card = arrangement.best_discard || "";
}
