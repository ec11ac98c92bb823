// "What would the computer do?" on the seat page (issue 41): GET /games/<game>/hint at the seat's
// decision now, in games where hints are on (unrated against the house bot, or both seats asked for
// them). A refusal (a rated game, a tournament, hints not asked for) hides the button for the game.
import { call, describe } from "./api.js";
import { $ } from "./dom.js";
import { actionText } from "./replay_review.js";

export function setUpHint({ gameId, token }) {
  let refused = false, version = null;
  $("coach-hint-ask").addEventListener("click", async () => {
    const answer = $("coach-hint-answer");
    answer.textContent = "Thinking…";
    try {
      const { data } = await call("GET", `/games/${gameId}/hint`, { token: token() });
      const sign = data.expected > 0 ? "+" : "";
      answer.textContent = `The computer would ${actionText(data.best)} (${sign}${data.expected.toFixed(1)} points ` +
        `expected this hand, from your cards and what you have seen).`;
    } catch (error) {
      answer.textContent = describe(error);
      if (error.status === 403) { refused = true; $("coach-hint-ask").hidden = true; }
    }
  });
  return (next) => {  // called with every view of a two-seat game
    const mine = next.status === "active" && next.to_move === next.seat;
    $("coach-hint").hidden = refused ? !$("coach-hint-answer").textContent : !mine;
    if (next.version !== version) {
      version = next.version;
      if (!refused) $("coach-hint-answer").textContent = "";
    }
  };
}
