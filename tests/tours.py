"""The pages' tours: every ```` ```console ```` block of README.md and docs/*.md, run as a reader
runs it, against a real server, and compared with the answers the page shows.

A block is a reader's terminal: a line ``$ COMMAND`` is a command, the lines under it up to the
next command (or the block's end) are what it printed, stdout and stderr together, a blank line
included. Each page runs in one bash, block after block, so shell variables (``ID``, ``T1``, …)
and files (``game.json``) carry from a command to the next; against one server of its own: the
``adjudicator`` command with the settings' defaults (the README's first command, per-client
limits included) on 127.0.0.1 and a free port, in a fresh temporary working directory. Commands
run exactly as written: curl reads ``$CURL_HOME/.curlrc``, which sends ``localhost:8000`` (and
``127.0.0.1:8000``) to that server, and ``adjudicator game`` reads ``ADJUDICATOR_URL``.

What a page shows is compared with what the command printed, line by line, "ids, tokens and
instants aside": those are compared by shape, and a value a page shows stands for one live value
throughout the page (the game id an answer shows is the one its ETag and Location name later).

* Masked by shape: an RFC 3339 instant; a token or a key id (43 base64url characters, anywhere);
  an Ed25519 signature (86); a SHA-256 hash in hex (64); a game id (16 base64url characters) as
  the value of ``id`` or ``rematch``, and wherever that id appears afterwards (an ETag, a path);
  the integers under ``remaining_ms`` and ``spent_ms``, which count wall-clock time.
* Everything else must be equal: every key of every JSON object, every element of every array,
  every line.

A shown answer may be shortened with ``…`` (U+2026), and is then compared as a subset:

* in a JSON document (a line that is one, or an event stream's ``data:`` line), ``…`` where an
  object's member would stand means "and other members" — the members shown must be there and
  equal, others may be anything (``{…,"version":2,…}``; ``{…}`` is any object); where an
  array's element would stand, any number of elements (``["h8",…]``); where a value would stand,
  any value (``"tokens":…``). An object without ``…`` must have exactly the members shown, in
  any order;
* a line holding only ``…`` stands for any number of lines (the headers ``curl -i`` prints).

A ``…`` inside a JSON string is a character like any other. A command must not name an id or a
token an earlier answer showed (a reader's are others): it takes them from an answer, e.g.
``ID=$(jq -r .id game.json)``.

Every step is a command a reader can paste (a loop for a run of moves, ``sleep`` for a wait):
nothing runs that the page does not show.

``python -m tests.tours [PAGE…]`` checks the pages (default: all) and prints each command whose
answer differs, with its page, line and first difference (exit status 1). ``--write`` writes
every answer anew, from one run, in the page's shape: its ``…`` kept where they still fit, its
ids and tokens where the live ones stand for them (a page keeps its ids), everything else as the
service answered, this run's instants and clock times included, so that a page's answers agree
with one another; a new answer is written whole, to be shortened by hand if need be.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.servers import adjudicator_command, without_settings

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BINARIES = {"bash": "bash", "curl": "curl", "jq": "jq", "openssl": "openssl"}  # name: package
ELLIPSIS = "…"
COMMAND_SECONDS = 60  # a command that takes longer hangs (a stream of a game that never ends)

FENCE_OPEN = re.compile(r"^(?P<indent>[ \t]*)```console[ \t]*$")
FENCE_CLOSE = re.compile(r"^[ \t]*```[ \t]*$")


# --- The pages ------------------------------------------------------------------------------


@dataclass
class Command:
    """A ``$ COMMAND`` line of a console block and the answer the page shows under it."""

    page: Path
    line: int  # 1-based, the command's
    text: str
    shown: list[str]  # without the block's indentation
    indent: str
    start: int  # 0-based index of the first answer line in the page's lines; end: past the last
    end: int

    @property
    def where(self) -> str:
        return f"{named(self.page)}:{self.line}"


def named(page: Path) -> Path:
    """The page's path as a reader of the repository names it."""
    return page.relative_to(ROOT) if page.is_relative_to(ROOT) else page


