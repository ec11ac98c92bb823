// The seat page: /play/<game>, the seat's token from localStorage (or a #token= / #link= fragment,
// taken out of the address bar at once). Draws each view: a move's answer, then the game's stream
// (GET /games/{id}/stream: every view and message, one request held open). A steady player must
// never meet the rate limit: a move costs its POST and, now and then, a read of the history.
// At a table of three or four the caller's own board is an ordinary two-player view (table_view.js)
// drawn by the same code; the table panel (table_panel.js) shows the rest.
import { ApiError, call, describe, refusal } from "./api.js";
import { $, el } from "./dom.js";
import { renderHandEnd } from "./hand_end.js";
import { renderHistory } from "./history.js";
import { renderMahjong } from "./mahjong.js";
import { setUpMessages } from "./messages.js";
import { blockButton, blockedNames, reportControl } from "./moderation.js";
import { setUpPlans } from "./plans.js";
import { openKnockDialog } from "./knock.js";
import { readEvents, seatFromPlayer } from "./player.js";
import { getSeat, forgetSeat, saveSeat, takeFragment } from "./seats.js";
import { setUpSettings } from "./settings.js";
import { setUpExtras } from "./seat_extras.js";
import { setUpHint } from "./hint_button.js";
import { renderSheet } from "./sheet.js";
import { moveButtons, renderHand, renderHeading, renderMiddle, renderOpponent, statusText } from "./board.js";
import { renderTableHeading, renderTableInvites, renderTablePanel, renderTableSheet } from "./table_panel.js";
import { setUpTurnAlerts, turnChanged } from "./turn_alert.js";
import { boardViewOf, isTable, localRecord, narrateTableEvent, tableNames, tableStatus } from "./table_view.js";

const gameId = document.body.dataset.gameId;
const HISTORY_EVERY_MS = 3000;  // the history is read at most this often (each view does not ask)
let seat = getSeat(gameId);
let shown = null;  // the last view answered: a two-seat GameView or a TableView (version, ETag)
let view = null;  // the two-player view the seat plays on (at a table: its own board; null when it has none)
let events = [];
let taken = null;  // the card this seat just took from the pile (it may not discard it this turn)
let stopped = false;
let extras = () => {};  // rematch and watch links, set up once the seat is known
let chat = null;  // the messages: new ones come by the stream
let hint = null;  // the hint button (hint_button.js), set up once the seat is known

const notice = (text) => { $("notice").textContent = text; };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const legal = (test) => view && view.legal_actions.some(test);
const playerNames = () => (isTable(shown) ? tableNames(shown) : shown.players.map((p) => p.name || "your opponent"));

function showNoSeat(why) {
  stopped = true;
  $("game").hidden = true;
  $("no-seat-why").textContent = why || "";
  $("no-seat").hidden = false;
}

async function openFromFragment() {
  const fragment = takeFragment();
  if (fragment.get("token")) seat = saveSeat(gameId, { token: fragment.get("token") });
  const key = fragment.get("link");
  if (!key) return;
  try {
    const { data } = await call("POST", `/games/${gameId}/tokens`, { body: { link_key: key, label: "a browser, from a mail's link" } });
    seat = saveSeat(gameId, { token: data.token, seat: data.seat, name: data.game.players[data.seat].name });
  } catch (error) {
    if (!seat) return showNoSeat(describe(error));
    notice(describe(error));
  }
}

// -- drawing -------------------------------------------------------------------------------------

