// The player page: sign in with a player token (kept in this browser) or make a player; then my
// games from the server (your turn first), challenges to make and answer, and the computer to play.
// Everything through the public API; the page follows the player's stream to stay current.
import { call, describe } from "./api.js";
import { $, el, timeLeft } from "./dom.js";
import { accountOf, followStream, signIn, signOut, signedIn } from "./player.js";
import { showProfile } from "./profile_settings.js";
import { rulesInWords } from "./rules_text.js";

let player = signedIn();
let connected = null;  // resolves once the stream is listening: nothing after it is missed
let waitingFor = null;  // {id, why}: a challenge whose acceptance takes this page to the game

const auth = () => ({ token: player.token });
const state = (game) => game.status === "finished" ? "finished"
  : game.status !== "active" ? "waiting for an opponent" : game.your_turn ? "your turn" : "their turn";

async function renderGames() {
  try {
    const { data } = await call("GET", "/me/games?limit=100", auth());
    const rows = data.games.map((game) => {
      const them = game.opponent.player || game.opponent.name;
      const who = game.seats > 2  // a table: the opponent is the seat on your board now
        ? `Table of ${game.seats}${them ? ` · on your board: ${them}` : game.status === "active" ? " · sitting out" : ""}`
        : `You v ${them || "nobody yet"}`;
      return el("li", { class: game.your_turn ? "mine" : "", dataset: { gameId: game.game_id } },
        el("a", { href: `/play/${game.game_id}` }, `${who}${game.opponent.bot ? " (computer)" : ""}`),
        " — ", el("strong", {}, state(game)), ` · ${game.score.you}–${game.score.opponent}`,
        game.deadline && game.status === "active" ? ` · ${timeLeft(game.deadline)}` : "");
    });
    $("games").replaceChildren(rows.length ? el("ul", { class: "game-list" }, rows)
      : el("p", {}, "No games yet: challenge someone, or play the computer."));
  } catch (error) {
    $("games").replaceChildren(el("p", { class: "error" }, describe(error)));
  }
}

function challengeText(challenge) {
  const words = rulesInWords(challenge.rules, challenge.move_time_hours);
  const rules = `${words[0]} ${words[words.length - 1]}`;
  // A rematch at a table names every seat asked, each with its answer so far.
  const to = challenge.seats
    ? challenge.seats.filter((s) => s.answer !== "offered").map((s) => `${s.player} (${s.answer})`).join(", ")
    : challenge.to || (challenge.opponent === "any" ? "anyone" : `any ${challenge.opponent}`);
  return `${challenge.from} → ${to}${challenge.rematch_of ? " (a rematch)" : ""}: ${rules}`;
}

async function answer(path, body, then) {
  try {
    const { data } = await call("POST", path, { ...auth(), body });
    then(data);
  } catch (error) {
    $("challenge-result").textContent = describe(error);
  }
  refresh();
}

function challengeRow(challenge, buttons) {
  return el("li", { dataset: { challengeId: challenge.challenge_id } }, challengeText(challenge), " ", ...buttons);
}

async function renderChallenges() {
  try {
    const { data } = await call("GET", "/challenges", auth());
    const accept = (c) => el("button", { type: "button", class: "primary", onclick: () => answer(
      `/challenges/${c.challenge_id}/accept`, undefined,  // a table's rematch: made when the last seat accepts
      (made) => (made.game_id ? location.assign(`/play/${made.game_id}`) : null)) }, "Accept");
    const decline = (c) => el("button", { type: "button", onclick: () => answer(
      `/challenges/${c.challenge_id}/decline`, { reason: "other" }, () => {}) }, "Decline");
    const cancel = (c) => el("button", { type: "button", onclick: () => answer(
      `/challenges/${c.challenge_id}/cancel`, undefined, () => {}) }, "Cancel");
    const part = (title, list, buttons) => list.length
      ? [el("h3", {}, title), el("ul", { class: "game-list" }, list.map((c) => challengeRow(c, buttons(c))))] : [];
    const parts = [...part("To you", data.to_me, (c) => [accept(c), " ", decline(c)]),
                   ...part("Open: anyone may take them", data.open, (c) => [accept(c)]),
                   ...part("Yours, waiting for an answer", data.mine, (c) => [cancel(c)])];
    $("challenges").replaceChildren(...(parts.length ? parts : [el("p", {}, "No challenges waiting.")]));
  } catch (error) {
    $("challenges").replaceChildren(el("p", { class: "error" }, describe(error)));
  }
}

let refreshing = null;
function refresh() {  // several events at once make one refresh
  if (!refreshing) refreshing = setTimeout(() => { refreshing = null; renderGames(); renderChallenges(); }, 50);
}

function onEvent(event) {
  if (waitingFor && event.challenge_id === waitingFor.id) {
    if (event.type === "challenge_accepted") return location.assign(`/play/${event.game_id}`);
    if (event.type === "challenge_declined") {
      $(waitingFor.status).textContent = `${event.by} declined (${event.reason}).`;
      waitingFor = null;
    }
  }
  refresh();
}

function follow() {
  let opened;
  connected = new Promise((resolve) => { opened = resolve; });
  followStream(player.token, { onEvent, onOpen: () => opened(), onClosed: () => showSignedOut("Your player token no longer works: sign in again.") });
}

function showSignedIn() {
  $("signed-out").hidden = true;
  $("signed-in").hidden = false;
  $("who").textContent = `Signed in as ${player.name}.`;
  showProfile(player);
  follow();
  renderGames();
  renderChallenges();
}

function showSignedOut(why) {
  signOut();
  player = null;
  $("signed-in").hidden = true;
  $("signed-out").hidden = false;
  $("sign-in-error").textContent = why || "";
}

