"""Writes the Python client's contract module from the service's committed OpenAPI document.

    python clients/python/generate.py           # writes src/adjudicator_client/_schema.py
    python clients/python/generate.py --check   # exit status 1 if the committed module is stale

The document (``openapi/openapi.json``, which derives from the server's code and which a test
keeps equal to what the service serves) is the one source of what the client reads:

* every schema of ``components`` as a ``TypedDict`` (a member the schema does not require is
  ``NotRequired``; ``enum`` and ``const`` are ``Literal``; ``oneOf`` / ``anyOf`` are unions);
* every operation: its method, path, the statuses of its answers that are not problems and
  when it may be sent again (``x-resend``) (``OPERATIONS``, keyed by its operation id in
  snake_case), and the type of its answer; how a request is sent again unless a client is told
  otherwise (``x-retry``: ``RETRY_ATTEMPTS``, …)
  (``<OperationId>Answer``) — a new operation of the document is here once this runs again;
* every problem code, from the examples of ``GET /problems/{code}``'s answer (the service's
  whole table), as a subclass of ``ProblemError`` named after it (``game_over`` → ``GameOver``)
  with its title, statuses, when it is answered and what to do, in ``PROBLEMS``;
* how a client counts a quiet event stream: ``x-sse-keep-alive-seconds`` and
  ``x-sse-keep-alives-missed`` of the ``text/event-stream`` answer.

It also writes the clients' code that follows from the document: in ``_async_client.py``,
``create_game``'s overloads, one per kind of ``createGame``'s body (its members as keywords,
and ``key``, a player's key, where the operation's security takes one; answered the kind's
creation answer), between their marks; and ``_client.py``, the blocking
``Client``, from ``_async_client.py`` (``async`` and ``await`` taken out, httpx's ``Client`` for
its ``AsyncClient``, ``time.sleep`` for ``asyncio.sleep``): one body for both.

A script beside the client rather than a command of the server: it reads the document only, so
it runs wherever the document is, without the server installed. Its output is formatted with
``ruff format`` (the project's style), so the module passes the same checks as the code.
"""

from __future__ import annotations

import argparse
import json
import keyword
import re
import subprocess
import sys
import textwrap
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SPEC = HERE.parents[1] / "openapi" / "openapi.json"
PACKAGE = HERE / "src" / "adjudicator_client"
TARGET = PACKAGE / "_schema.py"
ASYNC_CLIENT = PACKAGE / "_async_client.py"  # written by hand, but for create_game's overloads
SYNC_CLIENT = PACKAGE / "_client.py"  # written from ASYNC_CLIENT

SCHEMAS = "#/components/schemas/"
SSE_EVENTS = "x-sse-events"
RESEND = "x-resend"
RETRY = "x-retry"
RESEND_RULES = ("always", "unsent")
SSE_KEEP_ALIVE_SECONDS = "x-sse-keep-alive-seconds"
SSE_KEEP_ALIVES_MISSED = "x-sse-keep-alives-missed"
CREATE_OPERATION = "createGame"  # whose body is a union of the kinds' creation bodies
CLOCK = "ClockIn"  # the clients also take a clock as (initial seconds, increment seconds)
# The security scheme of a player's key: an operation whose security lists it takes the key as
# its ``key`` keyword (a creation made with one seats the player).
PLAYER_KEY = "PlayerKey"
PLAYER_KEY_PARAMETER = "key: str | None = None"
OVERLOADS_START = "    # --- create_game per kind: generated from the document's kinds"
OVERLOADS_END = "    # --- end of the generated overloads"
SCHEMA_IMPORT = re.compile(r"^from adjudicator_client\._schema import \(\n(.*?)\n\)\n", re.M | re.S)
PROBLEM_TYPE_PATH = "/problems/{code}"
WIDTH = 100  # the project's line length
AMBIGUOUS = {"l", "O", "I"}  # names pycodestyle finds ambiguous (E741)
SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool", "null": "None"}

