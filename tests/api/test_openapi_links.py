"""The spec's OpenAPI links work: following them from a real answer makes valid requests.

Each link's runtime expressions (``$response.body#/…``, ``$response.header.…``,
``$request.path.…``, also embedded as ``{…}``) are evaluated here against real answers, the
target request is sent, and its status is what the contract says for that point of a game.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
from fastapi.testclient import TestClient

EXPRESSION = re.compile(r"\{(\$[^}]+)\}")


def evaluate(expression: str, request: httpx.Request, response: httpx.Response) -> str:
    """A runtime expression's value (the subset of OpenAPI's grammar the spec uses)."""
    if "{" in expression:  # an expression embedded in a string
        return EXPRESSION.sub(lambda m: evaluate(m.group(1), request, response), expression)
    source, _, rest = expression.partition(".")
    if source == "$response" and rest.startswith("body#"):
        value: Any = response.json()
        for token in rest.removeprefix("body#/").split("/"):
            value = value[token]
        return str(value)
    if source == "$response" and rest.startswith("header."):
        return response.headers[rest.removeprefix("header.")]
    if source == "$request" and rest.startswith("path."):
        return request.extensions["path_params"][rest.removeprefix("path.")]
    raise AssertionError(f"unsupported expression {expression}")


def operations(spec: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """operationId → (method, path template)."""
    return {
        operation["operationId"]: (method.upper(), path)
        for path, item in spec["paths"].items()
        for method, operation in item.items()
    }


def follow(
    client: TestClient,
    spec: dict[str, Any],
    link: dict[str, Any],
    request: httpx.Request,
    response: httpx.Response,
    body: Any = None,
) -> httpx.Response:
    """Send the link's target request; ``body`` when the link leaves the body to the client."""
    method, path = operations(spec)[link["operationId"]]
    params: dict[str, dict[str, str]] = {"path": {}, "query": {}, "header": {}}
    for name, expression in link["parameters"].items():
        location, _, parameter = name.partition(".")
        params[location][parameter] = evaluate(expression, request, response)
    url = path.format(**params["path"])
    answer = client.request(
        method,
        url,
        params=params["query"],
        headers=params["header"],
        json=link.get("requestBody", body),
    )
    answer.request.extensions["path_params"] = params["path"]
    return answer


def links_of(spec: dict[str, Any], path: str, method: str) -> dict[str, Any]:
    links: dict[str, Any] = spec["paths"][path][method]["responses"]["201"]["links"]
    return links


def test_every_link_names_a_real_operation_and_its_parameters(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    ids = operations(spec)
    for path, method in (("/v1/games", "post"), ("/v1/games/{game_id}/moves", "post")):
        for name, link in links_of(spec, path, method).items():
            target_method, target_path = ids[link["operationId"]]
            target = spec["paths"][target_path][target_method.lower()]
            declared = {(p["in"], p["name"]) for p in target.get("parameters", [])}
            for parameter in link["parameters"]:
                location, _, parameter_name = parameter.partition(".")
                if (location, parameter_name) == ("header", "Authorization"):
                    assert target.get("security"), name  # the bearer token of the scheme
                else:
                    assert (location, parameter_name) in declared, (name, parameter)


def test_following_the_links_plays_a_game(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    created = client.post("/v1/games", json={"n": 1})  # 1 × 1: the first move wins
    assert created.status_code == 201
    from_created = links_of(spec, "/v1/games", "post")

    def step(name: str, body: Any = None) -> httpx.Response:
        return follow(client, spec, from_created[name], created.request, created, body)

    assert step("GetGame").status_code == 200
    assert step("GetGameIfChanged").status_code == 304
    assert step("ListMoves").json()["moves"] == []
    assert step("LegalMoves").json()["moves"] == [{"row": 0, "col": 0, "square": "a1"}]
    assert step("MoveAsPlayer2", {"row": 0, "col": 0}).json()["code"] == "not_your_turn"
    moved = step("MoveAsPlayer1IfUnchanged")
    assert moved.status_code == 201
    assert moved.json()["winner"] == 1
    assert step("MoveAsPlayer1IfUnchanged").json()["code"] == "precondition_failed"
    assert step("MoveAsPlayer1").json()["code"] == "game_over"
    assert step("GetGameIfChanged").status_code == 200  # it changed
    assert step("GetBoard").json()["rows"] == ["X"]
    events = step("Events")  # the game is over: the stream ends
    assert events.status_code == 200
    assert "event: end" in events.text

    from_move = links_of(spec, "/v1/games/{game_id}/moves", "post")
    results = {
        name: follow(client, spec, link, moved.request, moved) for name, link in from_move.items()
    }
    assert results["GetMove"].json() == moved.json()["move"]
    assert results["GetGameIfChanged"].status_code == 304
    assert results["MovesSince"].json()["moves"] == []
    # This move ended the game: following what comes after it is following nothing (204).
    assert (results["EventsSince"].status_code, results["EventsSince"].text) == (204, "")

    assert step("DeleteGame").status_code == 204
    assert step("GetGame").status_code == 404
