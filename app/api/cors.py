"""Cross-origin requests from browsers (``ADJUDICATOR_CORS_ORIGINS``): what a page on another
origin may send, what it may read of the answers, and a refused preflight as problem+json.

A frontend reads ``Date`` to correct its clock countdowns, ``ETag`` to poll, ``Location`` after
a creation or a move, ``Retry-After`` after a 429 or 503: a browser hides every answer header
but a few unless it is listed in ``Access-Control-Expose-Headers``.
"""

from __future__ import annotations

from fastapi import FastAPI
from starlette.datastructures import Headers
from starlette.middleware.cors import CORSMiddleware
from starlette.responses import Response

from app.api.problems import problem_response
from app.contract.problems import CORS_REFUSED

METHODS = ("GET", "POST", "DELETE")
REQUEST_HEADERS = (
    "Authorization", "Content-Type", "Idempotency-Key", "If-Match", "If-None-Match",
    "Last-Event-ID", "X-Request-ID",
)  # fmt: skip
EXPOSED_HEADERS = ("Date", "ETag", "Location", "Retry-After", "X-Request-ID", "Idempotent-Replayed")


class ProblemCORSMiddleware(CORSMiddleware):
    """Starlette's CORS, but a refused preflight is a problem (``cors_refused``), not text."""

    def preflight_response(self, request_headers: Headers) -> Response:
        answer = super().preflight_response(request_headers)
        if answer.status_code != CORS_REFUSED.status:
            return answer
        kept = {
            name: value
            for name, value in answer.headers.items()
            if name not in ("content-length", "content-type")
        }
        return problem_response(CORS_REFUSED, bytes(answer.body).decode(), headers=kept)


def allow_origins(app: FastAPI, origins: list[str]) -> None:
    """Let pages of ``origins`` call the API (nothing to do for none)."""
    if origins:
        app.add_middleware(
            ProblemCORSMiddleware,
            allow_origins=origins,
            allow_methods=list(METHODS),
            allow_headers=list(REQUEST_HEADERS),
            expose_headers=list(EXPOSED_HEADERS),
        )
