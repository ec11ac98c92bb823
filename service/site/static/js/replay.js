// A finished match, move by move: /replay/<game>#token=<a seat's token> or #key=<a watch key> (or
// the seat this browser keeps). Reads GET /games/<game>/replay once and steps through it here:
// both hands after every deal and move (at a table every board's: replay_table.js), the melds at
// each hand's end, the sheet as it grew.
import { call, describe } from "./api.js";
import { playerName } from "./board.js";
import { cardList, spokenList } from "./cards.js";
import { $, el } from "./dom.js";
import { narrate } from "./history.js";
import { boardParts, eventLines, sheetLines, tableTitle } from "./replay_table.js";
import { loadReview } from "./replay_review.js";
import { getSeat, takeFragment } from "./seats.js";
import { renderSheet } from "./sheet.js";

const gameId = document.body.dataset.gameId;
let replay = null, at = 0, marks = null, names = [];

function cardsLine(label, cards) {
  return el("p", {}, `${label}: `, el("span", { class: "cards-text", "aria-label": spokenList(cards) || "none" },
    cardList(cards) || "none"));
}

function handEnd(record, names) {  // the melds at a knock, as the hand's end showed them
  if (!record || !record.knocker_melds) return [];
  const defender = 1 - record.knocker;
  return [el("h3", {}, `${names[record.knocker]}'s melds`), ...record.knocker_melds.map((m) => cardsLine("Meld", m)),
    cardsLine(`Deadwood (${record.knocker_points})`, record.knocker_deadwood),
    el("h3", {}, `${names[defender]}'s melds`), ...record.defender_melds.map((m) => cardsLine("Meld", m)),
    cardsLine("Laid off", record.defender_layoffs || []), cardsLine(`Deadwood (${record.defender_points})`, record.defender_deadwood)];
}

const isTable = () => replay.kind === "table";
const handOf = (step) => (isTable() ? step.deal : step.hand);  // a table's deals are its hands, numbered across it

function drawTable() {
  const step = replay.steps[at];
  $("position").textContent = `Step ${at + 1} of ${replay.steps.length} · deal ${step.deal}`;
  $("step-events").replaceChildren(...eventLines(replay, step).map((line) => el("li", {}, line)));
  $("replay-hands").replaceChildren(...boardParts(replay, step, cardsLine, handEnd));
  $("replay-sheet").replaceChildren(...sheetLines(replay, step).map((line) => el("li", {}, line)));
}

function draw() {
  $("position").dataset.step = String(at);
  $("step-back").disabled = at === 0;
  $("hand-back").disabled = at === 0;
  $("step-on").disabled = $("hand-on").disabled = at === replay.steps.length - 1;
  if (isTable()) return drawTable();
  const step = replay.steps[at];
  const watcher = { seat: -1 };  // nobody's own view: every seat is named
  $("position").textContent = `Step ${at + 1} of ${replay.steps.length} · hand ${step.hand}`;
  const lines = step.events.map((event, i) => narrate(event, watcher, names, step.events[i + 1] || null)).filter(Boolean);
  $("step-events").replaceChildren(...lines.map((line) => el("li", {}, line)));
  const end = step.events.find((e) => e.type === "hand_end");
  $("replay-hands").replaceChildren(...[0, 1].map((seat) => cardsLine(`${names[seat]} holds`, step.hands[String(seat)])),
    ...handEnd(end && end.record, names));
  const pile = step.discard_pile;
  $("replay-table").textContent = `Discard pile: ${pile.length ? cardList(pile.slice(-1)) + ` on top (${pile.length})` : "empty"}` +
    ` · stock ${step.stock_count}`;
  $("replay-sheet").replaceChildren(...step.sheet.map((line) => el("li", {}, `Hand ${line.hand}: ${line.result}` +
    (line.winner === null || line.winner === undefined ? ", nobody scores" : `, ${names[line.winner]} ${line.points}`))));
  // The last step: the whole sheet as the seat page shows it, every bonus on its line and the totals.
  const last = at === replay.steps.length - 1 && replay.result && replay.result.games;
  $("replay-final").hidden = !last;
  if (last) {
    renderSheet($("replay-final"), { seat: null, rules: replay.rules,
      scores: { games: replay.result.games, sheet: step.sheet, hands_won: replay.result.hands_won } }, names);
  }
  if (marks) marks(step.action ? replay.steps.slice(0, at + 1).filter((s) => s.action).length - 1 : -1);
}

function go(to) {
  at = Math.max(0, Math.min(replay.steps.length - 1, to));
  draw();
}

function handStart(from, direction) {  // the deal that begins the hand before or after this one
  const hand = handOf(replay.steps[from]) + direction;
  const first = replay.steps.findIndex((s) => handOf(s) === hand);
  return first < 0 ? (direction > 0 ? replay.steps.length - 1 : 0) : first;
}

async function start() {
  const fragment = takeFragment();
  const secret = fragment.get("token") || fragment.get("key") || (getSeat(gameId) || {}).token;
  if (!secret) { $("replay-error").textContent = "Open this page from your game's page or a watch link."; return; }
  try {
    ({ data: replay } = await call("GET", `/games/${gameId}/replay`, { token: secret }));
  } catch (error) { $("replay-error").textContent = describe(error); return; }
  names = replay.players.map((player) => playerName(player, `seat ${player.seat + 1}`));
  const title = isTable() ? tableTitle(replay) : `${names[0]} v ${names[1]}`;
  $("title").textContent = `Replay: ${title}`;
  document.title = `Replay: ${title} · Gin Rummy`;
  if (isTable()) {
    $("hands-title").textContent = "Every board";
    $("replay-table").textContent = "";
  }
  $("step-back").addEventListener("click", () => go(at - 1));
  $("step-on").addEventListener("click", () => go(at + 1));
  $("hand-back").addEventListener("click", () => go(handStart(at, -1)));
  $("hand-on").addEventListener("click", () => go(handStart(at, 1)));
  document.addEventListener("keydown", (event) => {
    const to = { ArrowLeft: at - 1, ArrowRight: at + 1, PageUp: handStart(at, -1), PageDown: handStart(at, 1),
                 Home: 0, End: replay.steps.length - 1 }[event.key];
    if (to === undefined || event.target.closest("input, select, textarea")) return;
    event.preventDefault();
    go(to);
  });
  $("replay").hidden = false;
  go(0);
  if (!isTable()) {
    marks = await loadReview(gameId, secret, names);
    go(at);
  }
}

start();