HEADER = '''"""The service's contract as Python types, generated from openapi/openapi.json by
clients/python/generate.py. Do not edit: regenerate (``python clients/python/generate.py``).

The schemas of the document as ``TypedDict``s, each operation (``OPERATIONS``) and the type of
its answer (``<OperationId>Answer``), one exception class per problem code (``PROBLEMS``), and
how a client counts a quiet event stream.
"""

from __future__ import annotations

from typing import Any, Final, Literal, NamedTuple, NotRequired, TypeAlias, TypedDict

from adjudicator_client._problem import ProblemError
'''

OPERATION = '''

# How safe a request is to send again (``x-resend``): ``always`` (sending it twice does what
# sending it once does: after any connection error, and after a 503 whose ``Retry-After`` is
# short), or only when the connection failed before it left (``unsent``).
Resend: TypeAlias = Literal["always", "unsent"]


class Operation(NamedTuple):
    """One operation of the service: its id, method and path (``{name}`` for a path
    parameter), the statuses of its answers that are not problems, and when it may be sent
    again."""

    operation_id: str
    method: str
    path: str
    statuses: tuple[int, ...]
    resend: Resend
'''


def snake(name: str) -> str:
    """``createGame`` → ``create_game``."""
    return re.sub(r"(?<!^)([A-Z])", r"_\1", name).lower()


def camel(name: str) -> str:
    """``game_over`` → ``GameOver``; ``createGame`` → ``CreateGame``."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[_\W]+", name) if part)


def literal(value: Any) -> str:
    """A JSON scalar as Python source (strings in double quotes, as ruff writes them)."""
    if isinstance(value, bool):
        return repr(value)
    if value is None:
        return "None"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, int | float):
        return repr(value)
    raise TypeError(f"not a scalar: {value!r}")


def comment(text: str, indent: str) -> list[str]:
    """``text`` as comment lines within the line length."""
    lines = []
    for paragraph in text.strip().splitlines():
        lines += textwrap.wrap(paragraph, WIDTH - len(indent) - 2, break_on_hyphens=False) or [""]
    return [f"{indent}# {line}".rstrip() for line in lines]


def docstring(text: str, indent: str) -> list[str]:
    """``text`` as a docstring within the line length."""
    text = text.strip().replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    lines: list[str] = []
    for paragraph in text.split("\n\n"):
        if lines:
            lines.append("")
        lines += textwrap.wrap(
            " ".join(paragraph.split()), WIDTH - len(indent) - 3, break_on_hyphens=False
        )
    if len(lines) == 1 and len(indent) + len(lines[0]) + 6 <= WIDTH:
        return [f'{indent}"""{lines[0]}"""']
    lines[0] = '"""' + lines[0]
    return [f"{indent}{line}".rstrip() for line in lines] + [f'{indent}"""']


@dataclass
class Shape:
    """One named type of the module: a TypedDict (``members``) or an alias (``alias``)."""

    name: str
    description: str = ""
    members: list[tuple[str, str, str]] = field(default_factory=list)  # name, type, description
    alias: str | None = None
    uses: set[str] = field(default_factory=set)  # the module's names its definition needs


