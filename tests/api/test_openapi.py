"""The OpenAPI document: committed copy in sync, complete for people, docs pages offline."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openapi_spec_validator import validate
from openapi_spec_validator.validation import OpenAPIV31SpecValidator

from app.sessions.kinds import KINDS
from tests.timeless import timeless

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


@pytest.fixture(scope="module")
def client(module_client: TestClient) -> TestClient:
    """One app for the module's tests (conftest's ``module_client``)."""
    return module_client


@pytest.fixture
def spec(client: TestClient) -> dict[str, Any]:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    document: dict[str, Any] = response.json()
    return document


def operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, operation)
        for path, item in spec["paths"].items()
        for method, operation in item.items()
    ]


def test_committed_spec_is_what_the_app_serves(spec: dict[str, Any]) -> None:
    committed = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    assert committed == spec, "run: adjudicator openapi > openapi/openapi.json"


def test_the_document_is_valid_openapi_3_1(spec: dict[str, Any]) -> None:
    assert spec["openapi"].startswith("3.1.")
    validate(spec, cls=OpenAPIV31SpecValidator)  # raises, naming the first fault


def null_defaults(node: Any, where: str = "") -> list[str]:
    if isinstance(node, dict):
        found = [where] if "default" in node and node["default"] is None else []
        return found + [p for k, v in node.items() for p in null_defaults(v, f"{where}/{k}")]
    if isinstance(node, list):
        return [p for i, v in enumerate(node) for p in null_defaults(v, f"{where}/{i}")]
    return []


def test_optional_fields_are_optional(spec: dict[str, Any]) -> None:
    """A field that may be left out is not ``required`` and carries no ``default`` (said in
    its description instead): openapi-typescript types a field with a default, null or not, as
    always present, and a request that leaves it out as wrong."""
    assert null_defaults(spec) == []
    schemas = spec["components"]["schemas"]
    defaulted = [
        f"{name}.{field}"
        for name, schema in schemas.items()
        for field, definition in schema.get("properties", {}).items()
        if "default" in definition and field not in schema.get("required", [])
    ]
    assert defaulted == []
    game = schemas["CreateTicTacToeIn"]["properties"]["game"]
    assert "game" not in schemas["CreateTicTacToeIn"].get("required", [])
    assert game["description"].endswith('Default: `"tictactoe"`.')


def test_every_operation_has_summary_description_tags_and_problem_errors(
    spec: dict[str, Any],
) -> None:
    for path, method, operation in operations(spec):
        assert operation.get("summary"), (path, method)
        assert operation.get("description"), (path, method)
        assert operation.get("tags"), (path, method)
        for status, response in operation["responses"].items():
            if status.startswith(("4", "5")):
                content = response["content"]
                assert list(content) == ["application/problem+json"], (path, status)
                assert content["application/problem+json"]["schema"] == {
                    "$ref": "#/components/schemas/Problem"
                }


def _three_stones(client: TestClient, game: dict[str, Any]) -> int:
    """A swap2 game's first three stones (player 1's), after which player 2 chooses; in a game
    of another opening, player 1's first move (a choice then fails, as it must)."""
    for _ in range(3 if game.get("opening") else 1):
        cell = client.get(f"/v1/games/{game['id']}/legal-moves?limit=1").json()["moves"][0]
        token = game["tokens"]["1"]
        body = {"row": cell["row"], "col": cell["col"]}
        client.post(f"/v1/games/{game['id']}/moves", json=body,
                    headers={"Authorization": f"Bearer {token}"})  # fmt: skip
    return 2


def _first_move(client: TestClient, game: dict[str, Any]) -> int:
    """Player 1's first move, which it may then offer to take back."""
    cell = client.get(f"/v1/games/{game['id']}/legal-moves?limit=1").json()["moves"][0]
    client.post(f"/v1/games/{game['id']}/moves", json={"row": cell["row"], "col": cell["col"]},
                headers={"Authorization": f"Bearer {game['tokens']['1']}"})  # fmt: skip
    return 1


# What a game needs before an example of a route's body applies, as the docs' tour does it:
# the requests made first, and the player who then sends the example.
BEFORE = {
    "/v1/games/{game_id}/choice": _three_stones,
    "/v1/games/{game_id}/takeback-offer": _first_move,
}


