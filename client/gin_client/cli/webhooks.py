"""`gin webhooks`: the seat's webhook deliveries (GET /games/{id}/webhook-deliveries), and
redelivery of one (POST .../{webhook_id}/redeliver)."""
from __future__ import annotations

from .common import EXIT_OK, api_for, print_json
from .store import Store


def cmd_webhooks(args, store: Store) -> int:
    game_id, entry = store.find(args.game)
    api = api_for(args, entry)
    if args.redeliver:
        delivery = api.redeliver_webhook(game_id, args.redeliver)
        if args.json:
            print_json(delivery)
        else:
            print(f"Queued again: {delivery['webhook_id']} ({delivery['event']}), the same body and webhook-id.")
        return EXIT_OK
    page = api.webhook_deliveries(game_id, args.limit, args.cursor)
    if args.json:
        print_json(page)
        return EXIT_OK
    for delivery in page["deliveries"]:
        print(delivery_line(delivery))
    if not page["deliveries"]:
        print("No webhook calls for this seat.")
    if page["next_cursor"]:
        print(f"Older ones: gin webhooks --cursor {page['next_cursor']}")
    return EXIT_OK


def delivery_line(delivery: dict) -> str:
    """One call: when, what, how it went, and why if it failed."""
    answered = delivery["response_code"] if delivery["response_code"] is not None else "-"
    line = (f"{delivery['created_at'][:19]}  {delivery['event']:<18} {delivery['status']:<8} "
            f"{delivery['attempts']:>2} tries  {str(answered):>3}  {delivery['webhook_id']}")
    if delivery["status"] != "sent" and delivery["last_error"]:
        line += f"\n    {delivery['last_error']}"
    if delivery["status"] == "pending" and delivery["next_attempt_at"]:
        line += f"\n    next try {delivery['next_attempt_at'][:19]}"
    return line
