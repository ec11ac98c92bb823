// A tournament's page: GET /tournaments/<id> drawn as its standings, crosstable, rounds (each
// game's watch and replay links; the signed-in player's own game opens on the play page) and
// entrants; join, leave, withdraw, start and cancel with the signed-in player's token.
import { call, describe } from "./api.js";
import { $, el } from "./dom.js";
import { seatFromPlayer, signedIn } from "./player.js";

const id = document.body.dataset.tournament;
const FORMATS = { swiss: "Swiss", round_robin: "Round robin", knockout: "Knockout" };
const NAMES = { gin_points: "Gin points", buchholz: "Buchholz", median_buchholz: "Median Buchholz",
  sonneborn_berger: "Sonneborn-Berger", wins: "Wins", direct_encounter: "Direct encounter", rating: "Rating" };
const OUTCOMES = { won: "won", lost: "lost", drawn: "drew", bye: "bye", forfeit_won: "won by forfeit",
  forfeit_lost: "lost by forfeit", double_loss: "both lost", absent: "absent" };
const number = (value) => (value === null || value === undefined ? "–" : String(Math.round(value * 100) / 100));

function facts(t) {
  const parts = [FORMATS[t.format], t.status, `${t.entrants_count} entrants (${t.min_entrants}–${t.max_entrants})`,
    `organized by ${t.organizer}`, t.rated ? "rated" : "unrated", `each match to ${t.rules.target} (${t.rules.preset})`];
  if (t.rounds) parts.push(`round ${t.current_round} of ${t.rounds}`);
  if (t.status === "open") parts.push(`entry closes ${new Date(t.entry_closes_at).toLocaleString()}`);
  if (t.round_deadline_at) parts.push(`round deadline ${new Date(t.round_deadline_at).toLocaleString()}`);
  return parts.join(" · ");
}

function act(verb) {
  return async () => {
    try {
      await call("POST", `/tournaments/${encodeURIComponent(id)}/${verb}`, { token: signedIn().token });
      $("action-error").textContent = "";
      await load();
    } catch (error) {
      $("action-error").textContent = describe(error);
    }
  };
}

function you(t) {
  const me = signedIn();
  const actions = [];
  if (!me) return;
  const entry = t.entrants.find((e) => e.name === me.name);
  $("you").textContent = `Signed in as ${me.name}: ` + (entry ? (entry.withdrawn_round !== null ? "withdrawn."
    : entry.place ? `you finished ${entry.place} of ${t.entrants.length}.` : "entered.") : "not entered.");
  if (t.status === "open") actions.push(entry ? ["leave", "Leave"] : ["join", "Enter"]);
  if (t.status === "running" && entry && entry.withdrawn_round === null) actions.push(["withdraw", "Withdraw"]);
  if (t.status === "open" && t.organizer === me.name) actions.push(["start", "Start now"], ["cancel", "Cancel it"]);
  $("actions").replaceChildren(...actions.map(([verb, label]) =>
    el("button", { type: "button", id: `do-${verb}`, class: verb === "join" ? "primary" : undefined, onclick: act(verb) }, label), " "));
}

function standings(t) {
  const table = $("standings");
  table.tHead.replaceChildren(el("tr", {}, ["Place", "Player", "Points", ...t.tie_breaks.map((n) => NAMES[n]),
    "Played", "Won", "Lost"].map((h) => el("th", { scope: "col" }, h))));
  table.tBodies[0].replaceChildren(...t.standings.map((row) => el("tr", {},
    el("td", {}, String(row.place)), el("th", { scope: "row" }, row.player), el("td", {}, number(row.score)),
    ...t.tie_breaks.map((n) => el("td", {}, number(row.tie_breaks[n]))),
    el("td", {}, String(row.played)), el("td", {}, String(row.won)), el("td", {}, String(row.lost)))));
  $("standings-empty").hidden = t.standings.length > 0;
}