def test_every_body_has_examples_the_service_accepts(
    spec: dict[str, Any], client: TestClient
) -> None:
    create = spec["paths"]["/v1/games"]["post"]["requestBody"]["content"]["application/json"]
    creation_examples = [example["value"] for example in create["examples"].values()]
    checked = 0
    for path, method, operation in operations(spec):
        body = operation.get("requestBody")
        if not body:
            continue
        examples = body["content"]["application/json"]["examples"]
        assert examples, path
        for example in examples.values():
            if "{game_id}" not in path:
                response = client.request(method.upper(), path, json=example["value"])
                assert response.status_code in (200, 201), (path, response.text)
            else:  # as in the docs: create a game, Authorize with its token; a game of a kind
                # the example is for (a move's examples are every kind's: a pass is renju's)
                answers = []
                for created in creation_examples:
                    game = client.post("/v1/games", json=created).json()
                    url = path.replace("{game_id}", game["id"])
                    player = BEFORE.get(path, lambda _, __: 1)(client, game)
                    headers = {"Authorization": f"Bearer {game['tokens'][str(player)]}"}
                    response = client.request(
                        method.upper(), url, json=example["value"], headers=headers
                    )
                    answers.append(response)
                    if response.status_code in (200, 201):
                        break
                assert answers[-1].status_code in (200, 201), (path, answers[0].text)
            checked += 1
    assert checked >= 4


def test_classic_examples_give_the_classic_answers(
    client: TestClient, spec: dict[str, Any]
) -> None:
    check = spec["paths"]["/v1/reversi/check-move"]["post"]["requestBody"]["content"]
    classic = check["application/json"]["examples"]["classic"]["value"]
    assert client.post("/v1/reversi/check-move", json=classic).json()["legal"] is True
    validate = spec["paths"]["/v1/tictactoe/validate"]["post"]["requestBody"]["content"]
    board = validate["application/json"]["examples"]["classic"]["value"]
    assert board == {"board": ["XOX", "O O", "XOX"]}


def request_examples(operation: dict[str, Any]) -> dict[str, Any]:
    body = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
    return {name: example["value"] for name, example in body.get("examples", {}).items()}


def answer_examples(operation: dict[str, Any]) -> dict[str, Any]:
    """The examples of an operation's success answer (Swagger UI makes one up from the schema
    for an answer without any, and such a one said "legal": true with "reason": "occupied")."""
    success = next(r for status, r in operation["responses"].items() if status in ("200", "201"))
    media = success.get("content", {}).get("application/json", {})
    return {name: example["value"] for name, example in media.get("examples", {}).items()}


def test_every_stateless_example_answer_is_the_answer_to_its_example_question(
    spec: dict[str, Any], client: TestClient
) -> None:
    checked = 0
    for path, method, operation in operations(spec):
        if not path.startswith(("/v1/reversi/", "/v1/tictactoe/")):
            continue
        asked, answered = request_examples(operation), answer_examples(operation)
        assert asked
        assert answered.keys() == asked.keys(), path  # an answer for each question, by name
        for name, question in asked.items():
            response = client.request(method.upper(), path, json=question)
            assert response.status_code == 200, (path, name, response.text)
            assert response.json() == answered[name], (path, name)
            checked += 1
    assert checked >= 9


def as_in(example: Any, game: dict[str, Any], created: dict[str, Any]) -> Any:
    """An example answer of the example game ``created``, with the id and tokens of ``game``."""
    text = json.dumps(example)
    for mine, theirs in (
        (created["id"], game["id"]),
        (created["tokens"]["1"], game["tokens"]["1"]),
        (created["tokens"]["2"], game["tokens"]["2"]),
    ):
        text = text.replace(mine, theirs)
    return json.loads(text)


