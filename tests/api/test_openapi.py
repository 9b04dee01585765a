"""The OpenAPI document: committed copy in sync, complete for people, docs pages offline."""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient
from openapi_spec_validator import validate
from openapi_spec_validator.validation import OpenAPIV31SpecValidator

from app.api.records import AUDIT_EXAMPLES
from app.api.resend import declare_resending
from app.kinds import KINDS
from app.main import create_app
from tests.conftest import shared_settings
from tests.timeless import timeless

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One app for the module's tests (``shared_settings``), with an archive: players live
    there, and their routes' examples are tried too."""
    archive = tmp_path_factory.mktemp("openapi") / "archive.sqlite3"
    app = create_app(shared_settings(archive_url=f"sqlite:///{archive}"))
    with TestClient(app, raise_server_exceptions=False) as shared:
        yield shared


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
# What a game must be created with for an example of a route's body to apply (a join's: a seat
# left free).
CREATED_WITH: dict[str, dict[str, Any]] = {"/v1/games/{game_id}/join": {"open": True}}


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
            if "{tournament_id}" in path:  # as in the docs: a tournament, its organiser's key,
                # and the player the example enters made (its id is the example's)
                organiser = client.post("/v1/players", json={"name": "Org"}).json()
                headers = {"Authorization": f"Bearer {organiser['key']}"}
                made = client.post(
                    "/v1/tournaments",
                    json={"name": "T", "system": "round_robin", "game": {"n": 3}},
                    headers=headers,
                ).json()
                entrant = client.post("/v1/players", json={"name": "P"}).json()
                value = {**example["value"], "player": entrant["id"]}
                url = path.replace("{tournament_id}", made["id"])
                response = client.request(method.upper(), url, json=value, headers=headers)
                assert response.status_code in (200, 201), (path, response.text)
            elif "{game_id}" not in path:  # a player's key where the route takes one
                keyed = any("PlayerKey" in choice for choice in operation.get("security", []))
                headers = {}
                if keyed and not any(choice == {} for choice in operation["security"]):
                    key = client.post("/v1/players", json={"name": "Org"}).json()["key"]
                    headers = {"Authorization": f"Bearer {key}"}
                value = example["value"]
                if "to" in value:  # a challenge: to a player the example made
                    value = {
                        **value,
                        "to": client.post("/v1/players", json={"name": "To"}).json()["id"],
                    }
                response = client.request(method.upper(), path, json=value, headers=headers)
                assert response.status_code in (200, 201), (path, response.text)
            else:  # as in the docs: create a game, Authorize with its token; a game of a kind
                # the example is for (a move's examples are every kind's: a pass is renju's)
                answers = []
                for created in creation_examples:
                    game = client.post("/v1/games", json=created | CREATED_WITH.get(path, {}))
                    game = game.json()
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


# --- what every tool reads alike: examples that fit, who may call, where, which branch ----------


def subschemas(schema: Any) -> list[Any]:
    """The schemas directly inside ``schema`` (properties, items, branches, …)."""
    if not isinstance(schema, dict):
        return []
    found = [schema.get(key) for key in SUBSCHEMAS]
    for key in SUBSCHEMA_MAPS:
        found += list(schema.get(key, {}).values())
    for key in SUBSCHEMA_LISTS:
        found += schema.get(key, [])
    return [sub for sub in found if isinstance(sub, dict)]


def schema_examples(schema: Any, where: str) -> list[tuple[str, Any, Any]]:
    """(where, example, schema) of every example a schema and the schemas inside it give."""
    if not isinstance(schema, dict):
        return []
    found = [(f"{where}/examples/{i}", value, schema)
             for i, value in enumerate(schema.get("examples", []))]  # fmt: skip
    if "example" in schema:
        found.append((f"{where}/example", schema["example"], schema))
    for sub in subschemas(schema):
        found += schema_examples(sub, f"{where}/…")
    return found


def described_examples(node: Any, where: str) -> list[tuple[str, Any, Any]]:
    """(where, example, schema) of the examples of a media type, a parameter or a header (and of
    its schema)."""
    schema = node.get("schema")
    if schema is None:
        return []
    found = schema_examples(schema, f"{where}/schema")
    for name, example in node.get("examples", {}).items():
        if "value" in example:
            found.append((f"{where}/examples/{name}", example["value"], schema))
    if "example" in node:
        found.append((f"{where}/example", node["example"], schema))
    return found