function render(next) {
  if (shown && next.version < shown.version) return;  // an older answer arriving late
  const focused = document.activeElement && document.activeElement.dataset ? document.activeElement.dataset.key : null;
  const board = isTable(next) ? boardViewOf(next) : next;
  if (view && (!board || board.hand_number !== view.hand_number || board.to_move !== board.seat)) taken = null;
  shown = next;
  view = board;
  remember(commitmentsOf(next));
  $("game").hidden = false;
  $("game").dataset.version = String(next.version);  // the ETag's number: lets a test tell a new view from an old
  if (isTable(next)) renderTableParts(next);
  else renderTwoSeatParts(next);
  renderOthers();
  // Before the second seat is taken there is no board to show (no cards, no stock, no hints); after
  // the match, no prompt to discard, and the way on: a new game, or the games kept in this browser.
  // A finished match shows its result and the way on (the status, the last hand's panel, the
  // rematch), not a hand, the stock, nor a vacation to take.
  const over = next.status === "finished";
  $("own-board").hidden = !view || next.status === "waiting_for_opponent" || over;
  $("vacation-form").hidden = over;
  for (const prompt of $("hand").querySelectorAll(".hint-line, .hint")) prompt.hidden = over;
  $("next-game").hidden = !over;
  if (view) {
    renderOpponent(view);
    renderMiddle(view);
    moveButtons(view, { act, knock: (knocks) => openKnockDialog(view, knocks, act) });
    drawHand();
  }
  renderMahjong(view, isTable(next) ? [] : playerNames(), act);  // Mahjong gin's table and moves
  $("resign").hidden = !next.can_resign;
  // The tab says when it is this seat's turn, so a player in another tab sees it (issue 24).
  const myTurn = next.status === "active" && view && view.to_move === view.seat;
  document.title = (myTurn ? "(Your turn) " : "") + document.title.replace(/^\(Your turn\) /, "");
  turnChanged(Boolean(myTurn), $("title").textContent);
  if (focused) {
    const again = document.querySelector(`[data-key="${CSS.escape(focused)}"]`);
    if (again) again.focus();
    else if (focused.startsWith("move-") || focused.startsWith("card-")) ($("moves").querySelector("button") || $("hand-groups").querySelector("button"))?.focus();
  }
  historySoon();
}

// The deal commitments seen in a view, by deal number: kept to check each deck when revealed.
function commitmentsOf(next) {
  if (!isTable(next)) return next.deal_commitment ? { [next.hand_number]: next.deal_commitment } : {};
  return Object.fromEntries(next.boards.filter((b) => b && b.deal && b.deal_commitment).map((b) => [b.deal, b.deal_commitment]));
}

function remember(commitments) {
  const known = seat.commitments || {};
  const fresh = Object.entries(commitments).filter(([deal]) => !known[deal]);
  if (fresh.length) seat = saveSeat(gameId, { commitments: { ...known, ...Object.fromEntries(fresh) } });
}

function renderTwoSeatParts(next) {
  if (next.status !== "waiting_for_opponent" && seat.invite) seat = saveSeat(gameId, { invite: null });
  renderHeading(next);
  $("status").textContent = statusText(next);
  $("invite").hidden = !(next.status === "waiting_for_opponent" && seat.invite);
  if (seat.invite) $("invite-link").value = `${location.origin}/join/${gameId}#invite=${seat.invite}`;
  renderSheet($("sheet-table"), next, playerNames());
  const deadlinePassed = next.deadline && Date.parse(next.deadline) < Date.now();
  $("claim").hidden = !(next.status === "active" && next.to_move !== next.seat && deadlinePassed);
  if (newerHandEnd(next.last_hand)) {
    renderHandEnd($("hand-end"), next.last_hand, next, playerNames(), (seat.commitments || {})[next.last_hand.hand], closeHandEnd);
  }
  extras(next);
  if (hint) hint(next);
}

// The other players, each with Report (a seat's holder, to the operator) and, for a seat held by a
// signed-in player, Block. Drawn again only when a name changes.
let othersDrawn = "";
let blocked = null;  // the names this player blocked, read once
async function renderOthers() {
  const mine = shown.seat !== undefined ? shown.seat : null;
  const others = shown.players.map((p, number) => [number, p.name]).filter(([number, name]) => number !== mine && name);
  const key = JSON.stringify(others);
  if (key === othersDrawn) return;
  othersDrawn = key;
  if (seat.player && blocked === null) blocked = await blockedNames(seat.token).catch(() => new Set());
  const status = $("others-status");
  $("others").replaceChildren(...others.map(([number, name]) => el("li", { dataset: { seat: String(number) } },
    seat.player ? el("a", { href: `/players/${encodeURIComponent(name)}` }, name) : name, " ",
    reportControl(`Report ${name}`, { status, send: (reason, details) => call("POST", `/games/${gameId}/reports`, {
      token: seat.token, body: { seat: number, reason, ...(details ? { details } : {}) } }) }),
    seat.player && !shown.players[number].level ? [" ", blockButton(name, { token: () => seat.token, status,
      blocked: blocked.has(name.toLowerCase()), onChange: (on) => on && chat && chat.hideSeat(number) })] : null)));
}

