"""Rules in words, for invitations: what a person agrees to before joining."""
from __future__ import annotations

SHUTOUT = {"double": "a shutout doubles the game's score", "plus_100": "a shutout adds 100",
           "none": "no shutout bonus", "double_total": "a shutout doubles the winner's entire score"}
DEALER = {"alternate": "the deal alternates", "winner": "the hand's winner deals next",
          "loser": "the hand's loser deals next"}


def rules_in_words(rules: dict) -> str:
    get = rules.get
    parts = [f"{get('preset', 'standard')} Gin Rummy"
             + (", Hollywood scoring (three games at once)" if get("scoring") == "hollywood" else ""),
             f"first to {get('target', 100)} points"]
    if get("oklahoma"):
        parts.append("the upcard sets the knock limit (Oklahoma)")
    elif get("knocking_allowed", True):
        parts.append(f"knock with {get('knock_limit', 10)} or less deadwood")
    else:
        parts.append("no knocking: only gin ends a hand")
    parts.append(f"gin bonus {get('gin_bonus', 25)}, undercut {get('undercut_bonus', 25)}"
                 + (f", Big Gin {get('big_gin_bonus', 31)}" if get("big_gin", True) else ""))
    per = "game" if get("box_per") == "game" else "hand"
    parts.append(f"game bonus {get('game_bonus', 100)}, {get('box_bonus', 25)} per {per} won")
    parts.append(SHUTOUT.get(get("shutout"), "a shutout doubles the game's score"))
    parts.append(DEALER.get(get("next_dealer"), "the deal alternates"))
    return "; ".join(parts) + "."
