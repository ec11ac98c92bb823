"""Block and report from the pages (issue 38, item 2): Ann, signed in, blocks Bob on his profile
and reports him there; /player lists the block with Unblock; on their game's seat page she blocks
him from the other players' list, and his messages leave her page. Nothing tells Bob."""
from __future__ import annotations

import json
import uuid

from .support import api, new_player
from .test_browser import wait_until


def unique(name: str) -> str:
    return f"{name}{uuid.uuid4().hex[:6]}"


def signed_in(new_context, site, player: dict):
    page = new_context().new_page()
    page.goto(f"{site.base_url}/player")
    page.evaluate(f"localStorage['gin.player.v1'] = {json.dumps(json.dumps(player))}")
    return page


def blocks_of(site, player: dict) -> list[str]:
    return [b["name"] for b in api(site, "GET", "/me/blocks", player["token"])["blocks"]]


def test_block_and_report_on_the_profile_and_unblock_on_the_player_page(site, new_context):
    ann, bob = new_player(site, unique("Ann")), new_player(site, unique("Bob"))
    page = signed_in(new_context, site, ann)
    page.goto(f"{site.base_url}/players/{bob['name']}")
    wait_until(page.locator("#moderation").is_visible, "the block and report panel")
    page.get_by_role("button", name=f"Block {bob['name']}").click()
    wait_until(lambda: "You blocked" in page.locator("#moderation-status").inner_text(), "the block said")
    assert blocks_of(site, ann) == [bob["name"]]
    assert page.get_by_role("button", name=f"Unblock {bob['name']}").count() == 1

    page.get_by_role("button", name=f"Report {bob['name']}").click()
    page.locator("#moderation select.report-reason").select_option("name")
    page.locator("#moderation input.report-details").fill("an offensive name")
    page.locator("#moderation button.report-send").click()
    wait_until(lambda: "Reported" in page.locator("#moderation-status").inner_text(), "the report said")
    with site.app.app_context():
        from service.core.extensions import db
        from service.players.models import Player, Report
        target = db.session.query(Player).filter_by(name=bob["name"]).one()
        [report] = db.session.query(Report).filter_by(reported_player_id=target.id).all()
        assert (report.reason, report.details) == ("name", "an offensive name")

    # His own profile has no such panel; a signed-out browser neither.
    page.goto(f"{site.base_url}/players/{ann['name']}")
    page.wait_for_load_state("networkidle")
    assert not page.locator("#moderation").is_visible()

    page.goto(f"{site.base_url}/player")
    row = wait_until(lambda: page.locator("#blocks-list li").count() == 1 and page.locator("#blocks-list li"),
                     "the block listed")
    assert bob["name"] in row.inner_text() and not page.locator("#blocks-empty").is_visible()
    row.get_by_role("button", name=f"Unblock {bob['name']}").click()
    wait_until(lambda: "unblocked" in page.locator("#blocks-status").inner_text(), "the unblock said")
    assert blocks_of(site, ann) == []


def test_block_a_player_from_the_seat_page_and_their_messages_go(site, new_context):
    ann, bob = new_player(site, unique("Ann")), new_player(site, unique("Bob"))
    offer = api(site, "POST", "/challenges", ann["token"], {"to": bob["name"]})
    game_id = api(site, "POST", f"/challenges/{offer['challenge_id']}/accept", bob["token"])["game_id"]
    api(site, "POST", f"/games/{game_id}/messages", bob["token"], {"text": "you play like a bot"})
    page = signed_in(new_context, site, ann)
    page.goto(f"{site.base_url}/play/{game_id}")
    wait_until(lambda: page.locator("#messages li").count() == 1, "Bob's message")
    others = wait_until(lambda: page.locator("#others li").count() == 1 and page.locator("#others li"), "the other players")
    assert bob["name"] in others.inner_text()
    # Block from the message and from the list are the same block: the list's button.
    others.get_by_role("button", name=f"Block {bob['name']}").click()
    wait_until(lambda: "You blocked" in page.locator("#others-status").inner_text(), "the block said")
    assert blocks_of(site, ann) == [bob["name"]]
    wait_until(lambda: page.locator("#messages li").count() == 0, "his message gone from her page")
    with page.expect_response(lambda r: "/messages?" in r.url) as read:
        page.reload()
    assert read.value.status == 200
    wait_until(lambda: page.locator("#others li").count() == 1, "the other players again")
    assert page.locator("#messages li").count() == 0  # the server hides them too
    assert page.locator("#others").get_by_role("button", name=f"Unblock {bob['name']}").count() == 1

    # The messages' own Block button: unblocked again, his message is back with one.
    page.locator("#others").get_by_role("button", name=f"Unblock {bob['name']}").click()
    wait_until(lambda: blocks_of(site, ann) == [], "unblocked")
    page.reload()
    item = wait_until(lambda: page.locator("#messages li").count() == 1 and page.locator("#messages li"), "his message back")
    item.get_by_role("button", name=f"Block {bob['name']}").click()
    wait_until(lambda: page.locator("#messages li").count() == 0, "his message gone again")
    assert blocks_of(site, ann) == [bob["name"]]
