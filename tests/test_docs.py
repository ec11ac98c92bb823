"""The README and the pages of docs/ name only what exists: every `make TARGET` a target of the
Makefile, every Procfile process (`web:`, `worker:` ...) a line of the Procfile, every
`flask --app service GROUP COMMAND` a command of the app's CLI; the README's two commands are the
Makefile's; every relative link points at a file that exists (and its #anchor at a heading of it);
docs/index.md links every page; the README stays a front door of at most 250 lines."""
from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from flask.cli import FlaskGroup, ScriptInfo

from .conftest import ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
README_MAX_LINES = 250
# Written `word:` in the docs but no Procfile process: the fields of a Server-Sent Events frame
# (docs/api.md, "Reading the streams"), a URL scheme, and a key of Prometheus' own configuration
# (docs/operations.md).
NOT_PROCESSES = {"id", "event", "data", "retry", "mailto", "scrape_configs"}

FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)


def page_name(page: Path) -> str:
    return str(page.relative_to(ROOT))


def code_of(text: str) -> list[str]:
    """What a page shows as code: each fenced block, and each `code span` (paragraph by paragraph,
    a span broken over two lines joined again)."""
    blocks = FENCE.findall(text)
    spans = [re.sub(r"\s+", " ", span) for paragraph in re.split(r"\n\s*\n", FENCE.sub("", text))
             for span in re.findall(r"`([^`]+)`", paragraph)]
    return blocks + spans


def mentions(pattern: str) -> dict[str, set[str]]:
    """What `pattern`'s first group names in the code of each page: name -> the pages naming it."""
    found: dict[str, set[str]] = {}
    for page in PAGES:
        for code in code_of(page.read_text(encoding="utf-8")):
            for name in re.findall(pattern, code, re.MULTILINE):
                found.setdefault(name, set()).add(page_name(page))
    return found


def make_targets() -> set[str]:
    return set(re.findall(r"^([A-Za-z][\w.-]*)\s*:(?!=)", (ROOT / "Makefile").read_text(), re.MULTILINE))


def procfile_processes() -> set[str]:
    return set(re.findall(r"^([a-z]\w*):", (ROOT / "Procfile").read_text(), re.MULTILINE))


def test_every_make_target_the_docs_name_is_in_the_makefile():
    named = mentions(r"(?:^|[\s;&|(])make ([a-z][\w-]*)")
    assert {"run", "test", "openapi", "bench", "demo"} <= set(named)  # the scan finds what it looks for
    unknown = {target: pages for target, pages in named.items() if target not in make_targets()}
    assert not unknown, f"make targets the docs name that the Makefile lacks: {unknown}"


def test_every_procfile_process_the_docs_name_is_in_the_procfile():
    named = mentions(r"^([a-z]\w*):$")
    assert {"web", "release", "worker", "mail", "bot"} <= set(named)
    unknown = {name: pages for name, pages in named.items()
               if name not in procfile_processes() and name not in NOT_PROCESSES}
    assert not unknown, f"Procfile processes the docs name that the Procfile lacks: {unknown}"


@pytest.fixture(scope="module")
def cli(tmp_path_factory):
    """The `flask --app service` command line, with the commands Flask's extensions add. Its context
    is closed after the module: FlaskGroup.get_command pushes the app's context into it, which
    left pushed would be the app of every later `flask` command run by a test in this process."""
    from service import create_app
    database = tmp_path_factory.mktemp("cli") / "cli.sqlite3"
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    group = FlaskGroup(create_app=lambda: app)
    with click.Context(group, obj=ScriptInfo(create_app=lambda: app)) as ctx:
        yield group, ctx


def resolve(cli, words: list[str]) -> list[str]:
    """The words that name no command: each word names a subcommand of the group before it, until a
    word names a command that is not a group (what follows are its arguments)."""
    command, ctx = cli
    for at, word in enumerate(words):
        if not isinstance(command, click.Group):
            return []
        command = command.get_command(ctx, word)
        if command is None:
            return words[:at + 1]
    return []


def test_every_flask_command_the_docs_name_is_a_command_of_the_app(cli):
    named = mentions(r"flask (?:--app service )?([a-z][\w-]*(?:(?: \| | )[a-z][\w-]*)*)")
    assert {"db upgrade", "notify worker", "admin backup"} <= {" ".join(n.split()[:2]) for n in named}
    unknown = {}
    for words, pages in named.items():
        group, _, rest = words.partition(" ")
        # `flask admin suspend | unsuspend | rename`: each alternative is a command of the group
        paths = [[group, *alternative.split(" ")[:1]] for alternative in rest.split(" | ")] if " | " in rest \
            else [words.split(" ")]
        for path in paths:
            if resolve(cli, path):
                unknown[" ".join(resolve(cli, path))] = pages
    assert not unknown, f"flask commands the docs name that the app lacks: {unknown}"


def test_the_readmes_two_commands_are_the_makefiles():
    said = re.search(r"^# The two commands: (.*)$", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert said, "the Makefile's first comment names the two commands"
    makefiles = re.findall(r"`make (\w+)`", said.group(1))
    section = README.read_text().split("## The two commands\n", 1)[1].split("\n## ", 1)[0]
    readmes = re.findall(r"^make (\w+)\b", FENCE.search(section).group(1), re.MULTILINE)
    assert readmes == makefiles == ["run", "test"]
    assert set(readmes) <= make_targets()


def links() -> list[tuple[Path, str]]:
    """(page, target) of every relative link and image of the README and docs/, code left out."""
    found = []
    for page in PAGES:
        text = re.sub(r"`[^`\n]*`", "", FENCE.sub("", page.read_text(encoding="utf-8")))
        found += [(page, target) for target in re.findall(r"\]\(([^)\s]+)\)", text)
                  if not re.match(r"[a-z][a-z0-9+.-]*:", target)]  # http:, https:, mailto: ...
    return found


def anchors(page: Path) -> set[str]:
    """The #anchors GitHub makes of a page's headings: lower case, punctuation dropped, spaces as -."""
    headings = re.findall(r"^#{1,6} (.+)$", FENCE.sub("", page.read_text(encoding="utf-8")), re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-") for heading in headings}


def test_every_relative_link_points_at_a_file_and_a_heading_that_exist():
    found = links()
    assert len(found) > 50 and any("#" in target for _, target in found)
    broken = []
    for page, target in found:
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.exists():
            broken.append(f"{page_name(page)}: {target} (no such file)")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{page_name(page)}: {target} (no such heading)")
    assert not broken, "broken links:\n" + "\n".join(broken)


def test_the_index_links_every_page_of_the_docs():
    linked = {(DOCS / target.partition("#")[0]).resolve() for page, target in links() if page == DOCS / "index.md"}
    missing = [page_name(page) for page in PAGES[1:] if page != DOCS / "index.md" and page.resolve() not in linked]
    assert not missing, f"docs/index.md does not link: {missing}"


def test_the_readme_is_a_front_door():
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines: move the detail to a page of docs/"