function crosstable(t) {
  const table = $("crosstable");
  const rounds = t.rounds_played.map((r) => r.number);
  table.tHead.replaceChildren(el("tr", {}, el("th", { scope: "col" }, "Player"),
    ...rounds.map((n) => el("th", { scope: "col" }, `Round ${n}`))));
  table.tBodies[0].replaceChildren(...t.crosstable.map((row) => el("tr", {}, el("th", { scope: "row" }, row.player),
    ...rounds.map((n) => {
      const x = row.rounds.find((r) => r.round === n);
      if (!x) return el("td", {}, "");
      const text = `${OUTCOMES[x.outcome]}${x.opponent ? ` v ${x.opponent}` : ""}` +
        (x.outcome === "won" || x.outcome === "lost" || x.outcome === "drawn" ? ` ${x.points_for}–${x.points_against}` : "");
      const game = x.games[x.games.length - 1];
      return el("td", {}, game ? el("a", { href: replayOf(t, game) || `/watch/${game}` }, text) : text);
    }))));
}

function replayOf(t, gameId) {
  for (const r of t.rounds_played) for (const p of r.pairings) for (const g of p.games)
    if (g.game_id === gameId) return g.replay_page || g.watch_page;
  return null;
}

function pairingItem(p, me) {
  const result = p.result ? (p.second === null ? " · bye" :
    ` · ${number(p.result.first)}–${number(p.result.second)}${p.result.played ? "" : " (not played)"}`) : " · playing";
  const links = p.games.map((g, index) => {
    const mine = me && (p.first === me.name || p.second === me.name) && g.status !== "finished";
    if (mine) seatFromPlayer(g.game_id);
    const label = p.games.length > 1 ? ` ${index + 1}` : "";
    return mine ? el("a", { href: `/play/${g.game_id}` }, `your game${label}`)
      : el("a", { href: g.replay_page || g.watch_page }, (g.replay_page ? "replay" : "watch") + label);
  });
  return el("li", {}, `${p.first}${p.second ? ` v ${p.second}` : ""}${result} `,
    ...links.flatMap((a) => [a, " "]));
}

function rounds(t) {
  const me = signedIn();
  $("rounds").replaceChildren(...t.rounds_played.slice().reverse().map((r) => el("section", { class: "panel" },
    el("h3", {}, `Round ${r.number}` + (r.finished_at ? "" : " (playing)")),
    r.rest ? el("p", {}, `${r.rest} rests.`) : null,
    el("ul", { class: "game-list" }, r.pairings.map((p) => pairingItem(p, me))))));
}

// A knockout's whole bracket, round by round: each slot's two players with their seeds (or who
// is still to come), and who went through.
function bracket(t) {
  $("bracket-section").hidden = !t.bracket;
  if (!t.bracket) return;
  const who = (name, seed, from) => (name ? `${name}${seed ? ` (${seed})` : ""}` : from);
  $("bracket").replaceChildren(...t.bracket.rounds.map((r) => el("section", { class: "panel" },
    el("h3", {}, r.name),
    el("ol", { class: "game-list" }, r.slots.map((s) => {
      const from = (i) => (s.fed_by ? `the winner of match ${s.fed_by[i]}` : "–");
      const second = s.second || (s.decided || !s.fed_by ? "a bye" : from(1));
      const outcome = s.decided ? (s.winner ? ` → ${s.winner}` : " → nobody (both lost)") : "";
      return el("li", {}, `${who(s.first, s.first_seed, from(0))} v ${s.second ? who(s.second, s.second_seed) : second}${outcome}`);
    })))));
}

async function load() {
  const { data: t } = await call("GET", `/tournaments/${encodeURIComponent(id)}`);
  document.title = `${t.name} · Gin Rummy`;
  $("name").textContent = t.name;
  $("facts").textContent = facts(t);
  $("entrants").replaceChildren(...t.entrants.map((e) => el("li", {}, e.name, e.bot ? " (bot)" : "",
    e.level ? `, level ${e.level}` : "", e.seed ? `, seed ${e.seed}` : "")));
  you(t);
  standings(t);
  crosstable(t);
  bracket(t);
  rounds(t);
}

load().catch((error) => { $("facts").textContent = describe(error); });
setInterval(() => load().catch(() => {}), 30000);