class Module:
    """The module being written: its shapes by name, in the order they were found."""

    def __init__(self, spec: Mapping[str, Any]) -> None:
        self.spec = spec
        self.schemas: Mapping[str, Any] = spec.get("components", {}).get("schemas", {})
        self.shapes: dict[str, Shape] = {}

    # --- types ---------------------------------------------------------------------------------

    def annotation(self, schema: Mapping[str, Any], hint: str, uses: set[str]) -> str:
        """The Python type of a JSON Schema; an object schema with members of its own becomes
        a TypedDict named ``hint``. ``uses`` gathers the module's names it refers to."""
        if "$ref" in schema:
            name = self.ref(schema["$ref"])
            uses.add(name)
            return name
        for union in ("oneOf", "anyOf"):
            if union in schema:
                parts = [
                    self.annotation(option, f"{hint}{i}" if i else hint, uses)
                    for i, option in enumerate(schema[union])
                ]
                return self.union(parts)
        if "allOf" in schema:
            if len(schema["allOf"]) != 1:
                raise NotImplementedError(f"allOf of several schemas ({hint})")
            return self.annotation(schema["allOf"][0], hint, uses)
        if "const" in schema:
            return f"Literal[{literal(schema['const'])}]"
        if "enum" in schema:
            values = [literal(value) for value in schema["enum"] if value is not None]
            parts = [f"Literal[{', '.join(values)}]"] if values else []
            return self.union(parts + (["None"] if None in schema["enum"] else []))
        kind = schema.get("type")
        if isinstance(kind, list):
            parts = [self.annotation({**schema, "type": one}, hint, uses) for one in kind]
            return self.union(parts)
        if kind == "array":
            return f"list[{self.annotation(schema.get('items', {}), f'{hint}Item', uses)}]"
        if kind == "object" or "properties" in schema:
            if schema.get("properties"):
                self.typed_dict(hint, schema)
                uses.add(hint)
                return hint
            extra = schema.get("additionalProperties", True)
            value = "Any" if extra in (True, {}) else self.annotation(extra, f"{hint}Value", uses)
            return f"dict[str, {value}]"
        if kind in SCALARS:
            return SCALARS[kind]
        return "Any"

    @staticmethod
    def union(parts: list[str]) -> str:
        unique = list(dict.fromkeys(parts))
        if "None" in unique:  # None last, as people write it
            unique = [part for part in unique if part != "None"] + ["None"]
        return " | ".join(unique)

    def ref(self, ref: str) -> str:
        if not ref.startswith(SCHEMAS):
            raise NotImplementedError(f"a reference outside the document's schemas: {ref}")
        name = ref.removeprefix(SCHEMAS)
        if name not in self.shapes:
            self.component(name)
        return name

    def component(self, name: str) -> None:
        schema = self.schemas[name]
        if schema.get("properties"):
            self.typed_dict(name, schema)
        else:
            uses: set[str] = set()
            self.shapes[name] = Shape(name, schema.get("description", ""), uses=uses)
            self.shapes[name].alias = self.annotation(schema, f"{name}Item", uses)

    def typed_dict(self, name: str, schema: Mapping[str, Any]) -> None:
        if name in self.shapes:
            raise ValueError(f"two types named {name}")
        shape = Shape(name, schema.get("description", ""))
        self.shapes[name] = shape  # before its members: a schema may refer to itself
        required = set(schema.get("required", ()))
        for member, definition in schema["properties"].items():
            kind = self.annotation(definition, name + camel(member), shape.uses)
            if member not in required:
                kind = f"NotRequired[{kind}]"
            shape.members.append((member, kind, definition.get("description", "")))

    # --- the parts of the module ---------------------------------------------------------------

    def operations(self) -> Iterator[tuple[str, str, str, dict[str, Any]]]:
        """(path, method, snake_case id, operation) of every operation, in document order."""
        for path, item in self.spec.get("paths", {}).items():
            for method, operation in item.items():
                if isinstance(operation, dict) and "operationId" in operation:
                    yield path, method, snake(operation["operationId"]), operation

    def answers(self) -> list[tuple[str, str, tuple[int, ...], str]]:
        """(snake_case id, Answer alias name, statuses that are not problems, alias type)."""
        found = []
        for _, _, name, operation in self.operations():
            fine = sorted(
                (status, response)
                for status, response in operation.get("responses", {}).items()
                if status[:1] in "23"
            )
            alias = camel(operation["operationId"]) + "Answer"
            kind = "None"
            uses: set[str] = set()
            for _, response in fine:
                content = response.get("content", {})
                if content:
                    media = content.get("application/json") or next(iter(content.values()))
                    # An event stream's answer is its events (``x-sse-events``), if declared.
                    schema = media.get(SSE_EVENTS) or media.get("schema", {})
                    kind = self.annotation(schema, alias, uses)
                    break
            if kind != alias:  # else the answer is an object of its own, named so already
                self.shapes[alias] = Shape(alias, alias=kind, uses=uses)
            found.append((name, alias, tuple(int(status) for status, _ in fine), kind))
        return found

    def problems(self) -> list[dict[str, Any]]:
        """The descriptions of every problem code: the examples of ``/problems/{code}``."""
        operation = self.spec["paths"][PROBLEM_TYPE_PATH]["get"]
        media = operation["responses"]["200"]["content"]["application/json"]
        return [example["value"] for example in media.get("examples", {}).values()]

    def stream(self) -> tuple[float, int]:
        """The keep-alive interval and misses of the document's event stream."""
        found = {
            (media[SSE_KEEP_ALIVE_SECONDS], media[SSE_KEEP_ALIVES_MISSED])
            for _, _, _, operation in self.operations()
            for response in operation.get("responses", {}).values()
            for media in response.get("content", {}).values()
            if SSE_KEEP_ALIVE_SECONDS in media
        }
        if len(found) != 1:
            raise ValueError(f"expected one event stream's keep-alives, found {sorted(found)}")
        return found.pop()

    def wire_events(self) -> set[str]:
        """The schemas of the event stream's events, which the client parses into its own
        event classes (``MoveEvent``, …): kept out of ``__all__``, where those names are."""
        names = set()
        for _, _, _, operation in self.operations():
            for response in operation.get("responses", {}).values():
                for media in response.get("content", {}).values():
                    if SSE_EVENTS in media:
                        union = self.ref(media[SSE_EVENTS]["$ref"])
                        names |= {union, *self.shapes[union].uses}
        return names


