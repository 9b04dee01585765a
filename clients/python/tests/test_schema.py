"""The client is made from the service's committed OpenAPI document and nothing else of the
server: its generated module is what the generator makes of the document, it has one method per
operation, one exception class per problem code, creation typed per kind, and importing it
imports no part of the server."""

from __future__ import annotations

import copy
import importlib.util
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any, get_args, get_overloads

import pytest

import adjudicator_client
from adjudicator_client import PROBLEMS, AsyncClient, Client, ProblemError

CLIENT = Path(__file__).resolve().parents[1]
SPEC_PATH = CLIENT.parents[1] / "openapi" / "openapi.json"
MODULE = CLIENT / "src" / "adjudicator_client" / "_schema.py"
# Public methods of the clients that are not an operation of their own.
# Methods that are not one operation each: the client's own, and second forms of an operation
# (a record as text, a whole game's moves played by apply-move).
NOT_OPERATIONS = {
    "send", "close", "aclose", "poll_game", "get_record_text", "get_archived_game_text",
    "apply_moves", "get_tournament_text",
}  # fmt: skip


def load_generator() -> ModuleType:
    """clients/python/generate.py, a script, as a module."""
    name = "adjudicator_client_generate"
    spec = importlib.util.spec_from_file_location(name, CLIENT / "generate.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    return load_generator()


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    document: dict[str, Any] = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    return document


def snake(operation_id: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", r"_\1", operation_id).lower()


def test_committed_module_is_what_the_generator_makes_of_the_committed_spec(
    generator: ModuleType, spec: dict[str, Any]
) -> None:
    assert MODULE.read_text(encoding="utf-8") == generator.generate(spec), (
        "run: python clients/python/generate.py"
    )


def test_committed_clients_are_what_the_generator_makes_of_the_async_one_and_the_spec(
    generator: ModuleType, spec: dict[str, Any]
) -> None:
    """``AsyncClient`` carries the document's overloads of ``create_game``, and ``Client`` is
    ``AsyncClient`` without ``async``: one body for both."""
    asynchronous = generator.ASYNC_CLIENT.read_text(encoding="utf-8")
    assert generator.async_client(spec, asynchronous) == asynchronous, (
        "run: python clients/python/generate.py"
    )
    blocking = generator.SYNC_CLIENT.read_text(encoding="utf-8")
    assert blocking == generator.sync_client(asynchronous), "run: python clients/python/generate.py"


def test_one_method_per_operation_on_both_clients(spec: dict[str, Any]) -> None:
    operations = {
        snake(operation["operationId"])
        for path in spec["paths"].values()
        for operation in path.values()
    }
    for cls in (Client, AsyncClient):
        methods = {
            name for name in vars(cls) if not name.startswith("_") and callable(getattr(cls, name))
        }
        assert methods - NOT_OPERATIONS == operations, cls


def test_a_new_operation_of_the_document_is_generated(
    generator: ModuleType, spec: dict[str, Any]
) -> None:
    document = copy.deepcopy(spec)
    answer = {
        "type": "object",
        "required": ["moves"],
        "properties": {
            "moves": {"type": "array", "items": {"$ref": "#/components/schemas/LegalMove"}},
            "next_cursor": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        },
    }
    document["paths"]["/v1/games/{game_id}/legal-moves"] = {
        "get": {
            "operationId": "listLegalMoves",
            "x-resend": "always",
            "responses": {"200": {"content": {"application/json": {"schema": answer}}}},
        }
    }
    source = generator.generate(document)
    assert (
        '"list_legal_moves": Operation(\n'
        '        "listLegalMoves", "GET", "/v1/games/{game_id}/legal-moves", (200,), "always"\n'
        "    ),"
    ) in source
    assert (
        "class ListLegalMovesAnswer(TypedDict):\n"
        "    moves: list[LegalMove]\n"
        "    next_cursor: NotRequired[str | None]\n"
    ) in source


def test_a_new_kind_of_the_document_gets_its_create_game_overload_on_both_clients(
    generator: ModuleType, spec: dict[str, Any]
) -> None:
    document = copy.deepcopy(spec)
    schemas = document["components"]["schemas"]
    schemas["CreateConnectFourIn"] = {
        "type": "object",
        "required": ["game"],
        "properties": {
            "game": {"const": "connect4"},
            "columns": {"type": "integer"},
            "opening": {"type": "array", "items": {"type": "integer"}},
        },
    }
    schemas["CreatedConnectFourOut"] = {
        "type": "object",
        "required": ["game", "id"],
        "properties": {"game": {"const": "connect4"}, "id": {"type": "string"}},
    }
    schemas["CreateGameIn"]["oneOf"].append({"$ref": "#/components/schemas/CreateConnectFourIn"})
    answer = document["paths"]["/v1/games"]["post"]["responses"]["201"]["content"]
    answer["application/json"]["schema"]["oneOf"].append(
        {"$ref": "#/components/schemas/CreatedConnectFourOut"}
    )
    source = generator.ASYNC_CLIENT.read_text(encoding="utf-8")
    asynchronous = generator.async_client(document, source)
    overload = (
        "    @overload\n"
        "    async def create_game(\n"
        "        self,\n"
        "        *,\n"
        '        game: Literal["connect4"],\n'
        "        columns: int | None = None,\n"
        "        opening: Sequence[int] | None = None,\n"
        "        key: str | None = None,\n"  # the operation's own: a player's key
        "    ) -> CreatedConnectFourOut: ...\n"
    )
    assert overload in asynchronous
    assert "    CreatedConnectFourOut,\n" in asynchronous  # imported from _schema
    blocking = generator.sync_client(asynchronous)
    assert overload.replace("async def", "def") in blocking
    assert not re.search(r"\basync (def|with|for)\b|\bawait |\basyncio\b", blocking)


def test_every_problem_code_of_the_document_has_its_exception_class(spec: dict[str, Any]) -> None:
    answer = spec["paths"]["/problems/{code}"]["get"]["responses"]["200"]
    described = {
        example["value"]["code"]: example["value"]
        for example in answer["content"]["application/json"]["examples"].values()
    }
    assert set(PROBLEMS) == set(described)
    for code, cls in PROBLEMS.items():
        assert issubclass(cls, ProblemError)
        assert (cls.code, cls.statuses) == (code, tuple(described[code]["statuses"]))
        name = "".join(part.capitalize() for part in code.split("_"))
        assert getattr(adjudicator_client, name) is cls  # from adjudicator_client import GameOver
        assert name in adjudicator_client.__all__
        assert described[code]["title"] in (cls.__doc__ or "")


def test_create_game_is_typed_for_every_kind_of_the_document(spec: dict[str, Any]) -> None:
    """Each kind of ``CreateGameIn`` has an overload of its own, taking exactly its creation
    body's members (and ``key``, a player's key, which the operation's security takes) and
    answering its own creation answer; a kind the client was not made for takes its members as
    keywords."""
    schemas = spec["components"]["schemas"]
    kinds = {}
    for option in schemas["CreateGameIn"]["oneOf"]:
        body = schemas[option["$ref"].rsplit("/", 1)[1]]
        kinds[body["properties"]["game"]["const"]] = set(body["properties"])
    answers = {
        name: schema["properties"]["game"]["const"]
        for name, schema in schemas.items()
        if name.startswith("Created")
    }
    for cls in (Client, AsyncClient):
        typed = {}
        for overload in get_overloads(cls.create_game):
            signature = inspect.signature(overload)
            game = signature.parameters["game"].annotation
            if "**" in str(signature):
                assert game == "str"  # the others
                continue
            (name,) = re.findall(r"Literal\[['\"](\w+)['\"]\]", game)
            assert "key" in signature.parameters  # createGame takes a player's key
            typed[name] = set(signature.parameters) - {"self", "key"}
            assert answers[str(signature.return_annotation)] == name
        assert typed == kinds, cls


def test_the_kinds_unions_are_the_documents() -> None:
    assert get_args(adjudicator_client.GetGameAnswer) == (
        adjudicator_client.TicTacToeGameOut,
        adjudicator_client.ReversiGameOut,
        adjudicator_client.GomokuGameOut,
        adjudicator_client.Connect4GameOut,
    )
    assert set(get_args(adjudicator_client.CreateGameAnswer)) == {
        adjudicator_client.CreatedTicTacToeOut,
        adjudicator_client.CreatedReversiOut,
        adjudicator_client.CreatedGomokuOut,
        adjudicator_client.CreatedConnect4Out,
    }


def test_the_client_imports_nothing_of_the_server() -> None:
    code = (
        "import sys, adjudicator_client; "
        "server = sorted(m for m in sys.modules if m.split('.')[0] in ('app', 'fastapi', "
        "'starlette', 'uvicorn', 'pydantic')); print(server); assert not server"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
    for path in (CLIENT / "src").rglob("*.py"):
        assert not re.search(r"^\s*(from|import) app\b", path.read_text(), re.M), path
