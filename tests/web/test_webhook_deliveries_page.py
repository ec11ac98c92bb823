"""The seat page's settings list the seat's webhook calls as the receiver answered them, and its
Redeliver button sends one again with the same webhook-id (issue 28). A real receiver on loopback."""
from __future__ import annotations

from tests.notify.conftest import Receiver

from .conftest import DESKTOP
from .support import api
from .test_browser import wait_until


def test_the_settings_list_webhook_calls_and_redeliver_one(site, new_context):
    receiver = Receiver()
    receiver.start()
    try:
        created = api(site, "POST", "/games", body={"name": "Ann", "webhook_url": receiver.url})
        api(site, "POST", f"/games/{created['game_id']}/join",
            body={"name": "Bob", "invite_code": created["invite_code"]})
        receiver.fail_next = 1
        site.deliver()  # Ann's first call is answered 503
        page = new_context(DESKTOP).new_page()
        page.goto(f"{site.base_url}/play/{created['game_id']}#token={created['token']}")
        listed = wait_until(lambda: "HTTP 503" in page.locator("#webhook-deliveries").inner_text() and
                            page.locator("#webhook-deliveries").inner_text(), "the failed call")
        assert "pending, 1 try" in listed and "HTTP 503 from the receiver" in listed

        [sent] = receiver.requests
        page.get_by_role("button", name="Redeliver", exact=False).first.click()
        wait_until(lambda: "Queued again" in page.locator("#webhooks-result").inner_text(), "the redelivery")
        site.deliver()
        assert receiver.delivered()[0]["headers"]["webhook-id"] == sent["headers"]["webhook-id"]
        assert receiver.delivered()[0]["body"] == sent["body"]
        page.locator("#webhooks-refresh").click()
        wait_until(lambda: "sent, 2 tries, HTTP 204" in page.locator("#webhook-deliveries").inner_text(),
                   "the call sent")
    finally:
        receiver.stop()
