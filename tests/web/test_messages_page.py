"""Messages on the seat page (issue 26): Ann writes in the box, Bob's page shows it without a
reload, as text: markup in a message is shown as written (read through textContent) and makes no
element, and a link is not made clickable. A bad message is said on the page and sent nowhere."""
from __future__ import annotations

from .conftest import DESKTOP
from .support import api, two_seats
from .test_browser import wait_until


def test_ann_writes_and_bobs_page_shows_it_as_text_without_reload(site, new_context):
    game_id, tokens = two_seats(site)
    pages = {}
    for seat, token in tokens.items():
        page = new_context(DESKTOP).new_page()
        page.goto(f"{site.base_url}/play/{game_id}#token={token}")
        wait_until(lambda page=page: " v " in page.locator("#title").inner_text(), "the seat")
        pages[seat] = page
    ann, bob = pages[0], pages[1]
    wait_until(lambda: bob.locator("#messages-empty").is_visible(), "Bob's empty messages")
    bob.evaluate("window.loaded = true")  # gone if the page reloads
    written = "<b>hello</b> Bob, see https://example.org <img src=x onerror=alert(1)>"
    ann.locator("#message-text").fill(written)
    ann.locator("#message-form button[type=submit]").click()
    wait_until(lambda: bob.locator("#messages li").count() == 1, "the message on Bob's page", timeout=40)
    assert bob.evaluate("window.loaded") is True  # no reload
    shown = bob.evaluate("document.querySelector('#messages li .message-text').textContent")
    assert shown == written
    assert bob.evaluate("document.querySelector('#messages').querySelectorAll('b, img, a').length") == 0
    assert bob.locator("#messages li .message-name").inner_text().startswith("Ann")
    assert ann.locator("#messages li").count() == 1 and ann.locator("#message-text").input_value() == ""
    assert not bob.locator("#messages-empty").is_visible()
    # Bob reports Ann's message from his page (his own messages have no Report button).
    bob.get_by_role("button", name="Report the message of Ann").click()
    bob.locator("#messages li select.report-reason").select_option("abuse")
    bob.locator("#messages li button.report-send").click()
    wait_until(lambda: "Reported" in bob.locator("#message-status").inner_text(), "the report said")
    assert "(reported)" in bob.locator("#messages li").first.inner_text()
    with site.app.app_context():
        from service.core.extensions import db
        from service.players.models import Report
        [report] = db.session.query(Report).filter_by(game_id=game_id).all()
        assert (report.reason, report.message_text, report.reported_seat, report.reporter_seat) == \
            ("abuse", written, 0, 1)
    # Bob's answer reaches Ann's page too, after hers.
    bob.locator("#message-text").fill("thanks")
    bob.locator("#message-text").press("Enter")
    wait_until(lambda: ann.locator("#messages li").count() == 2, "Bob's answer on Ann's page", timeout=40)
    assert ann.locator("#messages li .message-text").nth(1).inner_text() == "thanks"
    assert ann.locator("#messages li").nth(0).locator("button").count() == 0  # her own: nothing to report
    assert ann.locator("#messages li").nth(1).get_by_role("button", name="Report the message of Bob").count() == 1
    # Blanks only: said on the page, nothing sent.
    ann.locator("#message-text").fill("   ")
    ann.locator("#message-form button[type=submit]").click()
    wait_until(lambda: "Write something" in ann.locator("#message-status").inner_text(), "the refusal said")
    assert len(api(site, "GET", f"/games/{game_id}/messages", tokens[1])["messages"]) == 2