def every_example(spec: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    found = []
    for name, schema in spec["components"]["schemas"].items():
        found += schema_examples(schema, f"#/components/schemas/{name}")
    for path, method, operation in operations(spec):
        where = f"{method} {path}"
        for parameter in operation.get("parameters", []):
            found += described_examples(parameter, f"{where} {parameter['name']}")
        for media, content in operation.get("requestBody", {}).get("content", {}).items():
            found += described_examples(content, f"{where} body {media}")
        for status, response in operation["responses"].items():
            for media, content in response.get("content", {}).items():
                found += described_examples(content, f"{where} {status} {media}")
            for header, described in response.get("headers", {}).items():
                found += described_examples(described, f"{where} {status} {header}")
    return found


def test_every_example_in_the_document_fits_its_schema(spec: dict[str, Any]) -> None:
    """Request bodies, answers, parameters, headers and schemas: what a reader copies from the
    document, a validator (or Redocly's linter, or a generator's test data) finds right. The
    document's schemas are JSON Schema 2020-12 (OpenAPI 3.1), their $refs the document's."""
    examples = every_example(spec)
    components = {"components": spec["components"]}  # for the schemas' $refs
    wrong = [
        (where, error.message[:300])
        for where, value, schema in examples
        for error in jsonschema_rs.Draft202012Validator({**schema, **components}).iter_errors(value)
    ]
    assert wrong == []
    places = [where for where, _, _ in examples]
    assert any(where.startswith("#/components/schemas/") for where in places)
    assert any(" application/problem+json/examples/" in where for where in places)
    audit = "post /v1/records/audit body application/json/examples/"
    assert len([where for where in places if where.startswith(audit)]) == len(AUDIT_EXAMPLES)


def test_every_operation_says_who_may_call_it(spec: dict[str, Any], client: TestClient) -> None:
    """``security: []`` on a public operation, a bearer scheme on one that takes a token (``{}``
    among its choices where the token is optional); and the service agrees: a public one never
    answers 401 without a token, one that needs a player's answers 401 without it."""
    schemes = spec["components"]["securitySchemes"]
    public, needing = [], []
    for path, method, operation in operations(spec):
        assert "security" in operation, (method, path)
        security = operation["security"]
        for requirement in security:
            assert set(requirement) <= set(schemes), (method, path)
        url = re.sub(r"\{[^}]+\}", "1", path)  # no such game; a code no problem has
        if security == []:
            public.append((method, path))
            response = client.request(method.upper(), url, json={})
            assert response.status_code != 401, (method, path, response.text)
        elif {} not in security:
            needing.append((method, path))
            response = client.request(method.upper(), url, json={})
            assert response.status_code == 401, (method, path, response.text)
            assert response.json()["code"] == "unauthorized"
    assert ("post", "/v1/records/audit") in public
    assert ("post", "/v1/games/{game_id}/moves") in needing


def test_the_document_s_server_is_the_host_that_serves_it(spec: dict[str, Any]) -> None:
    """A relative URL: Swagger UI's "Try it out" and generated clients call the host the
    document came from (offline too), whatever its name and port."""
    assert spec["servers"]
    for server in spec["servers"]:
        assert server["url"].startswith("/"), server
        assert not server["url"].startswith("//"), server
        assert server["description"]


SCHEMAS = "#/components/schemas/"


def resolved(schema: Any, spec: dict[str, Any]) -> Any:
    while isinstance(schema, dict) and "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].removeprefix(SCHEMAS)]
    return schema


def value_kinds(schema: Any, spec: dict[str, Any]) -> tuple[frozenset[str], frozenset[str] | None]:
    """What a member's schema lets its value be, as far as it tells branches apart: its JSON
    types (empty: any; an integer is a number too) and, if it lists them, its only values
    (``const`` / ``enum``, as JSON)."""
    schema = resolved(schema, spec)
    branches = schema.get("anyOf", schema.get("oneOf"))
    if branches is not None:
        parts = [value_kinds(branch, spec) for branch in branches]
        types = frozenset[str]().union(*(types for types, _ in parts))
        listed = [values for _, values in parts]
        if any(not types for types, _ in parts):
            types = frozenset()
        if any(values is None for values in listed):
            return types, None
        return types, frozenset[str]().union(*(v for v in listed if v is not None))
    written = schema.get("type", [])
    types = frozenset([written] if isinstance(written, str) else written)
    if "number" in types:
        types |= {"integer"}
    if "const" in schema:
        return types, frozenset([json.dumps(schema["const"])])
    if "enum" in schema:
        return types, frozenset(json.dumps(value) for value in schema["enum"])
    return types, None


def told_apart(left: Any, right: Any, spec: dict[str, Any]) -> str | None:
    """Why no value fits both object schemas, or None if this cannot tell: a member one
    requires that the other does not take (it takes no member it does not name), or takes with
    values that cannot be the same."""
    for one, other in ((left, right), (right, left)):
        theirs = other.get("properties", {})
        for name in one.get("required", []):
            if name not in theirs:
                if other.get("additionalProperties") is False:
                    return f"{name}: required by one, not taken by the other"
                continue
            types, values = value_kinds(one["properties"][name], spec)
            other_types, other_values = value_kinds(theirs[name], spec)
            if types and other_types and not types & other_types:
                return f"{name}: {sorted(types)} in one, {sorted(other_types)} in the other"
            if values is not None and other_values is not None and not values & other_values:
                return f"{name}: {sorted(values)} in one, {sorted(other_values)} in the other"
            if lengths_apart(one["properties"][name], theirs[name], spec):
                return f"{name}: strings of lengths that do not meet"
    return None


def lengths_apart(one: Any, other: Any, spec: dict[str, Any]) -> bool:
    """Whether ``one`` takes only strings and ``other`` no string of a length ``one`` takes (a
    column's letter, one character, and a square's name, two at least)."""
    one = resolved(one, spec)
    if one.get("type") != "string":
        return False
    low, high = one.get("minLength", 0), one.get("maxLength", math.inf)
    other = resolved(other, spec)
    strings = [resolved(branch, spec) for branch in other.get("anyOf", other.get("oneOf", [other]))]
    strings = [branch for branch in strings if branch.get("type") in ("string", None)]
    return all(
        branch.get("type") == "string"
        and (branch.get("minLength", 0) > high or branch.get("maxLength", math.inf) < low)
        for branch in strings
    )


def one_ofs(node: Any, where: str = "") -> list[tuple[str, list[Any]]]:
    if isinstance(node, list):
        return [found for i, item in enumerate(node) for found in one_ofs(item, f"{where}/{i}")]
    if not isinstance(node, dict):
        return []
    found = [(where, node["oneOf"])] if isinstance(node.get("oneOf"), list) else []
    return found + [f for key, value in node.items() for f in one_ofs(value, f"{where}/{key}")]


def test_no_body_fits_two_branches_of_a_one_of(spec: dict[str, Any]) -> None:
    """A ``oneOf`` whose branches share a value makes that value fit none: each pair of
    branches is told apart by a member (the audit body's by its kind and by how it gives the
    moves: a list, a transcript, a record with its format)."""
    checked = 0
    for where, branches in one_ofs(spec):
        objects = [resolved(branch, spec) for branch in branches]
        for i, left in enumerate(objects):
            for right in objects[i + 1 :]:
                if left.get("type") != "object" or right.get("type") != "object":
                    continue
                reason = told_apart(left, right, spec)
                assert reason, (where, left.get("title"), right.get("title"))
                checked += 1
    audit = [branch["$ref"] for branch in spec["components"]["schemas"]["AuditIn"]["oneOf"]]
    # Each kind by moves and by transcript, and by record where it has a format.
    assert len(audit) == sum(2 + bool(kind.face.formats) for kind in KINDS)
    assert checked >= len(audit) * (len(audit) - 1) // 2


def test_the_package_the_document_and_the_clients_name_every_kind() -> None:
    """Reversi (Othello), tic-tac-toe and gomoku (renju is one of its rules), wherever the
    service says what it is."""
    root = SPEC_PATH.parents[1]
    committed = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    described = {
        "pyproject.toml": tomllib.loads((root / "pyproject.toml").read_text())["project"][
            "description"
        ],
        "clients/python/pyproject.toml": tomllib.loads(
            (root / "clients/python/pyproject.toml").read_text()
        )["project"]["description"],
        "clients/typescript/package.json": json.loads(
            (root / "clients/typescript/package.json").read_text()
        )["description"],
        "info.summary": committed["info"]["summary"],
        "info.description": committed["info"]["description"],
    }
    names = [kind.face.title for kind in KINDS] + ["Othello", "renju"]
    for where, text in described.items():
        for name in names:
            assert name.lower() in text.lower(), (where, name)


def test_every_operation_says_whether_a_client_may_send_it_again(spec: dict[str, Any]) -> None:
    rules = {operation["operationId"]: operation["x-resend"] for *_, operation in operations(spec)}
    assert set(rules.values()) == {"always", "unsent"}
    # Each send of these makes something anew (a game, a token) or is answered otherwise the
    # second time (a deletion): the clients send them again only when they never left.
    unsent = {name for name, rule in rules.items() if rule == "unsent"}
    assert unsent == {
        "createGame", "addSpectator", "deleteGame", "createPlayer", "createTournament",
        "enterPlayer", "withdrawPlayer", "pairRound", "createSeek", "withdrawSeek",
        "createChallenge", "acceptChallenge", "declineChallenge", "withdrawChallenge",
    }  # fmt: skip


def test_the_document_says_how_a_client_sends_a_request_again(spec: dict[str, Any]) -> None:
    policy = spec["x-retry"]
    assert policy["attempts"] > 1
    assert policy["backoff_seconds"] > 0
    # The service's 503s (capacity, a store away) say when to come back; a client waits that
    # long if it is short.
    assert policy["statuses"] == [503]
    assert policy["max_retry_after_seconds"] > 0


def test_reads_and_requests_under_an_idempotency_key_may_be_sent_again_unsaid() -> None:
    keyed = {"parameters": [{"in": "header", "name": "Idempotency-Key"}]}
    document: dict[str, Any] = {"paths": {"/a": {"get": {}, "post": keyed}}}
    declare_resending(document)
    assert document["paths"]["/a"] == {
        "get": {"x-resend": "always"},
        "post": {**keyed, "x-resend": "always"},
    }


def test_a_route_that_does_not_say_whether_to_send_it_again_is_refused() -> None:
    document: dict[str, Any] = {
        "paths": {"/a": {"post": {}, "delete": {"x-resend": "unsent"}}, "/b": {"put": {}}}
    }
    with pytest.raises(ValueError, match=r"\['POST /a', 'PUT /b'\]"):
        declare_resending(document)
