// The tournaments page: the list from GET /tournaments (filtered), and a form that makes one with
// the signed-in player's token (POST /tournaments), then opens it.
import { call, describe } from "./api.js";
import { $, el } from "./dom.js";
import { signedIn } from "./player.js";

const FORMATS = { swiss: "Swiss", round_robin: "Round robin", knockout: "Knockout" };

async function list() {
  const query = new URLSearchParams();
  for (const name of ["status", "format"]) if ($(`filter-${name}`).value) query.set(name, $(`filter-${name}`).value);
  const { data } = await call("GET", `/tournaments?${query}`);
  const body = $("tournament-list").tBodies[0];
  body.replaceChildren(...data.tournaments.map((t) => el("tr", {},
    el("th", { scope: "row" }, el("a", { href: `/tournaments/${encodeURIComponent(t.tournament_id)}` }, t.name)),
    el("td", {}, FORMATS[t.format] + (t.format === "swiss" ? `, ${t.rounds} rounds` : "")),
    el("td", {}, t.status), el("td", {}, `${t.entrants_count} (${t.min_entrants}–${t.max_entrants})`),
    el("td", {}, t.entry))));
  $("list-empty").hidden = data.tournaments.length > 0;
}

async function make(event) {
  event.preventDefault();
  const form = new FormData($("new-form"));
  const body = {
    name: form.get("name"), format: form.get("format"), entry: form.get("entry"),
    min_entrants: Number(form.get("min_entrants")), max_entrants: Number(form.get("max_entrants")),
    entry_hours: Number(form.get("entry_hours")), rules: { preset: "standard", target: Number(form.get("target")) },
  };
  if (body.format === "swiss") body.rounds = Number(form.get("rounds"));
  try {
    const { data } = await call("POST", "/tournaments", { token: signedIn().token, body });
    location.assign(`/tournaments/${encodeURIComponent(data.tournament_id)}`);
  } catch (error) {
    $("new-error").textContent = describe(error);
  }
}

$("filter").addEventListener("submit", (event) => { event.preventDefault(); list(); });
$("new-form").addEventListener("submit", make);
if (signedIn()) { $("new-form").hidden = false; $("new-signed-out").hidden = true; }
list();