def test_every_session_example_answer_is_the_services_own(
    spec: dict[str, Any], client: TestClient
) -> None:
    """A creation example answers each creation example, by name. The other game routes'
    examples are one game's: created by the first creation example, the first move example
    played by player 1; then player 2 offers a draw, or (in another such game) resigns."""
    paths = spec["paths"]
    create = paths["/v1/games"]["post"]
    asked, created = request_examples(create), answer_examples(create)
    assert created.keys() == asked.keys()
    for name, body in asked.items():
        game = client.post("/v1/games", json=body).json()
        assert timeless(game) == as_in(created[name], game, created[name]), name

    def the_only(path: str, method: str) -> Any:
        [example] = answer_examples(paths[path][method]).values()
        return example

    first_body, first_created = next(iter(asked.values())), next(iter(created.values()))
    move_path = "/v1/games/{game_id}/moves"
    first_move = next(iter(request_examples(paths[move_path]["post"]).values()))

    def game_after_the_first_move() -> tuple[dict[str, Any], str, dict[str, str]]:
        game = client.post("/v1/games", json=first_body).json()
        url = f"/v1/games/{game['id']}"
        mover = {"Authorization": f"Bearer {game['tokens']['1']}"}
        moved = client.post(f"{url}/moves", json=first_move, headers=mover)
        assert timeless(moved.json()) == as_in(the_only(move_path, "post"), game, first_created)
        return game, url, {"Authorization": f"Bearer {game['tokens']['2']}"}

    game, url, second = game_after_the_first_move()
    for path, read in (
        ("/v1/games/{game_id}", url),
        ("/v1/games/{game_id}/moves", f"{url}/moves"),
        ("/v1/games/{game_id}/moves/{seq}", f"{url}/moves/1"),
        ("/v1/games/{game_id}/board", f"{url}/board"),
    ):
        answer = timeless(client.get(read).json())
        assert answer == as_in(the_only(path, "get"), game, first_created), path
    offered = client.post(f"{url}/draw-offer", headers=second).json()
    expected = the_only("/v1/games/{game_id}/draw-offer", "post")
    assert timeless(offered) == as_in(expected, game, first_created)
    game, url, second = game_after_the_first_move()
    resigned = client.post(f"{url}/resign", headers=second).json()
    expected = the_only("/v1/games/{game_id}/resign", "post")
    assert timeless(resigned) == as_in(expected, game, first_created)


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_pages_load_their_assets_from_the_service(client: TestClient, page: str) -> None:
    html = client.get(page)
    assert html.status_code == 200
    urls = re.findall(r"""(?:src|href)=["']([^"']+)["']""", html.text)
    urls += re.findall(r"""url: ?["']([^"']+)["']""", html.text)
    assert urls
    for url in urls:
        assert url.startswith("/"), f"{page} loads {url} from outside the service"
        assert client.get(url).status_code == 200, url
    assert "//cdn" not in html.text
    assert "fonts.googleapis" not in html.text
    # No inline script, and a policy that would refuse one.
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html.text)
    policy = html.headers["content-security-policy"]
    script_src = next(d for d in policy.split(";") if d.strip().startswith("script-src"))
    assert "unsafe-inline" not in script_src


def test_the_description_names_every_kind_and_how_a_game_ends(spec: dict[str, Any]) -> None:
    """What /docs shows first: sessions of every kind the registry has (a new kind is named
    with nothing else to change), and the endings a referee decides."""
    sessions = next(
        item for item in spec["info"]["description"].split("\n* ") if "game sessions" in item
    )
    for kind in KINDS:
        assert kind.face.title in sessions, kind.name
    for ending in ("clocks", "resignation", "draw offers"):
        assert ending in sessions
    tag = next(tag for tag in spec["tags"] if tag["name"] == "Game sessions")
    for kind in KINDS:
        assert kind.face.title in tag["description"], kind.name


# A script that fetches from an address of its own: ``src: "https://…"`` (an image, a script).
FETCHED_FROM_ELSEWHERE = re.compile(r"""\bsrc\s*:\s*["'`]https?://[^"'`]*""")


@pytest.mark.parametrize("page", ["/docs", "/redoc"])
def test_docs_pages_and_their_scripts_reach_for_nothing_outside_the_service(
    client: TestClient, spec: dict[str, Any], page: str
) -> None:
    """Offline, anything from elsewhere fails: ReDoc's script used to show Redocly's logo from
    its CDN (the page's policy blocked it, with an error in the console)."""
    html = client.get(page).text
    assert re.findall(r"https?://[^\s\"'<>]+", html) == []
    scripts = re.findall(r"""<script src=["']([^"']+)["']""", html)
    assert scripts
    for script in scripts:
        served = client.get(script)
        found = FETCHED_FROM_ELSEWHERE.findall(served.text)
        assert found == [], f"{script} fetches {found}"
        again = client.get(script, headers={"If-None-Match": served.headers["etag"]})
        assert again.status_code == 304, script  # a browser's cached copy stays good
    assert re.findall(r"https?://[^\s\"')]+", json.dumps(spec["info"])) == []


