"""The first minute, as a new user and the Docker image have it: nothing but Python and the
repository's files.

* The README's first Quick start command, run exactly as written in a copy of the checkout with
  none of the test extras, installs the service and serves it (``/healthz``, the play page, a
  game); every module of the installed package imports there, so every runtime import is a
  runtime dependency; the ``adjudicator game`` commands find their OpenAPI document in it.
* The Dockerfile's image, built without a Docker engine: its ``COPY`` instructions into an
  empty directory (``.dockerignore`` applied), its ``RUN``'s install (the README's ``pip
  install .``) into a fresh virtualenv, then its ``CMD`` and its ``HEALTHCHECK`` run with its
  ``ENV`` (bound to loopback, not ``0.0.0.0``, and a free port).

pip reaches the package index (or whatever the environment's pip configuration names) for the
dependencies and the build backend; without it the tests are skipped locally, with the reason,
and fail under CI=true. About 20 s each: one install each.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from app.records.signing import verify
from tests.installs import clean_environment, fail_or_skip_install
from tests.servers import free_port, wait_for, without_settings

ROOT = Path(__file__).resolve().parents[1]
TEST_ONLY = {"pytest", "hypothesis", "ruff", "mypy", "schemathesis", "playwright"}

pytestmark = pytest.mark.packaging


def quick_start() -> list[str]:
    """The commands of the README's Quick start block, as .ci/run reads them."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("\n## Quick start\n", 1)[1]
    block = re.search(r"^```\w*\n(.*?)^```", section, re.M | re.S)
    assert block, "README.md's Quick start has no fenced block"
    return block[1].splitlines()


def shipped() -> list[str]:
    """The files a fresh clone has: those git tracks (and new ones it would track)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True, timeout=60,
    ).stdout.decode()  # fmt: skip
    return [
        name for name in filter(None, listed.split("\0"))
        if (ROOT / name).is_symlink() or (ROOT / name).exists()  # not deleted, uncommitted
    ]  # fmt: skip


def checkout_copy(destination: Path) -> Path:
    """What a fresh clone has, links kept."""
    for name in shipped():
        target = destination / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target, follow_symlinks=False)
    return destination


def environment(**settings: str) -> dict[str, str]:
    """A new user's shell: no virtualenv active (this one's programs off the PATH), none of
    the suite's settings; then ``settings``."""
    env = without_settings(clean_environment())
    ours = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if p != ours)
    return {**env, **settings}


def get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.status, answer.read()


def post_json(url: str, body: object) -> tuple[int, dict[str, object]]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        return answer.status, json.loads(answer.read())


@contextmanager
def serving(command: list[str], cwd: Path, env: dict[str, str], log: Path) -> Iterator[str]:
    """``command`` started in a session of its own (a shell and what it starts); yields once
    ``/healthz`` answers on ``env``'s port, stops the whole session afterwards. An install that
    fails ends the command before that: the test fails (or skips offline) with its output."""
    url = f"http://127.0.0.1:{env['ADJUDICATOR_PORT']}"
    with log.open("wb") as sink:
        process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=sink, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def up() -> bool:
        if process.poll() is not None:
            fail_or_skip_install(f"{shlex.join(command)} ended", log.read_text()[-3000:])
        return get(f"{url}/healthz")[0] == 200

    try:
        wait_for(up, f"{shlex.join(command)} on {url}", seconds=300)  # an install comes first
        yield url
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait(timeout=15)


def finish_a_game(url: str) -> tuple[str, dict[str, object]]:
    """A tic-tac-toe game played to its end: its id and its signed record."""
    _, game = post_json(f"{url}/v1/games", {"game": "tictactoe", "n": 3})
    tokens = game["tokens"]
    assert isinstance(tokens, dict)
    for seq, (row, col) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]):
        token = tokens["1" if seq % 2 == 0 else "2"]
        request = urllib.request.Request(
            f"{url}/v1/games/{game['id']}/moves", json.dumps({"row": row, "col": col}).encode(),
            {"content-type": "application/json", "authorization": f"Bearer {token}"},
        )  # fmt: skip
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert answer.status == 201
    _, record = get(f"{url}/v1/games/{game['id']}/record")
    signed: dict[str, object] = json.loads(record)
    return str(game["id"]), signed


