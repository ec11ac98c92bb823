"""The pieces of a two-seat game's mail, each from what the seat may see: what happened, the hand
and the score, the deadline, the commands a reply may use (compose.py puts them together;
table_mail.py reuses some)."""
from __future__ import annotations

from datetime import timedelta

from .scene import Scene, cards, duration, name_of

# The commands a reply may use, in a paragraph: the answer to mail to an unknown reply address
# (compose.py) and the refusal of a line no command reads (inbound/commands.py) end with it.
HELP = ("commands: say <a message to the other seats>, take, pass, draw stock, draw discard (= take), discard 7H, knock 7H, gin, "
        "gin 7H, big gin, deal (first) or you deal (after winning the cut), resign, claim (the match, once your opponent's deadline has passed); "
        "in Mahjong gin also take 3 (the top 3 of the pile), meld 3H 4H 5H, add 6H to 2")

SHEET_NAME = 14  # the score sheet's columns: 4 + 22 + 6 + 2 x 14 and the gaps make 70


SUMMARY_EVENTS = ("hand_end", "hand_void", "resign", "timeout", "match_end")


def describe_event(event: dict, scene: Scene) -> str | None:
    """One line per event, in the reader's words; None for events not worth a line."""
    kind, who = event.get("type"), scene.who(event.get("seat"))
    if kind == "cut":
        drawn = event.get("cards") or {}
        said = f"The cut for the first dealer: {scene.who(0)} drew {drawn.get('0')}, {scene.who(1)} {drawn.get('1')}"
        outcome = {"deals": f"the lower card deals first: {scene.who(event.get('dealer'))}",
                   "chooses": f"the higher card chooses who deals first: {scene.who(event.get('chooser'))}",
                   "tie": "one rank, so the cut is made again"}.get(event.get("outcome"), "")
        return f"{said}; {outcome}."
    if kind == "choose_dealer":
        if event.get("deal"):
            return f"{who.capitalize()} chose to deal first."
        return f"{who.capitalize()} let {scene.who(event.get('dealer'))} deal first."
    if kind == "deal":
        mine = (event.get("cards") or {}).get(str(scene.seat))
        return (f"Hand {event.get('hand')} was dealt by {scene.who(event.get('dealer'))}; the upcard is "
                f"{event.get('upcard')}" + (f"; you were dealt {cards(mine)}" if mine else "") + ".")
    if kind == "take_upcard":
        return f"{who.capitalize()} took the upcard {event.get('card')}."
    if kind == "pass":
        return f"{who.capitalize()} passed."
    if kind == "draw":
        if event.get("from") == "discard" and event.get("count", 1) > 1:
            return f"{who.capitalize()} took {cards(event.get('cards'))} from the discard pile."
        if event.get("from") == "discard":
            return f"{who.capitalize()} took {event.get('card')} from the discard pile."
        drawn = f" ({event['card']})" if event.get("card") else ""
        return f"{who.capitalize()} drew from the stock{drawn}."
    if kind == "discard":
        return f"{who.capitalize()} discarded {event.get('card')}."
    if kind == "knock":
        face_down = f", discarding {event['discard']} face down" if event.get("discard") else ""
        return f"{who.capitalize()} knocked{face_down}."
    if kind == "big_gin":
        return f"{who.capitalize()} declared Big Gin."
    if kind == "meld":
        return f"{who.capitalize()} laid {cards(event.get('cards'))} on the table (meld {event.get('meld', 0) + 1})."
    if kind == "add_on":
        return f"{who.capitalize()} added {event.get('card')} to meld {event.get('meld', 0) + 1}."
    if kind == "hand_end":
        return f"Hand {event.get('hand')} is over: {hand_outcome(event.get('record') or {}, scene)}."
    if kind == "hand_void":
        return f"Hand {event.get('hand')} is void: the stock ran out, nobody scores."
    if kind in ("resign", "timeout"):
        verb = "resigned" if kind == "resign" else "ran out of time (the match was claimed)"
        return f"{who.capitalize()} {verb}."
    if kind == "match_end":
        return "The match is over."
    return None


