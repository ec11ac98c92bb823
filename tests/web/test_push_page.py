"""Web Push in Chromium (issue 39): the seat page asks for the permission from a click and hands the
service worker's subscription to the service; the service's push, taken by a push service on
loopback, is decrypted with the browser's key and delivered to the service worker through the
DevTools Protocol (ServiceWorker.deliverPushMessage); the worker shows "Your turn: Bob v Ann" with
the deadline, and a click on it opens the seat, whose token the page reads from this browser's
storage (none is in the push).

Two things Chromium cannot do here, and how the test stands in for them: a real
pushManager.subscribe() needs the browser vendor's push service on the internet (this machine has
no network), so the page is given a PushManager that answers with the test's own subscription (its
endpoint on the loopback push service, its keys the test's); and no protocol clicks a notification
(web-platform-tests issue 51125), so the click is a NotificationEvent dispatched in the worker,
which is not allowed to open a new window: the page it opens is My games' window, taken to the seat
as a real click does when My games is open."""
from __future__ import annotations

import json

from tests.api.helpers import choose
from tests.notify.push_service import PushService, check_vapid

from .conftest import DESKTOP
from .support import api, two_seats
from .test_browser import wait_until

# The page's PushManager, answering with the test's subscription (kept in localStorage across pages).
FAKE_PUSH_MANAGER = """
(() => {
  const SUBSCRIPTION = %s;
  const made = () => localStorage.getItem("test.push.key");
  const decode = (t) => Uint8Array.from(atob(t.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const encode = (b) => btoa(String.fromCharCode(...new Uint8Array(b)))
    .replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  const subscription = () => ({
    endpoint: SUBSCRIPTION.endpoint, expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: decode(made()).buffer },
    toJSON: () => SUBSCRIPTION,
    unsubscribe: async () => { localStorage.removeItem("test.push.key"); return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    if (!options.userVisibleOnly) throw new DOMException("userVisibleOnly", "NotAllowedError");
    localStorage.setItem("test.push.key", encode(options.applicationServerKey));
    return subscription();
  };
  PushManager.prototype.getSubscription = async function () { return made() ? subscription() : null; };
})();
"""


def registration_id(page, cdp) -> str:
    """The service worker's registration, as the protocol names it (its events arrive while the
    page waits: Playwright's sync API takes them then)."""
    found = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: found.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    for _ in range(200):
        live = [r["registrationId"] for r in found if not r["isDeleted"]]
        if live:
            return live[0]
        page.wait_for_timeout(50)
    raise AssertionError("no service worker registration")