function renderTableParts(table) {
  if (table.status !== "waiting_for_opponent" && seat.invites) seat = saveSeat(gameId, { invites: null });
  renderTableHeading(table);
  $("status").textContent = tableStatus(table, view);
  if (table.status === "waiting_for_opponent") renderTableInvites(table, seat.invites, gameId);
  else $("invite").hidden = true;
  renderTablePanel(table);
  renderTableSheet($("sheet-table"), table);
  // Claiming on time: against a board's mover of the other side whose own clock ran out.
  const late = table.boards.some((b) => b && b.to_move !== null && b.deadline
    && !table.sides[table.side].includes(b.to_move) && Date.parse(b.deadline) < Date.now());
  $("claim").hidden = !(table.status === "active" && late);
  const last = table.last_hand;
  if (newerHandEnd(last)) {
    const local = localRecord(table, last);
    renderHandEnd($("hand-end"), local.record, local.view, local.names, (seat.commitments || {})[last.hand], closeHandEnd);
  }
  extras(table);  // watch links, and the rematch once the match is over
}

// A hand's end is shown until its Continue; a newer one (the next hand ended meanwhile, the match's
// last hand above all) takes the panel's place at once. Continue marks the hand shown as seen,
// never a newer one the panel did not show.
function newerHandEnd(record) {
  const panel = $("hand-end");
  if (!record || record.hand <= (seat.endSeen || 0)) return false;
  if (!panel.hidden && record.hand <= Number(panel.dataset.hand || 0)) return false;
  panel.dataset.hand = String(record.hand);
  return true;
}

function closeHandEnd() {
  seat = saveSeat(gameId, { endSeen: Number($("hand-end").dataset.hand) });
  $("hand-end").hidden = true;
  ($("moves").querySelector("button") || $("hand-groups").querySelector("button") || $("main")).focus();
}

function drawHand() {
  renderHand(view, {
    order: seat.order || null, taken, onCard: clickCard,
    onMove: (card, step) => moveCard(card, step),
    onDrop: (card, before) => dropCard(card, before),
  });
}

function currentOrder() {
  const shown = [...$("hand-groups").querySelectorAll("button[data-card]")].map((b) => b.dataset.card);
  return shown.filter((c) => view.hand.includes(c));
}

function setOrder(order) {
  seat = saveSeat(gameId, { order });
  $("order-toggle").setAttribute("aria-pressed", String(Boolean(order)));
  drawHand();
}

function moveCard(card, step) {
  const order = currentOrder();
  const at = order.indexOf(card), to = Math.max(0, Math.min(order.length - 1, at + step));
  order.splice(at, 1);
  order.splice(to, 0, card);
  setOrder(order);
  $("hand-groups").querySelector(`[data-card="${card}"]`).focus();
  $("hint").textContent = `Moved ${card} to place ${to + 1} of ${order.length}.`;
}

function dropCard(card, before) {
  if (!card || card === before) return;
  const order = currentOrder().filter((c) => c !== card);
  order.splice(order.indexOf(before), 0, card);
  setOrder(order);
}

// -- moving --------------------------------------------------------------------------------------

// A move refused for the moment (429: the rate limit, 503: the server is busy) is sent again by
// itself after Retry-After, with the same Idempotency-Key: it is never made twice. Meanwhile
// other clicks are told to wait, so moves are not sent out of order.
let retrying = null;  // { until } while a refused move waits to be sent again

