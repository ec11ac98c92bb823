// Reading the two Server-Sent Events streams with fetch, and consumers of both written against the
// event types openapi-typescript generates from ../../openapi.yaml (generated/api.d.ts, made by the
// test suite). `tsc --noEmit --strict` checks it (tests/client/test_generated_clients.py): a switch
// on each union's discriminator narrows an event to its own fields, and the `never` in each default
// stops compiling should the contract add an event unhandled here. `sseFrames` is docs/api.md's
// "Reading the streams" reader, as written there (the test holds the two equal).
import type { components } from "./generated/api.js";

type Schemas = components["schemas"];
export type GameStreamEvent = Schemas["GameStreamEvent"];
export type PlayerStreamEvent = Schemas["PlayerStreamEvent"];

export async function* sseFrames<T>(url: string, token: string, lastId?: string) {
  for (;;) {  // when the server ends the stream, reconnect with Last-Event-ID
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: "text/event-stream" };
    if (lastId !== undefined) headers["Last-Event-ID"] = lastId;
    const response = await fetch(url, { headers });
    if (response.status === 204) return;  // a finished game: nothing more will come
    if (!response.ok || !response.body) throw new Error(`the stream answered ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let rest = "", event = "message", data: string[] = [];
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      const lines = (rest + chunk.value).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines.map((l) => l.replace(/\r$/, ""))) {
        if (line === "") {  // a blank line ends a frame
          if (data.length) yield { id: lastId, event, data: JSON.parse(data.join("\n")) as T };
          event = "message";
          data = [];
        } else if (!line.startsWith(":")) {  // ": keep-alive" is a comment
          const colon = line.includes(":") ? line.indexOf(":") : line.length;
          const field = line.slice(0, colon), value = line.slice(colon + 1).replace(/^ /, "");
          if (field === "id") lastId = value;
          else if (field === "event") event = value;
          else if (field === "data") data.push(value);
        }
      }
    }
  }
}

// One line about an event of the game stream: the seat's view, a seat's message, or (after a two-seat
// match whose seats are not both players') the other seat's offer of a seat rematch, or its decline.
export function describeGameEvent(data: GameStreamEvent): string {
  switch (data.event) {
    case "view":  // a GameView for two seats, a TableView (it has `format`) at a table
      return "format" in data
        ? `table, version ${data.version}: seats ${data.to_move.join(", ")} to move`
        : `version ${data.version}: ${data.phase}, ${data.hand.length} cards in hand`;
    case "rematch_offered":
      return `${data.seat_rematch.by ?? "the other seat"} offers a rematch (game ${data.seat_rematch.game_id}): ` +
        `POST ${data.seat_rematch.accept} to accept`;
    case "rematch_declined":  // the seat rematch this seat offered
      return `${data.by ?? "the other seat"} declined the rematch${data.reason ? ` (${data.reason})` : ""}`;
    case "message":  // a seat's message, shown as text
      return `${data.name ?? `seat ${data.seat}`} wrote: ${data.text}`;
    case "review_ready":  // the coach reviewed the finished match: GET data.review
      return `the review of ${data.game_id} is ready: ${data.review}`;
    default: {
      const unhandled: never = data;
      return unhandled;
    }
  }
}

// One line about an event of the player stream, each type read by its own fields.
export function describePlayerEvent(data: PlayerStreamEvent): string {
  switch (data.type) {
    case "challenge_received":
      return `${data.challenge.from} challenges you (${data.challenge.challenge_id})`;
    case "challenge_accepted":
      return `${data.by} accepted ${data.challenge_id}: game ${data.game_id}`;
    case "challenge_declined":
      return `${data.by} declined ${data.challenge_id} (${data.reason})`;
    case "challenge_cancelled":
      return `challenge ${data.challenge_id} withdrawn`;
    case "rematch_offered":  // a challenge between players; a seat rematch where the other seat is no player's
      return data.challenge
        ? `a rematch of ${data.game_id} is offered (${data.challenge.challenge_id})`
        : `a seat rematch of ${data.game_id} is offered: POST ${data.seat_rematch?.accept} to accept`;
    case "game_started":
      return `game ${data.game_id} started, you in seat ${data.seat}, against ${data.opponent ?? "a table"}`;
    case "your_turn":
      return `your turn in ${data.game_id} (version ${data.view.version})`;
    case "opponent_moved":
      return `${data.events.map((e) => e.type).join(", ")} in ${data.game_id}`;
    case "game_over":
      return `game ${data.game_id} is over`;
    case "message":
      return `${data.message.name ?? `seat ${data.message.seat}`} wrote in ${data.game_id}: ${data.message.text}`;
    case "series_offered":
      return `${data.by} offers series ${data.series_id}`;
    case "series_declined":
      return `${data.by} declined series ${data.series_id}`;
    case "series_over":
      return `series ${data.series_id} is over: ${data.winner ?? "a draw"}`;
    case "tournament_started":
      return `${data.name} (${data.tournament_id}) started: ${data.rounds} rounds, ${data.entrants} entrants`;
    case "round_started":
      return data.bye ? `round ${data.round} of ${data.tournament_id}: a bye`
        : `round ${data.round} of ${data.tournament_id}: game ${data.game_id} against ${data.opponent}`;
    case "tournament_over":
      return `${data.name} is over: you finished ${data.place} of ${data.entrants}`;
    case "tournament_cancelled":
      return `${data.name} was cancelled: ${data.reason}`;
    case "review_ready":
      return `the review of your match ${data.game_id} is ready: ${data.review}`;
    default: {
      const unhandled: never = data;
      return unhandled;
    }
  }
}

// Follow a seat's game stream to the end of the match (the server then answers 204); where a seat
// rematch may still be offered (two seats not both players'), until it is.
export async function watchGame(server: string, token: string, gameId: string): Promise<string[]> {
  const lines: string[] = [];
  for await (const frame of sseFrames<GameStreamEvent>(`${server}/games/${gameId}/stream`, token)) {
    lines.push(`${frame.id}: ${describeGameEvent(frame.data)}`);
  }
  return lines;
}

// Follow the player's stream from the event after `lastId` ("0": from the first), `count` events.
export async function listen(server: string, token: string, lastId: string, count: number): Promise<string[]> {
  const lines: string[] = [];
  for await (const frame of sseFrames<PlayerStreamEvent>(`${server}/me/stream`, token, lastId)) {
    lines.push(`${frame.id}: ${describePlayerEvent(frame.data)}`);
    if (lines.length >= count) break;
  }
  return lines;
}