# JSON Schema 2020-12 (core, applicator, validation, format, meta-data, content) and OpenAPI's
# schema extras: a key outside these is ignored by validators, generators and fuzzers alike.
SCHEMA_KEYWORDS = frozenset([
    "$ref", "$defs", "$schema", "$id", "$anchor", "$comment", "title", "description",
    "default", "examples", "example", "deprecated", "readOnly", "writeOnly", "type", "enum",
    "const", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
    "maxLength", "minLength", "pattern", "format", "maxItems", "minItems", "uniqueItems",
    "maxContains", "minContains", "maxProperties", "minProperties", "required",
    "dependentRequired", "properties", "patternProperties", "additionalProperties",
    "propertyNames", "unevaluatedProperties", "items", "prefixItems", "contains",
    "unevaluatedItems", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
    "dependentSchemas", "contentEncoding", "contentMediaType", "contentSchema", "discriminator",
    "xml", "externalDocs",
])  # fmt: skip
SUBSCHEMA_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")
SUBSCHEMA_LISTS = ("allOf", "anyOf", "oneOf", "prefixItems")
SUBSCHEMAS = (
    "items",
    "additionalProperties",
    "not",
    "contains",
    "if",
    "then",
    "else",
    "contentSchema",
)


def unknown_schema_keys(schema: Any, where: str) -> list[str]:
    if not isinstance(schema, dict):
        return []
    found = [f"{where}/{key}" for key in schema if key not in SCHEMA_KEYWORDS]
    for key in SUBSCHEMA_MAPS:
        for name, sub in schema.get(key, {}).items():
            found += unknown_schema_keys(sub, f"{where}/{key}/{name}")
    for key in SUBSCHEMA_LISTS:
        for i, sub in enumerate(schema.get(key, [])):
            found += unknown_schema_keys(sub, f"{where}/{key}/{i}")
    for key in SUBSCHEMAS:
        found += unknown_schema_keys(schema.get(key), f"{where}/{key}")
    return found


def schemas_in(node: Any, where: str = "") -> list[tuple[str, Any]]:
    """Every ``schema`` object under ``node`` (parameters, bodies, responses, headers)."""
    if isinstance(node, list):
        return [pair for i, item in enumerate(node) for pair in schemas_in(item, f"{where}/{i}")]
    if not isinstance(node, dict):
        return []
    pairs = [(f"{where}/schema", node["schema"])] if "schema" in node else []
    for key, value in node.items():
        if key != "schema":
            pairs += schemas_in(value, f"{where}/{key}")
    return pairs


def test_schemas_use_only_json_schema_keywords(spec: dict[str, Any]) -> None:
    found = [
        key
        for name, schema in spec["components"]["schemas"].items()
        for key in unknown_schema_keys(schema, f"components/schemas/{name}")
    ]
    found += [
        key
        for where, schema in schemas_in(spec["paths"])
        for key in unknown_schema_keys(schema, where)
    ]
    assert found == []


def test_every_error_response_has_an_example_of_each_code_it_answers(
    spec: dict[str, Any], client: TestClient
) -> None:
    for path, method, operation in operations(spec):
        for status, response in operation["responses"].items():
            if not status.startswith(("4", "5")):
                continue
            codes = re.findall(r"(?:^|\. )`([a-z_]+)`: ", response["description"])
            examples = response["content"]["application/problem+json"]["examples"]
            assert sorted(examples) == sorted(codes), (path, method, status)
            for code, example in examples.items():
                value = example["value"]
                assert (value["status"], value["code"]) == (int(status), code), (path, status)
                assert value["type"] == f"/problems/{code}"
                assert value["title"] == example["summary"]
                assert value["detail"]
                # The example is the code's own, as /problems/{code} describes it.
                described = client.get(f"/problems/{code}").json()
                assert value["title"] == described["title"]
                assert int(status) in described["statuses"]


def test_a_field_description_names_its_own_field(spec: dict[str, Any]) -> None:
    schemas = spec["components"]["schemas"]
    for name, schema in schemas.items():
        properties = schema.get("properties", {})
        if {"row", "col"} <= set(properties) and "description" in properties["row"]:
            row, col = properties["row"]["description"], properties["col"]["description"]
            assert row != col, name
            assert "row" in row, name
            assert "column" in col, name


def test_the_default_example_of_a_board_question_is_the_short_form(spec: dict[str, Any]) -> None:
    # Swagger UI fills in the first example: boards as strings, not lists of one-cell strings.
    for path, method, operation in operations(spec):
        body = operation.get("requestBody")
        if not body:
            continue
        first = next(iter(body["content"]["application/json"]["examples"].values()))["value"]
        board = first.get("board")
        if board is not None:
            assert all(isinstance(row, str) for row in board), (path, method)
