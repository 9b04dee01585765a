"""Finished games' records as answered, kept so that reading one again costs no rebuild.

Writing a long game's record (``GET /v1/games/{id}/record``) replays nothing but renders every
move, chains them and signs the whole: a tenth of a second for ten thousand moves. A finished
game changes no more, but for a rematch offer, which changes its version (and its ETag) like any
change; and the record of a game at one version, in one format, is the same bytes whenever it is
written (its state is the game's at that version, without time; an Ed25519 signature is
deterministic, and the key is the process's). So each is written once and kept, by game id,
version and format — the bytes answered, or why the format cannot write the game — in this
process: with Redis, each process writes a record at most once and nothing is added to the
store. At most ``record_cache_bytes`` are kept, the least recently read dropped first. A game
that is gone is refused (404) before its kept record is looked for, and its record falls out
in its turn.
"""

from __future__ import annotations

from collections import OrderedDict

from app.records.written import WrittenRecord

# What an entry costs beyond its bytes (its key, the objects that hold it), roughly.
ENTRY_BYTES = 256

Key = tuple[str, int, str]  # game id, version, format


def size(written: WrittenRecord) -> int:
    """What keeping ``written`` costs, in bytes: its own, and ``ENTRY_BYTES``."""
    return len(written.body) + len(written.refused or "") + ENTRY_BYTES


class KeptRecords:
    """Written records of finished games, at most ``max_bytes`` of them (0: none kept)."""

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._kept: OrderedDict[Key, WrittenRecord] = OrderedDict()
        self._bytes = 0

    def get(self, game_id: str, version: int, format: str) -> WrittenRecord | None:
        key = (game_id, version, format)
        written = self._kept.get(key)
        if written is not None:
            self._kept.move_to_end(key)
        return written

    def keep(self, game_id: str, version: int, format: str, written: WrittenRecord) -> None:
        """Keep ``written``, dropping the least recently read to make room (a record larger
        than all the room is not kept)."""
        if size(written) > self.max_bytes:
            return
        key = (game_id, version, format)
        replaced = self._kept.pop(key, None)
        if replaced is not None:
            self._bytes -= size(replaced)
        while self._kept and self._bytes + size(written) > self.max_bytes:
            _, dropped = self._kept.popitem(last=False)
            self._bytes -= size(dropped)
        self._kept[key] = written
        self._bytes += size(written)

    @property
    def bytes(self) -> int:
        """What is kept now, in bytes (``size`` each)."""
        return self._bytes
