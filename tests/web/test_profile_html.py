"""The leaderboard and profile pages as the server renders them (no browser): the security headers
and no inline code, as every page; the SVG chart's points, its labels and its escaping; the
profile's address answering HTML only to a client that asks for HTML first."""
from __future__ import annotations

import re

import pytest

from service.site.chart import rating_chart

from ..players.support import new_player
from ..players.test_profiles import rated_match
from .test_pages import check_headers

BROWSER = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def test_the_chart_has_one_point_per_match_and_escapes_its_text():
    svg = str(rating_chart([(1662.31, "Match 1: won against <b>"), (1600.0, "Match 2"), (1700.4, "Match 3")]))
    points = re.search(r'<polyline class="rating-line" points="([^"]+)"', svg).group(1).split()
    assert len(points) == 3 == svg.count("<circle")
    ys = [float(p.split(",")[1]) for p in points]
    assert ys[2] < ys[0] < ys[1]  # higher ratings are drawn higher up
    assert "&lt;b&gt;" in svg and "<b>" not in svg
    assert ">1700<" in svg and ">1600<" in svg  # the axis' highest and lowest rating
    assert 'role="img"' in svg and "3 rated matches, from 1662 to 1700" in svg
    single = str(rating_chart([(1500.0, "only")]))
    assert single.count("<circle") == 1 and not re.search(r"\bnan\b", single.lower())
    assert str(rating_chart([])) == ""


@pytest.mark.parametrize("path", ["/leaderboard", "/players/Ann"])
def test_the_pages_carry_the_security_headers_and_no_inline_code(client, path):
    ann, bob = new_player(client, "Ann"), new_player(client, "Bob")
    rated_match(client, ann, bob)
    page = client.get(path, headers=BROWSER)
    assert page.status_code == 200 and page.mimetype == "text/html", path
    check_headers(page.headers, html=True)
    html = page.get_data(as_text=True)
    assert "<script" not in re.sub(r'<script type="module" src="/assets/js/[a-z_]+\.js"></script>', "", html)  # files only
    assert not re.search(r"\son[a-z]+\s*=", html) and " style=" not in html and "<style" not in html
    assert not re.search(r"(src|href)=\"(https?:)?//", html)
    assert ann["token"] not in html and bob["token"] not in html


@pytest.mark.parametrize("accept", [None, "*/*", "application/json", "application/json, text/html;q=0.5"])
def test_the_profiles_address_answers_json_unless_html_comes_first(client, accept):
    new_player(client, "Ann")
    answer = client.get("/players/Ann", headers={"Accept": accept} if accept else {})
    assert answer.status_code == 200 and answer.mimetype == "application/json" and answer.get_json()["name"] == "Ann"
    assert "Accept" in answer.headers["Vary"]
    page = client.get("/players/Ann", headers=BROWSER)
    assert page.mimetype == "text/html" and "Accept" in page.headers["Vary"]


def test_an_unknown_name_is_a_404_page_for_a_browser_and_a_problem_for_a_client(client):
    page = client.get("/players/Nobody", headers=BROWSER)
    assert page.status_code == 404 and page.mimetype == "text/html" and "No such player" in page.get_data(as_text=True)
    problem = client.get("/players/Nobody")
    assert problem.status_code == 404 and problem.get_json()["code"] == "player-not-found"


@pytest.mark.parametrize("offset", ["x", "-1", "1" * 10])
def test_a_bad_leaderboard_offset_is_refused(client, offset):
    assert client.get(f"/leaderboard?offset={offset}").status_code == 400
