"""What a test compares when time is not its subject: an answer without the instants the
service stamps on it (``at`` on every state and move record, ``spent_ms`` on a clocked game's
move records), at any depth."""

from __future__ import annotations

from typing import Any

from app.contract.render import MOVE_TIMES


def timeless(value: Any) -> Any:
    """``value`` (a JSON document) without its times."""
    if isinstance(value, dict):
        return {key: timeless(item) for key, item in value.items() if key not in MOVE_TIMES}
    if isinstance(value, list):
        return [timeless(item) for item in value]
    return value