def assert_serves(url: str) -> None:
    assert get(f"{url}/healthz") == (200, b'{"status":"ok"}')
    status, page = get(f"{url}/")
    assert status == 200
    assert b"<html" in page
    status, game = post_json(f"{url}/v1/games", {"game": "reversi"})
    assert (status, game["game"], game["status"]) == (201, "reversi", "in_progress")


def run_in(python: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(python), *args], cwd=cwd, env=environment(), capture_output=True, text=True,
        timeout=120, check=False,
    )  # fmt: skip


# Every module of the installed package (not the checkout: run from elsewhere), imported.
IMPORT_ALL = """
import importlib, pkgutil, sys, app
assert app.__file__.startswith(sys.prefix), app.__file__
names = [m.name for m in pkgutil.walk_packages(app.__path__, "app.")
         if not m.name.endswith(".__main__")]
for name in names:
    importlib.import_module(name)
print(len(names))
"""


def assert_installed_alone(venv: Path, elsewhere: Path) -> None:
    """The virtualenv holds the service and its runtime dependencies only, and every module
    of the installed package imports in it."""
    python = venv / "bin" / "python"
    listed = run_in(python, "-m", "pip", "list", "--format=json", cwd=elsewhere)
    assert listed.returncode == 0, listed.stderr
    names = {entry["name"].lower() for entry in json.loads(listed.stdout)}
    assert "adjudicator" in names
    assert not names & TEST_ONLY, f"test extras installed: {names & TEST_ONLY}"
    imported = run_in(python, "-c", IMPORT_ALL, cwd=elsewhere)
    assert imported.returncode == 0, imported.stderr[-3000:]
    assert int(imported.stdout) > 50
    # The game commands read the OpenAPI document the package carries.
    listed_games = run_in(venv / "bin" / "adjudicator", "game", "--help", cwd=elsewhere)
    assert listed_games.returncode == 0, listed_games.stderr
    assert "make-move" in listed_games.stdout


def test_the_readmes_first_command_alone_installs_and_serves(tmp_path: Path) -> None:
    first = quick_start()[0]
    assert "[test]" not in first
    assert "pytest" not in first
    checkout = checkout_copy(tmp_path / "checkout")
    env = environment(ADJUDICATOR_PORT=str(free_port()))  # 8000 may be taken on this machine
    with serving(["bash", "-c", first], checkout, env, tmp_path / "first.log") as url:
        assert_serves(url)
        game_id, finished = finish_a_game(url)
    venv = checkout / ".venv"  # the command's own
    assert_installed_alone(venv, tmp_path)
    # Started again (as a reader would, the install done): the finished game is still there,
    # its record verified by the keys the service publishes now.
    again = ". .venv/bin/activate && adjudicator"
    with serving(["bash", "-c", again], checkout, env, tmp_path / "again.log") as url:
        status, kept = get(f"{url}/v1/archive/games/{game_id}")
        assert status == 200
        assert json.loads(kept) == finished
        _, keys = get(f"{url}/v1/keys")
        assert verify(finished, json.loads(keys)["keys"], "record").typ == "record"
    assert (checkout / "adjudicator.sqlite3").is_file()  # the archive, where it was started


# The Dockerfile, read as a builder reads it


@dataclass
class Image:
    """What the Dockerfile's instructions say: its environment, working directory, copies,
    install commands, user, command and health check."""

    env: dict[str, str] = field(default_factory=dict)
    workdir: str = "/"
    copies: list[tuple[list[str], str]] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)
    user: str = ""
    cmd: list[str] = field(default_factory=list)
    healthcheck: list[str] = field(default_factory=list)