def ordered(shapes: Mapping[str, Shape]) -> list[Shape]:
    """The shapes, each after those its definition needs (a name used before it is defined is
    fine in a TypedDict's body, whose annotations are not evaluated, but not in an alias)."""
    done: dict[str, Shape] = {}

    def visit(name: str, path: tuple[str, ...]) -> None:
        if name in done:
            return
        if name in path:
            raise ValueError(f"types that need each other: {' → '.join((*path, name))}")
        shape = shapes[name]
        for used in sorted(shape.uses):
            if used != name and (shape.alias is not None or not identifiers(shape)):
                visit(used, (*path, name))
        done[name] = shape

    for name in shapes:
        visit(name, ())
    return list(done.values())


def identifiers(shape: Shape) -> bool:
    """Whether every member name can be written in a class body."""
    return all(name.isidentifier() and not keyword.iskeyword(name) for name, _, _ in shape.members)


def resend_rule(operation: Mapping[str, Any]) -> str:
    """When the operation may be sent again (``x-resend``); where the document does not say,
    only when it never left."""
    rule = operation.get(RESEND, "unsent")
    if rule not in RESEND_RULES:
        raise ValueError(
            f"{operation['operationId']}: {RESEND} {rule!r}, not one of {RESEND_RULES}"
        )
    return str(rule)


def section(title: str) -> str:
    """A comment line that opens a part of the module."""
    return f"# --- {title} ".ljust(WIDTH, "-")


def render_shape(shape: Shape) -> list[str]:
    lines = ["", ""]
    if shape.alias is not None:
        lines = lines[1:] if not shape.description else lines
        lines += comment(shape.description, "") if shape.description else []
        return [*lines, f"{shape.name}: TypeAlias = {shape.alias}"]
    if not identifiers(shape):
        lines += comment(shape.description, "") if shape.description else []
        members = ", ".join(f"{literal(name)}: {kind}" for name, kind, _ in shape.members)
        return [*lines, f"{shape.name} = TypedDict({literal(shape.name)}, {{{members}}})"]
    lines.append(f"class {shape.name}(TypedDict):")
    if shape.description:
        lines += [*docstring(shape.description, "    "), ""]
    for name, kind, description in shape.members:
        lines += comment(description, "    ") if description else []
        noqa = "  # noqa: E741" if name in AMBIGUOUS else ""
        lines.append(f"    {name}: {kind}{noqa}")
    return lines


