"""Assertions about problem+json answers, shared by the API tests."""

from __future__ import annotations

from typing import Any

import httpx2


def assert_problem(response: httpx2.Response, status: int, code: str) -> dict[str, Any]:
    """The response is an RFC 9457 problem with this status and code; returns its body."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/problem+json"
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert body["code"] == code
    assert body["type"] == f"/problems/{code}"
    assert isinstance(body["title"], str)
    assert body["title"]
    assert isinstance(body["detail"], str)
    assert body["detail"]
    return body


def assert_validation_error(response: httpx2.Response, *loc: str | int) -> dict[str, Any]:
    """A 422 validation_error whose ``errors`` name the field at ``loc``."""
    body = assert_problem(response, 422, "validation_error")
    locs = [tuple(error["loc"]) for error in body["errors"]]
    assert tuple(loc) in locs, locs
    for error in body["errors"]:
        assert error["msg"]
        assert error["type"]
    return body