def read_dockerfile(text: str) -> Image:
    image = Image()
    joined = re.sub(r"\\\n", " ", text)
    for line in joined.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        instruction, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        if instruction == "ENV":
            image.env.update(dict(pair.split("=", 1) for pair in shlex.split(rest)))
        elif instruction == "WORKDIR":
            image.workdir = rest
        elif instruction == "COPY":
            *sources, target = shlex.split(rest)
            image.copies.append((sources, target))
        elif instruction == "RUN":
            image.runs.append(rest)
        elif instruction == "USER":
            image.user = rest
        elif instruction == "CMD":
            image.cmd = json.loads(rest)
        elif instruction == "HEALTHCHECK":
            image.healthcheck = json.loads(rest.split("CMD", 1)[1])
    return image


def ignored(name: str, patterns: list[str]) -> bool:
    """Whether ``.dockerignore`` leaves ``name`` (a path in the context) out of the build."""
    parts = Path(name).parts
    for pattern in patterns:
        for depth in range(1, len(parts) + 1):
            if fnmatch.fnmatch("/".join(parts[:depth]), pattern.removeprefix("**/")) or (
                pattern.startswith("**/") and fnmatch.fnmatch(parts[depth - 1], pattern[3:])
            ):
                return True
    return False


def test_the_docker_images_install_serves_with_its_command_and_health_check(
    tmp_path: Path,
) -> None:
    image = read_dockerfile((ROOT / "Dockerfile").read_text())
    patterns = [
        line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]  # fmt: skip
    context = ROOT  # `docker build .` sends the working tree, all but what .dockerignore says
    root = tmp_path / "image"
    workdir = root / image.workdir.lstrip("/")
    workdir.mkdir(parents=True)
    for sources, target in image.copies:
        destination = workdir / target
        for source in sources:
            found = context / source
            assert found.exists(), f"COPY {source}: not in the build context"
            if found.is_dir():
                shutil.copytree(
                    found, destination, symlinks=True, dirs_exist_ok=True,
                    ignore=lambda d, names: [
                        n for n in names
                        if ignored(str(Path(d, n).relative_to(context)), patterns)
                    ],
                )  # fmt: skip
            else:
                into = destination / found.name if target.endswith("/") else destination
                into.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(found, into, follow_symlinks=False)
    # Nothing of a developer's machine gets in (node_modules, build outputs, caches): only
    # files a fresh clone has.
    copied = {
        str(path.relative_to(workdir)) for path in workdir.rglob("*")
        if path.is_file() or path.is_symlink()
    }  # fmt: skip
    assert copied <= set(shipped()), sorted(copied - set(shipped()))[:10]
    installs = [step.strip() for run in image.runs for step in run.split("&&") if "pip " in step]
    readme_install = re.search(r"pip install [^&]+", quick_start()[0])
    assert readme_install
    assert installs == [readme_install[0].strip()]  # the README's own install, nothing else
    assert image.user.isdigit()
    assert image.user != "0"
    venv = tmp_path / "venv"  # the image's Python, with only what the install brings
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    done = subprocess.run(
        [str(python), "-m", *installs[0].split()], cwd=workdir, env=environment(),
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        fail_or_skip_install("the image's pip install failed", done.stderr[-3000:])
    port = str(free_port())
    env = environment(**{**image.env, "ADJUDICATOR_HOST": "127.0.0.1", "ADJUDICATOR_PORT": port})
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
    with serving(image.cmd, workdir, env, tmp_path / "image.log") as url:
        assert_serves(url)
        health = subprocess.run(
            image.healthcheck, cwd=workdir, env=env, capture_output=True, timeout=30, check=False
        )
        assert health.returncode == 0, health.stderr
    assert_installed_alone(venv, tmp_path)