def render_problem(problem: Mapping[str, Any]) -> list[str]:
    code, statuses = problem["code"], tuple(problem["statuses"])
    listed = ", ".join(str(status) for status in statuses)
    when, todo = (problem[part].rstrip(".") for part in ("when", "todo"))
    said = f"{problem['title']} ({listed} ``{code}``). When: {when}. To do: {todo}."
    return [
        "",
        "",
        f"class {camel(code)}(ProblemError):",
        *docstring(said, "    "),
        "",
        f"    code = {literal(code)}",
        f"    statuses = {statuses!r}",
    ]


def generate(spec: Mapping[str, Any]) -> str:
    """The module's source for the document ``spec``."""
    module = Module(spec)
    for name in module.schemas:
        if name not in module.shapes:
            module.component(name)
    answers = module.answers()
    problems = module.problems()
    keep_alive, missed = module.stream()
    wire = module.wire_events()

    classes = {camel(problem["code"]) for problem in problems}
    clashes = classes & set(module.shapes)
    if clashes:
        raise ValueError(f"problem classes named as schemas: {sorted(clashes)}")
    exported = [name for name in module.shapes if name not in wire]

    lines = HEADER.splitlines()
    lines += ["", "__all__ = ["]
    public = sorted([*exported, *classes])  # as ruff sorts it (RUF022)
    lines += [f"    {literal(name)}," for name in public]
    lines += ["]", "", section("the schemas")]
    for shape in ordered(module.shapes):
        lines += render_shape(shape)

    lines += ["", "", section("the operations")]
    lines += OPERATION.splitlines()
    paths = {name: (path, method) for path, method, name, _ in module.operations()}
    lines += ["", "", "OPERATIONS: Final[dict[str, Operation]] = {"]
    for name, _, statuses, _ in answers:
        operation = next(op for _, _, n, op in module.operations() if n == name)
        path, method = paths[name]
        lines.append(
            f"    {literal(name)}: Operation({literal(operation['operationId'])}, "
            f"{literal(method.upper())}, {literal(path)}, {statuses!r}, "
            f"{literal(resend_rule(operation))}),"
        )
    lines += ["}"]
    retry = spec[RETRY]
    lines += ["", ""]
    lines += comment(
        f"How a request is sent again where its rule allows, unless told otherwise (`{RETRY}`): "
        "at most this many sends in all; after a connection error, this long later (doubling "
        "at each send); after an answer of these statuses, its Retry-After later if it is at "
        "most this long.",
        "",
    )
    lines += [
        f"RETRY_ATTEMPTS: Final = {int(retry['attempts'])!r}",
        f"RETRY_BACKOFF_SECONDS: Final = {float(retry['backoff_seconds'])!r}",
        f"RETRY_MAX_WAIT_SECONDS: Final = {float(retry['max_retry_after_seconds'])!r}",
        f"RETRY_STATUSES: Final = {tuple(int(status) for status in retry['statuses'])!r}",
    ]

    lines += ["", "", section("the problems")]
    for problem in problems:
        lines += render_problem(problem)
    lines += ["", "", "# Every problem code the service answers with, and its class."]
    lines += ["PROBLEMS: Final[dict[str, type[ProblemError]]] = {"]
    lines += [f"    {literal(p['code'])}: {camel(p['code'])}," for p in problems]
    lines += ["}"]

    lines += ["", "", section("the event stream"), ""]
    lines += comment(
        "A quiet stream sends a keep-alive at least this often (seconds), unless the server "
        f"is configured otherwise (`{SSE_KEEP_ALIVE_SECONDS}`).",
        "",
    )
    lines.append(f"KEEP_ALIVE_SECONDS: Final = {keep_alive!r}")
    lines += comment(
        "How many keep-alive intervals a client waits for a line before it takes the stream "
        f"for dead and resumes it (`{SSE_KEEP_ALIVES_MISSED}`).",
        "",
    )
    lines.append(f"KEEP_ALIVES_MISSED: Final = {missed!r}")
    return format_source("\n".join(lines) + "\n")