def commands(page: Path) -> list[Command]:
    """Every command of the page's console blocks, in order."""
    lines = page.read_text().split("\n")
    found: list[Command] = []
    block: str | None = None  # the open block's indentation
    for index, line in enumerate(lines):
        if block is None:
            if opened := FENCE_OPEN.match(line):
                block = opened["indent"]
            continue
        if FENCE_CLOSE.match(line):
            block = None
            continue
        text = line.removeprefix(block)
        if text.startswith("$ "):
            found.append(Command(page, index + 1, text[2:], [], block, index + 1, index + 1))
        elif not found or found[-1].end != index:
            raise ValueError(f"{page.name}:{index + 1}: a console block's answer with no command")
        else:
            found[-1].shown.append(text)
            found[-1].end = index + 1
    return found


# --- Shown answers: JSON with elisions ---------------------------------------------------------


class Elided:
    """``…``: a member, an element or a value left out."""

    def __repr__(self) -> str:
        return ELLIPSIS


ELIDED = Elided()


@dataclass
class Obj:
    """A JSON object as a page shows it: its members in order, ``ELIDED`` where ``…`` stands."""

    items: list[tuple[str, Any] | Elided]

    @property
    def open(self) -> bool:
        return any(item is ELIDED for item in self.items)

    def members(self) -> dict[str, Any]:
        return dict(item for item in self.items if not isinstance(item, Elided))


@dataclass
class Arr:
    """A JSON array as a page shows it, ``ELIDED`` where ``…`` stands for any elements."""

    items: list[Any]


NUMBER_OR_WORD = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null")
SPACE = re.compile(r"[ \t]*")


class Unparsable(ValueError):
    pass


def template(text: str) -> Any:
    """A shown JSON document, ``…`` read as above."""
    value, end = _value(text, SPACE.match(text, 0).end())  # type: ignore[union-attr]
    end = SPACE.match(text, end).end()  # type: ignore[union-attr]
    if end != len(text):
        raise Unparsable(f"extra text at column {end + 1}")
    return value


def _value(text: str, i: int) -> tuple[Any, int]:
    if text.startswith(ELLIPSIS, i):
        return ELIDED, i + 1
    if text.startswith("{", i):
        return _object(text, i + 1)
    if text.startswith("[", i):
        return _array(text, i + 1)
    if text.startswith('"', i):
        try:
            return json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined,no-any-return]
        except json.JSONDecodeError as error:
            raise Unparsable(str(error)) from None
    if word := NUMBER_OR_WORD.match(text, i):
        return json.loads(word[0]), word.end()
    raise Unparsable(f"no JSON value at column {i + 1}")


def _object(text: str, i: int) -> tuple[Obj, int]:
    items: list[tuple[str, Any] | Elided] = []
    i = _skip(text, i)
    if text.startswith("}", i):
        return Obj(items), i + 1
    while True:
        if text.startswith(ELLIPSIS, i):
            items.append(ELIDED)
            i += 1
        else:
            key, i = _value(text, i)
            if not isinstance(key, str):
                raise Unparsable(f"a member's name expected at column {i + 1}")
            i = _skip(text, i)
            if not text.startswith(":", i):
                raise Unparsable(f"':' expected at column {i + 1}")
            value, i = _value(text, _skip(text, i + 1))
            items.append((key, value))
        i = _skip(text, i)
        if text.startswith("}", i):
            return Obj(items), i + 1
        if not text.startswith(",", i):
            raise Unparsable(f"',' or '}}' expected at column {i + 1}")
        i = _skip(text, i + 1)


def _array(text: str, i: int) -> tuple[Arr, int]:
    items: list[Any] = []
    i = _skip(text, i)
    if text.startswith("]", i):
        return Arr(items), i + 1
    while True:
        value, i = _value(text, i)
        items.append(value)
        i = _skip(text, i)
        if text.startswith("]", i):
            return Arr(items), i + 1
        if not text.startswith(",", i):
            raise Unparsable(f"',' or ']' expected at column {i + 1}")
        i = _skip(text, i + 1)


def _skip(text: str, i: int) -> int:
    return SPACE.match(text, i).end()  # type: ignore[union-attr]