def hand_outcome(record: dict, scene: Scene) -> str:
    result, winner, points = record.get("result"), record.get("winner"), record.get("points")
    if result == "void":
        return "void"
    knocker = record.get("knocker")
    undercut = "knocked and were undercut" if knocker == scene.seat else "knocked and was undercut"
    what = {"gin": "went gin", "big_gin": "declared Big Gin", "undercut": undercut,
            "tie": "knocked; a tie"}.get(result, "knocked")
    text = f"{scene.who(knocker)} {what}"
    if winner is not None:
        text += f"; {scene.who(winner)} scored {points}"
    return text


BONUSES = {"gin": ("gin_bonus", 25, "gin bonus"), "big_gin": ("big_gin_bonus", 31, "Big Gin bonus"),
           "undercut": ("undercut_bonus", 25, "undercut bonus")}


def points_explained(record: dict, rules: dict) -> str | None:
    """How the winner's points were made, bonus included: "Points: 2 (deadwood 9 less 7) +25
    undercut bonus = 27". None where the sum is not that (another scoring scheme says its own)."""
    result, knocked, defended = record.get("result"), record.get("knocker_points"), record.get("defender_points")
    if result not in ("knock", "gin", "big_gin", "undercut") or knocked is None or defended is None:
        return None
    key, default, label = BONUSES.get(result, (None, 0, ""))
    bonus = rules.get(key, default) if key else 0
    difference = abs(knocked - defended)
    multiplier = record.get("multiplier") or 1
    if (difference + bonus) * multiplier != record.get("points"):
        return None
    text = f"{difference} deadwood" if result in ("gin", "big_gin") else \
        f"{difference} (deadwood {max(knocked, defended)} less {min(knocked, defended)})"
    if bonus:
        text += f" +{bonus} {label}"
    if multiplier > 1:
        text = f"({text}) x{multiplier}"
    return f"Points: {text} = {record['points']}"


def arrangement_lines(view: dict) -> list[str]:
    hand = view.get("hand") or []
    arrangement = view.get("arrangement") or {}
    lines = [f"Your hand ({len(hand)} cards, deadwood {arrangement.get('deadwood_points', '?')}):"]
    for meld in arrangement.get("melds") or []:
        lines.append(f"  meld      {cards(meld)}")
    lines.append(f"  deadwood  {cards(arrangement.get('deadwood') or [])}")
    if arrangement.get("best_discard"):
        lines.append(f"  best discard {arrangement['best_discard']} leaves "
                     f"{arrangement.get('deadwood_after_discard')} deadwood")
    return lines


def score_line(scene: Scene) -> str:
    scores = scene.view.get("scores") or {}
    games = scores.get("games") or []
    target = (scene.view.get("rules") or {}).get("target")
    parts = []
    for index, game in enumerate(games, 1):
        totals = (game.get("final") or game).get("totals") or [0, 0]
        label = f"game {index}: " if len(games) > 1 else ""
        closed = " (closed)" if game.get("closed") else ""
        parts.append(f"{label}{scene.me} {totals[scene.seat]}, {scene.them} {totals[1 - scene.seat]}{closed}")
    won = scores.get("hands_won") or [0, 0]
    return (f"Score: {'; '.join(parts) or '-'} (target {target}); "
            f"hands won {won[scene.seat]}-{won[1 - scene.seat]}.")


def table_meld_lines(scene: Scene, table: list[dict] | None = None) -> list[str]:
    """Mahjong gin's melds on the table, numbered as `add 6H to 2` names them, with whose cards."""
    table = scene.view.get("table") if table is None else table
    if not table:
        return []
    lines = ["Melds on the table:"]
    for number, meld in enumerate(table, 1):
        lines.append(f"  {number}. {cards(meld.get('cards'))}  ({meld_owners(meld, scene.who)})")
    return lines


def meld_owners(meld: dict, who) -> str:
    """'Ann' or 'Ann: 8C 8D 8H; Bob: 8S' when the meld holds cards of both."""
    owners = meld.get("owners") or []
    if len(set(owners)) <= 1:
        return who(owners[0]) if owners else "-"
    groups: dict = {}
    for card, owner in zip(meld.get("cards") or [], owners):
        groups.setdefault(owner, []).append(card)
    return "; ".join(f"{who(owner)}: {cards(held)}" for owner, held in groups.items())


