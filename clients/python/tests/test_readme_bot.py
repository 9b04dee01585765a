"""The bot of the README's "Python client" section is what it says: `mypy --strict` finds nothing
wrong with it (the client on the path as installed), and run against a real server it plays a
whole game and prints what the README says it printed."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.servers import uvicorn_server

README = Path(__file__).resolve().parents[3] / "README.md"
QUICK_START_URL = "http://127.0.0.1:8000"


def section(heading: str) -> str:
    text = README.read_text(encoding="utf-8")
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


@pytest.fixture(scope="module")
def bot() -> str:
    (code,) = re.findall(r"^```python\n(.*?)^```", section("Python client"), re.M | re.S)
    assert code.count(QUICK_START_URL) == 1  # the Quick start's server, which the test replaces
    return str(code)


def test_the_readme_bot_passes_mypy_strict(bot: str, tmp_path: Path) -> None:
    (tmp_path / "bot.py").write_text(bot)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "bot.py"],
        cwd=tmp_path, capture_output=True, text=True, check=False,  # outside the checkout
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_readme_bot_plays_a_whole_game(bot: str, tmp_path: Path) -> None:
    said = re.search(r"which printed `([^`]+)`", section("Python client"))
    assert said is not None
    with uvicorn_server({"ADJUDICATOR_STORE_URL": "memory://"}) as url:
        (tmp_path / "bot.py").write_text(bot.replace(QUICK_START_URL, url))
        done = subprocess.run(
            [sys.executable, "bot.py"], cwd=tmp_path, capture_output=True, text=True,
            timeout=120, check=False,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"(won|draw) no_moves [012] \{'1': \d+, '2': \d+\}\n", done.stdout)
    assert done.stdout.strip() == said[1]  # greedy on both sides: the same game every time
