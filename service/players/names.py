r"""Players' names: normalised (NFKC), compared ignoring case, and refused when they hold invisible
characters, mix scripts, or look like a name already taken (Unicode TR39's skeleton, from the
`confusable-homoglyphs` package's copy of confusables.txt). So nobody passes for someone else, or
for the house bot, with a Cyrillic о, a full-width letter or a zero-width joiner (issue 26).

Looser still since issue 38: the skeleton also drops accents and other marks (Hóuse, Ālice), reads
small capitals as letters (ʜouse), digits as the letters they pass for (Hou5e) and ignores every
character that is neither a letter nor a digit (H o u s e, Alice_); the house bot's name is reserved
with every name that begins like it (HouseBot, House (level 5)). A name holding `/` or `\`, or only
dots, is refused: it could not be routed (PUT /me/blocks/{name}, /players/{name})."""
from __future__ import annotations

import functools
import re
import unicodedata

from confusable_homoglyphs import categories, confusables

from ..core.errors import Problem

# Default-ignorable and blank-looking characters that are not of category Cf (those are all refused).
_INVISIBLE = re.compile("[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u2800\u3164\ufe00-\ufe0f\uffa0"
                        "\U000e0100-\U000e01ef]")
# Scripts that are written together (TR39's "highly restrictive" sets): Japanese, Korean, Chinese.
_WRITTEN_TOGETHER = ({"HAN", "HIRAGANA", "KATAKANA"}, {"HAN", "HANGUL"}, {"HAN", "BOPOMOFO"})


def normalised(name: str) -> str:
    """The name as stored and shown: NFKC (full-width letters become plain ones), trimmed."""
    return unicodedata.normalize("NFKC", name).strip()


def name_key(name: str) -> str:
    """Names are unique ignoring case (Unicode case folding: 'STRASSE' and 'straße' are one name)."""
    return normalised(name).casefold()


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype. The package lists, for a character of confusables.txt,
    its prototype (one entry) or, for a prototype, the characters confusable with it (many): a
    character with one entry maps to it, and of two that name only each other the smaller is kept."""
    table = {}
    for char, entries in confusables.confusables_data.items():
        if len(entries) != 1:
            continue
        target = entries[0]["c"].replace("\u200e", "")  # the file wraps right-to-left glyphs in marks
        back = confusables.confusables_data.get(target, [])
        if len(back) == 1 and back[0]["c"].replace("\u200e", "") == char and char < target:
            continue
        table[char] = target
    return table


def _skeleton_once(text: str) -> str:
    table = _prototypes()
    mapped = "".join(table.get(char, char) for char in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


# Digits and signs read as the letters they pass for (after TR39, which maps 0 to O and 1 to l already).
# Case folded first, so an upper-case I (which passes for an l) is an i: i, l and 1 are one letter here.
_AS_LETTERS = str.maketrans({"0": "o", "1": "l", "i": "l", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b"})
_LATIN_LETTER = re.compile(r"LATIN (?:LETTER SMALL CAPITAL|SMALL LETTER|CAPITAL LETTER) ([A-Z])(?: |$)")


def _plain_letter(char: str) -> str:
    """A Latin letter of another shape as its plain one: ʜ (small capital H) as h."""
    if char.isascii():
        return char
    found = _LATIN_LETTER.match(unicodedata.name(char, ""))
    return found.group(1).lower() if found else char


def skeleton(name: str) -> str:
    """The key two names that look alike share: TR39's skeleton, ignoring case ('House' with a
    Cyrillic о, 'Housel' and 'HouseI'; taken before and after case folding, as the table is
    case-sensitive), then without marks, with small capitals and digits read as letters and
    without anything that is neither letter nor digit ('Hóuse', 'ʜouse', 'Hou5e', 'H o u s e',
    'Alice_'). A name of signs only keeps its TR39 skeleton."""
    text = normalised(name)
    bare = "".join(_plain_letter(char) for char in unicodedata.normalize("NFD", text)
                   if char.isalnum() and not unicodedata.category(char).startswith("M"))
    once = _skeleton_once(bare).casefold().translate(_AS_LETTERS)
    loose = _skeleton_once(once).casefold().translate(_AS_LETTERS)
    strict = _skeleton_once(_skeleton_once(text).casefold()).casefold()
    return (loose or strict)[:160]  # the column's size


def refuse_if_unfit(name: str) -> None:
    """422 name-not-allowed for invisible characters or mixed scripts (in the normalised name)."""
    text = normalised(name)
    if "/" in text or "\\" in text or not text.strip("."):
        raise Problem("name-not-allowed", "a name may not hold / or \\, nor be only dots: it could not be part of "
                                          "an address such as /players/{name}")
    if any(unicodedata.category(char) == "Cf" for char in text) or _INVISIBLE.search(text) or \
            any(unicodedata.category(char) in ("Zs", "Zl", "Zp") and char != " " for char in text):
        raise Problem("name-not-allowed", "a name may not hold invisible characters (zero-width, format or blank "
                                          "characters)")
    scripts = {categories.alias(char) for char in text} - {"COMMON", "INHERITED"}
    if len(scripts) > 1 and not any(scripts <= together for together in _WRITTEN_TOGETHER):
        raise Problem("name-not-allowed", f"a name is written in one script, not several ({', '.join(sorted(scripts))}"
                                          "): letters of one script can pass for another's")


def refuse_if_reserved(name: str, reserved: str, bot: bool, local: bool) -> None:
    """The house bot's name (HOUSE_BOT_NAME), and every look-alike of it, is reserved from the first
    start: only a bot account registered from this host (a loopback address, as the Procfile's `bot:`
    line calls) may take it, so nobody passes for the computer before its process registers."""
    if reserved and skeleton(name).startswith(skeleton(reserved)) and not (bot and local):
        raise Problem("name-reserved", f"the name {name!r} is the house bot's (or looks like it, or begins like "
                                       "it): it is reserved for the service's own bot")
