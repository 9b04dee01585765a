"""A problem answer of the service (RFC 9457) as an exception: ``ProblemError``, the base of the
class of every problem code (``_schema``, generated from the service's document)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar


class ProblemError(Exception):
    """An answer of the service that is a problem (RFC 9457): ``code`` is stable, branch on it
    (or catch its class); ``body`` is the whole answer."""

    code: str = ""  # the class's code; an instance of this class itself takes its body's
    statuses: ClassVar[tuple[int, ...]] = ()  # the statuses the code is answered with

    def __init__(self, status: int, body: Mapping[str, Any], headers: Mapping[str, str]):
        self.status = status
        self.body = dict(body)
        self.title = str(body.get("title", ""))
        self.detail = str(body.get("detail", ""))
        self.headers = {name.lower(): value for name, value in headers.items()}
        if not self.code:  # a code this client has no class of (a kind it was not made for)
            self.code = str(self.body.get("code", ""))
        super().__init__(f"{status} {self.body.get('code', '')}: {self.detail or self.title}")

    @property
    def retry_after(self) -> float | None:
        """The seconds ``Retry-After`` asks to wait, if the answer has one."""
        value = self.headers.get("retry-after", "")
        return float(value) if value.isdigit() else None
