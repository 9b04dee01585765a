"""What both clients do alike around their input and output: when a call is sent again
(``Sending``), and an operation's function bound as a method that sends its call
(``sent``, ``awaited``).

The clients (``AsyncClient``, and ``Client`` generated from it) only send, read and wait, each
in its own way; the policy is here, once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Concatenate, Generic, ParamSpec, Protocol, TypeVar

import httpx

from adjudicator_client._operations import UNSENT, Call, Retries

T = TypeVar("T")
P = ParamSpec("P")


class Sending(Generic[T]):
    """One call's sends: after each one, whether to send again (and after how long), or the
    answer."""

    def __init__(self, call: Call[T], retries: Retries) -> None:
        self.call, self.retries, self.attempt = call, retries, 0

    def request(self, http: httpx.Client | httpx.AsyncClient) -> httpx.Request:
        self.attempt += 1
        return self.call.request(http)

    def failed(self, error: httpx.TransportError) -> float:
        """The wait before the next send after a connection error; raises it if none."""
        resendable = self.call.resend == "always" or isinstance(error, UNSENT)
        wait = self.retries.wait(self.attempt, None) if resendable else None
        if wait is None:
            raise error
        return wait

    def answered(self, response: httpx.Response) -> float | None:
        """The wait before the next send after this answer, or None: it is the answer."""
        if self.call.resend != "always":
            return None
        return self.retries.wait(self.attempt, response)


class Sends(Protocol):
    """A client that sends a call and answers its answer: ``Client``."""

    def send(self, call: Call[T], /) -> T: ...


class AwaitsSends(Protocol):
    """A client that sends a call and awaits its answer: ``AsyncClient``."""

    def send(self, call: Call[T], /) -> Awaitable[T]: ...


S = TypeVar("S", bound=Sends)
A = TypeVar("A", bound=AwaitsSends)


def sent(build: Callable[P, Call[T]]) -> Callable[Concatenate[S, P], T]:
    """The operation ``build`` as a method of a client: it sends the call built."""

    def method(self: S, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self.send(build(*args, **kwargs))

    method.__name__, method.__doc__ = build.__name__, build.__doc__
    return method


def awaited(build: Callable[P, Call[T]]) -> Callable[Concatenate[A, P], Awaitable[T]]:
    """The operation ``build`` as a method of an async client: it sends the call built."""

    async def method(self: A, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self.send(build(*args, **kwargs))

    method.__name__, method.__doc__ = build.__name__, build.__doc__
    return method
