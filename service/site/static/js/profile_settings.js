// The player page's "Your profile" panel: the link to the public profile (/players/<name>) and the
// `public_games` setting (PATCH /me), which puts a watch or replay link on each of the player's
// games there; turning it off revokes every such link at once.
import { call, describe } from "./api.js";
import { $ } from "./dom.js";

let current = null;  // the signed-in player ({token, name})

export async function showProfile(player) {
  current = player;
  $("profile-link").href = `/players/${encodeURIComponent(player.name)}`;
  $("public-games-status").textContent = "";
  try {
    const { data } = await call("GET", "/me", { token: player.token });
    $("public-games").checked = data.public_games;
  } catch (error) {
    $("public-games-status").textContent = describe(error);
  }
}

$("public-games").addEventListener("change", async (event) => {
  const wanted = event.target.checked;
  const status = $("public-games-status");
  try {
    const { data } = await call("PATCH", "/me", { token: current.token, body: { public_games: wanted } });
    event.target.checked = data.public_games;
    status.textContent = data.public_games ? "Your profile now links your games to watch and replay."
      : "Your games are private again: the links your profile showed no longer open them.";
  } catch (error) {
    event.target.checked = !wanted;
    status.textContent = `Not changed: ${describe(error)}`;
  }
});
