// The seat page's panel for a table of 3, 4, 6 or 8: every seat and what it does, every board in
// play (public part only: the discard pile, card counts, the stock; never a hand), the scores per
// side, the score sheet, the invites still to send. The caller's own board is drawn by board.js.
import { cardList, cardNode, spokenList } from "./cards.js";
import { $, el } from "./dom.js";
import { boardLine, sideName, tableNames, tableTitle, who } from "./table_view.js";

export function renderTableHeading(table) {
  const names = tableNames(table);
  const title = tableTitle(table, names);
  $("title").textContent = title;
  document.title = `${title} · Gin Rummy`;
  const games = table.scores.games;
  const sides = table.sides.map((_, side) => side);
  const score = (g) => sides.map((side) => `${sideName(table, side, names)} ${(g.final || g).totals[side]}`).join(", ");
  $("scores").textContent = (games.length === 1 ? `Score: ${score(games[0])}`
    : games.map((g, i) => `Game ${i + 1}: ${score(g)}${g.closed ? " (closed)" : ""}`).join(" · ")) +
    ` · to ${table.rules.target}` + (table.format === "partnership" && table.status === "active" ? ` · round ${table.round + 1}` : "");
}

// Tedesco's teams of three or four (six or eight seats): a board per pair, round by round.
function teams(table) {
  return table.format === "partnership" && table.team_size > 2;
}

function seatLine(table, seat, names) {
  const partners = (table.sides[table.side] || []).filter((s) => s !== table.seat);  // a watcher has no side
  const role = seat === table.seat ? " (you)" : partners.includes(seat) ? (teams(table) ? " (your teammate)" : " (your partner)") : "";
  const board = table.boards.find((b) => b && b.seats.includes(seat));
  const doing = table.players[seat].name === null ? "not joined yet"
    : table.status !== "active" ? ""
    : table.sitting_out === seat ? "sits out this hand"
    : board ? `plays ${names[board.seats.find((s) => s !== seat)]}${table.boards.length > 1 ? ` on board ${board.board + 1}` : ""}`
    : table.status === "active" ? "waits for the round to finish" : "";
  return el("li", { dataset: { seat: String(seat) } }, el("strong", {}, names[seat]), role, doing ? ` — ${doing}` : "");
}

function standings(table, names) {
  const games = table.scores.games;
  const header = el("tr", {}, el("th", { scope: "col" }, teams(table) ? "Team" : table.format === "partnership" ? "Partnership" : "Player"),
    ...games.map((_, i) => el("th", { scope: "col" }, games.length > 1 ? `Game ${i + 1}` : "Points")),
    el("th", { scope: "col" }, "Hands won"));
  const rows = table.sides.map((_, side) => el("tr", { class: side === table.side ? "mine" : "", dataset: { side: String(side) } },
    el("th", { scope: "row" }, sideName(table, side, names)),
    ...games.map((g) => el("td", {}, String((g.final || g).totals[side]))),
    el("td", {}, String(table.scores.hands_won[side]))));
  return el("table", { class: "sheet standings" }, el("thead", {}, header), el("tbody", {}, rows));
}

// A board anyone at the table may see: who plays whom, whose move, the pile, the counts.
function publicBoard(table, board, names) {
  const top = board.discard_pile[board.discard_pile.length - 1];
  const mine = board.seats.includes(table.seat);
  return el("section", { class: `board-public${mine ? " mine" : ""}`, dataset: { board: String(board.board) },
                         "aria-label": `Board ${board.board + 1}` },
    el("h3", {}, `${table.boards.length > 1 ? `Board ${board.board + 1}: ` : ""}${boardLine(table, board, names)}`),
    el("p", {}, board.seats.map((s) => `${who(table, s, names)} ${s === table.seat ? "hold" : "holds"} ${board.card_counts[String(s)]} cards`).join("; "),
       `; stock ${board.stock_count}.`),
    el("p", { class: "board-pile" }, "Discard pile: ", top ? cardNode(top) : "empty",
       board.discard_pile.length > 1 ? el("span", { class: "cards-text", "aria-label": spokenList(board.discard_pile) },
         ` (bottom to top: ${cardList(board.discard_pile)})`) : ""));
}

export function renderTablePanel(table) {
  const names = tableNames(table);
  const parts = [el("h2", { id: "table-panel-title" }, teams(table) ? "The teams" : table.format === "partnership" ? "The partnerships" : "The table"),
    el("ul", { class: "seats" }, table.players.map((_, seat) => seatLine(table, seat, names)))];
  if (teams(table)) parts.push(teamNote(table, names));
  if (table.status === "active") {  // side by side where they fit, one under another on a phone
    parts.push(el("div", { class: "boards" }, table.boards.filter(Boolean).map((board) => publicBoard(table, board, names))));
  }
  parts.push(el("h3", {}, teams(table) ? "Team scores" : table.format === "partnership" ? "Partnership scores" : "Standings"), standings(table, names));
  if (table.result) parts.push(settlement(table, names));
  $("table-panel").replaceChildren(...parts);
  $("table-panel").hidden = false;
}

