"""docs/configuration.md lists every setting the code reads: each environment variable and
app.config key named in service/ (os.environ, setting("X"), .config["X"], .config.get("X")), each
setting a module registers with its default (core.settings, limits, games.waiting_slots), and each variable the
Procfile and the Makefile read. A setting added without a line in the document fails here; so does
a line for a setting the code no longer reads."""
from __future__ import annotations

import re

from ..conftest import ROOT

DOC = ROOT / "docs" / "configuration.md"
READS = [
    re.compile(r"""os\.(?:environ\.get|getenv)\(\s*["']([A-Z][A-Z0-9_]+)["']"""),
    re.compile(r"""os\.environ\[\s*["']([A-Z][A-Z0-9_]+)["']\s*\]"""),
    re.compile(r"""\bsetting\(\s*["']([A-Z][A-Z0-9_]+)["']"""),
    re.compile(r"""\.config(?:\.get|\.setdefault)?[\[(]\s*["']([A-Z][A-Z0-9_]+)["']"""),
]
SHELL_READS = re.compile(r"\$\{([A-Z][A-Z0-9_]+)")  # the Procfile's ${PORT:-8000}
MAKE_VARIABLES = re.compile(r"^([A-Z][A-Z0-9_]+)\s*\?=", re.MULTILINE)  # make run PORT=9000
# Set by the code for a library, never read as a setting: not the operator's to choose.
NOT_SETTINGS = {"RATELIMIT_HEADERS_ENABLED", "GIN_TRUST_REQUEST_ID", "PYTEST_ARGS", "PYTHON"}


def read_by_the_code() -> dict[str, str]:
    """Every setting's name -> one place that reads it."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "service").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for pattern in READS:
            for name in pattern.findall(text):
                found.setdefault(name, str(path.relative_to(ROOT)))
    for name in SHELL_READS.findall((ROOT / "Procfile").read_text()):
        found.setdefault(name, "Procfile")
    for name in MAKE_VARIABLES.findall((ROOT / "Makefile").read_text()):
        found.setdefault(name, "Makefile")
    import service.app  # noqa: F401 - every feature registers its settings' defaults on import
    from service.core import limits, settings
    from service.games import waiting_slots
    for module in (settings, limits, waiting_slots):
        for name in module.DEFAULTS:
            found.setdefault(name, module.__name__)
    return {name: where for name, where in found.items() if name not in NOT_SETTINGS}


def documented() -> set[str]:
    return set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)`", DOC.read_text(encoding="utf-8"), re.MULTILINE))


def test_every_setting_the_code_reads_is_documented():
    missing = {name: where for name, where in read_by_the_code().items() if name not in documented()}
    assert not missing, f"settings read by the code but not in docs/configuration.md: {missing}"


def test_the_document_lists_no_setting_the_code_does_not_read():
    assert documented() - set(read_by_the_code()) == set()


def test_the_scan_finds_what_it_is_meant_to(tmp_path):
    """The patterns catch each way the code reads a setting (so the first test is not vacuous)."""
    sample = ('os.environ.get("A_ONE") os.environ["A_TWO"] setting("A_THREE") '
              'current_app.config["A_FOUR"] app.config.get("A_FIVE") os.getenv("A_SIX")')
    assert {name for pattern in READS for name in pattern.findall(sample)} == \
        {"A_ONE", "A_TWO", "A_THREE", "A_FOUR", "A_FIVE", "A_SIX"}
    assert {"DATABASE_URL", "METRICS_TOKEN", "LOG_FORMAT", "WAIT_PER_TOKEN", "PORT"} <= set(read_by_the_code())
