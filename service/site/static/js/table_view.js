// A table of three or four seats (a TableView, told apart by `format`), read for the seat page:
// the caller's own board as the ordinary two-player view the two-seat code draws, and the table's
// words (names, sides, who plays whom, status, history). Only what the view holds is shown: a
// board the caller is not on has its public part only (no hand), as the API sends it.
import { narrate } from "./history.js";
import { statusText } from "./board.js";

const PHASES = {
  awaiting_deal: "waiting for the deal", upcard_offer: "to take or pass the upcard", draw: "to draw",
  discard: "to discard", last_discard_offer: "to take or pass the last discard", match_over: "done",
};

export const isTable = (view) => Boolean(view && view.format);

export function tableNames(table) {
  return table.players.map((p, seat) => p.name || `seat ${seat + 1}`);
}

// "You", or the seat's name.
export function who(table, seat, names = tableNames(table)) {
  return seat === table.seat ? "You" : names[seat];
}

// A side's name: "Ann & Cat" in a partnership, the player's name in a rotation.
export function sideName(table, side, names = tableNames(table)) {
  return table.sides[side].map((s) => (s === table.seat ? "you" : names[s])).join(" & ");
}

// The caller's own board as a two-player view in its local seats 0 and 1 (what board.js, knock.js
// and the move handlers read), with the table's envelope; null while sitting out or between rounds.
export function boardViewOf(table) {
  const mine = table.my_board;
  if (!mine || table.status !== "active") return null;  // before the deal its hand is empty; after the end, gone
  const board = table.boards[mine.board];
  return {
    ...mine.view, game_id: table.game_id, version: table.version, status: table.status,
    players: mine.seats.map((s) => ({ seat: mine.seats.indexOf(s), name: table.players[s].name })),
    deadline: board ? board.deadline || null : null,  // its mover's own clock, as a two-seat view's deadline
    deal_commitment: board ? board.deal_commitment : null, revealed_deals: table.revealed_deals,
    rules: table.rules, result: null, board: mine.board, table_seats: mine.seats,
  };
}

// What a public board shows in words: "Ann v Bob: Bob to draw".
export function boardLine(table, board, names = tableNames(table)) {
  const [a, b] = board.seats.map((s) => who(table, s, names));
  const turn = board.to_move === null ? "" : `: ${who(table, board.to_move, names)} ${PHASES[board.phase] || board.phase}`;
  return `${a} v ${b}${turn}`;
}

export function tableTitle(table, names = tableNames(table)) {
  if (table.format === "partnership") return table.sides.map((side) => side.map((s) => names[s]).join(" & ")).join(" v ");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

export function tableStatus(table, board, names = tableNames(table)) {
  if (table.status === "waiting_for_opponent") {
    const missing = table.players.filter((p) => p.name === null).length;
    return `Waiting for ${missing} more player${missing === 1 ? "" : "s"} to join.`;
  }
  if (table.status === "finished") return resultText(table, names);
  if (board) return statusText(board);
  if (table.format === "rotation") {
    const playing = table.boards.find(Boolean);
    return "You sit out this hand." + (playing ? ` ${boardLine(table, playing, names)}.` : "");
  }
  return "Your board's hand is over: waiting for the other board to finish the round.";
}

export function resultText(table, names = tableNames(table)) {
  const result = table.result;
  if (!result) return "The match is over.";
  const mine = result.winner === table.side;
  const winners = result.winner === null ? "Nobody" : mine ? "You" : sideName(table, result.winner, names);
  const why = { resign: " by resignation", timeout: " on time" }[result.reason] || "";
  const totals = table.sides.map((_, side) => `${sideName(table, side, names)} ${result.totals[side]}`).join(", ");
  return `The match is over: ${winners} won${why}. Totals: ${totals}.`;
}

// A hand record of the table (table seats) in its board's local seats, with the names and the
// caller's local seat (-1: not on that board), so hand_end.js draws it as a two-player hand.
export function localRecord(table, record, names = tableNames(table)) {
  const seats = record.seats;
  const local = (seat) => (seat === null || seat === undefined ? seat : seats.indexOf(seat));
  const hands = { 0: record.hands[String(seats[0])], 1: record.hands[String(seats[1])] };
  return {
    record: { ...record, knocker: local(record.knocker), winner: local(record.winner), dealer: local(record.dealer), hands },
    view: { seat: seats.indexOf(table.seat), revealed_deals: table.revealed_deals },
    names: seats.map((s) => names[s]),
  };
}

// One event in words. A board's events name its players by local seats: read them with the
// board's names; the table's own events name table seats.
export function narrateTableEvent(event, table, names = tableNames(table), next = null) {
  const prefix = table.format === "partnership" && event.board !== undefined ? `Board ${event.board + 1}: ` : "";
  if (event.seats && event.board !== undefined) {
    const text = narrate(event, { seat: event.seats.indexOf(table.seat) }, event.seats.map((s) => names[s]), next);
    return text && prefix + text;
  }
  switch (event.type) {
    case "next_pairing":
      return `Next hand: ${who(table, event.seats[0], names)} v ${who(table, event.seats[1], names)}; ` +
        `${who(table, event.sitting_out, names)} ${event.sitting_out === table.seat ? "sit" : "sits"} out.`;
    case "round_end":
      return `Round ${event.round + 1} is over.` + (event.team_bonus ? ` Team bonus ${event.team_bonus.points} to ${sideName(table, event.team_bonus.side, names)}.` : "");
    case "table_hand_end": return null;  // the board's own hand_end said it
    default: return narrate(event, table, names);
  }
}
