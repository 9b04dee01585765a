"""The house's layout, as ``docs/design.md`` draws it: its wings import one way, no circle, and
the session core and the stores never name a kind.

Every import of every module of ``app/`` is read from its source (those made only for the type
checker and those inside functions too: an import is an arrow, wherever it is written).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.kinds import KINDS

APP = Path(__file__).resolve().parent.parent / "app"

# What each wing may import of the house (besides itself), from the bottom up: the rules are
# pure; the session core knows the rules only; the contract, the records and the kinds build on
# the core; the stores keep the core's sessions and know no kind, contract or record; the league's
# tournament algorithms (pairings, standings, reports) are pure and import nothing of the house.
MAY_IMPORT = {
    "rules": set(),
    "sessions": {"rules"},
    "contract": {"rules", "sessions"},
    "records": {"rules", "sessions", "contract"},
    "kinds": {"rules", "sessions", "contract", "records"},
    "stores": {"rules", "sessions", "league"},
    "league": set(),
}
# The wings that keep games without knowing what game they are.
KIND_BLIND = ("sessions", "stores")
# The commands that run the service's code offline, each with the module whose work it does
# (audit and verify: the audit's reading; check: the questions the kinds declare): what they
# import, however far, reaches it and nothing of the HTTP edge, whose work they do without it.
OFFLINE_COMMANDS = {"app.cli.records": "app.records.reading", "app.cli.check": "app.kinds"}
EDGE = ("api", "main")
# The longest module the house holds, in lines; modules over it are being split (ceilings they
# may only shrink under, until each is split).
MOST_LINES = 900
BEING_SPLIT: dict[str, int] = {}


def module_name(path: Path) -> str:
    parts = path.relative_to(APP.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in APP.rglob("*.py")}


def imported(name: str, path: Path) -> Iterator[str]:
    """The modules of the house ``name`` imports (a package's names as the modules they are)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            else:
                source = node.module or ""
            candidates = [source, *(f"{source}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            candidates = [alias.name for alias in node.names]
        else:
            continue
        for candidate in candidates:
            if candidate in MODULES and candidate != name:
                yield candidate


GRAPH = {name: set(imported(name, path)) for name, path in MODULES.items()}


def wing(name: str) -> str:
    """``app.stores.redis.store`` → ``stores``; a module of the edge → its own name."""
    return name.split(".")[1] if name.count(".") else name


def cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in GRAPH[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(GRAPH):
        if node not in index:
            visit(node)
    return found


def test_the_graph_is_read_whole() -> None:
    """The reader sees the arrows it should: a module's imports of its own wing and below."""
    assert "app.sessions.kind" in GRAPH["app.stores.redis.store"]
    assert "app.kinds.gomoku" in GRAPH["app.kinds"]
    assert len(MODULES) > 80


def test_no_module_imports_itself_back_in_a_circle() -> None:
    assert cycles() == []


@pytest.mark.parametrize("lower", sorted(MAY_IMPORT))
def test_a_wing_imports_only_the_wings_below_it(lower: str) -> None:
    allowed = MAY_IMPORT[lower] | {lower}
    up = {
        f"{name} → {target}"
        for name, targets in GRAPH.items()
        if wing(name) == lower
        for target in targets
        if wing(target) not in allowed
    }
    assert up == set()


def reached(name: str) -> set[str]:
    """Every module ``name`` imports, and every module those import, however far."""
    seen: set[str] = set()
    pending = [name]
    while pending:
        for target in GRAPH[pending.pop()] - seen:
            seen.add(target)
            pending.append(target)
    return seen


@pytest.mark.parametrize(("command", "work"), sorted(OFFLINE_COMMANDS.items()))
def test_the_offline_commands_reach_nothing_of_the_edge(command: str, work: str) -> None:
    assert work in reached(command)  # the work itself, read through
    assert {name for name in reached(command) if wing(name) in EDGE} == set()


def kind_words() -> set[str]:
    """The names a kind goes by: its name and its title (``tictactoe``, ``tic-tac-toe``)."""
    return {word for kind in KINDS for word in (kind.name, kind.face.title.lower())}


@pytest.mark.parametrize("blind", KIND_BLIND)
def test_the_core_and_the_stores_name_no_kind(blind: str) -> None:
    pattern = re.compile("|".join(re.escape(word) for word in sorted(kind_words())), re.I)
    named = {
        f"{path.relative_to(APP)}: {found.group()}"
        for path in (APP / blind).rglob("*")
        if path.suffix in (".py", ".lua")
        for found in [pattern.search(path.read_text(encoding="utf-8"))]
        if found
    }
    assert named == set()


def test_no_module_is_longer_than_a_room_should_be() -> None:
    long = {}
    for path in APP.rglob("*.py"):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        room = str(path.relative_to(APP))
        if lines > BEING_SPLIT.get(room, MOST_LINES):
            long[room] = lines
    assert long == {}
    assert all(MODULES[f"app.{room[:-3].replace('/', '.')}"] for room in BEING_SPLIT)


# The files of app/ that may name Connect Four: its rules, its kind, its page module and the
# kinds' list. The house takes every other thing of it from the kind's declarations.
CONNECT_FOUR = re.compile(r"connect[\W_]*(?:4|four)", re.IGNORECASE)  # across a line break too
NAMING_CONNECT_FOUR = {
    "rules/connect4.py",
    "kinds/connect4.py",
    "web/kinds/connect4.js",
    "kinds/__init__.py",
}


def test_only_its_own_four_files_name_the_fourth_kind() -> None:
    naming = {
        path.relative_to(APP).as_posix()
        for path in APP.rglob("*")
        if path.is_file()
        and path.suffix in (".py", ".js", ".lua", ".html", ".css", ".md", ".txt")
        and CONNECT_FOUR.search(path.read_text(encoding="utf-8"))
    }
    assert naming == NAMING_CONNECT_FOUR
