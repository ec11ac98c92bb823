"""The HTML part of a turn mail fits a 360 px phone (issue 38, item 4): its text's long link wraps
instead of widening the mail. Drawn by Chromium from the mail's own HTML."""
from __future__ import annotations

from datetime import datetime, timezone

from service.notify.mail import html_part
from service.notify.mail.scene import Scene

from .conftest import PHONE

LINK = "https://gin.example.org/play/MKsaxqYqE1pJxqt2oSEDug#link=" + "k3y" * 30


def test_the_html_mail_fits_a_phone(browser):
    scene = Scene("MKsaxqYqE1pJxqt2oSEDug", 9, 0, {0: "Ann", 1: "Bob"},
                  {"hand": ["7C", "8C", "9C", "KD"], "arrangement": {"melds": [["7C", "8C", "9C"]], "deadwood": ["KD"]},
                   "discard_pile": ["2H"], "stock_count": 20, "legal_actions": [], "rules": {}},
                  datetime(2030, 1, 1, tzinfo=timezone.utc), link=LINK)
    text = f"Your turn, Ann.\n\nPlay in your browser: {LINK}\n\n" + "hand  result  " * 8
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        page.set_content(html_part.render(scene, text))
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert LINK in page.locator("pre").inner_text().replace("\n", "")
    finally:
        context.close()
