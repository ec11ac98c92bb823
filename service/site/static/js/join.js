// The invite link's page: /join/<game>#invite=<code>. Shows who invites to what, then joins the
// seat the code opens (seat 1 of two, or any seat of a table of three or four).
import { call, describe } from "./api.js";
import { $, el } from "./dom.js";
import { signedIn } from "./player.js";
import { rulesInWords } from "./rules_text.js";
import { saveSeat } from "./seats.js";

const gameId = document.body.dataset.gameId;
// The code stays in the fragment until the join succeeds, so a reload still works.
const invite = new URLSearchParams(location.hash.slice(1)).get("invite");

async function showInvitation() {
  const box = $("invitation");
  if (!invite) {
    box.replaceChildren(el("p", { class: "error" }, "This link carries no invite code: ask for the whole link."));
    return;
  }
  try {
    const { data } = await call("POST", `/games/${gameId}/invitation`, { body: { invite_code: invite } });
    const table = data.seats > 2;
    box.replaceChildren(
      el("p", { class: "lead" }, table ? `${data.inviter} invites you to a game of ${data.seats} players.` : `${data.inviter} invites you to play.`),
      table ? el("p", { id: "table-format" }, tableFormat(data)) : "",
      el("ul", {}, rulesInWords(data.rules, data.move_time_hours).map((line) => el("li", {}, line))));
    $("join-game").hidden = false;
    $("name").focus();
  } catch (error) {
    box.replaceChildren(el("p", { class: "error" }, describe(error)));
  }
}

// How the table plays, and where this code seats you (seats are numbered from 1 on the page).
function tableFormat(data) {
  if (data.format === "partnership" && data.seats > 4) {  // Tedesco's teams of three or four
    const size = data.seats / 2;
    const team = (first) => Array.from({ length: size }, (_, j) => first + 2 * j + 1);  // shown from 1
    const mates = team(data.seat % 2).filter((s) => s !== data.seat + 1);
    return `Two teams of ${size}: seats ${team(0).join(", ")} against ${team(1).join(", ")}, ${size} boards at once, ` +
      `each round against another of the other team. This link takes seat ${data.seat + 1}; ` +
      `your teammates hold seats ${mates.join(", ")}.`;
  }
  if (data.format === "partnership") {
    const partner = (data.seat + 2) % 4;
    return `Two partnerships: seats 1 & 3 against 2 & 4, two boards at once. This link takes seat ${data.seat + 1}; ` +
      `your partner holds seat ${partner + 1}.`;
  }
  return `Three players, two at a time: one sits out each hand, and the winner plays the one who sat out. ` +
    `This link takes seat ${data.seat + 1}.`;
}

$("join-game").addEventListener("submit", async (event) => {
  event.preventDefault();
  const data = new FormData(event.target);
  const body = { invite_code: invite, name: data.get("name") };
  if (data.get("email")) body.email = data.get("email");
  $("form-error").textContent = "";
  try {
    const { data: joined } = await call("POST", `/games/${gameId}/join`, { body, token: signedIn()?.token });
    saveSeat(gameId, { token: joined.token, seat: joined.seat, name: joined.game.players[joined.seat].name });
    location.replace(`/play/${gameId}`);  // replace: the invite's address leaves the history
  } catch (error) {
    $("form-error").textContent = `You did not join: ${describe(error)}`;
  }
});

showInvitation();
