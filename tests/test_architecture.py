"""The shape of service/ (docs/architecture.md) and of the client's package (client/gin_client):
modules of a few hundred lines, no import circle between modules (imports inside functions count
too), a docstring on every package, every module of service/ named in its package's paragraph of
docs/architecture.md. The layers themselves are import-linter's contracts in pyproject.toml, which
`make test` checks first."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import grimp
import pytest

SERVICE = Path(__file__).resolve().parent.parent / "service"
CLIENT = SERVICE.parent / "client" / "gin_client"
MAX_LINES = 600  # a cap, not a target: a module is cut where its concept ends
MAX_CLIENT_LINES = 600  # a command family or a bot whole in one module (seats.py: a seat's commands, watch and play)


def modules() -> list[Path]:
    return sorted(SERVICE.rglob("*.py"))


@pytest.mark.parametrize("path", modules(), ids=lambda path: str(path.relative_to(SERVICE.parent)))
def test_no_module_of_the_service_passes_600_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{path.relative_to(SERVICE.parent)} has {lines} lines: split it by what it holds"


@pytest.mark.parametrize("path", sorted(CLIENT.rglob("*.py")), ids=lambda path: str(path.relative_to(CLIENT.parent)))
def test_no_module_of_the_client_passes_600_lines(path):
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_CLIENT_LINES, f"{path.relative_to(CLIENT.parent)} has {lines} lines: split it by what it holds"


def circles(graph) -> list[list[str]]:
    """The import graph's strongly connected components of more than one module (Tarjan's)."""
    edges = {module: graph.find_modules_directly_imported_by(module) for module in graph.modules}
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(start):  # iterative: the graph is deep enough to matter for recursion
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


@pytest.mark.parametrize("package", ["service", "gin_client"])
def test_no_two_modules_import_each_other_even_from_inside_a_function(package):
    graph = grimp.build_graph(package, cache_dir=None)  # every import statement, wherever it stands
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle_made_by_a_function_level_import():
    graph = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        graph.add_module(module)
    graph.add_import(importer="pkg.a", imported="pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.c")
    graph.add_import(importer="pkg.c", imported="pkg.a")  # e.g. `from .a import x` inside a function
    assert circles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]


@pytest.mark.parametrize("package", sorted(path.parent for root in (SERVICE, CLIENT)
                                            for path in root.rglob("__init__.py")),
                         ids=lambda path: str(path.relative_to(SERVICE.parent)))
def test_every_package_says_its_job_in_a_docstring(package):
    docstring = ast.get_docstring(ast.parse((package / "__init__.py").read_text(encoding="utf-8")))
    assert docstring and len(docstring.split()) >= 8, f"{package.name}/__init__.py needs a docstring saying its job"


def test_the_architecture_page_shows_the_layers_as_the_code_has_them():
    """docs/architecture.md's diagram is scripts/architecture.py's output: a new import between
    packages (or a new layer) shows on the page, or this fails until the page is regenerated."""
    import sys
    sys.path.insert(0, str(SERVICE.parent / "scripts"))
    try:
        from architecture import diagram
    finally:
        sys.path.remove(str(SERVICE.parent / "scripts"))
    page = (SERVICE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    shown = page.split("<!-- architecture: generated by scripts/architecture.py -->\n```text\n", 1)[1]
    shown = shown.split("```\n<!-- architecture: end -->", 1)[0]
    assert shown == diagram(), "run scripts/architecture.py and put its output in docs/architecture.md"


PAGE = SERVICE.parent / "docs" / "architecture.md"


def package_paragraphs() -> dict[str, str]:
    """docs/architecture.md's paragraph of each package, by its path under service/: the paragraph
    that begins **`service/<path>/`."""
    found = {}
    for paragraph in PAGE.read_text(encoding="utf-8").split("\n\n"):
        heading = re.match(r"\*\*`service/([\w/]+)/`", paragraph)
        if heading:
            found[heading.group(1)] = paragraph
    return found


def named_modules(paragraph: str) -> set[str]:
    """The modules a paragraph names: `name.py` in backquotes (a path with a / is another package's)."""
    return set(re.findall(r"`([a-z_0-9]+\.py)`", paragraph))


@pytest.mark.parametrize("path", [path for path in modules() if path.name != "__init__.py"],
                         ids=lambda path: str(path.relative_to(SERVICE.parent)))
def test_every_module_is_named_in_its_packages_paragraph_of_the_architecture_page(path):
    """A newcomer finds every module on the page: a module added without a word there fails."""
    package = path.parent.relative_to(SERVICE).as_posix()
    paragraph = package_paragraphs().get(package)
    assert paragraph, f"docs/architecture.md has no paragraph beginning **`service/{package}/`"
    assert path.name in named_modules(paragraph), \
        f"docs/architecture.md's paragraph of service/{package}/ does not name `{path.name}`: say what it holds"


def test_the_architecture_page_names_no_module_that_is_not_there():
    """The other way round: a module renamed or removed does not live on in the page."""
    stale = {f"service/{package}/{name}" for package, paragraph in package_paragraphs().items()
             for name in named_modules(paragraph) if not (SERVICE / package / name).is_file()}
    assert stale == set()


def test_the_page_check_finds_a_module_left_unnamed():
    paragraph = "**`service/x/`: a package.** Its routes (`routes.py`) and `models.py`; schemas.py bare."
    assert named_modules(paragraph) == {"routes.py", "models.py"}


@pytest.mark.parametrize("path", [p for p in sorted(CLIENT.glob("*.py")) + sorted((CLIENT / "bots").glob("*.py"))
                                  if p.name not in ("__init__.py", "__main__.py")],
                         ids=lambda path: str(path.relative_to(CLIENT.parent)))
def test_every_module_of_the_client_and_its_bots_is_named_in_the_packages_map(path):
    """gin_client/__init__.py is the client's map: a module of its root or of bots/ added without
    a word there fails (cli/'s modules are its commands, named by main.py)."""
    assert path.name in (CLIENT / "__init__.py").read_text(encoding="utf-8"), \
        f"client/gin_client/__init__.py does not name {path.name}: say what it holds"


def source_paths_in(text: str) -> set[str]:
    return set(re.findall(r"(?<![\w/])((?:service|client|tests|bench)/[\w/.-]+\.py)(?!\w)", text))


def test_every_source_file_the_docs_name_is_there():
    """A module moved into a sub-package (notify's rooms) does not live on under its old path in
    the README or docs/ (bench/README.md is a record of what was measured then, so it may)."""
    root = SERVICE.parent
    pages = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    stale = {(page.name, path) for page in pages for path in source_paths_in(page.read_text(encoding="utf-8"))
             if not (root / path).is_file()}
    assert stale == set()


def test_the_docs_path_check_finds_a_moved_module():
    assert source_paths_in("see `service/notify/wording.py` and service/x.py; not bench/y.pyc") == \
        {"service/notify/wording.py", "service/x.py"}
