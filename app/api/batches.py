"""A batch's answer as one array: ``{"results": [...]}`` written from its questions, each
distinct question answered and rendered once, in slices charged to its client.

A batch asks many questions of one board (``check-moves``: at most rows × cols × 2 distinct ones,
128 on 8 × 8, however many queries it holds) or of many positions (``validate-batch``). Each
distinct question's answer is rendered to JSON once (``pydantic_core.to_json``, as every answer
is; or as the route writes it, the same bytes: a Reversi board's two answers of an illegal move
written once) and the array is joined from the rendered bytes: a question asked again costs a dict
lookup, and the answer is, byte for byte, what rendering the whole list at once writes.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import TypeVar

from pydantic_core import to_json
from starlette.responses import Response

from app.api.work import Meter, in_slices
from app.records.steps import Steps

K = TypeVar("K", bound=Hashable)

_OPEN, _SEPARATOR, _CLOSE = b'{"results":[', b",", b"]}"


def results(asked: Iterable[K], render: Callable[[K], bytes]) -> Steps[bytes]:
    """``{"results": [answer(question) for question in asked]}`` as JSON, each answer as
    ``render`` writes it (``rendered``), a step a distinct question (one asked again is no
    step: it costs a lookup)."""
    written: dict[K, bytes] = {}
    parts: list[bytes] = []
    for question in asked:
        part = written.get(question)
        if part is None:
            part = written[question] = render(question)
            yield
        parts.append(part)
    return _OPEN + _SEPARATOR.join(parts) + _CLOSE


def rendered(answer: Callable[[K], object]) -> Callable[[K], bytes]:
    """``answer``'s answers rendered to JSON, as every answer is."""
    return lambda question: to_json(answer(question))


async def results_response(
    asked: Iterable[K], render: Callable[[K], bytes], meter: Meter
) -> Response:
    """The 200 answer of a batch: ``results`` of its questions, in slices (``in_slices``)."""
    body = await in_slices(results(asked, render), meter)
    return Response(body, media_type="application/json")
