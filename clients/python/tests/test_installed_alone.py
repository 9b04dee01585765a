"""The client as a bot author gets it: its wheel, built from clients/python, installed alone with
pip into a fresh virtualenv. Only httpx and its dependencies come with it, no part of the
server can be imported there, and it plays a whole game against a real server.

pip reaches the package index (or whatever the environment's pip configuration names) for
httpx and for the build backend; without it the tests are skipped locally, with the reason, and
fail under CI=true. About 20 s: one wheel, one virtualenv, for the module.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.installs import clean_environment, fail_or_skip_install
from tests.servers import uvicorn_server

CLIENT = Path(__file__).resolve().parents[1]
SERVER_PARTS = ("app", "fastapi", "starlette", "pydantic", "uvicorn")
# What pip and venv bring to any virtualenv.
TOOLS = {"pip", "setuptools", "wheel"}

pytestmark = pytest.mark.packaging


@dataclass(frozen=True)
class Venv:
    python: Path
    directory: Path  # where its programs run: no checkout on their sys.path

    def run(self, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.python), *args], cwd=self.directory, env=clean_environment(),
            capture_output=True, text=True, timeout=timeout, check=False,
        )  # fmt: skip


def pip(python: Path | str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(python), "-m", "pip", "--disable-pip-version-check", "--no-input", *args],
        cwd=cwd, env=clean_environment(), capture_output=True, text=True, timeout=180,
        check=False,
    )  # fmt: skip
    if done.returncode != 0:
        fail_or_skip_install(f"pip {' '.join(args[:1])} failed", done.stderr[-2000:])
    return done


@pytest.fixture(scope="module")
def venv(tmp_path_factory: pytest.TempPathFactory) -> Venv:
    """A fresh virtualenv with the client's wheel installed, and nothing else asked for."""
    root = tmp_path_factory.mktemp("installed-alone")
    source = root / "source"  # built from a copy: the build writes build/ and *.egg-info
    shutil.copytree(
        CLIENT, source, ignore=shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__")
    )
    pip(sys.executable, "wheel", "--no-deps", "--wheel-dir", str(root / "dist"), str(source),
        cwd=root)  # fmt: skip
    (wheel,) = (root / "dist").glob("adjudicator_client-*.whl")
    subprocess.run([sys.executable, "-m", "venv", str(root / "venv")], check=True, timeout=120)
    python = root / "venv" / "bin" / "python"
    pip(python, "install", str(wheel), cwd=root)
    return Venv(python, root)


def installed(venv: Venv) -> dict[str, list[str]]:
    """Every distribution in the virtualenv, with the names of those it requires (markers
    evaluated, extras not asked for left out)."""
    script = textwrap.dedent("""
        import json
        from importlib.metadata import distributions
        from pip._vendor.packaging.requirements import Requirement  # pip's own copy
        from pip._vendor.packaging.utils import canonicalize_name

        found = {}
        for dist in distributions():
            needs = []
            for text in dist.requires or []:
                requirement = Requirement(text)
                marker = requirement.marker
                if marker is None or marker.evaluate({"extra": ""}):
                    needs.append(canonicalize_name(requirement.name))
            found[canonicalize_name(dist.metadata["Name"])] = needs
        print(json.dumps(found))
    """)
    done = venv.run("-c", script)
    assert done.returncode == 0, done.stderr
    found: dict[str, list[str]] = json.loads(done.stdout)
    return found


def test_only_httpx_and_its_dependencies_are_installed(venv: Venv) -> None:
    found = installed(venv)
    assert found["adjudicator-client"] == ["httpx"]
    closure, todo = set(), ["adjudicator-client"]
    while todo:
        name = todo.pop()
        if name not in closure:
            closure.add(name)
            todo += found.get(name, [])
    assert set(found) - TOOLS == closure
    listed = json.loads(pip(venv.python, "list", "--format=json", cwd=venv.directory).stdout)
    assert {entry["name"].lower().replace("_", "-") for entry in listed} == set(found)
    assert not closure & {"fastapi", "starlette", "pydantic", "uvicorn", "adjudicator"}


def test_no_part_of_the_server_can_be_imported(venv: Venv) -> None:
    code = textwrap.dedent(f"""
        import importlib.util, adjudicator_client
        found = [name for name in {SERVER_PARTS!r} if importlib.util.find_spec(name)]
        print(found)
        assert not found
        assert adjudicator_client.__file__.startswith({str(venv.directory)!r})
    """)
    done = venv.run("-c", code)
    assert done.returncode == 0, done.stdout + done.stderr


# A bot as a user writes one: a Reversi game on 4 × 4 to its end, both colours greedy, a
# refusal caught by its class, the events read back, and the same through the async client.
BOT = """
import asyncio, sys
from adjudicator_client import AsyncClient, Client, EndEvent, NotYourTurn, token_for

with Client(sys.argv[1]) as api:
    game = api.create_game(game="reversi", height=4, width=4)
    try:
        api.make_move(game["id"], token_for(game, 2), 0, 1)
    except NotYourTurn as refused:
        print("refused", refused.code)
    state = api.get_game(game["id"])
    while (me := state["next_player"]) is not None:
        rows = api.get_board(game["id"])["rows"]
        moves = api.legal_moves(rows, "B" if me == 1 else "W")["moves"]
        best = max(moves, key=lambda move: move["flips"])
        state = api.make_move(game["id"], token_for(game, me), best["row"], best["col"])["state"]
    events = list(api.game_events(game["id"]))
    print("events", len(events), isinstance(events[-1], EndEvent))
    print("over", state["status"], state["reason"], state["move_count"])


async def main() -> None:
    async with AsyncClient(sys.argv[1]) as api:
        game = await api.create_game(n=3)
        for i, (row, col) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]):
            answer = await api.make_move(game["id"], token_for(game, 2 if i % 2 else 1), row, col)
        print("async", answer["state"]["status"], answer["winner"])


asyncio.run(main())
"""


def test_it_plays_a_whole_game(venv: Venv) -> None:
    (venv.directory / "bot.py").write_text(BOT)
    with uvicorn_server({"ADJUDICATOR_STORE_URL": "memory://"}) as url:
        done = venv.run("bot.py", url)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "refused not_your_turn"
    assert lines[1].startswith("events ")
    assert lines[1].endswith(" True")  # the last event is the end
    status, reason, moves = lines[2].split()[1:]
    assert status in ("won", "draw")
    assert reason == "no_moves"
    assert int(moves) > 0
    assert lines[3] == "async won 1"


def test_the_bot_is_a_command_of_the_distribution(venv: Venv) -> None:
    command = venv.python.parent / "adjudicator-bot"
    done = subprocess.run(
        [str(command), "--help"], cwd=venv.directory, env=clean_environment(),
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    for option in ("--server", "--key", "--engine", "--protocol", "--seek", "--games"):
        assert option in done.stdout
    assert "--accept-challenges" in done.stdout
