"""Every code the engine can raise is listed in docs/engine-api.md (issue 25, finding 13:
`knock-required` was raised but missing there). The codes are read from the engine's source,
so a new one cannot be added without its line in the documentation."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "service" / "rules"
ENGINE_API = ROOT / "docs" / "engine-api.md"

# The engine's named errors: IllegalAction(code, ...), SeriesError(code, ...), and a class's
# fixed `code = "..."` (InvalidRules).
RAISED = re.compile(r'(?:IllegalAction|SeriesError)\(\s*"([a-z-]+)"|^\s+code = "([a-z-]+)"', re.MULTILINE)


def engine_codes() -> set[str]:
    codes = set()
    for path in RULES_DIR.glob("*.py"):
        for raised, fixed in RAISED.findall(path.read_text()):
            codes.add(raised or fixed)
    return codes


def test_the_scan_finds_the_engines_codes():
    # The scan itself must see the kinds of error there are, or the test below proves nothing.
    assert {"not-your-turn", "knock-required", "invalid-option", "series-over", "invalid-layoff",
            "invalid-seat"} <= engine_codes()


def test_every_engine_code_is_in_engine_api_md():
    text = ENGINE_API.read_text()
    # Named as code, in backticks or quotes (`.code == "invalid-option"`), not inside a longer word.
    missing = {code for code in engine_codes() if not re.search(rf'[`"]{code}[`"]', text)}
    assert missing == set()
