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
import re
from _json import encode_basestring, make_encoder
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


def _not_json(value: object) -> Any:
    raise TypeError(f"{type(value).__name__} is not a JSON value")


# The standard library's encoder, in C, made once (``json.dumps`` makes one a call): object
# members sorted, no whitespace, strings as ``json.dumps(ensure_ascii=False)`` writes them (as
# the general writer does), NaN and infinities refused, anything but dicts, lists, tuples,
# strings, numbers, booleans and null refused (``_not_json``). No check for cycles: a value that
# holds itself is a RecursionError, as in the general writer.
_ENCODE = make_encoder(None, _not_json, encode_basestring, None, ":", ",", True, False, False)


def canonical_json(value: Any) -> bytes:
    """``value`` (JSON types only: dict with str keys, list/tuple, str, int, float, bool, None)
    as canonical JSON bytes; anything else, or a non-finite number, is a ``ValueError``.

    The values records hold are written by the standard library's encoder, in C
    (``_ENCODE``), and its text is kept where it is provably what RFC 8785 writes
    (``_canonical_as_written``): no float ECMAScript writes otherwise, every object
    member named by a string, no character beyond the Basic Multilingual Plane (sorting names by
    code points is then sorting them by UTF-16 code units). Integers, strings, booleans and null
    are written alike by both. Anything else goes the slow, general way (``_write``), which also
    says why a value is not JSON."""
    try:
        text = "".join(_ENCODE(value, 0))
    except (TypeError, ValueError):  # not JSON to the encoder: the general writer says why
        return "".join(_write(value)).encode("utf-8")
    if _canonical_as_written(value, text):
        return text.encode("utf-8")
    return "".join(_write(value)).encode("utf-8")


_WHOLE = re.compile(r"\.0(?![0-9])")  # a whole float as Python writes it: 4.0, -0.0
_BEYOND_BMP = re.compile("[\U00010000-\U0010ffff]")  # looked for in C (``max``: a char a step)


def _canonical_as_written(value: Any, text: str) -> bool:
    """Whether ``text``, ``value`` as ``_ENCODE`` wrote it, is its canonical JSON.

    Looked at in the text, in C, where it can be, and cautiously (a string holding the text
    looked for sends its value the general way, which writes the same): a float is written by
    Python as the shortest digits that read back as it — as ECMAScript writes it — with a signed
    exponent outside 1e-4 to 1e16 (``1e+16``, ``5e-324``: ECMAScript writes ``1e-7`` and
    ``10000000000000000``), within it with a ``.`` (``4.5``, as ECMAScript), and ``.0`` when it
    is whole (``4.0``, ``-0.0``: ECMAScript writes ``4``, ``0``), so a text with no signed
    exponent and no ``.0`` but before a digit has no float ECMAScript writes otherwise (a
    tournament's standings are half points); a character beyond the Basic Multilingual Plane is
    one whose code point order and UTF-16 order may differ; and an object member named by an
    integer, a boolean or null (written as a string by the encoder, refused by RFC 8785) can
    only be in an object, each of which writes a ``{``: with none, there is none to look at,
    with one, it is ``value``'s own, and only with more are the objects walked in Python
    (``_named_by_strings``)."""
    if "e+" in text or "e-" in text or ("." in text and _WHOLE.search(text)):
        return False
    if not text.isascii() and _BEYOND_BMP.search(text):
        return False
    objects = text.count("{")
    if objects == 0:
        return True
    if objects == 1 and type(value) is dict:
        return _names_are_strings(value)
    return not isinstance(value, _CONTAINERS) or _named_by_strings(value)


def _names_are_strings(members: dict[Any, Any]) -> bool:
    """Whether each of an object's members is named by a string (joining the names, in C,
    fails on any other)."""
    try:
        "".join(members)
    except TypeError:
        return False
    return True


_CONTAINERS = (dict, list, tuple)  # as the encoder takes them: subclasses too


def _named_by_strings(value: Any) -> bool:
    """Whether every object in ``value`` names its members by strings (``value`` as the
    encoder wrote it: no deeper than Python recurses, holding no cycle)."""
    # Containers to look in on a list, not a call each (a 500-player tournament's document is
    # 6,000 objects); a leaf costs one isinstance (states hold lists of numbers and names).
    waiting = [value]
    while waiting:
        container = waiting.pop()
        if isinstance(container, dict):
            if not _names_are_strings(container):
                return False
            items: Iterable[Any] = container.values()
        else:
            items = container
        waiting += [item for item in items if isinstance(item, _CONTAINERS)]
    return True


def _write(value: Any) -> Iterable[str]:
    if value is None:
        yield "null"
    elif value is True:
        yield "true"
    elif value is False:
        yield "false"
    elif isinstance(value, int):
        yield int.__repr__(value)  # the number, as the standard library's encoder writes it
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

    def add_written(self, written: Iterable[bytes]) -> None:
        """Chain the next move records, given as their canonical JSON."""
        digest, sha256 = self._digest, hashlib.sha256
        for record in written:
            digest = sha256(digest + record).digest()
        self._digest = digest

    def hex(self) -> str:
        """The last hash, lower-case hex."""
        return self._digest.hex()


def chain(params: Mapping[str, Any], moves: Iterable[Mapping[str, Any]]) -> str:
    """The hash chain of a record: its creation parameters, then each move record in order."""
    chained = Chain(params)
    for move in moves:
        chained.add(move)
    return chained.hex()