async function act(action, again = null) {
  if (retrying && !again) return notice(`Your last move is sent again in ${Math.max(1, Math.ceil((retrying.until - Date.now()) / 1000))} s.`);
  notice("");
  const attempt = again || { key: crypto.randomUUID(), version: shown.version };
  try {
    const { data } = await call("POST", `/games/${gameId}/actions`, {
      token: seat.token, body: action,
      headers: { "If-Match": `"${attempt.version}"`, "Idempotency-Key": attempt.key },
    });
    retrying = null;
    if (action.type === "draw" && action.from === "discard") taken = view.discard_pile[view.discard_pile.length - 1];
    render(data);
  } catch (error) {
    if (error.status === 429 || error.status === 503) {
      const seconds = error.retryAfter || 2;
      retrying = { until: Date.now() + seconds * 1000 };
      notice(`The server asked to wait: your move is sent again in ${seconds} s.`);
      $("notice").dataset.retrying = "true";
      await sleep(seconds * 1000);
      delete $("notice").dataset.retrying;
      return act(action, attempt);
    }
    retrying = null;
    notice(describe(error));
    if (error.code === "version-mismatch") refresh();
  }
}

// What the seat may do now, in one sentence: every refused click says the same, so two hints never
// contradict each other (during the upcard offer the stock is closed, a card cannot be discarded).
function nextStep() {
  if (!view || shown.status !== "active") return "The game is not being played now.";
  if (view.to_move !== view.seat) return "It is not your turn.";
  if (view.phase === "dealer_choice") return "Your card of the cut was the higher: choose who deals first, below.";
  if (view.phase === "upcard_offer") return "Take the upcard (click the discard pile) or pass: the stock opens after.";
  if (view.phase === "draw") return "Draw a card first: click the stock or the discard pile.";
  if (view.phase === "discard") return "You have drawn: discard by clicking a card in your hand.";
  return "Choose one of the moves below.";
}

function clickCard(card) {
  if (!view) return;
  if (view.to_move !== view.seat || view.phase !== "discard") return notice(nextStep());
  act({ type: "discard", card });
}

$("stock").addEventListener("click", () => {
  if (legal((a) => a.type === "draw" && a.from === "stock")) act({ type: "draw", from: "stock" });
  else notice(nextStep());
});
$("pile").addEventListener("click", () => {
  if (legal((a) => a.type === "take_upcard")) act({ type: "take_upcard" });
  else if (legal((a) => a.type === "draw" && a.from === "discard")) act({ type: "draw", from: "discard" });
  else notice(nextStep());
});
$("order-toggle").addEventListener("click", () => setOrder(seat.order ? null : currentOrder()));
$("hint-toggle").addEventListener("click", (event) => {
  const on = event.target.getAttribute("aria-pressed") !== "true";
  event.target.setAttribute("aria-pressed", String(on));
  event.target.textContent = on ? "Hide hint" : "Show hint";
  drawHand();
});
$("copy-invite").addEventListener("click", async () => {
  const input = $("invite-link");
  try {
    await navigator.clipboard.writeText(input.value);
    $("copy-result").textContent = "Copied: send it to your opponent.";
  } catch {
    input.select();  // no clipboard permission: leave it selected for Ctrl+C
    $("copy-result").textContent = "Selected: press Ctrl+C (or ⌘C) to copy.";
  }
});

// -- waiting -------------------------------------------------------------------------------------

let loadingEvents = false;
let revealedSeen = 0;
let historyTimer = null;
let historyReadAt = 0;

// The history is read after a change, but at most once per HISTORY_EVERY_MS: a quick run of moves
// (one's own, then the opponent's answer) is read in one request.
function historySoon() {
  if (historyTimer) return;
  const wait = Math.max(0, historyReadAt + HISTORY_EVERY_MS - Date.now());
  historyTimer = setTimeout(async () => {
    historyReadAt = Date.now();
    const known = shown.version;
    await loadEvents();
    historyTimer = null;
    if (shown.version !== known) historySoon();  // changed while reading: read what came since
  }, wait);
}

async function loadEvents() {
  if (loadingEvents) return;
  loadingEvents = true;
  try {
    // A finished hand's events read in full once its deck is revealed: read them all again.
    if (shown.revealed_deals.length !== revealedSeen) {
      events = [];
      revealedSeen = shown.revealed_deals.length;
    }
    let after = events.length ? events[events.length - 1].seq : 0;
    for (;;) {
      const { data } = await call("GET", `/games/${gameId}/events?after=${after}&limit=500`, { token: seat.token });
      events = events.concat(data.events);
      if (data.next_after === null) break;
      after = data.next_after;
    }
    const narrateOne = isTable(shown) ? (e, _, names, next) => narrateTableEvent(e, shown, names, next) : undefined;
    renderHistory($("events"), events, shown, playerNames(), narrateOne);
  } catch { /* the next change reads again */ }
  loadingEvents = false;
}

