// A table's replay (a TableReplay, `kind`: table), one step drawn: every board with both hands,
// its pile and stock (a partnership's boards side by side, each its own hand), the melds of a
// board's hand that ended in the step, who sits out, and the sheet as it grew.
import { playerName } from "./board.js";
import { cardList } from "./cards.js";
import { el } from "./dom.js";
import { narrateTableEvent, resultText, sideName } from "./table_view.js";

// What table_view.js reads of a TableView, for nobody's own seat: every seat is named.
function tableOf(replay) {
  return { seat: -1, side: -1, format: replay.format, sides: replay.sides, result: replay.result,
           players: replay.players };
}

function names(replay) {
  return replay.players.map((player) => playerName(player, `seat ${player.seat + 1}`));
}

export function tableTitle(replay) {
  const all = names(replay);
  if (replay.format === "partnership") return replay.sides.map((side) => side.map((s) => all[s]).join(" & ")).join(" v ");
  return `${all.slice(0, -1).join(", ")} and ${all[all.length - 1]}`;
}

export function eventLines(replay, step) {
  const table = tableOf(replay), all = names(replay);
  return step.events.map((event, i) => (event.type === "match_end" ? resultText(table, all)
    : narrateTableEvent(event, table, all, step.events[i + 1] || null))).filter(Boolean);
}

// One board: who plays whom, each hand, the pile and the stock; the melds when its hand just ended.
function boardPart(replay, step, board, index, cardsLine, handEnd) {
  const all = names(replay);
  const label = `Board ${index + 1}`;
  const ended = step.events.find((e) => e.type === "hand_end" && e.board === index);
  const parts = [el("h3", {}, board ? `${label}: ${board.seats.map((s) => all[s]).join(" v ")}` +
    (board.deal ? ` (deal ${board.deal}, dealt by ${all[board.dealer]})` : "") : `${label}: waiting for the round`)];
  if (board) {
    parts.push(...board.seats.map((seat) => cardsLine(`${all[seat]} holds`, board.hands[String(seat)])));
    const pile = board.discard_pile;
    parts.push(el("p", {}, `Discard pile: ${pile.length ? `${cardList(pile.slice(-1))} on top (${pile.length})` : "empty"}` +
      ` · stock ${board.stock_count}`));
  }
  if (ended) parts.push(...handEnd(ended.record, ended.seats.map((s) => all[s])));
  return el("section", { class: "replay-board", "aria-label": label }, ...parts);
}

export function boardParts(replay, step, cardsLine, handEnd) {
  const all = names(replay);
  const parts = step.boards.map((board, i) => boardPart(replay, step, board, i, cardsLine, handEnd));
  if (step.sitting_out !== null && step.sitting_out !== undefined) parts.push(el("p", {}, `${all[step.sitting_out]} sits out.`));
  return parts;
}

export function sheetLines(replay, step) {
  const all = names(replay), table = tableOf(replay);
  const lines = step.scores.sheet.map((line) => (line.team_bonus !== undefined
    ? `Round ${line.round + 1}: team bonus ${line.team_bonus} to ${sideName(table, line.side, all)}`
    : `Hand ${line.hand} (board ${line.board + 1}): ${line.result}` +
      (line.winner === null || line.winner === undefined ? ", nobody scores" : `, ${all[line.winner]} ${line.points}`)));
  const totals = replay.sides.map((_, side) => step.scores.games.reduce((sum, game) => sum + (game.final || game).totals[side], 0));
  lines.push(`Totals: ${replay.sides.map((_, side) => `${sideName(table, side, all)} ${totals[side]}`).join(", ")}`);
  return lines;
}