def format_source(source: str, target: Path = TARGET) -> str:
    """``source`` as ``ruff format`` writes it, with the project's settings, its imports sorted
    and those it does not use left out."""
    fixes = ["check", "--fix", "--exit-zero", "--quiet", "--select", "I,F401"]
    for command in (fixes, ["format"]):
        done = subprocess.run(
            [sys.executable, "-m", "ruff", *command, "--stdin-filename", str(target), "-"],
            input=source,
            capture_output=True,
            text=True,
            cwd=HERE,
            check=False,
        )
        if done.returncode != 0:
            raise RuntimeError(f"ruff {command[0]} failed (is ruff installed?): {done.stderr}")
        source = done.stdout
    return source


# --- the clients ---------------------------------------------------------------------------------


def create_overloads(spec: Mapping[str, Any]) -> tuple[list[str], set[str]]:
    """``create_game``'s overloads, one per kind of ``createGame``'s body, then one for a kind
    the client was not made for; and the names of the module they use."""
    module = Module(spec)
    for name in module.schemas:
        if name not in module.shapes:
            module.component(name)
    operation = next(
        op for _, _, _, op in module.operations() if op["operationId"] == CREATE_OPERATION
    )
    body = operation["requestBody"]["content"]["application/json"]["schema"]
    answers = {kind_of(module, name): name for name in refs(module, answer_schema(operation))}
    answer = camel(CREATE_OPERATION) + "Answer"
    keyed = any(PLAYER_KEY in need for need in operation.get("security", ()))
    own = [PLAYER_KEY_PARAMETER] if keyed else []  # the request's, after the body's members
    lines, names = [], {answer}
    for name in refs(module, body):
        schema, shape = module.schemas[name], module.shapes[name]
        required = set(schema.get("required", ()))
        kind = kind_of(module, name)
        members = sorted(shape.members, key=lambda member: member[0] != "game")  # game first
        if keyed and "key" in {member for member, _, _ in members}:
            raise ValueError(f"{name}: a member called key would be the player's key")
        parameters = [parameter(member, typed, member in required) for member, typed, _ in members]
        names |= {word for p in parameters for word in re.findall(r"\w+", p)} & set(module.shapes)
        names.add(answers[kind])
        lines += [
            "    @overload",
            f"    async def create_game(self, *, {', '.join(parameters + own)})"
            f" -> {answers[kind]}: ...",
        ]
    rest = ", ".join(["game: str", *own, "**params: Any"])
    lines += ["    @overload", f"    async def create_game(self, *, {rest}) -> {answer}: ..."]
    return lines, names


def refs(module: Module, schema: Mapping[str, Any]) -> list[str]:
    """The schemas a union (or a reference to one) is of, in its order."""
    if "$ref" in schema:
        name = schema["$ref"].removeprefix(SCHEMAS)
        inner = module.schemas[name]
        return refs(module, inner) if "oneOf" in inner or "anyOf" in inner else [name]
    options = schema.get("oneOf") or schema.get("anyOf") or []
    return [name for option in options for name in refs(module, option)]


def answer_schema(operation: Mapping[str, Any]) -> Mapping[str, Any]:
    """The schema of an operation's first answer that is not a problem."""
    status = min(status for status in operation["responses"] if status[:1] in "23")
    media = operation["responses"][status]["content"]["application/json"]
    schema: Mapping[str, Any] = media["schema"]
    return schema


def kind_of(module: Module, name: str) -> str:
    """The kind a schema of one kind is of: its ``game`` member's constant."""
    game = module.schemas[name]["properties"]["game"]
    return str(game["const"] if "const" in game else game["enum"][0])


