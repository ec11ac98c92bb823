"""`gin review`: the computer's review of a finished match, decision by decision (GET
/games/{id}/review: the labelled decisions and each seat's summary, or how far the review has come);
`gin hint`: what the computer would do at your decision now (GET /games/{id}/hint, in unrated games
against the house bot)."""
from __future__ import annotations

from .common import EXIT_OK, api_for, print_json
from .store import Store


def action_text(action: dict) -> str:
    kind = action.get("type")
    if kind == "draw":
        return "take the pile's top" if action.get("from") == "discard" else "draw from the stock"
    if kind == "discard":
        return f"discard {action['card']}"
    if kind == "knock":
        return f"knock with {action['discard']}"
    return {"take_upcard": "take the upcard", "pass": "pass", "big_gin": "Big Gin"}.get(kind, str(kind))


def review_lines(body: dict, seat: int | None = None) -> list[str]:
    """The review as lines: each seat's summary, then every decision not labelled best or good."""
    if body.get("status") != "done":
        progress = f" ({body['done']} of {body['total']} decisions)" if body.get("total") else ""
        return [f"The review is {body.get('status')}{progress}: look again later."]
    review = body["review"]
    lines = []
    for n, s in enumerate(review["match"]["seats"]):
        mine = " (you)" if n == seat else ""
        lines.append(f"Seat {n}{mine}: {s['given_away_per_decision']} points given away a decision over "
                     f"{s['decisions']}; {s['blunder']} blunders, {s['mistake']} mistakes, {s['inaccuracy']} inaccuracies")
    for d in review["decisions"]:
        if d["label"] in ("best", "good"):
            continue
        lines.append(f"  hand {d['hand']}, seat {d['seat']}: {d['label']}: {action_text(d['chosen'])} "
                     f"({d['chosen_expected']:+.1f}); better {action_text(d['best'])} ({d['best_expected']:+.1f}), "
                     f"{d['given_away']:.1f} ± {d['se']:.1f} given away")
    return lines


def cmd_review(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    body = api_for(args, entry).review(game_id)
    if args.json:
        print_json(body)
    else:
        print("\n".join(review_lines(body, entry.get("seat"))))
    return EXIT_OK


def cmd_hint(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    body = api_for(args, entry).hint(game_id)
    if args.json:
        print_json(body)
    else:
        print(f"The computer would {action_text(body['best'])}: {body['expected']:+.1f} points expected "
              f"this hand ({body['deals']} sampled deals).")
    return EXIT_OK
