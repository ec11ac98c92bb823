// The landing page: start a game of 2, 3, 4, 6 or 8 players, then go to the new seat's page (which
// shows the invite link, or one per seat to fill at a table).
import { call, describe } from "./api.js";
import { $ } from "./dom.js";
import { signedIn } from "./player.js";
import { allSeats, saveSeat } from "./seats.js";

const NUMBERS = ["target", "knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus"];

function gameRequest(form) {
  const data = new FormData(form);
  const rules = { preset: data.get("preset") };
  for (const name of NUMBERS) if (data.get(name) !== "") rules[name] = Number(data.get(name));
  if (data.get("next_dealer")) rules.next_dealer = data.get("next_dealer");
  const body = { name: data.get("name"), rules, seats: Number(data.get("seats") || 2),
                 move_time_hours: data.get("move_time_hours") ? Number(data.get("move_time_hours")) : null };
  if (data.get("email")) body.email = data.get("email");
  return body;
}

$("new-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = event.target.querySelector("button[type=submit]");
  button.disabled = true;
  $("form-error").textContent = "";
  try {
    const { data } = await call("POST", "/games", { body: gameRequest(event.target), token: signedIn()?.token });
    // Invite codes are kept in this browser only: the seat page shows them as links with a fragment.
    saveSeat(data.game_id, { token: data.token, seat: 0, name: data.game.players[0].name,
                             ...(data.invites ? { invites: data.invites } : { invite: data.invite_code }) });
    location.assign(`/play/${data.game_id}`);
  } catch (error) {
    $("form-error").textContent = `The game was not created: ${describe(error)}`;
    button.disabled = false;
  }
});

const count = Object.keys(allSeats()).length;
if (count) {
  const note = $("my-games-note");
  note.append(`This browser holds ${count} seat${count > 1 ? "s" : ""}: `);
  const link = document.createElement("a");
  link.href = "/my-games";
  link.textContent = "go to My games";
  note.append(link, ".");
  note.hidden = false;
}