def render(value: Any) -> str:
    """A template (or a plain JSON value) as a page shows it: compact, as the service writes."""
    if isinstance(value, Elided):
        return ELLIPSIS
    if isinstance(value, Obj):
        return "{" + ",".join(_member(item) for item in value.items) + "}"
    if isinstance(value, Arr):
        return "[" + ",".join(render(item) for item in value.items) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(_member(item) for item in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(render(item) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _member(item: tuple[str, Any] | Elided) -> str:
    if isinstance(item, Elided):
        return ELLIPSIS
    return f"{json.dumps(item[0], ensure_ascii=False)}:{render(item[1])}"


# --- Masks: ids, tokens and instants ------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    name: str
    pattern: str
    bound: bool  # a shown value stands for one live value throughout the page


INSTANT = Shape("instant", r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)", False)
TOKEN = Shape("token or key id", r"[A-Za-z0-9_-]{43}", True)
SIGNATURE = Shape("signature", r"[A-Za-z0-9_-]{86}", False)
HASH = Shape("hash", r"[0-9a-f]{64}", False)
GAME_ID = Shape("game id", r"[A-Za-z0-9_-]{16}", True)
SHAPES = (INSTANT, TOKEN, SIGNATURE, HASH)  # found anywhere; a game id only as a GAME_ID_KEYS'
GAME_ID_KEYS = frozenset({"id", "rematch"})
WALL_CLOCK_KEYS = frozenset({"remaining_ms", "spent_ms"})  # integers compared by type
WORD = r"[A-Za-z0-9_-]"


def _anywhere(pattern: str) -> str:
    return rf"(?<!{WORD})(?:{pattern})(?!{WORD})"


@dataclass
class Masks:
    """The page's masked values: which live value each shown one stands for, and back."""

    shown_to_live: dict[str, dict[str, str]] = field(default_factory=dict)  # by shape name
    live_to_shown: dict[str, dict[str, str]] = field(default_factory=dict)

    def snapshot(self) -> tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]:
        return (
            {k: dict(v) for k, v in self.shown_to_live.items()},
            {k: dict(v) for k, v in self.live_to_shown.items()},
        )

    def restore(self, saved: tuple[dict[str, dict[str, str]], dict[str, dict[str, str]]]) -> None:
        self.shown_to_live, self.live_to_shown = saved

    def bind(self, shape: Shape, shown: str, live: str) -> str | None:
        """Record that ``shown`` stands for ``live``; why not, if either stood for another."""
        if not shape.bound:
            return None
        forward = self.shown_to_live.setdefault(shape.name, {})
        backward = self.live_to_shown.setdefault(shape.name, {})
        if forward.get(shown, live) != live:
            return f"the page's {shape.name} {shown} stood for {forward[shown]}, here for {live}"
        if backward.get(live, shown) != shown:
            return f"this {shape.name}, {live}, was shown as {backward[live]}, here as {shown}"
        forward[shown] = live
        backward[live] = shown
        return None

    def known(self, side: dict[str, dict[str, str]]) -> list[str]:
        return sorted(side.get(GAME_ID.name, {}), key=len, reverse=True)

    def pieces(self, text: str, shown: bool) -> list[tuple[Shape | None, str]]:
        """``text`` cut into plain text and masked values (the page's own ids, if ``shown``)."""
        known = self.known(self.shown_to_live if shown else self.live_to_shown)
        alternatives = [f"(?P<s{i}>{_anywhere(s.pattern)})" for i, s in enumerate(SHAPES)]
        if known:
            alternatives.append(f"(?P<id>{'|'.join(re.escape(value) for value in known)})")
        found: list[tuple[Shape | None, str]] = []
        at = 0
        for match in re.finditer("|".join(alternatives), text):
            found.append((None, text[at : match.start()]))
            name = match.lastgroup or ""
            found.append((GAME_ID if name == "id" else SHAPES[int(name[1:])], match[0]))
            at = match.end()
        found.append((None, text[at:]))
        return found

    def compare_text(self, shown: str, live: str) -> str | None:
        """Why ``live`` is not the ``shown`` text, masked values aside; None if it is."""
        page, answer = self.pieces(shown, True), self.pieces(live, False)
        if [s for s, _ in page] == [s for s, _ in answer]:
            for (shape, a), (_, b) in zip(page, answer, strict=True):
                if shape is None and a != b:
                    break
                if shape is not None and (why := self.bind(shape, a, b)):
                    return why
            else:
                return None
        return f"the page shows {shown!r}, the answer is {live!r}"

    def refresh(self, shown: str, live: str) -> str:
        """``shown``, which ``live`` fits, with the live values of what is not bound (its
        instants, hashes and signatures are this run's; its ids and tokens the page's)."""
        out = []
        for (shape, a), (_, b) in zip(
            self.pieces(shown, True), self.pieces(live, False), strict=True
        ):
            out.append(b if shape is not None and not shape.bound else a)
        return "".join(out)

    def to_shown(self, live: str) -> str:
        """``live`` with each masked value that a shown one stands for written as that one."""
        out = []
        for shape, text in self.pieces(live, False):
            mapping = self.live_to_shown.get(shape.name, {}) if shape else {}
            out.append(mapping.get(text, text))
        return "".join(out)

    def literals(self, command: str) -> list[str]:
        """The page's ids and tokens that ``command`` names."""
        return [
            text
            for shape, text in self.pieces(command, True)
            if shape and text in self.shown_to_live.get(shape.name, {})
        ]


# --- Comparing an answer ----------------------------------------------------------------------


def where(path: Sequence[str | int]) -> str:
    """A jq path: ``.state.clock.remaining_ms["1"]``."""
    out = ""
    for step in path:
        is_name = isinstance(step, str) and re.fullmatch(r"[A-Za-z_]\w*", step)
        out += f"[{step}]" if isinstance(step, int) else f".{step}" if is_name else f"[{step!r}]"
    return out or "."


def compare(shown: Any, live: Any, path: list[str | int], masks: Masks) -> str | None:
    """Why the ``live`` JSON value is not the ``shown`` template; None if it is."""
    if isinstance(shown, Elided):
        return None
    if isinstance(shown, Obj):
        if not isinstance(live, dict):
            return f"{where(path)}: the page shows an object, the answer {render(live)}"
        for key, value in shown.members().items():
            if key not in live:
                return f"{where([*path, key])}: shown on the page, not in the answer"
            if why := compare(value, live[key], [*path, key], masks):
                return why
        if not shown.open:
            for key in live:
                if key not in shown.members():
                    shown_as = render(live[key])
                    return f"{where([*path, key])}: in the answer ({shown_as}), not on the page"
        return None
    if isinstance(shown, Arr):
        if not isinstance(live, list):
            return f"{where(path)}: the page shows an array, the answer {render(live)}"
        return _compare_array(shown.items, live, path, masks)
    return _compare_scalar(shown, live, path, masks)


def _compare_array(
    shown: list[Any], live: list[Any], path: list[str | int], masks: Masks
) -> str | None:
    if not any(isinstance(item, Elided) for item in shown):
        for index, (a, b) in enumerate(zip(shown, live, strict=False)):
            if why := compare(a, b, [*path, index], masks):
                return why
        if len(shown) != len(live):
            return f"{where(path)}: {len(shown)} elements on the page, {len(live)} in the answer"
        return None

    def fits(i: int, j: int) -> bool:
        if i == len(shown):
            return j == len(live)
        if isinstance(shown[i], Elided):
            return any(fits(i + 1, k) for k in range(j, len(live) + 1))
        saved = masks.snapshot()
        if (
            j < len(live)
            and compare(shown[i], live[j], [*path, j], masks) is None
            and fits(i + 1, j + 1)
        ):
            return True
        masks.restore(saved)
        return False

    return (
        None
        if fits(0, 0)
        else f"{where(path)}: the answer's elements {render(live)} do not fit the page's"
    )


def _compare_scalar(shown: Any, live: Any, path: list[str | int], masks: Masks) -> str | None:
    named = [step for step in path if isinstance(step, str)]
    if WALL_CLOCK_KEYS & set(named) and _integer(shown) and _integer(live):
        return None
    if isinstance(shown, str) and isinstance(live, str):
        if named and path[-1] in GAME_ID_KEYS and _is(GAME_ID, shown) and _is(GAME_ID, live):
            if why := masks.bind(GAME_ID, shown, live):
                return f"{where(path)}: {why}"
            return None
        if why := masks.compare_text(shown, live):
            return f"{where(path)}: {why}"
        return None
    if type(shown) is not type(live) or shown != live:
        return f"{where(path)}: the page shows {render(shown)}, the answer {render(live)}"
    return None


def _integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is(shape: Shape, value: str) -> bool:
    return re.fullmatch(shape.pattern, value) is not None


JSON_LINE = re.compile(r"^(?P<prefix>data: )?(?=[\[{])")


def split_json(line: str) -> tuple[str, str] | None:
    """A line that is a JSON document, or an event's ``data:`` line: (its prefix, the JSON)."""
    found = JSON_LINE.match(line)
    return (found["prefix"] or "", line[found.end() :]) if found else None


def compare_line(shown: str, live: str, masks: Masks) -> str | None:
    if (parts := split_json(shown)) is not None:
        try:
            shape = template(parts[1])
        except Unparsable:
            pass  # text that looks like JSON: compared as text
        else:
            answer = split_json(live)
            if answer is None or answer[0] != parts[0]:
                return f"the page shows JSON, the answer is {live!r}"
            try:
                value = json.loads(answer[1])
            except ValueError:
                return f"the page shows JSON, the answer is {live!r}"
            return compare(shape, value, [], masks)
    return masks.compare_text(shown, live)


def align(shown: list[str], live: list[str], masks: Masks) -> dict[int, int] | None:
    """Which live line each shown line (but ``…``) stands for, if the live answer fits."""
    pairs: dict[int, int] = {}

    def fits(i: int, j: int) -> bool:
        if i == len(shown):
            return j == len(live)
        if shown[i] == ELLIPSIS:
            return any(fits(i + 1, k) for k in range(j, len(live) + 1))
        saved = masks.snapshot()
        if j < len(live) and compare_line(shown[i], live[j], masks) is None and fits(i + 1, j + 1):
            pairs[i] = j
            return True
        masks.restore(saved)
        return False

    return pairs if fits(0, 0) else None


def compare_answer(shown: list[str], live: list[str], masks: Masks) -> tuple[int, str] | None:
    """The first difference between the shown and the live answer: the index of the shown line
    it is at (``len(shown)`` past the end), and what it is; None if there is none."""
    if ELLIPSIS not in shown:
        for index, (a, b) in enumerate(zip(shown, live, strict=False)):
            if why := compare_line(a, b, masks):
                return index, why
        if len(live) > len(shown):
            return len(shown), f"the answer goes on: {live[len(shown)]!r}"
        if len(shown) > len(live):
            return len(live), f"the answer ends here: no {shown[len(live)]!r}"
        return None
    if align(shown, live, masks) is not None:
        return None
    # Where it fails: the first shown line not found where it may stand.
    j, gap = 0, False
    for i, line in enumerate(shown):
        if line == ELLIPSIS:
            gap = True
            continue
        candidates = range(j, len(live)) if gap else range(j, min(j + 1, len(live)))
        saved = masks.snapshot()
        hit = next((k for k in candidates if compare_line(line, live[k], masks) is None), None)
        if hit is None:
            masks.restore(saved)
            if gap:
                return i, f"no line of the answer fits {line!r}"
            if j < len(live):
                return i, compare_line(line, live[j], masks) or f"{line!r} does not fit here"
            return i, f"the answer ends here: no {line!r}"
        j, gap = hit + 1, False
    return len(shown), f"the answer goes on: {live[j]!r}" if j < len(live) else "no fit"


# --- Writing the live answer ------------------------------------------------------------------


def merge(shown: Any, live: Any, path: list[str | int], masks: Masks) -> Any:
    """The template a page should show for ``live``: the live answer in the page's shape — its
    ``…`` kept where they still fit, its ids and tokens where the live ones stand for them, and
    everything else (instants and time counters included) as the live answer has it."""
    if isinstance(shown, Elided):
        return shown
    if isinstance(shown, Obj) and isinstance(live, dict):
        members = shown.members()
        if shown.open:
            return Obj(
                [
                    item
                    if isinstance(item, Elided)
                    else (item[0], merge(item[1], live[item[0]], [*path, item[0]], masks))
                    for item in shown.items
                    if isinstance(item, Elided) or item[0] in live
                ]
            )
        return Obj(
            [
                (key, merge(members[key], value, [*path, key], masks))
                if key in members
                else (key, _from_live(value, masks))
                for key, value in live.items()
            ]
        )
    if isinstance(shown, Arr) and isinstance(live, list):
        if not any(isinstance(item, Elided) for item in shown.items):
            if len(shown.items) == len(live):
                pairs = zip(shown.items, live, strict=True)
                return Arr([merge(a, b, [*path, i], masks) for i, (a, b) in enumerate(pairs)])
        elif compare(shown, live, path, masks) is None:
            return shown  # its elements stand where the glob put them: kept as they are
        return _from_live(live, masks)
    if isinstance(shown, Obj | Arr) or isinstance(live, dict | list):
        return _from_live(live, masks)
    if _compare_scalar(shown, live, path, masks) is not None:
        return _from_live(live, masks)
    if isinstance(shown, str) and isinstance(live, str):
        return masks.refresh(shown, live)
    return live


def _from_live(value: Any, masks: Masks) -> Any:
    if isinstance(value, str):
        return masks.to_shown(value)
    if isinstance(value, dict):
        return {masks.to_shown(k): _from_live(v, masks) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_live(v, masks) for v in value]
    return value


def merge_line(shown: str, live: str, masks: Masks) -> str:
    parts, answer = split_json(shown), split_json(live)
    if parts is not None and answer is not None and parts[0] == answer[0]:
        try:
            return parts[0] + render(merge(template(parts[1]), json.loads(answer[1]), [], masks))
        except ValueError:
            pass  # not JSON after all: text
    if masks.compare_text(shown, live) is None:
        return masks.refresh(shown, live)
    return masks.to_shown(live)


def line_key(line: str) -> str:
    """What a shown line and a live line must share to stand for each other when a changed
    answer is written: a JSON document, a header or an event's field by its name, else itself."""
    if line == ELLIPSIS:
        return ELLIPSIS
    if (parts := split_json(line)) is not None:
        return parts[0] + "{"
    if named := re.match(r"^[A-Za-z][\w-]*:", line):
        return named[0].lower()
    return line


def merge_answer(shown: list[str], live: list[str], masks: Masks) -> list[str]:
    """The lines a page should show for the ``live`` answer (see ``merge``)."""
    if ELLIPSIS not in shown and len(shown) == len(live):
        return [merge_line(a, b, masks) for a, b in zip(shown, live, strict=True)]
    if (pairs := align(shown, live, masks)) is not None:
        return [
            line if i not in pairs else merge_line(line, live[pairs[i]], masks)
            for i, line in enumerate(shown)
        ]
    out: list[str] = []
    keys = [line_key(x) for x in shown], [line_key(x) for x in live]
    matcher = difflib.SequenceMatcher(None, *keys, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        ours, theirs = shown[i1:i2], live[j1:j2]
        if tag == "equal" or (
            tag == "replace" and len(ours) == len(theirs) and ELLIPSIS not in ours
        ):
            out.extend(merge_line(a, b, masks) for a, b in zip(ours, theirs, strict=True))
        elif ELLIPSIS in ours:  # the page elides these lines: it still does
            out.append(ELLIPSIS)
        else:
            out.extend(masks.to_shown(line) for line in theirs)
    return out


# --- Running a page ---------------------------------------------------------------------------


class Shell:
    """One bash for a page's commands: each runs in the same shell (its variables kept), with
    no stdin, its stdout and stderr read together until it is done."""

    def __init__(self, directory: Path, scratch: Path, url: str) -> None:
        port = url.rsplit(":", 1)[1]
        self.script = scratch / "command.sh"  # outside the reader's directory
        # Where a reader's curl goes to port 8000, this one goes to the page's server (and a
        # name that resolves nowhere goes there too, to show that curl read this file).
        (scratch / ".curlrc").write_text(
            f"connect-to = localhost:8000:127.0.0.1:{port}\n"
            f"connect-to = 127.0.0.1:8000:127.0.0.1:{port}\n"
            f"connect-to = tour.invalid:80:127.0.0.1:{port}\n"
            "noproxy = *\n"  # nor through a proxy the environment names
        )
        bin_directory = str(Path(sys.executable).parent)
        env = {
            **without_settings(os.environ),
            "PATH": f"{bin_directory}{os.pathsep}{os.environ.get('PATH', '')}",
            "CURL_HOME": str(scratch),
            "ADJUDICATOR_URL": url,
            "NO_PROXY": "127.0.0.1,localhost",  # the `adjudicator game` commands' httpx
            "no_proxy": "127.0.0.1,localhost",
        }
        self.process = subprocess.Popen(
            ["bash", "--noprofile", "--norc"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, cwd=directory, env=env, start_new_session=True,
        )  # fmt: skip
        self.done = f"tour-command-done-{secrets.token_hex(8)}"
        self.output = bytearray()
        self.arrived = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        while chunk := os.read(self.process.stdout.fileno(), 65536):
            with self.arrived:
                self.output += chunk
                self.arrived.notify_all()
        with self.arrived:
            self.arrived.notify_all()

    def run(self, command: str, seconds: float = COMMAND_SECONDS) -> str:
        """What ``command`` printed, without its last newline; TimeoutError if it hangs."""
        assert self.process.stdin is not None
        marker = f"\n{self.done}\n".encode()
        # Sourced, so that its variables stay and a syntax error is its own, not the shell's end.
        self.script.write_text(command + "\n")
        self.process.stdin.write(
            f". {self.script} </dev/null\nprintf '\\n%s\\n' {self.done}\n".encode()
        )
        self.process.stdin.flush()
        deadline = time.monotonic() + seconds
        with self.arrived:
            while (end := self.output.find(marker)) < 0:
                left = deadline - time.monotonic()
                if self.process.poll() is not None:
                    raise TimeoutError(f"the shell exited: {bytes(self.output).decode()!r}")
                if left <= 0:
                    raise TimeoutError(f"the command did not finish within {seconds:g} s")
                self.arrived.wait(left)
            printed = bytes(self.output[:end]).decode(errors="replace")
            del self.output[: end + len(marker)]
        return printed.removesuffix("\n").replace("\r\n", "\n")

    def close(self) -> None:
        """Stop the shell and whatever it still runs (its own process group)."""
        with suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        self.process.wait(timeout=10)


@contextmanager
def tour_server() -> Iterator[tuple[Path, Path, str]]:
    """A fresh working directory, a scratch directory beside it, and a reader's server started
    in the first: its URL."""
    with tempfile.TemporaryDirectory(prefix="tour-") as name:
        directory, scratch = Path(name) / "reader", Path(name) / "runner"
        directory.mkdir()
        scratch.mkdir()
        with adjudicator_command({}, scratch / "server.log", reader=True, cwd=directory) as served:
            yield directory, scratch, served.url


@dataclass
class PageRun:
    """A page's commands, run: the differences found, and the page with the live answers."""

    page: Path
    differences: list[str]
    text: str


def run_page(page: Path, write: bool = False) -> PageRun:
    """Run the page's commands; with ``write``, the page with every answer written anew."""
    found = commands(page)
    lines = page.read_text().split("\n")
    differences: list[str] = []
    replacements: list[tuple[Command, list[str]]] = []
    if not found:
        return PageRun(page, differences, "\n".join(lines))
    masks = Masks()
    with tour_server() as (directory, scratch, url):
        shell = Shell(directory, scratch, url)
        try:
            if shell.run("curl -s http://tour.invalid/healthz") != '{"status":"ok"}':
                raise RuntimeError("curl did not read the tour's .curlrc: it would reach port 8000")
            for command in found:
                if literals := masks.literals(command.text):
                    differences.append(
                        f"{command.where}: the command names {literals[0]}, shown in an earlier "
                        "answer: a reader's is another; take it from the answer (jq)"
                    )
                try:
                    printed = shell.run(command.text)
                except TimeoutError as error:
                    differences.append(f"{command.where}: {error}: $ {command.text}")
                    break
                live = printed.split("\n") if printed else []
                if (difference := compare_answer(command.shown, live, masks)) is not None:
                    index, why = difference
                    differences.append(
                        f"{command.where}: $ {_short(command.text)}\n"
                        f"  line {command.start + index + 1}: {why}"
                    )
                if write:
                    written = merge_answer(command.shown, live, masks)
                    # What is written stands for the live values from now on, new ids included.
                    compare_answer(written, live, masks)
                    replacements.append((command, written))
        finally:
            shell.close()
    for command, answer in reversed(replacements):
        lines[command.start : command.end] = [
            command.indent + line if line else line for line in answer
        ]
    return PageRun(page, differences, "\n".join(lines))


def _short(text: str, limit: int = 100) -> str:
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def missing_binaries() -> list[str]:
    return [
        f"{name} (apt-get install -y {package})"
        for name, package in BINARIES.items()
        if shutil.which(name) is None
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.tours", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("pages", nargs="*", type=Path, help="pages to run (default: all)")
    parser.add_argument(
        "--write", action="store_true", help="write the live answers into the pages"
    )
    arguments = parser.parse_args(argv)
    if missing := missing_binaries():
        print(f"missing: {', '.join(missing)}", file=sys.stderr)
        return 2
    pages = [path.resolve() for path in arguments.pages] or PAGES
    failed = False
    for page in pages:
        run = run_page(page, arguments.write)
        for difference in run.differences:
            print(difference)
        failed = failed or bool(run.differences)
        if arguments.write and run.text != page.read_text():
            page.write_text(run.text)
            print(f"wrote {named(page)}")
    return 1 if failed and not arguments.write else 0


if __name__ == "__main__":
    sys.exit(main())