async function refresh() {
  const { data } = await call("GET", `/games/${gameId}`, { token: seat.token });
  render(data);
}

// The stream in flight, and a way to cut a retry's wait short: a phone losing its network
// should hear it at once, and retry as soon as the network is back.
let inFlight = null;
let wake = () => {};
window.addEventListener("offline", () => inFlight && inFlight.abort());
window.addEventListener("online", () => wake());

function pause(ms) {
  return new Promise((resolve) => { wake = resolve; setTimeout(resolve, ms); });
}

function streamed(event) {
  if (event.event === "message") return chat && chat.arrived(event);
  if (event.event !== "view") return;  // rematch_offered: seat_extras.js follows the finished game
  const { event: _, ...next } = event;
  if (shown && next.version === shown.version) return;  // a move's own answer, drawn already
  render(next);
  if (next.status === "finished") inFlight.abort();  // nothing more to play; the extras watch on
}

async function waitForChanges() {
  let backoff = 1000;
  let opened = 0;
  while (!stopped && !(shown && shown.status === "finished")) {
    inFlight = new AbortController();
    try {
      if (!navigator.onLine) throw new ApiError(0, { detail: "this device is offline", code: "unreachable" });
      const headers = { Accept: "text/event-stream", Authorization: `Bearer ${seat.token}` };
      if (shown) headers["Last-Event-ID"] = String(shown.version);  // the view shown is not sent again
      let response;
      try {
        response = await fetch(`/games/${gameId}/stream`, { headers, cache: "no-store", credentials: "omit", signal: inFlight.signal });
      } catch (error) {
        if (error.name === "AbortError") throw error;
        throw new ApiError(0, { detail: "the server cannot be reached", code: "unreachable" });
      }
      if (response.status === 204) return;  // the match is over and shown: nothing more will come
      if (!response.ok) throw await refusal(response);
      $("connection").hidden = true;
      backoff = 1000;
      if (opened++ && chat) chat.missed();  // open again after a break: the messages written meanwhile
      const began = Date.now();
      await readEvents(response, streamed);
      if (Date.now() - began < 1000) await pause(1000);  // a stream that ends at once is not asked again at once
    } catch (error) {
      if (stopped || (shown && shown.status === "finished")) return;
      if (error.code === "invalid-token") {
        forgetSeat(gameId);
        return showNoSeat(seat.player ? "Your player holds no seat in this game (or signed in again with a new token)."
          : "The key this browser held for the seat no longer works (it was revoked).");
      }
      const connection = $("connection");
      const why = error.name === "AbortError" || !navigator.onLine ? "This device is offline." : describe(error);
      const wait = Math.max(backoff, 1000 * (error.retryAfter || 0));
      connection.textContent = `${why} Trying again in ${Math.round(wait / 1000)} s…`;
      connection.hidden = false;
      await pause(wait);
      backoff = Math.min(backoff * 2, 30000);
    }
  }
}

async function start() {
  await openFromFragment();
  if (stopped) return;
  if (!seat || !seat.token) seat = seatFromPlayer(gameId);  // a game of the signed-in player's
  if (!seat || !seat.token) return showNoSeat("");
  $("order-toggle").setAttribute("aria-pressed", String(Boolean(seat.order)));
  setUpSettings({
    gameId, act, token: () => seat.token,
    signedOut: () => { forgetSeat(gameId); showNoSeat("You revoked this browser's key to the seat."); },
  });
  extras = setUpExtras({ gameId, token: () => seat.token });
  hint = setUpHint({ gameId, token: () => seat.token });
  setUpTurnAlerts();
  chat = setUpMessages({ gameId, token: () => seat.token, stopped: () => stopped, mySeat: () => (shown ? shown.seat : null),
    blocker: seat.player ? () => seat.token : null });
  setUpPlans({ gameId, token: () => seat.token, render });
  waitForChanges();
}

start();
