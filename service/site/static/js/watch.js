// A watch link's page: /watch/<game>#key=<watch key>. Reads GET /games/<game>/public with the key
// now and then and draws the table: discards, card counts, scores, the last finished hand. The
// public view holds no hand in play, so none can be shown. The key stays in the fragment (the link
// is what one shares), which browsers never send. A table of three or four (a PublicTableView, with
// `format`) is drawn by the seat page's table panel, as a seat that sits on no board sees it.
import { call, describe } from "./api.js";
import { cardList, cardNode, face, spokenList } from "./cards.js";
import { $, el, timeLeft } from "./dom.js";
import { tableMelds } from "./mahjong.js";
import { renderSheet } from "./sheet.js";
import { renderTableHeading, renderTablePanel, renderTableSheet } from "./table_panel.js";
import { isTable, localRecord, tableNames, tableStatus, tableTitle } from "./table_view.js";

const gameId = document.body.dataset.gameId;
const key = new URLSearchParams(location.hash.slice(1)).get("key");
const POLL_MS = 3000;
const PHASES = { awaiting_deal: "to deal", upcard_offer: "to take or pass the upcard", draw: "to draw",
                 discard: "to discard", last_discard_offer: "to take or pass the last discard" };
const RESULTS = { gin: "went gin", big_gin: "declared Big Gin", undercut: "knocked and was undercut",
                  tie: "knocked: a tie", knock: "knocked" };

function draw(view) {
  const names = view.players.map((p, seat) => (p && p.name) || `seat ${seat}`);
  $("title").textContent = `${names[0]} v ${names[1]}`;
  document.title = `Watching ${names[0]} v ${names[1]} · Gin Rummy`;
  const games = view.scores.games;
  $("scores").textContent = games.map((g, i) => `${games.length > 1 ? `Game ${i + 1}: ` : "Score "}` +
    `${names[0]} ${g.totals[0]} – ${g.totals[1]} ${names[1]}`).join(" · ") + ` · to ${view.rules.target}`;
  if (view.status === "finished" || view.phase === "match_over") {
    const winner = view.result && view.result.winner;
    $("status").textContent = `The match is over${winner === 0 || winner === 1 ? `: ${names[winner]} won` : ""}.`;
  } else if (view.status !== "active") {
    $("status").textContent = "Waiting for the second player to join.";
  } else {
    $("status").textContent = `Hand ${view.hand_number}: ${names[view.to_move]} ${PHASES[view.phase] || view.phase}` +
      (view.deadline ? ` (${timeLeft(view.deadline)}).` : ".");
  }
  $("seats").replaceChildren(...names.map((name, seat) => el("p", {}, el("strong", {}, name),
    ` holds ${view.card_counts[seat]} cards`)));
  $("stock").textContent = `Stock ${view.stock_count ?? "-"}`;
  const pile = view.discard_pile || [];
  const top = pile[pile.length - 1];
  $("pile").replaceChildren(top ? cardNode(top) : "empty");
  $("pile-list").textContent = pile.length ? `Discard pile, bottom to top: ${pile.map(face).join(" ")}` : "";
  $("mahjong").hidden = !Array.isArray(view.table);  // Mahjong gin's melds on the table
  if (Array.isArray(view.table)) $("mahjong").replaceChildren(el("h2", { id: "mahjong-title" }, "Melds on the table"), tableMelds(view, names));
  drawLastHand(view.last_hand, names);
  renderSheet($("sheet-table"), view, names);  // every total explained line by line, as the seats see it
  $("sheet").hidden = false;
  $("watched").hidden = false;
}

function drawTable(view) {
  const names = tableNames(view);
  renderTableHeading(view);
  document.title = `Watching ${tableTitle(view, names)} · Gin Rummy`;
  $("status").textContent = tableStatusLine(view, names);
  $("seats").hidden = true;
  $("middle").hidden = true;
  renderTablePanel(view);
  renderTableSheet($("sheet-table"), view);
  $("sheet").hidden = false;
  const last = view.last_hand && localRecord(view, view.last_hand, names);  // the board's own seats
  drawLastHand(last && last.record, last ? last.names : names);
  $("watched").hidden = false;
}

function tableStatusLine(view, names) {
  if (view.status !== "active") return tableStatus(view, null, names);  // waiting, or the result
  const out = view.sitting_out === null || view.sitting_out === undefined ? "" : ` ${names[view.sitting_out]} sits out this hand.`;
  if (!view.to_move.length) return "Waiting for the next deal.";
  return `${view.to_move.map((s) => names[s]).join(" and ")} to move` +
    (view.deadline ? ` (${timeLeft(view.deadline)}).` : ".") + out;
}

function drawLastHand(record, names) {
  const section = $("last-hand");
  if (!record) { section.hidden = true; return; }
  const line = (label, cards) => el("p", {}, `${label}: `, el("span", { "aria-label": spokenList(cards) || "none" }, cardList(cards) || "none"));
  const parts = [el("h2", { id: "last-hand-title" }, record.result === "void" ? `Hand ${record.hand}: void`
    : `Hand ${record.hand}: ${names[record.knocker]} ${RESULTS[record.result] || record.result}` +
      (record.winner !== null && record.winner !== undefined ? `; ${names[record.winner]} scored ${record.points}` : ""))];
  if (record.table_points) {  // Mahjong gin: the table's melds and what each held at the end
    parts.push(...record.table.map((m, i) => line(`Meld ${i + 1} on the table`, m.cards)),
               ...[0, 1].map((s) => line(`${names[s]} held (${record.scores[s]} points this hand)`, record.hands[String(s)])));
  } else if (record.result !== "void") {
    parts.push(...record.knocker_melds.map((m) => line(`${names[record.knocker]}'s meld`, m)),
               line(`${names[record.knocker]}'s deadwood`, record.knocker_deadwood),
               ...record.defender_melds.map((m) => line(`${names[1 - record.knocker]}'s meld`, m)),
               line(`${names[1 - record.knocker]}'s deadwood`, record.defender_deadwood));
  }
  section.replaceChildren(...parts);
  section.hidden = false;
}

async function watch() {
  if (!key) { $("watch-error").textContent = "This link carries no watch key: ask for the whole link."; return; }
  for (;;) {
    try {
      const { data } = await call("GET", `/games/${gameId}/public`, { token: key });
      $("watch-error").textContent = "";
      (isTable(data) ? drawTable : draw)(data);
      if (data.status === "finished") return;
    } catch (error) {
      if (error.code === "invalid-watch-key") {
        $("watched").hidden = true;
        $("watch-error").textContent = "This watch link was revoked, or is not one of this game's.";
        return;
      }
      $("watch-error").textContent = describe(error);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

watch();
