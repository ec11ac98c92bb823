// The player page's "Your profile" panel: the link to the public profile (/players/<name>) and the
// `public_games` setting (PATCH /me), which puts a watch or replay link on each of the player's
// games there; turning it off revokes every such link at once; the players blocked, each with
// Unblock (DELETE /me/blocks/{name}); the coach's average over the player's reviewed matches (issue 41).
import { call, describe } from "./api.js";
import { $, el } from "./dom.js";
import { blockButton } from "./moderation.js";

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
  showBlocks();
  showReviewAverage(player);
}

// The computer's review over the player's reviewed matches (GET /me/review-average): theirs to see;
// anyone's through the API once they make their games public.
async function showReviewAverage(player) {
  const line = $("review-average");
  try {
    const { data } = await call("GET", "/me/review-average", { token: player.token });
    line.textContent = data.decisions
      ? `The computer's review of your ${data.matches} reviewed matches: ${data.given_away_per_decision} points ` +
        `given away a decision, ${Math.round(data.accuracy * 100)}% of your decisions within a standard error ` +
        "of the best (see each match's marks on its replay)."
      : "The computer reviews each finished match of yours: your average shows here once one is reviewed.";
  } catch (error) {
    line.textContent = "";
  }
}

async function showBlocks() {
  const status = $("blocks-status");
  try {
    const { data } = await call("GET", "/me/blocks", { token: current.token });
    $("blocks-list").replaceChildren(...data.blocks.map((b) => el("li", {},
      el("a", { href: `/players/${encodeURIComponent(b.name)}` }, b.name),
      ` since ${new Date(b.blocked_at).toLocaleDateString()} `,
      blockButton(b.name, { token: () => current.token, blocked: true, status }))));
    $("blocks-empty").hidden = data.blocks.length > 0;
  } catch (error) {
    status.textContent = describe(error);
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