def state_lines(scene: Scene) -> list[str]:
    view = scene.view
    lines = arrangement_lines(view) + table_meld_lines(scene)
    if view.get("must_use"):
        lines.append(f"{view['must_use']}, the deepest card you took, must go on the table before you discard.")
    pile = view.get("discard_pile") or []
    lines.append(f"Discard pile top: {pile[-1] if pile else '(empty)'}    "
                 f"Stock: {view.get('stock_count')} cards    Knock limit: {view.get('knock_limit')}")
    known = (view.get("opponent") or {}).get("known_cards") or []
    if known:
        lines.append(f"{scene.them} holds (taken from the pile): {cards(known)}")
    lines.append(score_line(scene))
    return lines


def deadline_line(scene: Scene) -> str | None:
    if scene.deadline is None or scene.over or scene.view.get("to_move") is None:
        return None
    whose = "your" if scene.my_turn else f"{scene.them}'s"
    left = scene.deadline - scene.now
    when = scene.deadline.strftime("%Y-%m-%d %H:%M UTC")
    if left <= timedelta(0):
        return f"Deadline for {whose} move: {when} (passed)."
    return f"Deadline for {whose} move: {when} (in {duration(left)})."


def legal_commands(view: dict) -> list[str]:
    """What the seat may reply with now, as email commands (from the view's legal actions)."""
    legal = view.get("legal_actions") or []
    top = (view.get("discard_pile") or [None])[-1]
    lines = []
    kinds = [a.get("type") for a in legal]
    if "take_upcard" in kinds:
        lines.append(f"take            take the upcard {top}")
    if {"type": "draw", "from": "stock"} in legal:
        lines.append("draw stock      draw the top card of the stock")
    if {"type": "draw", "from": "discard"} in legal:
        lines.append(f"take            take {top} from the discard pile")
    pile = view.get("discard_pile") or []
    for count in sorted(a["count"] for a in legal if a.get("type") == "draw" and a.get("count", 1) > 1):
        lines.append(f"take {count:<10} take {cards(pile[-count:])} ({pile[-count]} must go on the table)")
    for action in (a for a in legal if a.get("type") == "meld"):
        lines.append(f"meld {cards(action['cards'])}")
    for action in (a for a in legal if a.get("type") == "add_on"):
        lines.append(f"add {action['card']} to {action['meld'] + 1}")
    if "pass" in kinds:
        lines.append("pass")
    discards = [a["card"] for a in legal if a.get("type") == "discard"]
    if discards:
        lines.append(f"discard CARD    one of {cards(discards)}")
    knocks = [a["discard"] for a in legal if a.get("type") == "knock"]
    if knocks:
        lines.append(f"knock CARD      one of {cards(knocks)}")
        arrangement = view.get("arrangement") or {}
        if arrangement.get("deadwood_after_discard") == 0:
            lines.append(f"gin             (knock {arrangement.get('best_discard')} with no deadwood)")
        elif "table" in view:  # Mahjong gin: every knock allowed is a gin
            lines.append(f"gin             (discard {knocks[0]}; every other card goes on the table)")
    if "big_gin" in kinds:
        lines.append("big gin         all 11 cards in melds")
    if "choose_dealer" in kinds:
        lines.append("deal            you deal the first hand (your card of the cut was the higher)")
        lines.append("you deal        your opponent deals the first hand")
    return lines