$("sign-in-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("sign-in-error").textContent = "";
  try {
    player = await accountOf($("sign-in-token").value.trim());
    signIn(player);
    $("sign-in-token").value = "";
    showSignedIn();
  } catch (error) {
    $("sign-in-error").textContent = `Not signed in: ${describe(error)}`;
  }
});

$("register-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("register-error").textContent = "";
  const body = { name: $("register-name").value };
  if ($("register-email").value) body.email = $("register-email").value;
  try {
    const { data } = await call("POST", "/players", { body });
    player = { token: data.token, name: data.player.name, id: data.player.id };
    signIn(player);
    $("new-token-value").value = data.token;
    $("new-token").hidden = false;
    showSignedIn();
  } catch (error) {
    $("register-error").textContent = `No player made: ${describe(error)}`;
  }
});

$("copy-token").addEventListener("click", async () => {
  try { await navigator.clipboard.writeText($("new-token-value").value); } catch { $("new-token-value").select(); }
});

$("sign-out").addEventListener("click", () => showSignedOut("Signed out: this browser no longer holds your token."));

async function gameIds() {
  const { data } = await call("GET", "/me/games?limit=100", auth());
  return new Set(data.games.map((game) => game.game_id));
}

// Should the stream have missed the answer (it was not listening yet, or broke off without an
// event to resume from), the lists tell: the challenge no longer ours and pending, a new game.
async function lookForAnswer(waited, before) {
  while (waitingFor === waited) {
    await new Promise((resolve) => setTimeout(resolve, 2000));
    try {
      const { data } = await call("GET", "/challenges", auth());
      if (data.mine.some((c) => c.challenge_id === waited.id)) continue;
      const { data: mine } = await call("GET", "/me/games?limit=100", auth());
      const made = mine.games.find((game) => !before.has(game.game_id) && game.opponent.player === waited.to);
      if (made && waitingFor === waited) return location.assign(`/play/${made.game_id}`);
      if (waitingFor === waited) $(waited.status).textContent = `${waited.to} did not take the challenge.`;
      waitingFor = null;
    } catch { /* try again */ }
  }
}

async function challenge(body, statusId) {
  await Promise.race([connected, new Promise((resolve) => setTimeout(resolve, 5000))]);
  const before = statusId ? await gameIds() : null;
  const { data } = await call("POST", "/challenges", { ...auth(), body });
  if (statusId) {
    waitingFor = { id: data.challenge_id, status: statusId, to: data.to };
    lookForAnswer(waitingFor, before);
  }
  refresh();
  return data;
}

// What each of the house bot's levels does (client/gin_client/bots/levels.py), said under the choice.
const LEVELS = {
  1: "A beginner: it plays sensible but random moves, often misses that it may knock and never waits for gin.",
  2: "A casual player: it takes what helps, sometimes throws the wrong card, and knocks as soon as it can.",
  3: "A club player: it keeps its melds, throws its least useful card, and knocks early or waits for gin.",
  4: "It reads the table: what you took, threw and passed tells it what not to feed you, and it weighs the undercut before knocking.",
  5: "Level 4 with look-ahead: it plays out many possible hands of yours to decide when to knock and what to take.",
};
// Each level is rated as an identity of its own (GET /house-bot `levels`): the picker shows its
// rating ("4 · reads the table (1710)") and the line under it names it ("House (level 4), 1710").
let ratedLevels = {};
const ratingOf = (rated) => Math.round(rated.rating.value);
const describeLevel = () => {
  const level = $("computer-level").value;
  const rated = ratedLevels[level];
  $("computer-level-about").textContent = rated ? `${rated.label}, ${ratingOf(rated)}. ${LEVELS[level]}` : LEVELS[level];
};
$("computer-level").addEventListener("change", describeLevel);
describeLevel();

async function showLevelRatings() {
  try {
    const { data: bot } = await call("GET", "/house-bot");
    ratedLevels = Object.fromEntries((bot.levels || []).map((rated) => [String(rated.level), rated]));
    for (const option of $("computer-level").options) {
      option.dataset.what ??= option.textContent;  // "4 · reads the table", kept for a later refresh
      const rated = ratedLevels[option.value];
      option.textContent = rated ? `${option.dataset.what} (${ratingOf(rated)})` : option.dataset.what;
    }
    describeLevel();
  } catch {
    // The ratings are extra (no house bot yet: none): the picker stands without them.
  }
}
showLevelRatings();

$("computer-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const status = $("computer-status");
  try {
    const { data: bot } = await call("GET", "/house-bot");
    const level = Number($("computer-level").value);
    status.textContent = `Challenging ${bot.name}, the computer, at level ${level}…`;
    await challenge({ to: bot.name, opponent: "bot", level,
                      rules: { preset: $("computer-preset").value, target: Number($("computer-target").value) } }, "computer-status");
    status.textContent = `Waiting for ${bot.name} to accept…`;
  } catch (error) {
    status.textContent = error.code === "no-house-bot" ? "The computer is not playing on this server right now." : describe(error);
  }
});

$("challenge-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = new FormData(event.target);
  const body = { to: form.get("to").trim() || null, opponent: form.get("opponent"),
                 rules: { preset: form.get("preset"), target: Number(form.get("target")) },
                 move_time_hours: form.get("move_time_hours") ? Number(form.get("move_time_hours")) : null };
  try {
    const made = await challenge(body, null);
    $("challenge-result").textContent = `Challenge sent to ${made.to || "anyone"}.`;
    $("challenge-to").value = "";
  } catch (error) {
    $("challenge-result").textContent = `Not sent: ${describe(error)}`;
  }
});

if (player) showSignedIn();
else showSignedOut("");