def test_a_push_shows_the_turn_and_a_click_opens_the_seat(site, new_context):
    service = PushService()
    try:
        game_id, tokens = two_seats(site)
        first = api(site, "GET", f"/games/{game_id}", tokens[0])["to_move"]
        waiting = 1 - first
        phone = service.browser()
        context = new_context(DESKTOP)
        context.grant_permissions(["notifications"], origin=site.base_url)
        context.add_init_script(FAKE_PUSH_MANAGER % json.dumps(phone.subscription()))

        seat_page = context.new_page()
        seat_page.goto(f"{site.base_url}/play/{game_id}#token={tokens[waiting]}")
        toggle = seat_page.locator("#push-toggle")
        wait_until(lambda: toggle.is_visible(), "the push button")
        toggle.click()
        wait_until(lambda: toggle.get_attribute("aria-pressed") == "true", "push on")
        assert "even with this page closed" in seat_page.locator("#push-result").inner_text()
        kept = api(site, "GET", f"/games/{game_id}/push-subscriptions", tokens[waiting])["subscriptions"]
        assert [s["endpoint"] for s in kept] == [phone.endpoint]

        # My games' button hands the same browser over for every seat it holds (known already: kept once).
        games_page = context.new_page()
        games_page.goto(f"{site.base_url}/my-games")
        games_page.locator("#push-all").click()
        wait_until(lambda: "will be told" in games_page.locator("#push-result").inner_text(), "My games' push")
        assert len(api(site, "GET", f"/games/{game_id}/push-subscriptions", tokens[waiting])["subscriptions"]) == 1
        seat_page.close()

        # The opponent moves: the waiting seat's turn; the worker pushes it.
        mover = first
        while mover == first:
            api(site, "POST", f"/games/{game_id}/actions", tokens[first],
                choose(api(site, "GET", f"/games/{game_id}", tokens[first])))
            mover = api(site, "GET", f"/games/{game_id}", tokens[first])["to_move"]
        assert mover == waiting
        site.deliver()
        [push] = service.to(phone)
        check_vapid(push["headers"]["authorization"], service.origin, api(site, "GET", "/push/key")["public_key"])
        shown = phone.read(push["body"])
        assert shown["title"] == ("Your turn: Bob v Ann" if waiting == 1 else "Your turn: Ann v Bob")
        assert tokens[waiting] not in json.dumps(shown)

        # The push service hands it to the browser: here, the DevTools Protocol does.
        cdp = context.new_cdp_session(games_page)
        cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": site.base_url, "registrationId": registration_id(games_page, cdp), "data": json.dumps(shown)})
        notifications = wait_until(lambda: games_page.evaluate(
            """navigator.serviceWorker.ready.then((r) => r.getNotifications())
                 .then((all) => all.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })))"""),
            "the notification")
        [notification] = notifications
        assert notification["title"] == shown["title"] and notification["body"].startswith("Deadline: ")
        assert notification["data"] == {"url": f"/play/{game_id}"} and notification["tag"] == shown["tag"]
        assert tokens[waiting] not in json.dumps(notifications)

        [worker] = context.service_workers
        worker.evaluate("""self.registration.getNotifications().then(([n]) => {
            try { self.dispatchEvent(new NotificationEvent("notificationclick", { notification: n })); }
            catch (error) { /* waitUntil refuses a script's event; the click's work has begun */ } })""")
        games_page.wait_for_url(f"{site.base_url}/play/{game_id}")
        games_page.locator("#game").wait_for(state="visible")
        wait_until(lambda: "Your turn" in games_page.locator("#status").inner_text(), "its turn shown")
    finally:
        service.stop()


def test_the_settings_list_the_seats_pushes_as_the_push_service_answered(site, new_context):
    """The seat page's settings list its pushes (GET /games/{id}/push-deliveries) beside its webhook
    calls: what was pushed, to which push service, and its answer; a gone browser's 410 too."""
    service = PushService()
    try:
        game_id, tokens = two_seats(site)
        first = api(site, "GET", f"/games/{game_id}", tokens[0])["to_move"]
        waiting = 1 - first
        phone, old_phone = service.browser(), service.browser()
        for browser in (phone, old_phone):
            api(site, "POST", f"/games/{game_id}/push-subscriptions", tokens[waiting], browser.subscription())
        service.gone.add(old_phone.endpoint)
        page = new_context(DESKTOP).new_page()
        page.goto(f"{site.base_url}/play/{game_id}#token={tokens[waiting]}")
        wait_until(lambda: page.locator("#pushes-none").is_visible(), "no pushes yet")
        while api(site, "GET", f"/games/{game_id}", tokens[first])["to_move"] == first:
            api(site, "POST", f"/games/{game_id}/actions", tokens[first],
                choose(api(site, "GET", f"/games/{game_id}", tokens[first])))
        site.deliver()
        page.locator("#pushes-refresh").click()
        listed = wait_until(lambda: page.locator("#push-deliveries li").count() == 2
                            and page.locator("#push-deliveries").inner_text(), "the two pushes")
        assert listed.count(" to 127.0.0.1, ") == 2, listed
        assert "sent, 1 try, HTTP 201" in listed and "HTTP 410" in listed, listed
        assert page.locator("#pushes-none").is_hidden()
        assert page.locator("#push-deliveries button").count() == 0  # a push is not redelivered by hand
    finally:
        service.stop()
