"""The optional HTML alternative of a game mail (MAIL_HTML): the hand as red and black cards and
the moves as mailto buttons, above the very same text as the plain part.

Inline styles only (mail clients drop <style> blocks and never run scripts), no remote images
(nothing to fetch, nothing that tells anyone the mail was opened), every piece of text escaped.
A button is a mailto: link to the mail's own reply address with the command as the body, so the
reply it writes is an ordinary reply from the player's own address.
"""
from __future__ import annotations

from html import escape
from urllib.parse import quote

from .mail_pieces import meld_owners
from .mail_text import subject
from .scene import Scene

SUITS = {"C": ("\u2663", "#111"), "S": ("\u2660", "#111"), "H": ("\u2665", "#c00"), "D": ("\u2666", "#c00")}
CARD_STYLE = ("display:inline-block;min-width:2.2em;padding:4px 3px;margin:2px;border:1px solid #999;"
              "border-radius:4px;background:#fff;text-align:center;font:bold 16px sans-serif;color:{color}")
BUTTON_STYLE = ("display:inline-block;padding:6px 10px;margin:3px;border-radius:4px;background:#1f5f3a;"
                "color:#fff;text-decoration:none;font:14px sans-serif")


def card(code: str) -> str:
    rank, suit = code[:-1], code[-1:]
    symbol, color = SUITS.get(suit, ("?", "#111"))
    rank = "10" if rank == "T" else rank
    return f'<span style="{CARD_STYLE.format(color=color)}">{escape(rank)}{symbol}</span>'


def commands(scene: Scene) -> list[str]:
    """The replies one click can write now: each legal action as its email command."""
    if not scene.my_turn or scene.over or not scene.reply_address:
        return []
    out = []
    for action in scene.view.get("legal_actions") or []:
        kind = action.get("type")
        if kind == "draw" and action.get("count", 1) > 1:
            out.append(f"take {action['count']}")
        elif kind == "meld":
            out.append("meld " + " ".join(action["cards"]))
        elif kind == "add_on":
            out.append(f"add {action['card']} to {action['meld'] + 1}")
        elif kind == "take_upcard" or action == {"type": "draw", "from": "discard"}:
            out.append("take")
        elif action == {"type": "draw", "from": "stock"}:
            out.append("draw stock")
        elif kind == "pass":
            out.append("pass")
        elif kind == "discard":
            out.append(f"discard {action['card']}")
        elif kind == "knock":
            out.append(f"knock {action['discard']}")
        elif kind == "big_gin":
            out.append("big gin")
        elif kind == "choose_dealer":
            out.append("deal" if action.get("deal") else "you deal")
    return list(dict.fromkeys(out))


def table_melds(view: dict, who) -> list[str]:
    """Mahjong gin's melds on the table, numbered as the commands name them, with whose cards."""
    if not view.get("table"):
        return []
    out = ['<p style="margin:6px 0 2px">Melds on the table:</p>']
    for number, meld in enumerate(view["table"], 1):
        owners = escape(meld_owners(meld, who))
        out.append(f'<div style="margin:2px 0"><span style="display:inline-block;width:2em;color:#555">'
                   f'{number}.</span>{"".join(card(c) for c in meld.get("cards") or [])} '
                   f'<span style="color:#555">({owners})</span></div>')
    return out


def button(scene: Scene, command: str) -> str:
    href = (f"mailto:{quote(scene.reply_address, safe='@+')}?subject={quote('Re: ' + subject(scene))}"
            f"&body={quote(command)}")
    return f'<a href="{escape(href)}" style="{BUTTON_STYLE}">{escape(command)}</a>'


def render(scene: Scene, text: str) -> str:
    # At a table the hand shown is the seat's own board's (none while it plays on no board).
    view = ((scene.view.get("my_board") or {}).get("view") or {}) if scene.is_table else scene.view
    arrangement = view.get("arrangement") or {}
    parts = ['<div style="font:15px sans-serif;color:#111;max-width:640px">']
    if view.get("hand") and not scene.over:
        rows = [("meld", meld) for meld in arrangement.get("melds") or []]
        rows.append(("deadwood", arrangement.get("deadwood") or []))
        parts.append('<p style="margin:4px 0">Your hand:</p>')
        for label, items in rows:
            parts.append(f'<div style="margin:2px 0"><span style="display:inline-block;width:5.5em;'
                         f'color:#555">{label}</span>{"".join(card(c) for c in items) or "-"}</div>')
        parts += table_melds(view, scene.who)
        pile = view.get("discard_pile") or []
        if pile:
            parts.append(f'<p style="margin:6px 0">Discard pile top: {card(pile[-1])} '
                         f'&nbsp; Stock: {escape(str(view.get("stock_count")))} cards</p>')
    buttons = commands(scene)
    if buttons:
        parts.append('<p style="margin:8px 0 2px">One click writes the reply; then send it:</p><p>'
                     + "".join(button(scene, c) for c in buttons) + "</p>")
    if scene.link:
        parts.append(f'<p><a href="{escape(scene.link)}" style="{BUTTON_STYLE}">Open your seat in the browser</a></p>')
    # On a 360 px phone the text wraps, its long link too (broken anywhere, as no space is in it).
    parts.append('<pre style="white-space:pre-wrap;overflow-wrap:anywhere;word-break:break-word;'
                 'font:13px monospace;border-top:1px solid #ccc;'
                 f'padding-top:8px">{escape(text)}</pre></div>')
    return "<!DOCTYPE html><html><body>" + "\n".join(parts) + "</body></html>\n"