def hand_record_lines(record: dict, scene: Scene, seats=None, heading: str | None = None) -> list[str]:
    """Both hands as they were laid out at the end of a hand (the whole record is public then).
    `seats`: the two seats that played it (a table's board), the reader's own first by default."""
    seats = seats or (scene.seat, 1 - scene.seat)
    lines = [heading or f"Hand {record.get('hand')}: {hand_outcome(record, scene)}."]
    knocker = record.get("knocker")
    hands = record.get("hands") or {}
    if "table_points" in record:  # Mahjong gin: each scores the table's cards less the hand's
        for seat in seats:
            base = record["table_points"][seat] - record["hand_points"][seat]
            bonus = f" + {record['scores'][seat] - base} for gin" if record["scores"][seat] != base else ""
            lines.append(f"  {scene.who(seat)}: table {record['table_points'][seat]} less hand "
                         f"{record['hand_points'][seat]} ({cards(hands.get(str(seat)))}){bonus} = "
                         f"{record['scores'][seat]}")
        return lines + table_meld_lines(scene, record.get("table") or [])
    if knocker is None:
        return lines + [f"  {scene.who(seat)}: {cards(hands.get(str(seat)))}" for seat in seats]
    defender = next((seat for seat in seats if seat != knocker), None)
    for seat, role in ((knocker, "knocker"), (defender, "defender")):
        melds = "  ".join(f"[{cards(m)}]" for m in record.get(f"{role}_melds") or [])
        line = f"  {scene.who(seat)} ({role}): {melds or 'no melds'}  deadwood {cards(record.get(f'{role}_deadwood'))}"
        line += f" = {record.get(f'{role}_points')}"
        if role == "defender" and record.get("defender_layoffs"):
            line += f"  (laid off {cards(record['defender_layoffs'])})"
        lines.append(line)
    explained = points_explained(record, scene.view.get("rules") or {})
    if explained:
        lines.append(f"  {explained}")
    if record.get("knock_discard"):
        lines.append(f"  knock discard: {record['knock_discard']}")
    return lines


def score_sheet_lines(scene: Scene) -> list[str]:
    scores = scene.view.get("scores") or {}
    names = [name_of(scene.names, s)[:SHEET_NAME] for s in (0, 1)]
    width = max(8, *(len(n) for n in names))
    rows = []
    running = [0, 0]
    for row in scores.get("sheet") or []:
        winner = row.get("winner")
        if row.get("scores"):  # Mahjong gin: both players score each hand
            running = [running[s] + row["scores"][s] for s in (0, 1)]
        elif winner is not None and 0 in (row.get("games_credited") or [0]):
            running[winner] += row.get("points") or 0
        what = row.get("result") or "?"
        if what == "undercut" and winner is not None:  # the points went to the one who undercut
            what = f"{names[winner][:8]} undercut {names[row['knocker']][:8]}"  # at most 26: lines stay in 72
        elif row.get("knocker") is not None:
            what = f"{names[row['knocker']]}: {what}"
        points = row.get("points") if winner is not None else "-"
        rows.append((row.get("hand"), what, points, list(running)))
    column = max([22] + [len(what) for _, what, _, _ in rows])
    lines = [f"{'hand':>4}  {'result':{column}}  {'points':>6}  {names[0]:>{width}}  {names[1]:>{width}}"]
    lines += [f"{hand:>4}  {what:{column}}  {points:>6}  {totals[0]:>{width}}  {totals[1]:>{width}}"
              for hand, what, points, totals in rows]
    for index, game in enumerate(scores.get("games") or [], 1):
        final = game.get("final")
        if not final:
            continue
        lines.append(f"game {index} closed, won by {names[final['winner']]}:")
        for key, label in (("hand_points", "hand points"), ("shutout_bonus", "shutout"),
                           ("game_bonus", "game bonus"), ("box_bonus", "boxes"), ("totals", "total")):
            values = final.get(key) or [0, 0]
            lines.append(f"      {label:24}  {values[0]:>{width}}  {values[1]:>{width}}")
    return lines


def result_line(scene: Scene) -> str:
    result = scene.view.get("result") or {}
    winner = result.get("winner")
    reason = {"resign": " (by resignation)", "timeout": " (on time)"}.get(result.get("reason"), "")
    if winner is None:
        return f"Match over: a draw{reason}."
    who = "you win" if winner == scene.seat else f"{scene.who(winner)} wins"
    return f"Match over: {who} by {result.get('margin')}{reason}."


PHASES = {"dealer_choice": "choose who deals first", "upcard_offer": "the upcard offer", "draw": "draw", "discard": "discard",
          "last_discard_offer": "the last discard's offer"}
