// The history in words, newest first: "Ann drew from the stock", "You took 7♥ from the pile".
import { cardList, face } from "./cards.js";
import { el } from "./dom.js";

const RESULTS = { gin: "went gin", big_gin: "declared Big Gin", undercut: "knocked and was undercut",
                  tie: "knocked; a tie", knock: "knocked" };

// `next` is the event after this one: a knock followed by a gin's hand end is told as a gin.
export function narrate(event, view, playerNames, next = null) {
  const who = (seat) => (seat === view.seat ? "You" : playerNames[seat] || "Your opponent");
  const actor = who(event.seat);
  switch (event.type) {
    case "cut": {
      const drawn = `The cut for the first dealer: ${who(0)} drew ${face(event.cards["0"])}, ${who(1)} ${face(event.cards["1"])}`;
      if (event.outcome === "deals") return `${drawn}; the lower card deals first: ${who(event.dealer)}.`;
      if (event.outcome === "chooses") return `${drawn}; the higher card chooses who deals first: ${who(event.chooser)}.`;
      return `${drawn}; one rank, so the cut is made again.`;
    }
    case "choose_dealer":
      return event.deal ? `${actor} chose to deal first.` : `${actor} let ${who(event.dealer).replace("You", "you")} deal first.`;
    case "deal": {
      const mine = (event.cards || {})[String(view.seat)];
      return `Hand ${event.hand} dealt by ${who(event.dealer).replace("You", "you")}; the upcard is ${face(event.upcard)}` +
        (mine ? `; you were dealt ${cardList(mine)}.` : ".");
    }
    case "take_upcard": return `${actor} took the upcard ${face(event.card)}.`;
    case "pass": return `${actor} passed.`;
    case "draw":
      if (event.count > 1) return `${actor} took ${cardList(event.cards)} from the pile.`;
      return event.from === "discard" ? `${actor} took ${face(event.card)} from the pile.`
        : `${actor} drew from the stock${event.card ? ` (${face(event.card)})` : ""}.`;
    case "discard": return `${actor} discarded ${face(event.card)}.`;
    case "knock": {
      const gin = next && next.type === "hand_end" && next.record && next.record.result === "gin";
      return `${actor} ${gin ? "went gin" : "knocked"}${event.discard ? `, discarding ${face(event.discard)} face down` : ""}.`;
    }
    case "big_gin": return `${actor} declared Big Gin.`;
    case "meld": return `${actor} laid ${cardList(event.cards)} on the table (meld ${event.meld + 1}).`;
    case "add_on": return `${actor} added ${face(event.card)} to meld ${event.meld + 1}.`;
    case "hand_end": {
      const r = event.record || {};
      const what = r.result === "undercut" && r.knocker === view.seat ? "knocked and were undercut" : RESULTS[r.result] || r.result;
      return `Hand ${event.hand} is over: ${who(r.knocker)} ${what}` +
        (r.winner !== null && r.winner !== undefined ? `; ${who(r.winner).replace(/^You$/, "you")} scored ${r.points}.` : ".");
    }
    case "hand_void": return `Hand ${event.hand} is void: the stock ran out, nobody scores.`;
    case "resign": return `${actor} resigned.`;
    case "timeout": return `${actor} ran out of time; the match was claimed.`;
    case "match_end": return "The match is over.";
    default: return null;
  }
}

export function renderHistory(list, events, view, playerNames, narrateOne = narrate) {
  const lines = events.map((e, i) => narrateOne(e, view, playerNames, events[i + 1] || null)).filter(Boolean).reverse();
  list.replaceChildren(...lines.slice(0, 200).map((line) => el("li", {}, line)));
}