def parameter(name: str, typed: str, required: bool) -> str:
    """A member of a creation body as a keyword parameter: any sequence where the body has an
    array (it is sent as JSON), a clock as a pair too, None where it may be left out."""
    typed = re.sub(r"^NotRequired\[(.*)\]$", r"\1", typed)
    typed = re.sub(r"\blist\[", "Sequence[", typed)
    if CLOCK in re.findall(r"\w+", typed):
        typed = f"tuple[int, int] | {typed}"
    if required:
        return f"{name}: {typed}"
    if not (typed == "None" or typed.endswith(" | None")):
        typed += " | None"
    return f"{name}: {typed} = None"


def async_client(spec: Mapping[str, Any], source: str) -> str:
    """``_async_client.py``'s ``source`` with the document's overloads of ``create_game``, and
    the names of ``_schema`` they use imported."""
    lines, names = create_overloads(spec)
    start, end = source.index(OVERLOADS_START), source.index(OVERLOADS_END)
    start = source.index("\n", start) + 1
    source = source[:start] + "\n".join(lines) + "\n" + source[end:]
    imported = SCHEMA_IMPORT.search(source)
    if imported is None:
        raise ValueError(f"{ASYNC_CLIENT.name}: no import from adjudicator_client._schema")
    rest = source[: imported.start()] + source[imported.end() :]
    used = {name.strip(" ,") for name in imported.group(1).split()} | names
    kept = sorted(name for name in used if re.search(rf"\b{name}\b", rest))
    block = "".join(f"    {name},\n" for name in kept)
    statement = f"from adjudicator_client._schema import (\n{block})\n"
    source = source[: imported.start()] + statement + rest[imported.start() :]
    return format_source(source, ASYNC_CLIENT)


SYNC_HEADER = '''"""The blocking client, ``Client``: written by clients/python/generate.py from
``_async_client.py`` (``AsyncClient``), whose body it is without ``async`` and ``await``. Do not
edit: edit that module, then run ``python clients/python/generate.py``.
"""
'''
# How the async client's source becomes the blocking one's, in order.
UNASYNC = (
    (r"\bAsyncGenerator\[(.+?), None\]", r"Generator[\1, None, None]"),
    (r"\bAsyncGenerator\b", "Generator"),
    (r"\basync (def|with|for)\b", r"\1"),
    (r"\bawait ", ""),
    (r"\b__aenter__\b", "__enter__"),
    (r"\b__aexit__\b", "__exit__"),
    (r"\ba(close|read|iter_lines)\b", r"\1"),
    (r"\bAsyncClient\b", "Client"),
    (r"\bimport asyncio\b", "import time"),
    (r"\basyncio\.sleep\b", "time.sleep"),
    (r"\bawaited\b", "sent"),
)


def sync_client(async_source: str) -> str:
    """``_client.py``: the blocking ``Client`` from ``AsyncClient``'s source."""
    body = async_source[async_source.index('"""', 3) + 4 :]  # after the module's docstring
    for pattern, replacement in UNASYNC:
        body = re.sub(pattern, replacement, body)
    return format_source(SYNC_HEADER + body, SYNC_CLIENT)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", type=Path, default=SPEC, help="the OpenAPI document to read")
    parser.add_argument("--check", action="store_true", help="fail if the module is stale")
    args = parser.parse_args(argv)
    spec = json.loads(args.spec.read_text(encoding="utf-8"))
    asynchronous = async_client(spec, ASYNC_CLIENT.read_text(encoding="utf-8"))
    made = {
        TARGET: generate(spec),
        ASYNC_CLIENT: asynchronous,
        SYNC_CLIENT: sync_client(asynchronous),
    }
    stale = [path for path, source in made.items() if read(path) != source]
    if args.check:
        for path in stale:
            print(f"{path} is stale: run python {Path(__file__).name}", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(made[path], encoding="utf-8")
    return 0


def read(path: Path) -> str | None:
    """The file's text, or None if there is none."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None


if __name__ == "__main__":
    sys.exit(main())
