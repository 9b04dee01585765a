"""Text records as their readers see them: bytes decoded as UTF-8, and a place named by line and
column.

A text record (a transcript, a GGF game) may come as ``str`` (a JSON string) or as ``bytes`` (a
file, a raw body). Bytes must be UTF-8; a leading byte-order mark is skipped, as editors on
Windows write one. A place is a 0-based index into the text, named for people as a 1-based line
and column (a column counts characters, not bytes); it is computed only when a reader refuses.
"""

from __future__ import annotations

from app.records.errors import RecordError

BOM = "\ufeff"


def decode(data: str | bytes) -> str:
    """``data`` as text: ``str`` as it is (RecordError, by line and column, for a lone
    surrogate, which no UTF-8 text holds), ``bytes`` as UTF-8 (RecordError naming the line,
    column and byte of the first byte that is not), without a leading byte-order mark."""
    if isinstance(data, str):
        try:
            data.encode("utf-8")
        except UnicodeEncodeError as error:  # a lone surrogate: no UTF-8 text holds one
            raise RecordError(
                f"character {error.start} (U+{ord(data[error.start]):04X}) is half of a UTF-16 "
                "pair: a record is Unicode text",
                **place(data, error.start),
            ) from None
        return data.removeprefix(BOM)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        # The bytes before the bad one are valid UTF-8: they say which line and column it is on.
        before = data[: error.start].decode("utf-8").removeprefix(BOM)
        raise RecordError(
            f"byte {error.start} is not UTF-8 (0x{data[error.start]:02x}): a record is UTF-8 text",
            **place(before, len(before)),
            byte=error.start,
        ) from None
    return text.removeprefix(BOM)


def place(text: str, index: int) -> dict[str, int]:
    """Where ``text[index]`` is (or the end of ``text``, for ``index == len(text)``): its
    1-based ``line`` and ``column``. Lines end at ``\\n`` (a ``\\r`` before it is the line's)."""
    start = text.rfind("\n", 0, index) + 1
    return {"line": text.count("\n", 0, index) + 1, "column": index - start + 1}
