// A small bot written against the types openapi-typescript generates from ../../openapi.yaml
// (generated/api.d.ts, made by the test suite). It is type-checked with `tsc --noEmit --strict`
// (tests/client/test_generated_clients.py): if the contract loses a field or a type, this stops
// compiling. It talks to the service through openapi-fetch, typed by the same paths.
import createClient from "openapi-fetch";
import type { components, paths } from "./generated/api.js";

type GameView = components["schemas"]["GameView"];
type Action = components["schemas"]["Action"];

export function choose(view: GameView): Action | undefined {
  const legal: Action[] = view.legal_actions;
  const knock = legal.find((a) => a.type === "knock" || a.type === "big_gin");
  if (knock) return knock;
  const pass = legal.find((a) => a.type === "pass");
  if (pass) return pass;
  const draw = legal.find((a) => a.type === "draw" && a.from === "stock");
  if (draw) return draw;
  // The union narrows on `type`: a discard has a card, and nothing else.
  const discards = legal.filter((a): a is components["schemas"]["DiscardAction"] => a.type === "discard");
  const best = view.arrangement?.best_discard;
  return discards.find((a) => a.card === best) ?? discards[0] ?? legal[0];
}

export async function play(server: string, gameId: string, token: string): Promise<GameView> {
  const client = createClient<paths>({ baseUrl: server, headers: { Authorization: `Bearer ${token}` } });
  for (;;) {
    const { data, error } = await client.GET("/games/{game_id}", {
      params: { path: { game_id: gameId }, query: { wait: 30 } },
    });
    if (error) throw new Error(`${error.code}: ${error.detail}`);
    if (!data) continue; // 304: nothing changed while waiting
    // Tables of 3 to 8 seats answer a TableView: the view's `kind` tells, and narrows `data` to a GameView.
    if (data.kind === "table") throw new Error(`a table of ${data.seats} seats: this bot plays two-seat games`);
    if (data.status === "finished") return data;
    if (data.to_move !== data.seat) continue;
    const action = choose(data);
    if (!action) continue;
    const moved = await client.POST("/games/{game_id}/actions", {
      params: { path: { game_id: gameId }, header: { "If-Match": `"${data.version}"` } },
      body: action,
    });
    if (moved.error) console.error(`refused: ${moved.error.code} (${moved.error.detail})`);
  }
}

export async function newGame(server: string, name: string): Promise<{ gameId: string; token: string; invite: string }> {
  const client = createClient<paths>({ baseUrl: server });
  const { data, error } = await client.POST("/games", { body: { name, rules: { preset: "standard", target: 100 } } });
  if (error) throw new Error(`${error.code}: ${error.detail}`);
  return { gameId: data.game_id, token: data.token, invite: data.invite_code };
}