// How the teams play, the round, and the last team bonus credited.
function teamNote(table, names) {
  const size = table.team_size;
  const bonus = (table.rules.team_bonus ?? 25) * (size - 2);  // an extra option: absent when 25
  const last = table.scores.sheet.filter((line) => line.hand === null).pop();
  return el("p", { class: "team-note" },
    `Two teams of ${size}, ${size} boards at once: each round everyone plays another of the other team` +
    (table.status === "active" ? ` (round ${table.round + 1})` : "") +
    `. A team all of whose players win a round scores ${bonus} more.` +
    (last ? ` Last team bonus: ${sideName(table, last.side, names)} +${last.team_bonus} in round ${last.round + 1}.` : ""));
}

function settlement(table, names) {
  return el("ul", { class: "settlement" }, table.result.settlement.map((s) =>
    el("li", {}, capitalized(`${sideName(table, s.payer, names)} ${table.sides[s.payer].includes(table.seat) ? "pay" : "pays"} ${sideName(table, s.payee, names)} ${s.points}`))));
}

function capitalized(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const RESULT = { knock: "knock", gin: "gin", big_gin: "Big Gin", undercut: "undercut", tie: "tie", void: "void" };

// One line per decided hand: the board, who played, the result, the points to the side credited.
export function renderTableSheet(container, table) {
  const names = tableNames(table);
  const sides = table.sides.map((_, side) => side);
  const head = el("tr", {}, el("th", { scope: "col" }, "Hand"), el("th", { scope: "col" }, "Played"),
    el("th", { scope: "col" }, "Result"), ...sides.map((side) => el("th", { scope: "col" }, sideName(table, side, names))));
  const rows = table.scores.sheet.map((line) => el("tr", {},
    el("th", { scope: "row" }, line.hand === null ? "bonus" : String(line.hand)),
    el("td", {}, line.seats ? `${line.seats.map((s) => names[s]).join(" v ")}${table.boards.length > 1 ? ` (board ${line.board + 1})` : ""}`
      : line.round !== undefined ? `round ${line.round + 1}` : ""),
    el("td", {}, line.hand === null ? "team bonus" : `${RESULT[line.result] || line.result || ""}, ${line.winner === null || line.winner === undefined ? "nobody" : names[line.winner]}`),
    ...sides.map((side) => el("td", {}, line.side === side ? String(line.hand === null ? line.team_bonus : line.points) : ""))));
  const games = table.scores.games;
  const totals = el("tr", { class: "totals" }, el("th", { scope: "row" }, "Total"), el("td", {}, ""), el("td", {}, ""),
    ...sides.map((side) => el("td", {}, games.map((g) => String((g.final || g).totals[side])).join(" / "))));
  container.replaceChildren(table.scores.sheet.length
    ? el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, rows, totals))
    : el("p", {}, "No hand finished yet."));
}

// The invite links still to send: one per seat not yet taken (each link opens its own seat).
export function renderTableInvites(table, invites, gameId) {
  const names = tableNames(table);
  const open = (invites || []).filter((i) => table.players[i.seat] && table.players[i.seat].name === null);
  $("invite-title").textContent = "Invite the other players";
  $("invite-text").textContent = "Send each link to one person: each opens its own seat, once. The code after # never reaches a server log.";
  $("invite-one").hidden = true;
  $("table-invites").replaceChildren(...open.map((invite) => {
    const partner = table.sides.find((side) => side.includes(invite.seat)).filter((s) => s !== invite.seat);
    const role = table.format === "partnership" ? ` (partner of ${partner.map((s) => names[s]).join(" & ")})` : "";
    const id = `invite-link-${invite.seat}`;
    const input = el("input", { id, readonly: true, value: `${location.origin}/join/${gameId}#invite=${invite.invite_code}` });
    return el("li", { dataset: { seat: String(invite.seat) } },
      el("label", { for: id }, `Seat ${invite.seat + 1}${role}`), " ",
      el("span", { class: "copy-row" }, input, el("button", { type: "button", onclick: () => copy(input) }, `Copy link for seat ${invite.seat + 1}`)));
  }));
  $("invite").hidden = open.length === 0;
}

async function copy(input) {
  try {
    await navigator.clipboard.writeText(input.value);
    $("copy-result").textContent = "Copied: send it to that player.";
  } catch {
    input.select();
    $("copy-result").textContent = "Selected: press Ctrl+C (or ⌘C) to copy.";
  }
}
