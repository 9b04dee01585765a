"""Canonical JSON (RFC 8785, the JSON Canonicalization Scheme) and the hash chain of a record.

Anyone can recompute both from a record, in any language: canonical JSON is UTF-8 with no
insignificant whitespace, object members sorted by their names' UTF-16 code units, strings
escaped as ECMAScript's ``JSON.stringify`` escapes them, and numbers written as ECMAScript writes
them (``1.0`` is ``1``, ``1e21`` is ``1e+21``). The chain of a record is ``h0 = SHA-256(canonical
creation parameters)``, ``h_i = SHA-256(h_{i-1} ‖ canonical move record i)`` (``h_{i-1}`` as its
32 bytes), written as the last hash in lower-case hex. A signed document is read back by
``read_json``: JSON and nothing more, each object's members named once.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import Any


class DuplicateMember(ValueError):
    """A JSON object that names a member twice: which one it means would be a guess."""


def _one_of_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for name, value in pairs:
        if name in found:
            raise DuplicateMember(
                f"the document names {json.dumps(name)[:80]} twice in one object: which one "
                "counts would be a guess"
            )
        found[name] = value
    return found


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def read_json(data: bytes) -> Any:
    """A JSON text (UTF-8) read as RFC 8259 defines JSON and no further: ``DuplicateMember`` for
    an object that names a member twice, anywhere in it (Python's reader would keep the last,
    another reader the first: a signed document must mean one thing to every reader), and a
    ``ValueError`` for anything else that is not JSON (``NaN``, ``Infinity``, a BOM, text that
    is not UTF-8)."""
    try:
        return json.loads(
            data.decode("utf-8"), object_pairs_hook=_one_of_each, parse_constant=_no_constant
        )
    except RecursionError:  # the reader recurses once a level: a file may nest past its stack
        raise ValueError("it nests deeper than a reader follows") from None


def canonical_json(value: Any) -> bytes:
    """``value`` (JSON types only: dict with str keys, list/tuple, str, int, float, bool, None)
    as canonical JSON bytes; anything else, or a non-finite number, is a ``ValueError``.

    A value without floats whose object members are named in ASCII (every record the service
    writes) is written by the standard library's encoder, in C: for it, sorting names by code
    points is sorting them by UTF-16 code units, and integers, strings, booleans and null are
    written as RFC 8785 writes them. Anything else goes the slow, general way (``_write``)."""
    if _plain(value):
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return text.encode("utf-8")
    return "".join(_write(value)).encode("utf-8")


def _plain(value: Any) -> bool:
    """Whether ``value`` holds only dicts named in ASCII, lists, tuples, strings, integers,
    booleans and null."""
    pending = [value]
    while pending:
        item = pending.pop()
        kind = type(item)
        if kind is dict:
            if not all(type(name) is str and name.isascii() for name in item):
                return False
            pending.extend(item.values())
        elif kind is list or kind is tuple:
            pending.extend(item)
        elif not (kind is str or kind is int or kind is bool or item is None):
            return False  # a float, a subclass, anything else: the general writer decides
    return True


def _write(value: Any) -> Iterable[str]:
    if value is None:
        yield "null"
    elif value is True:
        yield "true"
    elif value is False:
        yield "false"
    elif isinstance(value, int):
        yield str(value)
    elif isinstance(value, float):
        yield number(value)
    elif isinstance(value, str):
        yield json.dumps(value, ensure_ascii=False)  # ECMAScript's escapes, for valid text
    elif isinstance(value, Mapping):
        if not all(isinstance(key, str) for key in value):
            raise ValueError("object member names must be strings")
        yield "{"
        for i, key in enumerate(sorted(value, key=lambda k: k.encode("utf-16-be"))):
            if i:
                yield ","
            yield json.dumps(key, ensure_ascii=False)
            yield ":"
            yield from _write(value[key])
        yield "}"
    elif isinstance(value, list | tuple):
        yield "["
        for i, item in enumerate(value):
            if i:
                yield ","
            yield from _write(item)
        yield "]"
    else:
        raise ValueError(f"{type(value).__name__} is not a JSON value")


def number(x: float) -> str:
    """A double as ECMAScript's ``Number.prototype.toString`` writes it (RFC 8785, 3.2.2.3)."""
    if not math.isfinite(x):
        raise ValueError("NaN and infinities are not JSON numbers")
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    shortest = Decimal(repr(abs(x))).normalize()  # the shortest digits that read back as x
    parts = shortest.as_tuple()
    digits = "".join(map(str, parts.digits))
    assert isinstance(parts.exponent, int)
    k, n = len(digits), len(digits) + parts.exponent  # x = 0.digits × 10^n
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = f"{digits[:n]}.{digits[n:]}"
    elif -6 < n <= 0:
        text = f"0.{'0' * -n}{digits}"
    else:
        e = n - 1
        mantissa = digits if k == 1 else f"{digits[0]}.{digits[1:]}"
        text = f"{mantissa}e{'+' if e > 0 else '-'}{abs(e)}"
    return sign + text


def canonical_object(members: Mapping[str, Any], written: Mapping[str, bytes]) -> bytes:
    """The canonical JSON of an object of ``members``, those named in ``written`` given already
    written as canonical JSON (a long record's moves, written a move at a time as its chain is
    made): the bytes ``canonical_json(members)`` would be, without writing those again."""
    names = sorted(members, key=lambda name: name.encode("utf-16-be"))
    parts = (
        canonical_json(name) + b":" + (written[name] if name in written else canonical_json(value))
        for name in names
        for value in (members[name],)
    )
    return b"{" + b",".join(parts) + b"}"


def canonical_array(items: Iterable[bytes]) -> bytes:
    """The canonical JSON of an array whose items are given written as canonical JSON."""
    return b"[" + b",".join(items) + b"]"


class Chain:
    """A record's hash chain, made a move at a time: ``add`` each move record in order, then
    ``hex``."""

    __slots__ = ("_digest",)

    def __init__(self, params: Mapping[str, Any]) -> None:
        self._digest = hashlib.sha256(canonical_json(params)).digest()

    def add(self, move: Mapping[str, Any]) -> bytes:
        """Chain the next move record; answers its canonical JSON (which a signature of the
        record's moves may reuse: ``canonical_object``)."""
        written = canonical_json(move)
        self._digest = hashlib.sha256(self._digest + written).digest()
        return written

    def hex(self) -> str:
        """The last hash, lower-case hex."""
        return self._digest.hex()


def chain(params: Mapping[str, Any], moves: Iterable[Mapping[str, Any]]) -> str:
    """The hash chain of a record: its creation parameters, then each move record in order."""
    chained = Chain(params)
    for move in moves:
        chained.add(move)
    return chained.hex()
