"""The repository documents itself: every relative link of the README and docs/ resolves inside
the repository (files and #anchors), nothing links outside it, and the tables of settings and
metrics in docs/operations.md are the service's own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from prometheus_client.core import CounterMetricFamily

from app.kinds import KINDS
from app.observability import Metrics
from app.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"(?<!\\)!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
# Addresses a page may show without their being links out of the repository: the service's own
# on loopback (a reader's local server).
LOCAL = re.compile(r"^https?://(127\.0\.0\.1|localhost)(:\d+)?(/|$)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped except ``-`` and ``_``,
    spaces to ``-`` (markup such as backticks dropped first)."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every heading's anchor on the page; a repeated one gets ``-1``, ``-2``, …"""
    seen: dict[str, int] = {}
    found = set()
    for heading in re.findall(r"^#{1,6} (.+)$", FENCE.sub("", page.read_text()), flags=re.M):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Path) -> list[str]:
    """The targets of the page's Markdown links and images, outside code blocks."""
    return LINK.findall(FENCE.sub("", page.read_text()))


def broken(page: Path) -> list[str]:
    """The page's links that point nowhere in the repository, or out of it."""
    problems = []
    for target in links(page):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):
            if not LOCAL.match(target):
                problems.append(f"{target}: points outside the repository")
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.is_relative_to(ROOT):
            problems.append(f"{target}: leaves the repository")
        elif not resolved.exists():
            problems.append(f"{target}: no such file")
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            problems.append(f"{target}: no heading #{anchor} in {resolved.name}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_link_resolves_inside_the_repository(page: Path) -> None:
    assert broken(page) == []


def test_the_docs_exist_and_the_readme_links_them() -> None:
    targets = links(ROOT / "README.md")
    for name in ("api.md", "design.md", "operations.md"):
        assert (ROOT / "docs" / name).exists()
        assert f"docs/{name}" in targets


def test_the_link_checker_finds_what_is_broken(tmp_path: Path) -> None:
    page = ROOT / "docs" / "link-checker-probe.md"
    page.write_text(
        "# Probe\n\n## A heading, with `code`\n\n[ok](#a-heading-with-code) [ok](../README.md)\n"
        "[gone](missing.md) [anchor](#nowhere) [out](../../shared/API.md)\n"
        "[web](https://example.com/) [local](http://127.0.0.1:8000/docs)\n"
        "```\n[in a code block](nowhere.md)\n```\n"
    )
    try:
        assert broken(page) == [
            "missing.md: no such file",
            "#nowhere: no heading #nowhere in link-checker-probe.md",
            "../../shared/API.md: leaves the repository",
            "https://example.com/: points outside the repository",
        ]
    finally:
        page.unlink()


def test_github_slugs() -> None:
    assert slug("Game sessions (n × n tic-tac-toe, n in a row wins)") == (
        "game-sessions-n--n-tic-tac-toe-n-in-a-row-wins"
    )
    assert slug("`POST /v1/games`") == "post-v1games"
    assert slug("Ending a game: clocks, resignation, draw offers") == (
        "ending-a-game-clocks-resignation-draw-offers"
    )


def test_the_api_reference_introduces_sessions_of_every_kind() -> None:
    """The "Game sessions" section of docs/api.md, up to its first endpoint, names every kind
    of the registry and the endings every kind has."""
    text = (ROOT / "docs" / "api.md").read_text()
    section = text.split("\n### Game sessions", 1)[1].split("\n### ", 1)[0]
    introduction = section.split("\n#### ", 1)[0].lower()
    for kind in KINDS:
        assert kind.face.title.lower() in introduction, kind.name
    for ending in ("clocks", "resignation", "draw offers"):
        assert ending in introduction


def table(page: Path, heading: str) -> list[list[str]]:
    """The rows of the first table after ``heading``, as cells (its header and rule skipped)."""
    lines = page.read_text().split(f"\n{heading}\n", 1)[1].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        if not line.startswith("|---"):
            rows.append([cell.strip() for cell in line.strip("|").split(" | ")])
    return rows[1:]


def test_the_settings_table_is_the_settings_model() -> None:
    rows = table(ROOT / "docs" / "operations.md", "## Configuration")
    documented = {row[0].strip("`"): row[1].strip("`") for row in rows}
    defaults = Settings.model_construct()
    expected = {}
    for name in Settings.model_fields:
        value = getattr(defaults, name)
        text = str(value).lower() if isinstance(value, bool) else str(value)
        text = "unset" if value is None else "[]" if value == [] else text
        expected[f"ADJUDICATOR_{name.upper()}"] = text
    assert documented.keys() == expected.keys()
    for variable, default in expected.items():
        assert _same(documented[variable], default), variable


def _same(documented: str, default: str) -> bool:
    """A documented default equals the model's (``10`` for ``10.0``)."""
    try:
        return float(documented) == float(default)
    except ValueError:
        return documented == default


def test_the_metrics_table_is_the_registry() -> None:
    rows = table(ROOT / "docs" / "operations.md", "## Monitoring")
    documented = {row[0].strip("`") for row in rows}
    exported = set()
    for family in Metrics().registry.collect():
        counter = family.type == "counter" or isinstance(family, CounterMetricFamily)
        exported.add(f"{family.name}_total" if counter else family.name)
    assert documented == exported
