"""Every page and asset answers with the security headers, and the pages carry no inline script
or style (the Content-Security-Policy forbids both), no secret and no third-party URL."""
from __future__ import annotations

import re

import pytest

PAGES = ["/", "/my-games", "/join/AbCdEfGhIjKlMnOpQrStUv", "/play/AbCdEfGhIjKlMnOpQrStUv", "/docs",
         "/docs/walkthrough"]
ASSETS = ["/assets/site.css", "/assets/js/play.js", "/assets/js/api.js"]


def check_headers(headers, html: bool) -> None:
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["X-Frame-Options"] == "DENY"
    policy = headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy and "unsafe-eval" not in policy
    if html:
        assert "script-src 'self'" in policy and "default-src 'self'" in policy


@pytest.mark.parametrize("path", PAGES)
def test_pages_carry_the_security_headers_and_no_inline_code(client, path):
    page = client.get(path)
    assert page.status_code == 200 and page.mimetype == "text/html", path
    check_headers(page.headers, html=True)
    html = page.get_data(as_text=True)
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert 'src="/assets/' in tag and 'type="module"' in tag, tag  # nothing inline
    assert "</script>" not in html.replace("></script>", "")
    assert not re.search(r"\son[a-z]+\s*=", html) and " style=" not in html and "<style" not in html
    assert not re.search(r"(src|href)=\"(https?:)?//", html), "no third-party (CDN) resource"


@pytest.mark.parametrize("path", ASSETS)
def test_assets_and_api_answers_carry_them_too(client, path):
    answer = client.get(path)
    assert answer.status_code == 200
    check_headers(answer.headers, html=False)
    assert answer.headers["Content-Security-Policy"].startswith("default-src 'none'")


def test_api_answers_and_problems_carry_them(client):
    for answer in (client.get("/health"), client.get("/games/nosuch"), client.get("/no/such/page")):
        check_headers(answer.headers, html=False)


def test_a_page_for_a_malformed_game_id_is_a_problem(client):
    answer = client.get("/play/not%20an%20id")
    assert answer.status_code == 404 and answer.get_json()["code"] == "not-found"
    check_headers(answer.headers, html=False)


def test_docs_show_fields_examples_and_problems(client):
    html = client.get("/docs").get_data(as_text=True)
    assert 'href="/docs/walkthrough"' in html
    # Request fields, answer fields, an example and the problems of the operations people start with.
    assert "<code>invite_code</code>" in html and "<code>legal_actions</code>" in html
    assert "<summary>Example</summary>" in html and 'id="problem-link-used"' in html
    walkthrough = client.get("/docs/walkthrough").get_data(as_text=True)
    assert "A turn with curl" in walkthrough and "curl -s -X POST" in walkthrough
