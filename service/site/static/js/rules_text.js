// The rules options in plain words, for the join page and the seat page.
const PRESETS = {
  standard: "Standard gin", straight: "Straight gin (gin only, no knocking)",
  oklahoma: "Oklahoma gin (the first upcard sets the knock limit)",
  hollywood: "Hollywood gin (three games scored at once)", classic: "Classic gin",
};
const DEALER = { alternate: "players take turns to deal", winner: "the winner of a hand deals the next",
                 loser: "the loser of a hand deals the next" };

export function rulesInWords(rules, moveTimeHours) {
  const lines = [`${PRESETS[rules.preset] || rules.preset}, played to ${rules.target} points.`];
  if (rules.knocking_allowed && !rules.oklahoma) lines.push(`Knock with ${rules.knock_limit} or less deadwood.`);
  lines.push(`Gin scores a bonus of ${rules.gin_bonus}, an undercut ${rules.undercut_bonus}` +
             (rules.big_gin ? `, Big Gin ${rules.big_gin_bonus}.` : "; no Big Gin."));
  lines.push(`Winning the game adds ${rules.game_bonus}, each ${rules.box_per === "game" ? "game" : "hand"} won ${rules.box_bonus}; ${DEALER[rules.next_dealer] || ""}.`);
  if (moveTimeHours !== undefined) {
    lines.push(moveTimeHours ? `Each move is due within ${moveTimeHours >= 48 ? `${moveTimeHours / 24} days` : `${moveTimeHours} hours`}.`
                             : "There is no deadline for moves.");
  }
  return lines;
}
